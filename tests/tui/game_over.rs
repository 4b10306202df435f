//! The end of a game at the table: besides playing again and quitting,
//! `a` reviews the game just played (its analysis on a thread of its own,
//! its progress shown, Esc stopping it) and `r` replays it, in the viewer
//! `spades replay` shows, read from the game's record; leaving the viewer
//! comes back to the result. And the memory panel (`m`) during play.

use std::time::{Duration, Instant};

use spades::bots::Effort;
use spades::engine::{Memory, Mode, Phase};
use spades::tui::app::Screen;
use spades::tui::replay::Source;
use spades::tui::replay::analysis::State;
use spades::tui::{App, Input, Key};
use support::tui::{app, chars, config, finished_game_with, play_until, press, screen_text, tick};

/// A short game played out and recorded in `dir`, its review made with
/// the smallest budget: these tests are about the screens, not verdicts.
fn recorded_game_over(dir: &tempfile::TempDir) -> App {
    recorded_with(dir, 1)
}

/// `recorded_game_over`, the review judging each decision on `deals`.
fn recorded_with(dir: &tempfile::TempDir, deals: u32) -> App {
    let app = finished_game_with(|config| {
        config.game.records = Some(dir.path().to_path_buf());
        config.game.effort = Effort::Deals(deals);
    });
    assert_eq!(app.screen(), Screen::GameOver);
    app
}

/// The screen with the record's folder and file name (a temporary
/// folder, a name from the clock) masked, each by as many characters.
fn masked(app: &mut App, dir: &tempfile::TempDir) -> String {
    let mut text = screen_text(app, 80, 24);
    let file = app.record_path().unwrap().file_name().unwrap();
    for shown in [
        dir.path().display().to_string(),
        file.to_string_lossy().into(),
    ] {
        text = text.replace(&shown, &"~".repeat(shown.chars().count()));
    }
    text
}

/// Ticks until the review's analysis is no longer running, or `give_up`.
fn settle(app: &mut App, give_up: Duration) {
    let until = Instant::now() + give_up;
    while matches!(app.review().unwrap().analysis().state(), State::Running(_)) {
        assert!(Instant::now() < until, "the analysis never ended");
        std::thread::sleep(Duration::from_millis(5));
        tick(app);
    }
}

#[test]
fn game_over_offers_the_review_and_the_replay_of_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = recorded_game_over(&dir);
    let text = masked(&mut app, &dir);
    assert!(text.contains("[ a  Review the game ]"), "{text}");
    assert!(text.contains("[ r  Replay it ]"), "{text}");
    assert!(text.contains("[ n  Play again ]"), "{text}");
    insta::assert_snapshot!("game_over_recorded_80x24", text);
    // A click on a button does what its key does.
    let (row, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("Replay it"))
        .unwrap();
    let column = line.find("Replay it").unwrap() - 1;
    app.update(Input::Click {
        column: column as u16,
        row: row as u16,
    });
    tick(&mut app);
    assert_eq!(app.screen(), Screen::Review);
    assert!(matches!(
        app.review().unwrap().analysis().state(),
        State::Idle
    ));
}

#[test]
fn r_replays_the_game_just_played_and_esc_comes_back_to_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = recorded_game_over(&dir);
    let result = screen_text(&mut app, 80, 24);
    // The record is read on a thread of its own: the key returns at once,
    // and the viewer opens on the tick after the reading.
    app.update(Input::Key(Key::Char('r')));
    assert_eq!(app.screen(), Screen::GameOver);
    assert_eq!(app.notice(), Some("Reading the game's record…"));
    assert!(app.reading_records());
    tick(&mut app);
    assert_eq!(app.screen(), Screen::Review);
    let viewer = app.review().unwrap();
    assert_eq!(*viewer.source(), Source::GameJustPlayed);
    assert_eq!(viewer.story().hands.len(), app.hands_played());
    assert!(matches!(viewer.analysis().state(), State::Idle));
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("REPLAY  The game just played"), "{text}");
    assert!(text.contains("Esc back"), "{text}");
    chars(&mut app, "?");
    let keys = screen_text(&mut app, 80, 24);
    assert!(keys.contains("back to the game's result"), "{keys}");
    press(&mut app, &[Key::Esc, Key::End, Key::Esc]);
    assert_eq!(app.screen(), Screen::GameOver);
    assert!(!app.should_quit());
    assert_eq!(screen_text(&mut app, 80, 24), result);
    // And a new game from there, as ever.
    chars(&mut app, "n");
    assert_eq!(app.hands_played(), 0);
}

#[test]
fn a_reviews_the_game_aside_with_its_progress_and_esc_stops_it() {
    let dir = tempfile::tempdir().unwrap();
    // A budget big enough that the analysis is seen under way, whatever
    // the machine; Esc stops it before it goes far.
    let mut app = recorded_with(&dir, 3000);
    // The key returns at once; once the record is read, the analysis is
    // under way on its own thread.
    app.update(Input::Key(Key::Char('a')));
    tick(&mut app);
    assert_eq!(app.screen(), Screen::Review);
    let viewer = app.review().unwrap();
    assert_eq!(*viewer.source(), Source::GameJustPlayed);
    assert!(matches!(viewer.analysis().state(), State::Running(_)));
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("Analysing"), "{text}");
    assert!(text.contains("a or Esc stops"), "{text}");
    // Its progress reaches the screen: decisions judged of all.
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        tick(&mut app);
        match app.review().unwrap().analysis().state() {
            State::Running(running) if running.progress().is_some() => break,
            State::Running(_) => {}
            other => panic!("the analysis ended before saying how far it was: {other:?}"),
        }
        assert!(Instant::now() < until, "no progress heard");
        std::thread::sleep(Duration::from_millis(2));
    }
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains(" decisions "), "{text}");
    // Esc stops it and stays; Esc again goes back to the result.
    press(&mut app, &[Key::Esc]);
    assert_eq!(app.screen(), Screen::Review);
    assert!(matches!(
        app.review().unwrap().analysis().state(),
        State::Idle
    ));
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("Analysis stopped"), "{text}");
    press(&mut app, &[Key::Esc]);
    assert_eq!(app.screen(), Screen::GameOver);
}

#[test]
fn a_review_opened_twice_is_worked_out_once_and_kept_beside_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = recorded_game_over(&dir);
    chars(&mut app, "a");
    settle(&mut app, Duration::from_secs(300));
    let first = app
        .review()
        .unwrap()
        .analysis()
        .reviewed()
        .map(|r| r.review.clone());
    let first = first.expect("the review is done");
    let record = app.record_path().unwrap().to_path_buf();
    let kept = dir
        .path()
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p != &record)
        .expect("the review kept beside the record");
    let written = std::fs::metadata(&kept).unwrap().modified().unwrap();
    // Esc closes the panel, then leaves; a opens it again.
    press(&mut app, &[Key::Esc, Key::Esc]);
    assert_eq!(app.screen(), Screen::GameOver);
    chars(&mut app, "a");
    settle(&mut app, Duration::from_secs(10));
    let again = app
        .review()
        .unwrap()
        .analysis()
        .reviewed()
        .map(|r| r.review.clone());
    assert_eq!(again, Some(first));
    let modified = std::fs::metadata(&kept).unwrap().modified().unwrap();
    assert_eq!(
        modified, written,
        "read back, not worked out and written again"
    );
}

#[test]
fn without_a_record_a_and_r_say_why_there_is_nothing_to_look_back_at() {
    let mut app = finished_game_with(|_| {});
    let text = screen_text(&mut app, 80, 24);
    assert!(!text.contains("Review the game"), "{text}");
    chars(&mut app, "r");
    assert_eq!(app.screen(), Screen::GameOver);
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("This game is not recorded"), "{text}");
}

#[test]
fn m_shows_the_cards_played_and_the_voids_without_hiding_the_trick_or_the_hand() {
    let mut app = app(config(Mode::Partnership, 7));
    // Far enough into the hand that seats have shown out of suits, with
    // a card on the table.
    play_until(&mut app, |a| {
        let view = a.view();
        view.play.tricks_done >= 6
            && view.play.trick.iter().any(Option::is_some)
            && a.held_trick().is_none()
            && !Memory::of(&view)
                .seats_void(spades::engine::Suit::ALL)
                .is_empty()
    });
    let before = screen_text(&mut app, 80, 24);
    chars(&mut app, "m");
    assert!(app.memory_shown());
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("Played"), "{text}");
    assert!(text.contains("Voids"), "{text}");
    // Below the score bar nothing moved: the trick, the hand, the panel.
    let below = |t: &str| t.lines().skip(4).collect::<Vec<_>>().join("\n");
    assert_eq!(below(&text), below(&before));
    insta::assert_snapshot!("memory_panel_80x24", text);
    // It stays on as the game goes on, and m hides it again.
    press(&mut app, &[Key::Enter]);
    assert!(app.memory_shown());
    chars(&mut app, "m");
    assert!(!app.memory_shown());
    assert_eq!(app.view().phase, Phase::Playing);
}
