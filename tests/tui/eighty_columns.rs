//! The table at its smallest, 80x24: what the player must be able to read
//! is never cut or pushed out. The top bar keeps its help and quit keys,
//! the key bar keeps the rules key, the replay's title keeps its dealer,
//! cutthroat's bids leave room for the whole hint, and the rules window
//! says Quick Play's course once.

use spades::engine::{Decision, Mode};
use spades::tui::App;
use spades::tui::replay::{Source, Viewer};
use support::tui::*;

use super::replay::{partnership, recorded, screen};

fn top_bar(app: &mut App) -> String {
    screen_text(app, 80, 24).lines().next().unwrap().to_string()
}

fn key_bar(app: &mut App) -> String {
    screen_text(app, 80, 24).lines().last().unwrap().to_string()
}

/// Games whose top bar is long: a practice game, a variant, the dealer
/// with the longest name, Quick Play's lives, cutthroat. The folder keeps
/// the practice game's save.
fn long_bars(dir: &tempfile::TempDir) -> Vec<(&'static str, App)> {
    let mut practice = config(Mode::Partnership, 21);
    practice.game.practice = true;
    practice.game.saves = Some(dir.path().join("saves"));
    let preset = |name, mode, seed| {
        let mut config = config(mode, seed);
        let rules = spades::presets::find(name).unwrap().rules().unwrap();
        config.game.rules = rules.with(|r| r.mode = mode).unwrap();
        config
    };
    vec![
        ("practice", app(practice)),
        ("jokers", app(preset("jokers", Mode::Partnership, 1))),
        ("dealer North", app(config(Mode::Partnership, 11))),
        ("quick", app(preset("quick", Mode::Partnership, 4))),
        ("cutthroat quick", app(preset("quick", Mode::Cutthroat, 3))),
    ]
}

/// At every kind of turn in these games, the top bar ends with the help
/// and quit keys and the key bar has the rules key.
#[test]
fn the_help_quit_and_rules_keys_stay_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    for (what, mut app) in long_bars(&dir) {
        let mut seen = Vec::new();
        play_until(&mut app, |a| {
            let decision = a.human_turn().map(|t| t.decision);
            if let Some(d) = decision.filter(|d| !seen.contains(d)) {
                seen.push(d);
            }
            seen.contains(&Decision::Play)
        });
        let top = top_bar(&mut app);
        assert!(top.ends_with("? help  q quit \""), "{what}: {top}");
        let keys = key_bar(&mut app);
        assert!(keys.contains("r  rules"), "{what}: {keys}");
        assert!(keys.contains("h  hint"), "{what}: {keys}");
    }
}

/// A game played at the table keeps, besides the keys, how its deals are
/// dealt in the top bar, in short where the words do not fit.
#[test]
fn the_deals_stay_in_the_top_bar_in_short() {
    let dir = tempfile::tempdir().unwrap();
    for (what, mut app) in long_bars(&dir) {
        let top = top_bar(&mut app);
        assert!(top.contains("seed "), "{what}: {top}");
    }
    let mut open = app(config(Mode::Partnership, 7));
    let top = top_bar(&mut open);
    assert!(top.contains("Deals known: seed 7  ? help  q quit"), "{top}");
    // Dealt from a secret seed, a new game's usual bar: the commitment in
    // words beside the keys, the program's name giving way for them.
    let mut config = config(Mode::Partnership, 7);
    config.game.seed = None;
    let mut sealed = app(config);
    let top = top_bar(&mut sealed);
    assert!(top.contains("Deals sealed #"), "{top}");
    assert!(top.ends_with("  ? help  q quit \""), "{top}");
}

/// A playing turn's key bar has room for the last trick too.
#[test]
fn a_turn_to_play_shows_the_last_trick_and_rules_keys() {
    let mut app = app(config(Mode::Partnership, 7));
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Play)
    });
    let keys = key_bar(&mut app);
    for key in ["Enter  play", "h  hint", "t  last trick", "r  rules"] {
        assert!(keys.contains(key), "{key}: {keys}");
    }
}

/// A record's long file name gives way in the replay's title: the dealer
/// is named whole.
#[test]
fn the_replay_title_names_the_dealer_whole() {
    let game = recorded(partnership(), 7);
    let story = spades::story::Story::from_record(&game).unwrap();
    let source = Source::Record {
        name: "game-1764552000-K7QXM2PD4T9RWA3B-2.jsonl".to_string(),
        game: 1,
        games: 1,
    };
    let viewer = Viewer::new(story, source);
    let shown = screen(&viewer, 80, 24);
    let title = shown.lines().next().unwrap();
    assert!(title.contains(", dealer West"), "{title}");
    assert!(title.contains("game-1764"), "{title}");
    assert!(title.contains("B-2.jsonl"), "{title}");
    let wide = screen(&viewer, 110, 24);
    let title = wide.lines().next().unwrap();
    assert!(title.contains("K7QXM2PD4T9RWA3B"), "{title}");
}

/// Cutthroat's seventeen bids and Nil stay on one row, so the hint's two
/// lines, its choice and its reason, are both whole under them.
#[test]
fn cutthroat_bids_leave_the_hint_whole() {
    let mut app = app(config(Mode::Cutthroat, 3));
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
    });
    chars(&mut app, "h");
    let shown = screen_text(&mut app, 80, 24);
    let notice = app.notice().expect("a hint").to_string();
    assert_eq!(notice.lines().count(), 2, "{notice}");
    for line in notice.lines() {
        assert!(shown.contains(line), "{line} not whole in\n{shown}");
    }
    let bids = shown
        .lines()
        .find(|l| l.contains(" 1 ") && l.contains(" 17 "))
        .unwrap_or_else(|| panic!("the bids in a row:\n{shown}"));
    assert!(bids.contains("Nil"), "{bids}\n{shown}");
}

/// Quick Play's rules window says its course (lives, no target) once,
/// never a target score beside it.
#[test]
fn quick_plays_rules_window_has_no_target() {
    let mut config = config(Mode::Partnership, 4);
    config.game.rules = spades::presets::find("quick").unwrap().rules().unwrap();
    let mut app = app(config);
    chars(&mut app, "r");
    let shown = screen_text(&mut app, 80, 24);
    assert!(shown.contains("Game       Quick Play: 3 lives"), "{shown}");
    assert!(!shown.contains("points"), "{shown}");
    assert_eq!(shown.matches("no target").count(), 1, "{shown}");
}
