//! Quick Play (InstaSpades; docs/rules.md, Quick Play) and the hand limit,
//! `[game]` in rules.toml: worked examples, random runs through the
//! independent record checker, and the screens.

use proptest::prelude::*;
use serde_json::Value;
use spades::engine::quick::{lives_after, lives_lost};
use spades::engine::score::{SideTotals, score_side};
use spades::engine::{Bid, Event, GameKind, Mode, Phase, Rules, Seat};
use spades::tui::app::Screen;
use support::checker::check_record;
use support::proptest_seed::{any_mode, config};
use support::record::random_game;
use support::tui::{finished_game_with, screen_text};

fn quick(mode: Mode, lives: u8, failed_nil_costs_life: bool) -> Rules {
    Rules::classic(mode)
        .with(|r| {
            r.game.kind = GameKind::Quick;
            r.game.lives = lives;
            r.game.failed_nil_costs_life = failed_nil_costs_life;
        })
        .expect("valid rules")
}

/// The lives one side's hand costs: each seat's bid and tricks.
fn cost(rules: &Rules, seats: &[(Bid, u8)]) -> u8 {
    let seats: Vec<(Seat, Bid, u8)> = seats
        .iter()
        .enumerate()
        .map(|(i, &(bid, tricks))| (Seat::new(2 * i), bid, tricks))
        .collect();
    lives_lost(rules, &score_side(rules, &seats, SideTotals::default()))
}

/// Quick Play as its rule text has it: "Players have 3 lives which they
/// lose one each time they lose a bid. Lose 3 and the run is over." Four
/// hands of a run, the player's side's bids and tricks each time.
#[test]
fn a_run_of_four_hands_loses_a_life_for_each_lost_bid() {
    let rules = quick(Mode::Partnership, 3, true);
    let mut lives = rules.game.lives;
    // Hand 1: you bid 4 and North 3, you take 5 and North 3: made, 70 + 1.
    let hand1 = [(Bid::Tricks(4), 5), (Bid::Tricks(3), 3)];
    assert_eq!(cost(&rules, &hand1), 0);
    // Hand 2: 4 + 3 again, but only 6 taken: set, -70, a life.
    let hand2 = [(Bid::Tricks(4), 4), (Bid::Tricks(3), 2)];
    assert_eq!(cost(&rules, &hand2), 1);
    lives = lives_after(lives, cost(&rules, &hand2));
    assert_eq!(lives, 2);
    // Hand 3: North bids nil and takes a trick; you make your 5: the nil
    // is a lost bid, a life.
    let hand3 = [(Bid::Tricks(5), 6), (Bid::Nil, 1)];
    assert_eq!(cost(&rules, &hand3), 1);
    lives = lives_after(lives, cost(&rules, &hand3));
    assert_eq!(lives, 1);
    // Hand 4: a blind nil fails and the contract is set: two lost bids,
    // and the run is over after this hand.
    let hand4 = [(Bid::Tricks(6), 4), (Bid::BlindNil, 2)];
    assert_eq!(cost(&rules, &hand4), 2);
    assert_eq!(lives_after(lives, cost(&rules, &hand4)), 0);
}

/// `failed_nil_costs_life = false`: only a set contract costs a life.
#[test]
fn a_failed_nil_can_be_left_free() {
    let rules = quick(Mode::Partnership, 3, false);
    assert_eq!(cost(&rules, &[(Bid::Tricks(5), 6), (Bid::Nil, 1)]), 0);
    assert_eq!(cost(&rules, &[(Bid::Tricks(6), 4), (Bid::BlindNil, 2)]), 1);
    // Alone (cutthroat and individual), the player's own bid is the side's.
    let alone = quick(Mode::Cutthroat, 3, true);
    let seats = [(Seat::new(0), Bid::Tricks(6), 5)];
    assert_eq!(
        lives_lost(&alone, &score_side(&alone, &seats, SideTotals::default())),
        1
    );
}

/// The `lives` of each `score` event, in order.
fn lives_line(events: &[Event]) -> Vec<Option<u8>> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Score { lives, .. } => Some(*lives),
            _ => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(config(64))]

    /// A run goes on while the player's side has lives, ends after the
    /// hand that takes the last one, and its record checks out.
    #[test]
    fn a_run_ends_exactly_when_the_last_life_is_lost(
        mode in any_mode(),
        lives in 1..=3u8,
        nil_costs in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rules = quick(mode, lives, nil_costs);
        let game = random_game(rules, seed, 300);
        prop_assert!(game.finished, "seed {seed}: the run never ended");
        let report = check_record(&game.record());
        prop_assert!(report.is_ok(), "seed {seed}: {}", report.describe());
        let left: Vec<u8> = lives_line(&game.events).into_iter().map(|l| l.expect("lives")).collect();
        prop_assert_eq!(left.last().copied(), Some(0));
        prop_assert!(left[..left.len() - 1].iter().all(|&l| l > 0), "{left:?}");
        prop_assert!(left.windows(2).all(|w| w[1] <= w[0]), "{left:?}");
    }

    /// `game.hands`: the game ends after that many hands when one side
    /// leads alone, and otherwise plays on.
    #[test]
    fn the_hand_limit_ends_the_game(mode in any_mode(), hands in 1..=4u32, seed in any::<u64>()) {
        let rules = Rules::classic(mode)
            .with(|r| {
                r.target_score = 100_000;
                r.game.hands = hands;
            })
            .expect("valid rules");
        let game = random_game(rules, seed, 40);
        let report = check_record(&game.record());
        prop_assert!(report.is_ok(), "seed {seed}: {}", report.describe());
        let scores: Vec<&Vec<spades::engine::SideRecord>> = game
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Score { sides, .. } => Some(sides),
                _ => None,
            })
            .collect();
        prop_assert!(game.finished);
        prop_assert!(scores.len() >= hands as usize);
        // Every hand past the limit was played because the lead was shared.
        for sides in &scores[hands as usize - 1..scores.len() - 1] {
            let best = sides.iter().map(|s| s.score).max();
            prop_assert!(sides.iter().filter(|s| Some(s.score) == best).count() > 1);
        }
        prop_assert!(lives_line(&game.events).iter().all(Option::is_none));
    }
}

fn lines(text: &str) -> Vec<Value> {
    support::record::json_lines(text)
}

fn text(lines: &[Value]) -> String {
    support::record::record_text(lines)
}

/// A finished run of random bots with 2 lives, as record lines.
fn a_run() -> Vec<Value> {
    let game = random_game(quick(Mode::Partnership, 2, true), 11, 300);
    assert!(game.finished);
    lines(&game.record())
}

#[test]
fn the_checker_catches_lives_miscounted_missing_or_out_of_place() {
    let run = a_run();
    assert!(check_record(&text(&run)).is_ok());
    let first_score = run
        .iter()
        .position(|l| l["event"] == "score")
        .expect("a score line");

    let mut wrong = run.clone();
    let said = wrong[first_score]["lives"].as_i64().unwrap();
    wrong[first_score]["lives"] = Value::from(said + 1);
    let report = check_record(&text(&wrong));
    assert!(
        report.has(first_score + 1, "`lives`"),
        "{}",
        report.describe()
    );

    let mut missing = run.clone();
    missing[first_score]
        .as_object_mut()
        .unwrap()
        .remove("lives");
    let report = check_record(&text(&missing));
    assert!(
        report.has(first_score + 1, "no `lives`"),
        "{}",
        report.describe()
    );

    // The same record read as a game to the target: `lives` has no place.
    let mut standard = run.clone();
    standard[0]["rules"]["game"]["kind"] = Value::from("standard");
    assert!(!check_record(&text(&standard)).is_ok());

    // One more life in the rules: the run ended a life too soon.
    let mut more = run;
    more[0]["rules"]["game"]["lives"] = Value::from(3);
    assert!(!check_record(&text(&more)).is_ok());
}

#[test]
fn old_records_without_game_rules_still_check() {
    let game = random_game(support::game::short(Mode::Partnership, 100), 5, 60);
    let mut old = lines(&game.record());
    old[0]["rules"].as_object_mut().unwrap().remove("game");
    let report = check_record(&text(&old));
    assert!(report.is_ok(), "{}", report.describe());
}

#[test]
fn the_table_shows_lives_and_the_run_over_screen() {
    let mut app = finished_game_with(|config| {
        config.game.rules = quick(Mode::Partnership, 2, true);
    });
    assert_eq!(app.view().phase, Phase::Over);
    assert_eq!(app.screen(), Screen::GameOver);
    assert_eq!(app.view().lives_left, Some(0));
    insta::assert_snapshot!("quick_run_over_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn the_score_bar_shows_the_lives_left() {
    let mut app = support::tui::app({
        let mut config = support::tui::config(Mode::Partnership, 7);
        config.game.rules = quick(Mode::Partnership, 3, true);
        config
    });
    let top = screen_text(&mut app, 80, 24);
    let bar = top.lines().next().unwrap_or_default();
    assert!(bar.contains("Quick Play, Lives 3/3"), "{bar}");
}
