//! Properties over thousands of seeded games between random bots, in every
//! mode and under house rules: every deal is the deck, every play is legal,
//! every hand has its tricks, the score lines add up, the game ends when it
//! should, the record passes the independent checker, and the record's
//! types survive serialisation.
//!
//! Games per `cargo test`: the `GAMES_*` constants below, 3 × 400 + 300 +
//! 300 + 2 × 50 + 100 = 2,000.
//! Random bots rarely make their contracts, so every game here has a short
//! target and a losing score; a game still going after `MAX_HANDS` hands is
//! recorded as abandoned (which the checker accepts) rather than run on.
//!
//! Cases come from a fixed seed, printed at the start of each test, which
//! `PROPTEST_RNG_SEED` replaces (`support::proptest_seed`); a failure prints
//! the game's seed and rules, and is saved to
//! `tests/engine/properties.proptest-regressions` to be tried first next time.

use proptest::prelude::*;
use spades::bots::random::RandomBot;
use spades::bots::{bot_rng, decide};
use spades::engine::rules::{BagRules, BiddingRules, BlindNilRules, GameKind, GameRules, NilRules};
use spades::engine::{
    Bid, Card, CardSet, Decision, Event, Game, Mode, RuleSettings, Rules, Seat, Suit,
};
use spades::record::RecordLine;
use support::checker::check_record;
use support::proptest_seed::{any_mode, config};
use support::record::{Played, random_game};

const MAX_HANDS: u32 = 300;
const GAMES_PER_MODE: u32 = 400;
const GAMES_HOUSE_RULES: u32 = 300;
const GAMES_ANY_RULES: u32 = 300;
const GAMES_REPLAYED: u32 = 50;
const GAMES_OFFERS: u32 = 100;

/// The classic rules of a mode, cut short so random bots finish.
fn short(mode: Mode) -> Rules {
    support::game::short(mode, 200)
}

/// House rules (those of `seed_examples`' 000, and more): three-card
/// exchange, both partners may bid blind nil, the last bid may not make the
/// total, 5 bags cost 50.
fn house(mode: Mode) -> Rules {
    Rules::new(RuleSettings {
        target_score: 200,
        losing_score: Some(-200),
        bags: BagRules {
            limit: 5,
            penalty: 50,
        },
        blind_nil: BlindNilRules {
            exchange: 3,
            one_per_side: false,
            ..BlindNilRules::default()
        },
        bidding: BiddingRules {
            // With a dummy the bids are never added up.
            forbid_exact_total: mode != Mode::Dummy,
            ..BiddingRules::default()
        },
        ..RuleSettings::classic(mode)
    })
    .expect("valid rules")
}

/// Any mode, the dummy's included.
fn any_table_mode() -> impl Strategy<Value = Mode> {
    prop_oneof![any_mode(), Just(Mode::Dummy)]
}

/// Any rules a game can be played with. `losing` is `None` only where asked:
/// random bots need a losing score to finish.
fn any_rules(losing: impl Strategy<Value = Option<i32>>) -> impl Strategy<Value = Rules> {
    let scores = (any_table_mode(), 50..=300i32, losing);
    let bags = (1..=12i32, 0..=150i32).prop_map(|(limit, penalty)| BagRules { limit, penalty });
    let nil = (any::<bool>(), 0..=150i32).prop_map(|(allowed, value)| NilRules {
        allowed,
        value,
        ..NilRules::default()
    });
    let blind_nil = (
        any::<bool>(),
        0..=300i32,
        0..=150i32,
        any::<bool>(),
        0..=4u8,
    )
        .prop_map(
            |(allowed, value, min_deficit, one_per_side, exchange)| BlindNilRules {
                allowed,
                value,
                min_deficit,
                one_per_side,
                exchange,
            },
        );
    let bidding = any::<bool>().prop_map(|forbid_exact_total| BiddingRules {
        forbid_exact_total,
        ..BiddingRules::default()
    });
    let game = (
        any::<bool>(),
        1..=3u8,
        any::<bool>(),
        prop_oneof![Just(0u32), 1..=6u32],
    )
        .prop_map(|(quick, lives, failed_nil_costs_life, hands)| GameRules {
            kind: if quick {
                GameKind::Quick
            } else {
                GameKind::Standard
            },
            lives,
            failed_nil_costs_life,
            hands,
        });
    (scores, bags, nil, blind_nil, bidding, game).prop_map(
        |((mode, target_score, losing_score), bags, nil, blind_nil, bidding, game)| {
            // With a dummy the bids are never added up: no exact-total rule.
            let bidding = BiddingRules {
                forbid_exact_total: bidding.forbid_exact_total && mode != Mode::Dummy,
                ..bidding
            };
            Rules::new(RuleSettings {
                mode,
                target_score,
                losing_score,
                bags,
                nil,
                blind_nil,
                bidding,
                game,
                ..RuleSettings::classic(mode)
            })
            .expect("valid rules")
        },
    )
}

fn any_bid() -> impl Strategy<Value = Bid> {
    prop_oneof![
        (1..=17u8).prop_map(Bid::Tricks),
        Just(Bid::Nil),
        Just(Bid::BlindNil)
    ]
}

/// Everything that must hold of one game, checked from its events and its
/// record.
fn check_game(game: &Played) -> Result<(), TestCaseError> {
    let rules = &game.rules;
    let mode = rules.mode;
    let (n, size) = (mode.seats(), mode.hand_size());
    let context = format!("{mode} seed {} rules {rules:?}", game.seed);

    // The record of the game passes the independent checker.
    let record = game.record();
    let report = check_record(&record);
    prop_assert!(report.is_ok(), "{context}\n{}", report.describe());

    let mut scores = vec![0; mode.sides()];
    let mut bags = vec![0; mode.sides()];
    let mut winners: Vec<usize> = Vec::new();
    let mut hands = 0;
    let mut ended = None;
    for event in &game.events {
        // Every event survives its record line.
        let json = RecordLine::of(event).json();
        let line: RecordLine = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&line.event().unwrap(), event);
        prop_assert!(ended.is_none(), "{context}: an event after the end");
        match event {
            Event::Deal {
                hands: dealt, out, ..
            } => {
                // The whole deck, split as the mode says.
                prop_assert_eq!(dealt.len(), n);
                let mut all = *out;
                for h in dealt {
                    prop_assert_eq!(h.len() as usize, size, "{}", context);
                    prop_assert!(all.intersect(*h).is_empty(), "{context}: dealt twice");
                    all |= *h;
                }
                prop_assert_eq!(out.len() as usize, 52 - n * size);
                prop_assert_eq!(all, CardSet::DECK);
                winners.clear();
                hands += 1;
            }
            Event::Trick { trick, winner, .. } => {
                winners.push(winner.index());
                prop_assert_eq!(*trick as usize, winners.len());
            }
            Event::Score { tricks, sides, .. } => {
                // Every card played: 13 (17) tricks, each won by someone.
                prop_assert_eq!(winners.len(), size, "{}", context);
                prop_assert_eq!(tricks.iter().map(|&t| t as usize).sum::<usize>(), size);
                for (seat, &t) in tricks.iter().enumerate() {
                    let won = winners.iter().filter(|&&w| w == seat).count();
                    prop_assert_eq!(t as usize, won);
                }
                prop_assert_eq!(sides.len(), mode.sides());
                for (i, s) in sides.iter().enumerate() {
                    prop_assert_eq!(scores[i] + s.points, s.score, "{}", context);
                    prop_assert!((0..rules.bags.limit).contains(&s.bags), "{context}");
                    let reached = (bags[i] + s.bags_added) / rules.bags.limit;
                    prop_assert_eq!(bags[i] + s.bags_added - reached * rules.bags.limit, s.bags);
                    prop_assert_eq!(s.penalty, reached * rules.bags.penalty);
                    prop_assert!(s.bags_added >= 0 && s.bags_added <= size as i32);
                    scores[i] = s.score;
                    bags[i] = s.bags;
                }
            }
            Event::End {
                winner,
                scores: last,
            } => {
                prop_assert_eq!(last, &scores);
                let best = *scores.iter().max().unwrap();
                prop_assert_eq!(scores[winner.index()], best);
                // A Quick Play run ends with its last life whatever the
                // scores: level leaders go to the lowest-numbered side.
                let first_best = scores.iter().position(|&s| s == best);
                if rules.is_quick() {
                    prop_assert_eq!(Some(winner.index()), first_best);
                } else {
                    prop_assert_eq!(scores.iter().filter(|&&s| s == best).count(), 1);
                }
                ended = Some(*winner);
            }
            Event::Bid { .. } | Event::Exchange { .. } | Event::Play { .. } => {}
        }
    }
    prop_assert_eq!(ended.is_some(), game.finished, "{}", context);
    prop_assert!(hands >= 1);
    Ok(())
}

proptest! {
    #![proptest_config(config(GAMES_PER_MODE))]

    #[test]
    fn partnership_games_are_legal_and_scored_right(seed in any::<u64>()) {
        check_game(&random_game(short(Mode::Partnership), seed, MAX_HANDS))?;
    }

    #[test]
    fn cutthroat_games_are_legal_and_scored_right(seed in any::<u64>()) {
        check_game(&random_game(short(Mode::Cutthroat), seed, MAX_HANDS))?;
    }

    #[test]
    fn individual_games_are_legal_and_scored_right(seed in any::<u64>()) {
        check_game(&random_game(short(Mode::Individual), seed, MAX_HANDS))?;
    }

    #[test]
    fn dummy_games_are_legal_and_scored_right(seed in any::<u64>()) {
        check_game(&random_game(short(Mode::Dummy), seed, MAX_HANDS))?;
    }
}

proptest! {
    #![proptest_config(config(GAMES_HOUSE_RULES))]

    #[test]
    fn house_rules_games_are_legal_and_scored_right(
        mode in any_table_mode(),
        seed in any::<u64>(),
    ) {
        check_game(&random_game(house(mode), seed, MAX_HANDS))?;
    }
}

proptest! {
    #![proptest_config(config(GAMES_ANY_RULES))]

    #[test]
    fn games_under_any_rules_are_legal_and_scored_right(
        rules in any_rules((-300..=-50i32).prop_map(Some)),
        seed in any::<u64>(),
    ) {
        check_game(&random_game(rules, seed, MAX_HANDS))?;
    }
}

/// The bids the rules allow `seat` now, worked out from the events alone:
/// `deficit` is how far its side trailed the leading other side at the deal.
fn bids_the_rules_allow(
    rules: &Rules,
    seat: usize,
    bids: &[(usize, Bid)],
    deficit: i32,
) -> Vec<Bid> {
    let mode = rules.mode;
    let size = mode.hand_size() as u8;
    let partner_blind = mode
        .partner(Seat::new(seat))
        .is_some_and(|p| bids.contains(&(p.index(), Bid::BlindNil)));
    // With a dummy every bid is a team total: never nil.
    let team_totals = mode == Mode::Dummy;
    let blind = rules.blind_nil.allowed
        && !team_totals
        && deficit >= rules.blind_nil.min_deficit
        && !(rules.blind_nil.one_per_side && partner_blind);
    let last = bids.len() + 1 == mode.seats();
    let others: u8 = bids.iter().map(|(_, b)| b.tricks()).sum();
    (1..=size)
        .map(Bid::Tricks)
        .chain((rules.nil.allowed && !team_totals).then_some(Bid::Nil))
        .chain(blind.then_some(Bid::BlindNil))
        .filter(|b| !(rules.bidding.forbid_exact_total && last && others + b.tricks() == size))
        .collect()
}

/// The cards the rules allow from `hand`: follow the suit led if able;
/// lead a spade only once spades are broken or when holding nothing else.
fn plays_the_rules_allow(hand: CardSet, led: Option<Suit>, broken: bool) -> CardSet {
    let spades = CardSet::of_suit(Suit::Spades);
    match led {
        Some(suit) if hand.has_suit(suit) => hand.suit(suit),
        Some(_) => hand,
        None if broken || hand.minus(spades).is_empty() => hand,
        None => hand.minus(spades),
    }
}

/// Plays a game between random bots, checking before every bid and card
/// that the engine offers exactly what the rules allow: no more (an illegal
/// move) and no less (a legal move refused).
fn check_offers(rules: Rules, seed: u64) -> Result<(), TestCaseError> {
    let mode = rules.mode;
    // The engine itself, as the table drives it, with every seat a bot.
    let mut game = Game::new(rules, seed);
    let mut rngs: Vec<_> = mode.each_seat().map(|s| bot_rng(seed, s)).collect();
    let mut scores = vec![0i32; mode.sides()];
    let mut at_deal = scores.clone();
    let mut bids: Vec<(usize, Bid)> = Vec::new();
    let mut trick: Vec<Card> = Vec::new();
    let mut broken = false;
    // Seats that were offered blind nil and looked at their cards instead.
    let mut looked = vec![false; mode.seats()];
    let mut hands = 0;
    loop {
        // Between hands the next is dealt; after the last, the game is over.
        let events = match game.to_act() {
            Some(turn) => {
                let view = game.view(turn.seat);
                let context = format!(
                    "{mode} seed {seed} hand {} seat {}",
                    view.hand_no, turn.seat
                );
                match turn.decision {
                    Decision::BlindNil | Decision::Bid => {
                        let seat = turn.seat.index();
                        let side = mode.side_of(turn.seat).index();
                        let best_other = (0..mode.sides())
                            .filter(|&o| o != side)
                            .map(|o| at_deal[o])
                            .max();
                        let deficit = (best_other.unwrap_or(0) - at_deal[side]).max(0);
                        let mut allowed = bids_the_rules_allow(&rules, seat, &bids, deficit);
                        // Blind nil is decided before the cards are seen: a seat
                        // that declined it has looked and may no longer bid it.
                        if looked[seat] {
                            allowed.retain(|&b| b != Bid::BlindNil);
                        }
                        let blind = allowed.contains(&Bid::BlindNil);
                        prop_assert_eq!(turn.decision == Decision::BlindNil, blind, "{}", context);
                        prop_assert_eq!(view.hand.is_none(), blind, "{}", context);
                        prop_assert_eq!(view.allowed_bids(), allowed, "{}", context);
                        looked[seat] |= blind;
                    }
                    Decision::Play => {
                        let led = trick.first().map(|c| c.suit());
                        let want = plays_the_rules_allow(view.cards(), led, broken);
                        prop_assert_eq!(view.legal_plays(), want, "{}", context);
                    }
                    Decision::Exchange => {}
                }
                let rng = &mut rngs[turn.seat.index()];
                let action = decide(&mut RandomBot, turn.decision, &view, rng);
                game.apply(turn.seat, action).expect("a legal action")
            }
            None => match game.deal_next_hand() {
                Some(deal) => vec![deal],
                None => break,
            },
        };
        for e in events {
            match e {
                Event::Deal { .. } => {
                    at_deal = scores.clone();
                    bids.clear();
                    looked.fill(false);
                    broken = false;
                    hands += 1;
                }
                Event::Bid { seat, bid, .. } => bids.push((seat.index(), bid)),
                Event::Play { card, .. } => {
                    broken |= card.suit() == Suit::Spades;
                    trick.push(card);
                }
                Event::Trick { .. } => trick.clear(),
                Event::Score { sides, .. } => {
                    scores = sides.iter().map(|s| s.score).collect();
                }
                _ => {}
            }
        }
        if hands >= MAX_HANDS {
            break;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(GAMES_OFFERS))]

    #[test]
    fn the_engine_offers_exactly_the_bids_and_cards_the_rules_allow(
        rules in prop_oneof![
            any_table_mode().prop_map(short),
            any_table_mode().prop_map(house),
            any_rules((-300..=-50i32).prop_map(Some)),
        ],
        seed in any::<u64>(),
    ) {
        check_offers(rules, seed)?;
    }
}

proptest! {
    #![proptest_config(config(GAMES_REPLAYED))]

    /// A seed reproduces a game exactly: deals, bots' choices and all.
    #[test]
    fn a_seed_replays_the_same_game(mode in any_table_mode(), seed in any::<u64>()) {
        let a = random_game(short(mode), seed, MAX_HANDS);
        let b = random_game(short(mode), seed, MAX_HANDS);
        prop_assert_eq!(a.events, b.events);
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn cards_round_trip_through_notation_and_json(i in 0u8..52) {
        let card = Card::from_index(i).unwrap();
        prop_assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
        let json = serde_json::to_string(&card).unwrap();
        prop_assert_eq!(json.len(), 4, "two characters, quoted");
        prop_assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
    }

    #[test]
    fn card_sets_round_trip_through_json(bits in any::<u64>()) {
        let set = CardSet::from_bits_truncate(bits);
        let json = serde_json::to_string(&set).unwrap();
        prop_assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), set);
        let list: Vec<Card> = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(list.len() as u32, set.len());
        prop_assert!(list.windows(2).all(|w| w[0] < w[1]), "lowest first");
        prop_assert_eq!(set.to_string().parse::<CardSet>().unwrap(), set);
    }

    #[test]
    fn bids_round_trip_through_json(bid in any_bid()) {
        let json = serde_json::to_string(&bid).unwrap();
        prop_assert_eq!(serde_json::from_str::<Bid>(&json).unwrap(), bid);
    }

    #[test]
    fn rules_round_trip_through_toml_and_json(
        rules in any_rules(prop_oneof![Just(None), (-500..=-1i32).prop_map(Some)]),
    ) {
        let toml_text = toml::to_string(&rules).unwrap();
        prop_assert_eq!(toml::from_str::<Rules>(&toml_text).unwrap(), rules);
        let json = serde_json::to_string(&rules).unwrap();
        prop_assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
    }
}

/// The record's `rules` object has exactly the keys and nesting of
/// rules.toml, every key present (`losing_score` null when unset).
#[test]
fn rules_serialise_to_every_key_of_rules_toml() {
    let value = serde_json::to_value(Rules::default()).unwrap();
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&value),
        [
            "bags",
            "bidding",
            "blind_bid",
            "blind_nil",
            "boston",
            "deck",
            "game",
            "losing_score",
            "mode",
            "nil",
            "play",
            "scoring",
            "target_score"
        ]
    );
    assert_eq!(keys(&value["bags"]), ["limit", "penalty"]);
    assert_eq!(
        keys(&value["nil"]),
        ["allowed", "failed_tricks_count", "pass", "value"]
    );
    assert_eq!(keys(&value["scoring"]), ["overtrick_points", "set_penalty"]);
    assert_eq!(
        keys(&value["play"]),
        ["first_lead", "spades_lead", "trump_first_trick"]
    );
    assert_eq!(
        keys(&value["blind_nil"]),
        [
            "allowed",
            "exchange",
            "min_deficit",
            "one_per_side",
            "value"
        ]
    );
    assert_eq!(
        keys(&value["bidding"]),
        [
            "board",
            "double_at",
            "forbid_exact_total",
            "game",
            "min_bid",
            "suicide_min"
        ]
    );
    assert_eq!(keys(&value["blind_bid"]), ["allowed", "min", "min_deficit"]);
    assert_eq!(keys(&value["boston"]), ["bonus", "wins_game"]);
    assert_eq!(
        keys(&value["game"]),
        ["failed_nil_costs_life", "hands", "kind", "lives"]
    );
    assert_eq!(keys(&value["deck"]), ["jokers"]);
    assert_eq!(value["deck"]["jokers"], "none");
    assert!(value["losing_score"].is_null());
    // An empty rules.toml is the classic game.
    assert_eq!(toml::from_str::<Rules>("").unwrap(), Rules::default());
}
