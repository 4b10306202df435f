//! A game left at every kind of moment (the blind-nil question, a bid, the
//! exchange, mid-trick, a hand's summary, game over) and taken up again
//! from its save shows the player exactly what they left.

use spades::engine::{Decision, Mode, Phase};
use spades::save::{self, Saved};
use spades::tui::app::Screen;
use spades::tui::{App, Theme};
use support::game::short;
use support::tui::{app, chars, config, play_until, press, screen_text, tick};

/// A game saving and recording into `dir`, where blind nil may be bid at
/// any score so that the exchange comes up.
fn game(dir: &tempfile::TempDir) -> App {
    let mut rules = short(Mode::Partnership, 400);
    rules = rules
        .with(|r| r.blind_nil.min_deficit = 0)
        .expect("valid rules");
    app({
        let mut config = config(Mode::Partnership, 5);
        config.game.records = Some(dir.path().join("records"));
        config.game.saves = Some(dir.path().join("saves"));
        config.game.rules = rules;
        config
    })
}

/// The games waiting in `dir`.
fn waiting(dir: &tempfile::TempDir) -> Vec<Saved> {
    let (saved, set_aside) = save::waiting(&dir.path().join("saves"));
    assert!(set_aside.is_empty(), "{set_aside:?}");
    saved
}

/// Leaves the game as the program does when it ends, and takes it up
/// again from the save alone; checks the player sees what they left.
fn leave_and_resume(dir: &tempfile::TempDir, mut left: App) -> App {
    let view = left.view();
    let screen = left.screen();
    let turn = left.human_turn().map(|t| t.decision);
    let text = screen_text(&mut left, 100, 30);
    let played = left.close();
    assert!(played.saved.is_some(), "the game is kept");
    drop(left);

    let saved = waiting(dir);
    assert_eq!(saved.len(), 1);
    // The record goes on in the session's records folder, named by the
    // game's id, as the program's own session gives it.
    let mut session = config(Mode::Partnership, 99);
    session.game.records = Some(dir.path().join("records"));
    let mut resumed = App::resume(session, Theme::PLAIN, &saved[0]).expect("the save resumes");
    tick(&mut resumed);
    assert_eq!(resumed.view(), view);
    assert_eq!(resumed.screen(), screen);
    assert_eq!(resumed.human_turn().map(|t| t.decision), turn);
    assert_eq!(screen_text(&mut resumed, 100, 30), text);
    resumed
}

fn until_asked(app: &mut App, decision: Decision) {
    play_until(app, |a| {
        a.human_turn().map(|t| t.decision) == Some(decision)
    });
}

#[test]
fn left_at_each_kind_of_moment_it_resumes_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = game(&dir);

    until_asked(&mut app, Decision::BlindNil);
    let mut app = leave_and_resume(&dir, app);

    // Blind nil, so the exchange comes up.
    chars(&mut app, "b");
    until_asked(&mut app, Decision::Exchange);
    let mut app = leave_and_resume(&dir, app);

    let count = app.view().exchange.map_or(0, |e| e.count);
    for i in 0..count {
        chars(&mut app, &(i + 1).to_string());
    }
    press(&mut app, &[spades::tui::Key::Enter]);

    // A trick others have begun.
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Play)
            && a.view().play.trick.iter().any(Option::is_some)
    });
    let mut app = leave_and_resume(&dir, app);

    // A bid in the next hand, after a look at the cards.
    play_until(&mut app, |a| {
        a.view().hand_no == 2 && a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
    });
    let mut app = leave_and_resume(&dir, app);

    // The summary of a hand, waiting to be read.
    play_until(&mut app, |a| a.screen() == Screen::Summary);
    let mut app = leave_and_resume(&dir, app);

    // The end of the game: nothing is left to resume, and the record,
    // written on across every leaving, proves the game.
    play_until(&mut app, |a| a.screen() == Screen::GameOver);
    assert_eq!(app.view().phase, Phase::Over);
    let played = app.close();
    assert!(played.saved.is_none(), "a finished game is not kept");
    assert!(waiting(&dir).is_empty(), "nothing waits");
    let record = played.records.last().expect("a record");
    let text = std::fs::read_to_string(record).unwrap();
    let verdicts = spades::verify::verify(&text).expect("a record that reads");
    assert_eq!(verdicts.len(), 1);
    assert!(verdicts[0].is_verified(), "{verdicts:?}");
}

/// Two games left waiting: `resume --list` shows both, newest first;
/// `resume ID` with too little of an id, or one that names nothing, is
/// refused with exit 2; `resume --abandon ID` gives up the one named.
#[test]
fn waiting_games_are_listed_named_and_given_up_by_id() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data/spades");
    let mut ids = Vec::new();
    for seed in [31, 32] {
        let mut left = app({
            let mut config = config(Mode::Partnership, seed);
            config.game.records = Some(data.join("records"));
            config.game.saves = Some(data.join("saves"));
            config
        });
        until_asked(&mut left, Decision::Play);
        assert!(left.close().saved.is_some());
        let (saved, _) = save::waiting(&data.join("saves"));
        let newest = saved.first().expect("a waiting game").header.id.clone();
        ids.push(newest);
        // Games begun in the same second are still told apart by age.
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }
    assert_ne!(ids[0], ids[1]);

    let listed = support::game::spades(&home)
        .args(["resume", "--list"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&listed.get_output().stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with(&ids[1]), "newest first: {text}");
    assert!(lines[1].starts_with(&ids[0]), "{text}");
    assert!(
        lines[0].contains("partnership, to 500, preset classic, hand 1"),
        "{text}"
    );

    // "game-" starts both ids: too little to name one.
    let vague = support::game::spades(&home)
        .args(["resume", "--abandon", "game-"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&vague.get_output().stderr).into_owned();
    assert!(err.contains("names 2 saved games"), "{err}");
    support::game::spades(&home)
        .args(["resume", "--abandon", "no-such-game"])
        .assert()
        .code(2);

    let gave_up = support::game::spades(&home)
        .args(["resume", "--abandon", &ids[0]])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&gave_up.get_output().stdout).into_owned();
    assert!(out.contains(&format!("Gave up {}", ids[0])), "{out}");
    let (left, _) = save::waiting(&data.join("saves"));
    let left: Vec<&str> = left.iter().map(|s| s.header.id.as_str()).collect();
    assert_eq!(left, [ids[1].as_str()], "only the other game waits");
}
