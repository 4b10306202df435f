//! The panel's notices: a refusal said once, whose exchange the table
//! waits for, a key seen during the guard, and long or changing notices
//! drawn whole with nothing left of the one before.

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use spades::engine::{Bid, Decision, Mode, Phase, Seat};
use spades::tui::{App, Input, Key, Speed, Theme, view};
use support::tui::*;

/// A game under one of the shipped presets.
fn preset(name: &str, seed: u64) -> App {
    let mut config = config(Mode::Partnership, seed);
    config.game.rules = spades::presets::find(name).unwrap().rules().unwrap();
    app(config)
}

/// The screen's words in reading order, one space apart.
fn flat(screen: &str) -> String {
    screen
        .replace('"', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// In mirror and suicide a refused bid is said once, as a sentence.
#[test]
fn a_variant_refusal_is_said_once_with_a_full_stop() {
    for name in ["mirror", "suicide"] {
        let mut app = preset(name, 1);
        play_until(&mut app, |a| {
            a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
        });
        let view = app.view();
        let options = app.bid_options(&view);
        let (at, why) = options
            .iter()
            .enumerate()
            .find_map(|(i, &b)| view.check_bid(b).err().map(|e| (i, e.to_string())))
            .unwrap_or_else(|| panic!("{name}: some bid is refused"));
        while app.bid_cursor() != at {
            let key = if app.bid_cursor() < at {
                Key::Right
            } else {
                Key::Left
            };
            press(&mut app, &[key]);
        }
        press(&mut app, &[Key::Enter]);
        assert_eq!(app.view().bids()[app.you()], None::<Bid>, "{name}: refused");
        let screen = screen_text(&mut app, 80, 24);
        // A long refusal wraps: its words are read across the rows.
        let words = flat(&screen);
        let said = why.trim_end_matches('.');
        let said = &said[1..]; // the first letter is made a capital
        assert_eq!(words.matches(said).count(), 1, "{name}:\n{screen}");
        assert!(words.contains(&format!("{said}.")), "{name}:\n{screen}");
    }
}

/// A game at normal speed, blind nil on offer from the first hand, whose
/// clock moves only when the test moves it.
fn blind_nil_game(seed: u64) -> (App, Instant) {
    let mut config = config(Mode::Partnership, seed);
    config.speed = Speed::Normal;
    config.game.rules = config
        .game
        .rules
        .with(|r| r.blind_nil.min_deficit = 0)
        .unwrap();
    let mut app = App::new(config, Theme::PLAIN).unwrap();
    let clock = Instant::now();
    tick_at(&mut app, clock);
    (app, clock)
}

/// Plays the bidding and the exchange of hand 1 (the player bids blind nil
/// when `blind` says so) until `seen` holds; false if play begins first.
fn until_in_exchange(
    app: &mut App,
    clock: &mut Instant,
    blind: bool,
    seen: impl Fn(&App) -> bool,
) -> bool {
    for _ in 0..2_000 {
        if seen(app) {
            return true;
        }
        if app.view().phase == Phase::Playing {
            return false;
        }
        match app.human_turn().map(|t| t.decision) {
            Some(Decision::BlindNil) => press(app, &[Key::Char(if blind { 'b' } else { 'c' })]),
            Some(Decision::Bid) => {
                chars(app, "2");
                press(app, &[Key::Enter]);
            }
            Some(Decision::Exchange) => {
                let count = app.view().exchange.map_or(0, |e| e.count);
                while app.to_pass().len() < u32::from(count) {
                    let n = app.to_pass().len() + 1;
                    chars(app, &n.to_string());
                }
                press(app, &[Key::Enter]);
            }
            _ => {}
        }
        // Short steps, so the moment between two passes is seen.
        *clock += Duration::from_millis(100);
        tick_at(app, *clock);
    }
    false
}

/// Waiting on an exchange in which `seat` is to pass.
fn waiting_on_exchange(app: &App, seat: impl Fn(&App, Seat) -> bool) -> bool {
    app.view().phase == Phase::Exchange
        && app.human_turn().is_none()
        && app.waiting_for().is_some_and(|s| seat(app, s))
}

/// While the player waits on an exchange, the panel says whose it is: the
/// partner passing to the player, or the other side among themselves.
#[test]
fn the_exchange_status_names_who_is_passing() {
    // The player bids blind nil; once they have passed, the partner is left.
    let (mut app, mut clock) = blind_nil_game(7);
    let partner = |a: &App, s: Seat| Some(s) == a.view().partner();
    assert!(until_in_exchange(&mut app, &mut clock, true, |a| {
        waiting_on_exchange(a, partner)
    }));
    let screen = screen_text(&mut app, 80, 24);
    assert!(
        screen.contains("North is choosing cards to pass to you..."),
        "{screen}"
    );
    insta::assert_snapshot!("partner_exchanging_80x24", screen);

    // An opponent bids blind nil: the other side exchanges.
    let opponent = |a: &App, s: Seat| Some(s) != a.view().partner() && s != a.you();
    let found = (0..300).find_map(|seed| {
        let (mut app, mut clock) = blind_nil_game(seed);
        until_in_exchange(&mut app, &mut clock, false, |a| {
            waiting_on_exchange(a, opponent)
        })
        .then_some(app)
    });
    let mut app = found.expect("some seed has an opponent bid blind nil");
    let screen = screen_text(&mut app, 80, 24);
    assert!(
        screen.contains("The opponents are exchanging cards..."),
        "{screen}"
    );
    assert!(!screen.contains("Your partner"), "{screen}");
    insta::assert_snapshot!("opponents_exchanging_80x24", screen);
}

/// Draws the app again on the same terminal, as the program does.
fn redraw(app: &mut App, terminal: &mut Terminal<TestBackend>) -> String {
    let mut hits = None;
    terminal
        .draw(|frame| hits = Some(view::render(app, frame.area(), frame.buffer_mut())))
        .unwrap();
    app.set_hits(hits.unwrap_or_default());
    terminal.backend().to_string()
}

/// The row of the screen that holds `text`.
fn row_with<'a>(screen: &'a str, text: &str) -> &'a str {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_else(|| panic!("no {text:?} in\n{screen}"))
}

/// A shorter notice after a longer one, over the blind offer's own line,
/// leaves nothing of either past its end.
#[test]
fn a_shorter_notice_leaves_nothing_of_what_was_under_it() {
    let (mut app, mut clock) = blind_nil_game(7);
    assert!(until_in_exchange(&mut app, &mut clock, false, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::BlindNil)
    }));
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    chars(&mut app, "p");
    let before = redraw(&mut app, &mut terminal);
    row_with(&before, "Auto-play off");
    chars(&mut app, "h");
    // The hint's first line, drawn where the notice before it was.
    let hint = app.notice().unwrap().lines().next().unwrap().to_string();
    let after = redraw(&mut app, &mut terminal);
    let row = row_with(&after, "Hint:");
    let end = row.find(&hint).unwrap() + hint.len();
    assert!(
        row[end..].trim_matches([' ', '"']).is_empty(),
        "left past the notice: {row:?}"
    );
}

/// A hint's two lines are both drawn whole at the smallest size.
#[test]
fn a_long_hint_wraps_onto_a_second_row() {
    let (mut app, mut clock) = blind_nil_game(7);
    assert!(until_in_exchange(&mut app, &mut clock, true, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Exchange)
    }));
    chars(&mut app, "h");
    let hint = app.notice().unwrap().to_string();
    assert!(hint.chars().count() > 78, "a long hint: {hint}");
    let screen = screen_text(&mut app, 80, 24);
    assert!(flat(&screen).contains(&flat(&hint)), "{screen}");
    insta::assert_snapshot!("long_hint_80x24", screen);
}

/// A key the guard holds back, just after a decision appears, is seen:
/// the key bar says "wait" until the guard is over, and nothing is done.
#[test]
fn a_key_held_back_by_the_guard_is_seen() {
    let (mut app, mut clock) = blind_nil_game(7);
    assert!(until_in_exchange(&mut app, &mut clock, false, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::BlindNil)
    }));
    let last = |app: &mut App| screen_text(app, 80, 24).lines().last().unwrap().to_string();
    assert!(!last(&mut app).contains("wait"));
    // At once, on the clock the decision appeared at: the guard holds it.
    app.update(Input::Key(Key::Enter));
    assert_eq!(
        app.human_turn().map(|t| t.decision),
        Some(Decision::BlindNil)
    );
    let bar = last(&mut app);
    assert!(bar.starts_with("\" wait..."), "{bar}");
    insta::assert_snapshot!("key_held_back_80x24", screen_text(&mut app, 80, 24));
    // The guard over, the mark goes; the next key acts.
    clock += Duration::from_secs(1);
    tick_at(&mut app, clock);
    assert!(!last(&mut app).contains("wait"));
    app.update(Input::Key(Key::Enter));
    assert_eq!(app.human_turn().map(|t| t.decision), Some(Decision::Bid));
}
