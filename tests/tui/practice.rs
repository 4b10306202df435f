//! Practice games: `u` takes back the player's last bid or card and what
//! the bots did after it, in the table, the save and the record alike;
//! in a real game it changes nothing.

use spades::engine::{Decision, Mode};
use spades::save::Saved;
use spades::tui::app::Screen;
use spades::tui::{App, Key};
use support::game::short;
use support::tui::{app, chars, config, play_until, press};

/// A practice game saving and recording into `dir`.
fn practice(dir: &tempfile::TempDir, practice: bool) -> App {
    app({
        let mut config = config(Mode::Partnership, 21);
        config.game.practice = practice;
        config.game.records = Some(dir.path().join("records"));
        config.game.saves = Some(dir.path().join("saves"));
        // Short, so the whole game is played out quickly.
        config.game.rules = short(Mode::Partnership, 200);
        config
    })
}

/// Answers until the player is asked for `decision` in hand `hand`.
fn until(app: &mut App, hand: u32, decision: Decision) {
    play_until(app, |a| {
        a.view().hand_no == hand && a.human_turn().map(|t| t.decision) == Some(decision)
    });
}

fn the_save(dir: &tempfile::TempDir) -> Saved {
    let saves: Vec<_> = std::fs::read_dir(dir.path().join("saves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "save"))
        .collect();
    assert_eq!(saves.len(), 1, "{saves:?}");
    Saved::load(&saves[0]).unwrap()
}

#[test]
fn a_card_taken_back_leaves_the_table_the_save_and_the_record_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = practice(&dir, true);
    // Into the second hand, so a hand already scored must stay recorded.
    until(&mut app, 2, Decision::Play);
    let before = app.view();
    let steps_before = the_save(&dir).steps;

    press(&mut app, &[Key::Enter]);
    assert_ne!(app.view(), before, "the card was played");
    chars(&mut app, "u");
    assert_eq!(app.notice(), Some("Taken back."));
    assert_eq!(app.view(), before);
    assert_eq!(the_save(&dir).steps, steps_before);

    // Another card instead, and the game plays on to its end; the record
    // holds the game as finally played, and it verifies.
    let turn = app.human_turn().expect("the player's turn again");
    assert_eq!(turn.decision, Decision::Play);
    // Another card the rules allow, when there is one: the cursor walks to it.
    let cards = spades::tui::hand_order(before.hand.unwrap());
    let legal = before.legal_plays();
    let target = (0..cards.len())
        .find(|&i| i != app.hand_cursor() && legal.contains(cards[i]))
        .unwrap_or(app.hand_cursor());
    while app.hand_cursor() != target {
        let key = if app.hand_cursor() < target {
            Key::Right
        } else {
            Key::Left
        };
        press(&mut app, &[key]);
    }
    press(&mut app, &[Key::Enter]);
    assert_ne!(app.view(), before, "another card played");
    play_until(&mut app, |a| a.screen() == Screen::GameOver);
    let played = app.close();
    let record = played.records.last().expect("a record").clone();
    let text = std::fs::read_to_string(&record).unwrap();
    let verdicts = spades::verify::verify(&text).expect("a record that reads");
    assert_eq!(verdicts.len(), 1);
    assert!(verdicts[0].is_verified(), "{verdicts:?}");
}

#[test]
fn a_bid_taken_back_asks_for_the_bid_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = practice(&dir, true);
    until(&mut app, 1, Decision::Bid);
    let before = app.view();
    chars(&mut app, "4");
    press(&mut app, &[Key::Enter]);
    assert_ne!(app.view(), before);
    chars(&mut app, "u");
    assert_eq!(app.view(), before);
    assert_eq!(app.human_turn().map(|t| t.decision), Some(Decision::Bid));
}

#[test]
fn nothing_is_taken_back_in_a_real_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = practice(&dir, false);
    until(&mut app, 1, Decision::Play);
    press(&mut app, &[Key::Enter]);
    let after = app.view();
    let steps = the_save(&dir).steps;
    chars(&mut app, "u");
    assert_eq!(app.view(), after);
    assert_eq!(the_save(&dir).steps, steps);
    assert!(app.notice().unwrap().contains("only in a practice game"));
}

/// The header (`game` line) of the one record in `dir`.
fn header_of_record_in(dir: &std::path::Path) -> serde_json::Value {
    let records: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let text = std::fs::read_to_string(&records[0]).unwrap();
    let first = text.lines().next().expect("a game line");
    serde_json::from_str(first).unwrap()
}

#[test]
fn a_practice_game_is_recorded_as_practice() {
    for practice in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let mut config = config(Mode::Partnership, 5);
        config.game.practice = practice;
        config.game.records = Some(dir.path().join("records"));
        let mut app = app(config);
        let _ = app.close();
        let header = header_of_record_in(&dir.path().join("records"));
        assert_eq!(header["event"], "game");
        assert_eq!(
            header.get("practice").and_then(serde_json::Value::as_bool),
            practice.then_some(true),
            "practice = {practice}: {header}"
        );
    }
}
