//! The table's statistics window (`s`) and the rating on the game-over
//! screen, read from the records the table itself wrote.

use spades::bots::Level;
use spades::engine::Mode;
use spades::tui::Key;
use spades::tui::app::{Overlay, Screen};
use support::played::{Spec, play_into};
use support::tui::{chars, finished_game_with, press, screen_text};

/// A game finished at the table, recorded into `dir`, its deals from a
/// secret seed (as a rated game's are) or from `seed` given openly.
fn finished_into(dir: &tempfile::TempDir, practice: bool, seed: Option<u64>) -> spades::tui::App {
    finished_game_with(|config| {
        config.game.records = Some(dir.path().to_path_buf());
        config.game.difficulty = Level::Easy.into();
        config.game.practice = practice;
        config.game.seed = seed;
    })
}

#[test]
fn game_over_shows_the_rating_and_its_change() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = finished_into(&dir, false, None);
    assert_eq!(app.screen(), Screen::GameOver);
    // A first game against easy (rated 1500) from 1500 ± 350: the rating
    // moves by about 175 either way and the deviation narrows to 247.
    let note = app.rating_note().join("\n");
    let won = app.view().winner == Some(app.view().side());
    let want = if won {
        "Rating against the computer 1675 ± 247 (+175 from 1500)"
    } else {
        "Rating against the computer 1325 ± 247 (-175 from 1500)"
    };
    assert_eq!(note, want);
    // The box wraps the note: its words are read across the rows.
    let text = screen_text(&mut app, 100, 30);
    let words = text
        .split(['"', ' ', '|', '\n'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(words.contains(want), "{text}");
}

#[test]
fn a_practice_game_is_not_rated() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = finished_into(&dir, true, None);
    assert_eq!(app.rating_note().join("\n"), "A practice game: not rated.");
    let text = screen_text(&mut app, 100, 30);
    assert!(text.contains("A practice game: not rated."), "{text}");
}

#[test]
fn a_game_with_open_deals_is_not_rated_and_says_why() {
    // Deals from a seed the player chose could be known in advance, and
    // the game replayed until won.
    let dir = tempfile::tempdir().unwrap();
    let mut app = finished_into(&dir, false, Some(7));
    let want = "Open deals (seed 7): not rated.";
    assert_eq!(app.rating_note().join("\n"), want);
    let text = screen_text(&mut app, 100, 30);
    assert!(text.contains(want), "{text}");
    chars(&mut app, "s");
    let stats = screen_text(&mut app, 100, 40);
    assert!(
        stats.contains("No games played yet, open deals aside."),
        "{stats}"
    );
    assert!(stats.contains("Open deals 1 game: "), "{stats}");
    assert!(stats.contains("no rated game yet"), "{stats}");
}

#[test]
fn s_opens_the_statistics_of_the_recorded_games_and_scrolls() {
    let dir = tempfile::tempdir().unwrap();
    // Games in the other modes before it, so the window has more to show
    // than a small screen holds.
    play_into(
        dir.path(),
        &Spec::new(Mode::Cutthroat, 1, 1_700_000_000, "random"),
    );
    play_into(
        dir.path(),
        &Spec::new(Mode::Individual, 2, 1_700_000_100, "normal"),
    );
    let mut app = finished_into(&dir, false, None);
    chars(&mut app, "s");
    assert_eq!(app.overlay(), Some(Overlay::Stats));
    let text = screen_text(&mut app, 100, 40);
    assert!(text.contains("Your statistics"), "{text}");
    assert!(
        text.contains("Games     3 played"),
        "the finished game counted: {text}"
    );
    for mode in ["partnership", "cutthroat", "individual"] {
        assert!(text.contains(mode), "{mode}: {text}");
    }
    assert!(text.contains("Rating    "), "{text}");

    // On a small screen the window scrolls, and stops at the last line.
    let top = screen_text(&mut app, 80, 24);
    assert!(top.contains("Up/Down scroll"), "{top}");
    assert!(!top.contains("Rating    "), "{top}");
    for _ in 0..60 {
        press(&mut app, &[Key::Down]);
    }
    let bottom = screen_text(&mut app, 80, 24);
    assert!(bottom.contains("Rating    "), "{bottom}");
    assert!(!bottom.contains("Games     3 played"), "{bottom}");
    press(&mut app, &[Key::Up]);
    assert_ne!(screen_text(&mut app, 80, 24), bottom, "Up scrolls back");

    chars(&mut app, "s");
    assert_eq!(app.overlay(), None);
}

#[test]
fn with_no_records_the_window_says_why_it_is_empty() {
    let mut app = finished_game_with(|config| config.game.records = None);
    assert!(app.rating_note().is_empty());
    chars(&mut app, "s");
    let text = screen_text(&mut app, 100, 30);
    assert!(text.contains("no game is recorded here"), "{text}");
}
