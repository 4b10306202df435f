//! The bidding house rules in random games: the keys on, alone and
//! together, each record through the independent checker; errors planted
//! in records that the checker must find; and the keys read from
//! `rules.toml`.

use proptest::prelude::*;
use spades::engine::{Bid, BiddingGame, Event, Mode, Phase, Rules};
use support::checker::check_record;
use support::proptest_seed::config;
use support::record::random_game;

use super::bidding::rules;

// ------------------------------------------------------------------ random games

/// The bidding keys, any of them on, any together, in a short game.
fn any_bidding_rules() -> impl Strategy<Value = Rules> {
    let mode = prop_oneof![
        3 => Just(Mode::Partnership),
        1 => Just(Mode::Cutthroat),
        1 => Just(Mode::Individual),
    ];
    let game = prop_oneof![
        Just(BiddingGame::Classic),
        Just(BiddingGame::Mirror),
        Just(BiddingGame::Suicide),
        Just(BiddingGame::Whiz),
    ];
    (
        mode,
        game,
        (1..=3u8, 0..=6u8, 0..=11u8, 1..=6u8),
        (any::<bool>(), 1..=9u8, 0..=120i32),
        (0..=200i32, any::<bool>(), 0..=3u8, any::<bool>()),
    )
        .prop_map(
            |(
                mode,
                game,
                (min_bid, board, double_at, suicide_min),
                (blind, blind_min, blind_deficit),
                (bonus, wins_game, pass, exact),
            )| {
                let partners = mode.has_partners();
                let game = if game == BiddingGame::Suicide && !partners {
                    BiddingGame::Classic
                } else {
                    game
                };
                let classic = game == BiddingGame::Classic;
                Rules::classic(mode)
                    .with(|r| {
                        r.target_score = 200;
                        r.losing_score = Some(-200);
                        r.bidding.game = game;
                        r.bidding.min_bid = if game.counts_spades() { 1 } else { min_bid };
                        r.bidding.board = if partners && !game.counts_spades() {
                            board
                        } else {
                            0
                        };
                        r.bidding.double_at = double_at;
                        r.bidding.suicide_min = suicide_min;
                        r.bidding.forbid_exact_total = exact && classic;
                        r.blind_bid.allowed = blind && classic;
                        r.blind_bid.min = blind_min;
                        r.blind_bid.min_deficit = blind_deficit;
                        r.blind_nil.min_deficit = blind_deficit;
                        r.boston.bonus = bonus;
                        r.boston.wins_game = wins_game;
                        r.nil.pass = if partners { pass } else { 0 };
                    })
                    .expect("valid rules")
            },
        )
}

proptest! {
    #![proptest_config(config(120))]

    /// Random bots under any bidding keys: every record passes the checker,
    /// which re-derives the offered and forced bids, the nil pass and the
    /// scoring on its own.
    #[test]
    fn games_under_the_bidding_keys_pass_the_checker(
        rules in any_bidding_rules(),
        seed in any::<u64>(),
    ) {
        let game = random_game(rules, seed, 60);
        let report = check_record(&game.record());
        prop_assert!(report.is_ok(), "seed {seed} rules {rules:?}\n{}", report.describe());
        for event in &game.events {
            if let Event::Bid { bid, .. } = event {
                let json = serde_json::to_string(bid).unwrap();
                prop_assert_eq!(&serde_json::from_str::<Bid>(&json).unwrap(), bid);
            }
        }
    }
}

/// Every bot level bids legally in every bidding game: a table refuses an
/// illegal action, so a game that runs to its end proves it.
#[test]
fn every_level_plays_every_bidding_game() {
    use spades::fairness::Dealing;
    use spades::table::{Player, Table};
    for game in BiddingGame::ALL {
        for level in ["easy", "normal", "hard@40"] {
            let r = rules(|r| {
                r.bidding.game = game;
                r.target_score = 150;
                r.losing_score = Some(-150);
                r.nil.pass = 2;
                if game == BiddingGame::Classic {
                    r.bidding.board = 4;
                    r.bidding.double_at = 9;
                    r.blind_bid.allowed = true;
                }
            });
            let players = (0..4)
                .map(|_| Player::Bot(support::bot(level).expect("a level")))
                .collect();
            let mut table = Table::new(r, Dealing::Open(17), players);
            let mut steps = 0;
            while table.phase() != Phase::Over && table.hand_no() <= 3 {
                let Some(step) = table.step_bot() else { break };
                step.unwrap_or_else(|e| panic!("{game} {level}: {e}"));
                steps += 1;
            }
            assert!(steps > 50, "{game} {level}: the game ran");
        }
    }
}

// ------------------------------------------------------------------ planted errors

/// The record of a short game under `r`, as lines of JSON.
fn record_lines(r: Rules, seed: u64) -> Vec<serde_json::Value> {
    let game = random_game(r, seed, 3);
    game.record()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn checked(lines: &[serde_json::Value]) -> support::checker::Report {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    check_record(&text)
}

fn first(lines: &[serde_json::Value], event: &str) -> usize {
    lines
        .iter()
        .position(|l| l["event"] == event)
        .unwrap_or_else(|| panic!("no {event} line"))
}

#[test]
fn the_checker_finds_a_mirror_bid_that_is_not_the_spade_count() {
    let r = rules(|r| r.bidding.game = BiddingGame::Mirror);
    let mut lines = record_lines(r, 4);
    assert!(checked(&lines).is_ok(), "{}", checked(&lines).describe());
    let at = first(&lines, "bid");
    let wrong = if lines[at]["bid"] == 5 { 6 } else { 5 };
    lines[at]["bid"] = wrong.into();
    assert!(
        checked(&lines).has(at + 1, "mirror"),
        "{}",
        checked(&lines).describe()
    );
}

#[test]
fn the_checker_finds_a_suicide_side_with_two_numbers() {
    let r = rules(|r| r.bidding.game = BiddingGame::Suicide);
    let mut lines = record_lines(r, 5);
    assert!(checked(&lines).is_ok(), "{}", checked(&lines).describe());
    // The third bid is the first bidder's partner's: make it a second number
    // or a nil beside a nil, whichever breaks the rule.
    let at = first(&lines, "bid") + 2;
    let partner = lines[at - 2]["bid"].clone();
    lines[at]["bid"] = if partner == "nil" {
        "nil".into()
    } else {
        4.into()
    };
    assert!(
        checked(&lines).has(at + 1, "suicide"),
        "{}",
        checked(&lines).describe()
    );
}

#[test]
fn the_checker_finds_a_board_not_reached_and_a_bid_below_min_bid() {
    let r = rules(|r| {
        r.bidding.board = 13;
        r.bidding.min_bid = 2;
    });
    let mut lines = record_lines(r, 6);
    assert!(checked(&lines).is_ok(), "{}", checked(&lines).describe());
    let at = first(&lines, "bid") + 2;
    lines[at]["bid"] = 1.into();
    let report = checked(&lines);
    assert!(report.has(at + 1, "board of 13"), "{}", report.describe());
    assert!(report.has(at + 1, "min_bid"), "{}", report.describe());
}

#[test]
fn the_checker_scores_ten_for_two_hundred_and_the_boston_bonus() {
    // Every side bids at least 2 and 2: with double_at 1, every contract
    // is doubled, so a record scored the classic way is wrong.
    let r = rules(|r| r.bidding.double_at = 1);
    let lines = record_lines(r, 7);
    assert!(checked(&lines).is_ok(), "{}", checked(&lines).describe());
    let classic = record_lines(Rules::default(), 7);
    let mut planted = classic.clone();
    planted[0]["rules"]["bidding"]["double_at"] = 1.into();
    let at = first(&planted, "score");
    assert!(
        checked(&planted).has(at + 1, "points"),
        "{}",
        checked(&planted).describe()
    );
    // The Boston's bonus on a hand with no Boston is not scored.
    let mut bonus = classic;
    bonus[0]["rules"]["boston"] = serde_json::json!({"bonus": 500, "wins_game": true});
    assert!(checked(&bonus).is_ok(), "{}", checked(&bonus).describe());
}

#[test]
fn the_checker_finds_a_nil_pass_of_the_wrong_size_or_missing() {
    let r = rules(|r| r.nil.pass = 2);
    // A game whose first hand has a lone plain nil on a side.
    let lines = (0..200)
        .map(|seed| record_lines(r, seed))
        .find(|lines| lines.iter().any(|l| l["event"] == "exchange"))
        .expect("a nil pass among 200 games");
    assert!(checked(&lines).is_ok(), "{}", checked(&lines).describe());
    let at = first(&lines, "exchange");
    let mut short = lines.clone();
    let one = short[at]["cards"][0].clone();
    short[at]["cards"] = serde_json::json!([one]);
    assert!(
        checked(&short).has(at + 1, "the rules say 2"),
        "{}",
        checked(&short).describe()
    );
    // Read as a record without the pass: the exchange is not owed.
    let mut without = lines;
    without[0]["rules"]["nil"]["pass"] = 0.into();
    assert!(!checked(&without).is_ok());
}

#[test]
fn an_old_record_without_the_new_keys_reads_as_the_classic_game() {
    let mut lines = record_lines(Rules::default(), 8);
    let rules = lines[0]["rules"].as_object_mut().unwrap();
    rules.remove("blind_bid");
    rules.remove("boston");
    rules["nil"].as_object_mut().unwrap().remove("pass");
    for key in ["min_bid", "board", "double_at", "game", "suicide_min"] {
        rules["bidding"].as_object_mut().unwrap().remove(key);
    }
    assert!(checked(&lines).is_ok(), "{}", checked(&lines).describe());
}

// ------------------------------------------------------------------ rules.toml

#[test]
fn the_bidding_keys_read_from_rules_toml_and_bad_values_name_their_key() {
    use spades::config::parse_rules;
    let text =
        "[bidding]\ngame = \"suicide\"\nboard = 5\n\n[boston]\nbonus = 250\n\n[nil]\npass = 1\n";
    let r = parse_rules(text, "rules.toml").expect("valid rules");
    assert_eq!(r.bidding.game, BiddingGame::Suicide);
    assert_eq!((r.bidding.board, r.boston.bonus, r.nil.pass), (5, 250, 1));
    assert_eq!(r.suicide_number(), 5);
    let e = parse_rules("[bidding]\ngame = \"lowball\"\n", "rules.toml").unwrap_err();
    assert_eq!(
        e.to_string(),
        "rules.toml:2:8: `bidding.game`: expected \"classic\", \"mirror\", \"suicide\" or \"whiz\", found the text \"lowball\""
    );
    let e = parse_rules("mode = \"cutthroat\"\n[bidding]\nboard = 4\n", "rules.toml").unwrap_err();
    assert_eq!(e.position.map(|p| p.0), Some(3), "{e}");
    assert!(e.message.contains("bidding.board"), "{e}");
    let e = parse_rules("[blind_bid]\nmin = -1\n", "rules.toml").unwrap_err();
    assert!(e.message.contains("blind_bid.min"), "{e}");
    // What `spades rules --init` writes reads back as the same rules.
    let written = spades::config::commented_toml(&r);
    assert_eq!(parse_rules(&written, "r").unwrap(), r);
}
