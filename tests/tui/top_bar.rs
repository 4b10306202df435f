//! The bar over the table names how the game is played: the variant of
//! the rules, and a practice game (whose moves `u` takes back, as the key
//! bar says once there is one to take back).

use spades::engine::{Decision, Mode};
use spades::tui::App;
use support::tui::*;

/// The first row of the screen: the top bar.
fn top_bar(app: &mut App) -> String {
    let screen = screen_text(app, 80, 24);
    screen.lines().next().unwrap().to_string()
}

/// The last row of the screen: the key bar.
fn key_bar(app: &mut App) -> String {
    let screen = screen_text(app, 80, 24);
    screen.lines().last().unwrap().to_string()
}

#[test]
fn a_practice_game_says_so_and_offers_undo_once_there_is_a_move() {
    let dir = tempfile::tempdir().unwrap();
    for practice in [true, false] {
        let mut config = config(Mode::Partnership, 21);
        config.game.practice = practice;
        config.game.saves = Some(dir.path().join(format!("saves-{practice}")));
        let mut app = app(config);
        assert_eq!(app.human_turn().map(|t| t.decision), Some(Decision::Bid));
        assert_eq!(top_bar(&mut app).contains("Practice"), practice);
        assert!(
            !key_bar(&mut app).contains("u  undo"),
            "nothing to undo yet"
        );
        play_until(&mut app, |a| {
            a.human_turn().map(|t| t.decision) == Some(Decision::Play)
        });
        assert_eq!(key_bar(&mut app).contains("u  undo"), practice);
        if practice {
            insta::assert_snapshot!("practice_80x24", screen_text(&mut app, 80, 24));
        }
    }
}

#[test]
fn the_top_bar_names_the_variant() {
    for (preset, name) in [
        ("mirror", "Mirror"),
        ("suicide", "Suicide"),
        ("whiz", "Whiz"),
        ("jokers", "Jokers"),
        ("quick", "Quick Play"),
    ] {
        let mut config = config(Mode::Partnership, 1);
        config.game.rules = spades::presets::find(preset).unwrap().rules().unwrap();
        let mut app = app(config);
        let bar = top_bar(&mut app);
        assert!(bar.contains(name), "{preset}: {bar}");
        if preset == "mirror" {
            insta::assert_snapshot!("mirror_80x24", screen_text(&mut app, 80, 24));
        }
    }
    let mut app = app(config(Mode::Partnership, 1));
    let bar = top_bar(&mut app);
    for name in [
        "Mirror",
        "Suicide",
        "Whiz",
        "Jokers",
        "Quick Play",
        "Practice",
    ] {
        assert!(!bar.contains(name), "classic: {bar}");
    }
}
