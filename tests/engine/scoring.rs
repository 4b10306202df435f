//! The house rules of scoring and play (`[scoring]`, `nil.failed_tricks_count`,
//! `[play]`): worked examples computed by hand, the play examples through
//! `Game::apply`, errors planted in records for the independent checker to
//! find, and random games under random settings of the keys checked by it.

use proptest::prelude::*;
use serde_json::Value;
use spades::bots::{Effort, Level};
use spades::engine::score::score_side;
use spades::engine::{
    Action, Bid, Card, CardSet, Deal, Decision, FirstLead, Game, Mode, PerSeat, Phase, PlayError,
    RuleError, RuleSettings, Rules, Seat, SetPenalty, SideTotals, SpadesLead,
};
use spades::fairness::Dealing;
use spades::record::MemoryRecord;
use spades::table::{Player, Table};
use support::checker::{Report, check_record};
use support::proptest_seed::config;
use support::record::random_game;

const ALEX: Seat = Seat::new(0);
const BETH: Seat = Seat::new(1);
const CHARLIE: Seat = Seat::new(2);
const DAVID: Seat = Seat::new(3);

fn set(s: &str) -> CardSet {
    s.parse().expect("cards")
}

fn card(s: &str) -> Card {
    s.parse().expect("a card")
}

fn n(k: u8) -> Bid {
    Bid::Tricks(k)
}

fn rules(change: impl FnOnce(&mut RuleSettings)) -> Rules {
    Rules::default().with(change).expect("valid rules")
}

/// One side's (points, bags added, score after, bags after) from `before`.
fn scored(rules: &Rules, seats: &[(Seat, Bid, u8)], before: (i32, i32)) -> (i32, i32, i32, i32) {
    let before = SideTotals {
        score: before.0,
        bags: before.1,
    };
    let s = score_side(rules, seats, before);
    (s.points, s.bags_added, s.score, s.bags)
}

// ------------------------------------------------------------- scoring

/// `set_penalty = "bid_and_short"`: Alex and Charlie bid 3 and 2 (5) and
/// take 2 and 1 (3): 2 short. -10 x 5 - 10 x 2 = -70 (classic: -50).
#[test]
fn a_set_side_loses_its_bid_and_ten_for_each_trick_short() {
    let short = rules(|r| r.scoring.set_penalty = SetPenalty::BidAndShort);
    let seats = [(ALEX, n(3), 2), (CHARLIE, n(2), 1)];
    assert_eq!(scored(&short, &seats, (100, 4)), (-70, 0, 30, 4));
    assert_eq!(scored(&Rules::default(), &seats, (100, 4)), (-50, 0, 50, 4));
    // Made exactly or over: no change. Bid 5, took 5: 50.
    let made = [(ALEX, n(3), 4), (CHARLIE, n(2), 1)];
    assert_eq!(scored(&short, &made, (0, 0)), (50, 0, 50, 0));
    // Set by one trick of 13: -130 - 10 = -140.
    assert_eq!(
        scored(&short, &[(ALEX, n(13), 12)], (0, 0)),
        (-140, 0, -140, 0)
    );
}

/// `overtrick_points = 0`: bid 4, took 6: 40 points and 2 bags (classic
/// 42). The bags still count toward the penalty: from 9 bags, 11 reach the
/// limit of 10: -100, 1 bag carried, the hand 40 - 100 = -60.
#[test]
fn overtricks_score_nothing_but_are_still_bags() {
    let none = rules(|r| r.scoring.overtrick_points = 0);
    let seats = [(ALEX, n(4), 6)];
    assert_eq!(scored(&none, &seats, (0, 0)), (40, 2, 40, 2));
    assert_eq!(scored(&Rules::default(), &seats, (0, 0)), (42, 2, 42, 2));
    assert_eq!(scored(&none, &seats, (200, 9)), (-60, 2, 140, 1));
}

/// `nil.failed_tricks_count`: Alex bids 4 and takes 3; Charlie bids nil
/// and takes 2. The nil is lost (-100) and its 2 tricks count toward
/// Alex's 4: 5 of 4, 40 + 1 = 41, 1 bag. The hand: -59, 1 bag. Classic:
/// the contract is set (-40) and the nil's 2 tricks are bags: -140, 2 bags.
#[test]
fn a_failed_nils_tricks_count_toward_the_partners_contract() {
    let counted = rules(|r| r.nil.failed_tricks_count = true);
    let seats = [(ALEX, n(4), 3), (CHARLIE, Bid::Nil, 2)];
    assert_eq!(scored(&counted, &seats, (0, 0)), (-59, 1, -59, 1));
    assert_eq!(
        scored(&Rules::default(), &seats, (0, 0)),
        (-140, 2, -140, 2)
    );
    // All of them over the contract: bid 3, took 5, the nil 1: 6 of 3,
    // 30 + 3 = 33, 3 bags; the hand 33 - 100 = -67 (classic 32 - 100, 3 bags).
    let over = [(ALEX, n(3), 5), (CHARLIE, Bid::Nil, 1)];
    assert_eq!(scored(&counted, &over, (0, 0)), (-67, 3, -67, 3));
    assert_eq!(scored(&Rules::default(), &over, (0, 0)), (-68, 3, -68, 3));
    // A blind nil's tricks too: bid 5, took 4, the blind nil 1: made, 50,
    // -200: -150, no bag.
    let blind = [(ALEX, n(5), 4), (CHARLIE, Bid::BlindNil, 1)];
    assert_eq!(scored(&counted, &blind, (0, 0)), (-150, 0, -150, 0));
    // A made nil changes nothing; two nils have no contract, so their
    // tricks are bags: +100 - 100, 3 bags.
    let made = [(ALEX, n(4), 4), (CHARLIE, Bid::Nil, 0)];
    assert_eq!(scored(&counted, &made, (0, 0)), (140, 0, 140, 0));
    let nils = [(ALEX, Bid::Nil, 0), (CHARLIE, Bid::Nil, 3)];
    assert_eq!(scored(&counted, &nils, (0, 0)), (0, 3, 0, 3));
}

/// The three together: Alex bids 6 and takes 2, Charlie's nil takes 1.
/// 3 of 6 counted, 3 short: -60 - 30 = -90, the nil -100: -190, and the
/// nil's trick went to the contract, so no bag (classic: -160, 1 bag).
#[test]
fn the_scoring_rules_combine() {
    let all = rules(|r| {
        r.scoring.overtrick_points = 0;
        r.scoring.set_penalty = SetPenalty::BidAndShort;
        r.nil.failed_tricks_count = true;
    });
    let seats = [(ALEX, n(6), 2), (CHARLIE, Bid::Nil, 1)];
    assert_eq!(scored(&all, &seats, (0, 0)), (-190, 0, -190, 0));
    assert_eq!(
        scored(&Rules::default(), &seats, (0, 0)),
        (-160, 1, -160, 1)
    );
}

// ------------------------------------------------------------- play

/// A game on one deal of the whole deck, `dealer` dealing.
fn game_on(rules: Rules, dealer: Seat, hands: [&str; 4]) -> Game {
    let hands = PerSeat::from_slice(&hands.map(set)).expect("four hands");
    let held = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
    assert_eq!(held, CardSet::DECK, "the example deals the whole deck");
    let deal = Deal {
        hands,
        out: CardSet::EMPTY,
    };
    Game::with_deals(rules, dealer, vec![deal])
}

/// Every seat bids 3 (a seat offered blind nil looks first).
fn bid_threes(game: &mut Game) {
    while game.phase() == Phase::Bidding {
        let turn = game.to_act().expect("a bidder");
        if turn.decision == Decision::BlindNil {
            game.apply(turn.seat, Action::Look).expect("may look");
        }
        game.apply(turn.seat, Action::Bid(n(3)))
            .expect("a legal bid");
    }
}

fn play(game: &mut Game, seat: Seat, c: &str) {
    game.apply(seat, Action::Play(card(c)))
        .unwrap_or_else(|e| panic!("{seat} plays {c}: {e}"));
}

/// Alex: the spades; Beth: the hearts; Charlie: the diamonds but the 2D,
/// with the 2C; David: the clubs but the 2C, with the 2D.
fn suits_apart() -> [&'static str; 4] {
    [
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2D 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ]
}

/// `first_lead = "two_of_clubs"`: whoever holds the 2C leads it. David
/// deals, so Alex would lead in the classic game; Charlie holds the 2C.
#[test]
fn the_holder_of_the_two_of_clubs_leads_it() {
    let two = rules(|r| r.play.first_lead = FirstLead::TwoOfClubs);
    let mut game = game_on(two, DAVID, suits_apart());
    // The bidding still starts at the dealer's left, and says nothing of
    // who will lead.
    assert_eq!(game.to_act().map(|t| t.seat), Some(ALEX));
    assert_eq!(game.hand_state().leader(), ALEX);
    bid_threes(&mut game);
    assert_eq!(game.to_act().map(|t| t.seat), Some(CHARLIE));
    assert_eq!(
        game.apply(ALEX, Action::Play(card("2S"))),
        Err(RuleError::NotYourTurn { turn: CHARLIE })
    );
    assert_eq!(game.view(CHARLIE).legal_plays(), set("2C"));
    let refused = game.apply(CHARLIE, Action::Play(card("AD")));
    assert_eq!(
        refused,
        Err(RuleError::Play(PlayError::MustLeadLowestClub(card("2C"))))
    );
    let said = refused.unwrap_err().to_string();
    assert!(said.contains("house rule") && said.contains("2C"), "{said}");
    play(&mut game, CHARLIE, "2C");
    // Then the play goes on clockwise, as ever: David follows with a club.
    assert_eq!(
        game.view(DAVID).legal_plays(),
        set("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")
    );
}

/// In cutthroat the 2C may be the card out: then the 3C leads. Seat 2
/// holds it, seat 1 deals, so seat 2 would lead in the classic game too:
/// seat 0 deals here.
#[test]
fn in_cutthroat_the_lowest_club_dealt_leads() {
    let two = Rules::classic(Mode::Cutthroat)
        .with(|r| r.play.first_lead = FirstLead::TwoOfClubs)
        .expect("valid rules");
    // The deck but the 2C in order, 17 cards a seat; then seat 0's 3C and
    // seat 2's AS change places.
    let rest: Vec<Card> = CardSet::DECK.minus(set("2C")).iter().collect();
    let mut hands: Vec<CardSet> = rest
        .chunks(17)
        .map(|c| c.iter().copied().collect())
        .collect();
    hands[0] = hands[0].minus(set("3C")).union(set("AS"));
    hands[2] = hands[2].minus(set("AS")).union(set("3C"));
    let deal = Deal {
        hands: PerSeat::from_slice(&hands).expect("three hands"),
        out: set("2C"),
    };
    assert!(deal.is_valid_for(Mode::Cutthroat), "{deal:?}");
    let mut game = Game::with_deals(two, Seat::new(0), vec![deal]);
    bid_threes(&mut game);
    assert_eq!(game.to_act().map(|t| t.seat), Some(Seat::new(2)));
    assert_eq!(game.view(Seat::new(2)).legal_plays(), set("3C"));
}

/// The lead goes with the 2C through a blind-nil exchange: Charlie passes
/// it to Alex, who then leads it.
#[test]
fn the_two_of_clubs_leads_from_the_hand_it_was_passed_to() {
    let two = rules(|r| {
        r.play.first_lead = FirstLead::TwoOfClubs;
        r.blind_nil.min_deficit = 0;
    });
    let mut game = game_on(two, DAVID, suits_apart());
    // Alex bids blind nil; the others look and bid 3.
    game.apply(ALEX, Action::Bid(Bid::BlindNil))
        .expect("blind nil");
    bid_threes(&mut game);
    assert_eq!(game.phase(), Phase::Exchange);
    game.apply(ALEX, Action::Exchange(set("AS KS")))
        .expect("Alex passes");
    game.apply(CHARLIE, Action::Exchange(set("2C 3D")))
        .expect("Charlie passes");
    assert_eq!(game.to_act().map(|t| t.seat), Some(ALEX));
    assert_eq!(game.view(ALEX).legal_plays(), set("2C"));
}

/// `spades_lead = "any_time"`: Alex may lead a spade to the first trick
/// though he holds hearts (classic: refused, spades not broken).
#[test]
fn spades_may_be_led_before_they_are_broken() {
    let hands = [
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2H",
        "AS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ];
    let mut classic = game_on(Rules::default(), DAVID, hands);
    bid_threes(&mut classic);
    assert_eq!(
        classic.apply(ALEX, Action::Play(card("KS"))),
        Err(RuleError::Play(PlayError::SpadesNotBroken))
    );
    let any = rules(|r| r.play.spades_lead = SpadesLead::AnyTime);
    let mut game = game_on(any, DAVID, hands);
    bid_threes(&mut game);
    assert_eq!(game.view(ALEX).legal_plays(), set(hands[0]));
    play(&mut game, ALEX, "KS");
    assert!(game.hand_state().spades_broken(), "a spade is down now");
    play(&mut game, BETH, "AS");
}

/// `trump_first_trick = false`: on the first trick a seat void in the
/// suit led plays no spade while it holds another suit; a seat holding
/// nothing but spades plays one; from the second trick on, any card.
#[test]
fn no_spade_on_the_first_trick_unless_only_spades() {
    let hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ];
    let no_trump = rules(|r| r.play.trump_first_trick = false);
    let mut game = game_on(no_trump, DAVID, hands);
    bid_threes(&mut game);
    play(&mut game, ALEX, "2C");
    // Beth holds only spades: she plays one.
    assert_eq!(game.view(BETH).legal_plays(), set(hands[1]));
    play(&mut game, BETH, "2S");
    play(&mut game, CHARLIE, "2D");
    assert_eq!(game.view(DAVID).legal_plays(), set(hands[3]));

    // Again, with Charlie holding the AS for his 2D: he may not play it.
    let mut hands2 = hands.map(set);
    hands2[1] = hands2[1].minus(set("AS")).union(set("2D"));
    hands2[2] = hands2[2].minus(set("2D")).union(set("AS"));
    let deal = Deal {
        hands: PerSeat::from_slice(&hands2).unwrap(),
        out: CardSet::EMPTY,
    };
    let mut game = Game::with_deals(no_trump, DAVID, vec![deal]);
    bid_threes(&mut game);
    play(&mut game, ALEX, "3C");
    assert_eq!(game.view(BETH).legal_plays(), set("2D"));
    play(&mut game, BETH, "2D");
    let refused = game.apply(CHARLIE, Action::Play(card("AS")));
    assert_eq!(
        refused,
        Err(RuleError::Play(PlayError::NoSpadeOnFirstTrick))
    );
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("spades may not be played on the first trick")
    );
    play(&mut game, CHARLIE, "3D");
    play(&mut game, DAVID, "2H");
    // Alex's 3C took it; on the second trick Charlie may trump.
    play(&mut game, ALEX, "4C");
    play(&mut game, BETH, "3S");
    play(&mut game, CHARLIE, "AS");
}

// ------------------------------------------------------------- records

fn lines(text: &str) -> Vec<Value> {
    support::record::json_lines(text)
}

fn text(lines: &[Value]) -> String {
    support::record::record_text(lines)
}

fn check(lines: &[Value]) -> Report {
    check_record(&text(lines))
}

/// The classic rules cut short so that random bots' games end.
fn short(change: impl FnOnce(&mut RuleSettings)) -> Rules {
    rules(|r| {
        r.target_score = 200;
        r.losing_score = Some(-200);
        change(r);
    })
}

/// The record of a random game under `rules`, checked clean.
fn clean_record(rules: Rules, seed: u64) -> Vec<Value> {
    let game = random_game(rules, seed, 60);
    let report = check_record(&game.record());
    assert!(report.is_ok(), "seed {seed}:\n{}", report.describe());
    lines(&game.record())
}

/// The record with its header's rules changed by `change`.
fn with_header(mut record: Vec<Value>, change: impl FnOnce(&mut Value)) -> Vec<Value> {
    change(&mut record[0]["rules"]);
    record
}

/// Does the checker report a problem mentioning `words`?
fn reports(report: &Report, words: &str) -> bool {
    report.problems.iter().any(|p| p.message.contains(words))
}

#[test]
fn the_checker_holds_the_lead_to_the_lowest_club() {
    let two = short(|r| r.play.first_lead = FirstLead::TwoOfClubs);
    let record = clean_record(two, 1);
    // Under the classic lead the same record has seats out of turn.
    let classic = with_header(record.clone(), |r| {
        r["play"]["first_lead"] = "dealer_left".into()
    });
    assert!(!check(&classic).is_ok());
    // A first lead other than the 2C, its holder's other card swapped in.
    let mut planted = record;
    let first = planted
        .iter()
        .position(|l| l["event"] == "play")
        .expect("a play");
    assert_eq!(planted[first]["card"], "2C");
    let seat = planted[first]["seat"].clone();
    let later = planted
        .iter()
        .skip(first + 1)
        .position(|l| l["event"] == "play" && l["seat"] == seat)
        .map(|k| k + first + 1)
        .expect("the seat plays again");
    let other = planted[later]["card"].clone();
    planted[first]["card"] = other;
    planted[later]["card"] = "2C".into();
    let report = check(&planted);
    assert!(
        report.has(first + 1, "lowest club"),
        "{}",
        report.describe()
    );
    // And a classic record read under two_of_clubs: some first lead is not
    // the lowest club, or not by its holder.
    let classic = clean_record(short(|_| {}), 1);
    let read_as_two = with_header(classic, |r| {
        r["play"] = serde_json::json!({"first_lead": "two_of_clubs"});
    });
    assert!(!check(&read_as_two).is_ok());
}

/// A card played to the first trick of a hand, as a record tells it.
struct FirstTrickCard {
    /// The record line's index.
    index: usize,
    card: String,
    /// What the seat held just before it.
    held: Vec<String>,
    /// The suit led (the card's own when it leads).
    led: char,
    leads: bool,
}

impl FirstTrickCard {
    /// A spade played while the seat held another suit.
    fn spade_with_others(&self) -> bool {
        self.card.ends_with('S') && self.held.iter().any(|h| !h.ends_with('S'))
    }

    fn void_in_led(&self) -> bool {
        !self.held.iter().any(|h| h.ends_with(self.led))
    }
}

/// Every card played to the first trick of each hand in a record.
fn first_tricks(record: &[Value]) -> Vec<FirstTrickCard> {
    let mut held: Vec<Vec<String>> = Vec::new();
    let mut trick: Vec<String> = Vec::new();
    let mut tricks_done = 0;
    let mut out = Vec::new();
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .expect("cards")
            .iter()
            .map(|c| c.as_str().expect("a card").to_string())
            .collect()
    };
    let suit = |c: &str| c.chars().nth(1).expect("a suit");
    for (index, l) in record.iter().enumerate() {
        match l["event"].as_str() {
            Some("deal") => {
                held = l["hands"]
                    .as_array()
                    .expect("hands")
                    .iter()
                    .map(names)
                    .collect();
                tricks_done = 0;
            }
            Some("exchange") => {
                let (from, to) = (l["from"].as_u64().unwrap(), l["to"].as_u64().unwrap());
                for c in names(&l["cards"]) {
                    held[from as usize].retain(|h| *h != c);
                    held[to as usize].push(c);
                }
            }
            Some("play") => {
                let seat = l["seat"].as_u64().unwrap() as usize;
                let card = l["card"].as_str().unwrap().to_string();
                if tricks_done == 0 {
                    out.push(FirstTrickCard {
                        index,
                        led: suit(trick.first().unwrap_or(&card)),
                        leads: trick.is_empty(),
                        held: held[seat].clone(),
                        card: card.clone(),
                    });
                }
                held[seat].retain(|h| *h != card);
                trick.push(card);
            }
            Some("trick") => {
                trick.clear();
                tricks_done += 1;
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_checker_refuses_a_spade_on_the_first_trick_under_the_house_rule() {
    // A classic game in which a seat void in the suit led trumps the first
    // trick while holding another suit: read under the house rule, that
    // card is caught.
    let found = (0..200).find_map(|seed| {
        let record = clean_record(short(|_| {}), seed);
        let ruff = first_tricks(&record)
            .into_iter()
            .find(|p| !p.leads && p.led != 'S' && p.void_in_led() && p.spade_with_others())?;
        Some((record, ruff.index))
    });
    let (record, line) = found.expect("some game trumps a first trick");
    let no_trump = with_header(record, |r| {
        r["play"] = serde_json::json!({"trump_first_trick": false});
    });
    let report = check(&no_trump);
    assert!(report.has(line + 1, "first trick"), "{}", report.describe());
    // Games played under the rule never do it.
    for seed in 0..10 {
        let rules = short(|r| r.play.trump_first_trick = false);
        let record = clean_record(rules, seed);
        assert!(
            first_tricks(&record)
                .iter()
                .all(|p| p.led == 'S' || !p.spade_with_others())
        );
    }
}

#[test]
fn the_checker_allows_spades_led_any_time_only_under_the_house_rule() {
    let any = short(|r| r.play.spades_lead = SpadesLead::AnyTime);
    let found = (0..100).find_map(|seed| {
        let record = clean_record(any, seed);
        let lead = first_tricks(&record)
            .into_iter()
            .find(|p| p.leads && p.spade_with_others())?;
        Some((record, lead.index))
    });
    let (record, line) = found.expect("some game leads a spade to a first trick");
    let broken = with_header(record, |r| r["play"]["spades_lead"] = "broken".into());
    let report = check(&broken);
    assert!(
        report.has(line + 1, "before spades are broken"),
        "{}",
        report.describe()
    );
}

/// Each scoring key, flipped in the header of a game played under it,
/// makes some hand's score wrong to the checker.
#[test]
fn the_checker_scores_by_the_house_rules() {
    type Flip = fn(&mut Value);
    let keys: [(Rules, Flip); 3] = [
        (short(|r| r.scoring.overtrick_points = 0), |r| {
            r["scoring"]["overtrick_points"] = 1.into()
        }),
        (
            short(|r| r.scoring.set_penalty = SetPenalty::BidAndShort),
            |r| r["scoring"]["set_penalty"] = "bid".into(),
        ),
        (short(|r| r.nil.failed_tricks_count = true), |r| {
            r["nil"]["failed_tricks_count"] = false.into()
        }),
    ];
    for (rules, flip) in keys {
        let caught = (0..20).any(|seed| {
            let record = clean_record(rules, seed);
            let report = check(&with_header(record, flip));
            reports(&report, "side ")
        });
        assert!(caught, "{:?} flipped is never caught", rules.settings());
    }
}

#[test]
fn the_checker_reads_records_without_the_new_keys_as_classic() {
    let record = clean_record(short(|_| {}), 4);
    let old = with_header(record, |r| {
        let r = r.as_object_mut().expect("rules");
        r.remove("scoring");
        r.remove("play");
        r["nil"]
            .as_object_mut()
            .expect("nil")
            .remove("failed_tricks_count");
    });
    let report = check(&old);
    assert!(report.is_ok(), "{}", report.describe());
    let bad = with_header(old, |r| r["play"] = serde_json::json!({"first_lead": "2C"}));
    assert!(reports(&check(&bad), "play.first_lead"));
}

// ------------------------------------------------------------- random games

/// Any setting of this area's keys, on top of short classic rules.
fn any_house_rules() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![
            Just(Mode::Partnership),
            Just(Mode::Cutthroat),
            Just(Mode::Individual)
        ],
        any::<[bool; 6]>(),
    )
        .prop_map(|(mode, keys)| {
            Rules::classic(mode)
                .with(|r| {
                    r.target_score = 150;
                    r.losing_score = Some(-150);
                    r.scoring.overtrick_points = i32::from(!keys[0]);
                    if keys[1] {
                        r.scoring.set_penalty = SetPenalty::BidAndShort;
                    }
                    r.nil.failed_tricks_count = keys[2] && mode.has_partners();
                    if keys[3] {
                        r.play.first_lead = FirstLead::TwoOfClubs;
                    }
                    if keys[4] {
                        r.play.spades_lead = SpadesLead::AnyTime;
                    }
                    r.play.trump_first_trick = !keys[5];
                })
                .expect("valid rules")
        })
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn random_games_under_any_scoring_and_play_rules_pass_the_checker(
        rules in any_house_rules(),
        seed in any::<u64>(),
    ) {
        let game = random_game(rules, seed, 40);
        let report = check_record(&game.record());
        prop_assert!(report.is_ok(), "{:?} seed {seed}:\n{}", rules.settings(), report.describe());
    }
}

/// Every bot level plays whole games under all the keys at once, the
/// engine refusing any illegal card, and the record passes the checker.
#[test]
fn every_level_plays_by_the_house_rules() {
    for mode in [Mode::Partnership, Mode::Cutthroat] {
        let rules = Rules::classic(mode)
            .with(|r| {
                r.target_score = 150;
                r.losing_score = Some(-150);
                r.scoring.overtrick_points = 0;
                r.scoring.set_penalty = SetPenalty::BidAndShort;
                r.nil.failed_tricks_count = mode.has_partners();
                r.play.first_lead = FirstLead::TwoOfClubs;
                r.play.spades_lead = SpadesLead::AnyTime;
                r.play.trump_first_trick = false;
            })
            .expect("valid rules");
        let lineup = ["hard", "normal", "easy", "normal"];
        let players = lineup[..mode.seats()]
            .iter()
            .map(|name| {
                let level: Level = name.parse().expect("a level");
                Player::Bot(level.bot(Effort::Deals(16)))
            })
            .collect();
        let mut table = Table::new(rules, Dealing::Open(5), players);
        let record = MemoryRecord::default();
        let names = lineup[..mode.seats()]
            .iter()
            .map(|s| s.to_string())
            .collect();
        table
            .record_to(Box::new(record.clone()), names, Default::default())
            .expect("a record in memory");
        table.run_bots().unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(table.phase(), Phase::Over);
        let report = check_record(&record.text());
        assert!(report.is_ok(), "{mode}:\n{}", report.describe());
        // Every first trick was led with a club, and no spade was played
        // to it by a seat that held another suit.
        for p in first_tricks(&lines(&record.text())) {
            assert!(!p.leads || p.card.ends_with('C'), "{mode}: led {}", p.card);
            assert!(!p.spade_with_others(), "{mode}: {} on trick one", p.card);
        }
    }
}
