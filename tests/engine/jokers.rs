//! The joker decks (`[deck] jokers`, the README's "Jokers"): worked
//! examples played through `Game::apply`, the deal, the notation, random
//! games under each deck checked by the independent checker, and
//! `spades verify` on a recorded joker game.
//!
//! Seats: partnership, seats 0 and 2 are side 0, seats 1 and 3 side 1.

use proptest::prelude::*;
use spades::engine::play::{beats, legal_plays};
use spades::engine::{
    Action, Bid, Card, CardSet, Deal, Event, Game, Jokers, Mode, PerSeat, PlayError, RuleError,
    Rules, Seat, SideRecord, Suit,
};
use spades::record::{read_games, replay};
use support::checker::check_record;
use support::game::spades;
use support::proptest_seed::{any_mode, config};
use support::record::random_game;

fn set(s: &str) -> CardSet {
    s.parse().expect("cards")
}

fn card(s: &str) -> Card {
    s.parse().expect("a card")
}

fn seat(i: usize) -> Seat {
    Seat::new(i)
}

fn rules(mode: Mode, jokers: Jokers) -> Rules {
    Rules::classic(mode)
        .with(|r| r.deck.jokers = jokers)
        .expect("valid rules")
}

/// A partnership game of `jokers` on one given deal: `hands[s]` for seat `s`.
fn game(jokers: Jokers, dealer: usize, hands: [&str; 4]) -> Game {
    let deal = Deal {
        hands: PerSeat::from_fn(Mode::Partnership, |s| set(hands[s.index()])),
        out: CardSet::EMPTY,
    };
    assert!(
        deal.is_valid_in(jokers, Mode::Partnership),
        "the example's deal is the {jokers} deck"
    );
    Game::with_deals(rules(Mode::Partnership, jokers), seat(dealer), vec![deal])
}

/// Everyone bids, from the dealer's left.
fn bid(game: &mut Game, bids: [Bid; 4]) {
    while let Some(turn) = game
        .to_act()
        .filter(|_| game.phase() == spades::engine::Phase::Bidding)
    {
        let b = bids[turn.seat.index()];
        game.apply(turn.seat, Action::Bid(b)).expect("a legal bid");
    }
}

fn play(game: &mut Game, s: usize, c: &str) -> Vec<Event> {
    game.apply(seat(s), Action::Play(card(c)))
        .unwrap_or_else(|e| panic!("seat {s} plays {c}: {e}"))
}

fn refused(game: &mut Game, s: usize, c: &str) -> RuleError {
    game.apply(seat(s), Action::Play(card(c)))
        .expect_err("the card is refused")
}

/// The winner of the trick the last card completed.
fn trick_winner(events: &[Event]) -> usize {
    events
        .iter()
        .find_map(|e| match e {
            Event::Trick { winner, .. } => Some(winner.index()),
            _ => None,
        })
        .expect("the card completes a trick")
}

/// Plays the hand out, each seat its lowest legal card; returns the events.
fn play_out(game: &mut Game) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(turn) = game.to_act() {
        if game.phase() != spades::engine::Phase::Playing {
            break;
        }
        let legal = game.view(turn.seat).legal_plays();
        let c = legal.lowest().expect("a legal card");
        events.extend(game.apply(turn.seat, Action::Play(c)).expect("legal"));
    }
    events
}

fn n(k: u8) -> Bid {
    Bid::Tricks(k)
}

// ------------------------------------------------------------------ the decks

#[test]
fn every_deck_deals_52_cards_with_its_own_cards() {
    for jokers in Jokers::ALL {
        for mode in Mode::ALL {
            for seed in 0..20 {
                let dealer = seat(seed as usize % mode.seats());
                let d = Deal::from_seed_in(jokers, seed, 1, mode, dealer);
                let all = d.hands.iter().fold(d.out, |a, &h| a | h);
                assert_eq!(all.len(), 52, "{jokers} {mode}");
                assert_eq!(all, jokers.deck());
                assert_eq!(d.out.len(), if mode == Mode::Cutthroat { 1 } else { 0 });
            }
        }
    }
    let has = |j: Jokers, c: &str| j.deck().contains(card(c));
    for j in [Jokers::Replace2H2C, Jokers::Replace2D2C, Jokers::DeucesHigh] {
        assert!(has(j, "BJ") && has(j, "LJ") && !has(j, "2C"), "{j}");
    }
    assert!(!has(Jokers::Replace2H2C, "2H") && has(Jokers::Replace2H2C, "2D"));
    assert!(!has(Jokers::Replace2D2C, "2D") && has(Jokers::Replace2D2C, "2H"));
    // Deuces high: the 2 of spades and 2 of diamonds are in, as trumps.
    let dh = Jokers::DeucesHigh;
    assert!(has(dh, "DS") && has(dh, "DD"));
    assert!(!has(dh, "2S") && !has(dh, "2D") && !has(dh, "2H"));
    assert_eq!(dh.deck().suit(Suit::Diamonds).len(), 12);
    assert_eq!(dh.deck().suit(Suit::Spades).len(), 16);
    assert!(Jokers::None.deck() == CardSet::DECK);
}

#[test]
fn a_seed_deals_a_joker_deck_as_the_classic_deck_with_the_jokers_in_place() {
    // Hand 1 of seed 7: where the classic deal puts the 2 of clubs, the
    // Little Joker goes; the 2 of hearts' seat gets the Big Joker.
    let classic = Deal::from_seed(7, 1, Mode::Partnership, seat(0));
    let jokers = Deal::from_seed_in(Jokers::Replace2H2C, 7, 1, Mode::Partnership, seat(0));
    for s in Mode::Partnership.each_seat() {
        let c = classic.hands[s];
        let j = jokers.hands[s];
        assert_eq!(c.contains(card("2C")), j.contains(card("LJ")));
        assert_eq!(c.contains(card("2H")), j.contains(card("BJ")));
        assert_eq!(c.minus(set("2C 2H")), j.minus(set("LJ BJ")));
    }
}

#[test]
fn notation_round_trips_for_every_card_of_every_deck() {
    for jokers in Jokers::ALL {
        for c in jokers.deck() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json.len(), 4, "two characters, quoted: {json}");
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), c);
        }
        let deck = jokers.deck();
        assert_eq!(deck.to_string().parse::<CardSet>().unwrap(), deck);
    }
    let top = set("BJ LJ DD DS AS");
    assert_eq!(top.to_string(), "AS DS DD LJ BJ");
    assert_eq!(
        serde_json::to_string(&top).unwrap(),
        r#"["AS","DS","DD","LJ","BJ"]"#
    );
    // Written with the classic deck's notation, a deuce is the low one.
    assert_ne!(card("2S"), card("DS"));
    assert_eq!(card("DD").suit(), Suit::Spades);
}

// ------------------------------------------------------------------ replace_2h_2c

/// The rule: the jokers are the top trumps, Big Joker over Little Joker
/// over the ace of spades.
///
/// Seat 0 holds every heart and leads one; seats 1, 2 and 3 have none and
/// trump with the ace of spades, the Little Joker and the Big Joker in
/// turn. Each beats the card before it and seat 3 takes the trick.
#[test]
fn the_big_joker_beats_the_little_joker_beats_the_ace_of_spades() {
    let mut g = game(
        Jokers::Replace2H2C,
        3,
        [
            "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2D",
            "AS 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "LJ 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "BJ 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        ],
    );
    bid(&mut g, [n(3), n(3), n(3), n(3)]);
    play(&mut g, 0, "3H");
    play(&mut g, 1, "AS");
    play(&mut g, 2, "LJ");
    let done = play(&mut g, 3, "BJ");
    assert_eq!(trick_winner(&done), 3);
    assert!(beats(card("LJ"), card("AS")));
    assert!(beats(card("BJ"), card("LJ")));
    assert!(!beats(card("AS"), card("LJ")));
}

/// The rule: a joker is a spade, so it cannot be led before spades are
/// broken while the leader holds another suit, and it must follow a spade
/// lead.
#[test]
fn a_joker_is_a_spade_for_leading_and_following() {
    let mut g = game(
        Jokers::Replace2D2C,
        3,
        [
            "BJ 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "LJ 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2H 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ],
    );
    bid(&mut g, [n(2), n(2), n(2), n(5)]);
    assert_eq!(
        refused(&mut g, 0, "BJ"),
        RuleError::Play(PlayError::SpadesNotBroken)
    );
    play(&mut g, 0, "3H");
    play(&mut g, 1, "3D");
    play(&mut g, 2, "2H");
    // Seat 3 has only spades: its 2 trumps the trick and breaks spades.
    let done = play(&mut g, 3, "2S");
    assert_eq!(trick_winner(&done), 3);
    play(&mut g, 3, "3S");
    // Seat 0 holds the Big Joker: it must follow the spade lead with it.
    assert_eq!(
        refused(&mut g, 0, "4H"),
        RuleError::Play(PlayError::MustFollowSuit(Suit::Spades))
    );
    play(&mut g, 0, "BJ");
    assert_eq!(
        refused(&mut g, 1, "4D"),
        RuleError::Play(PlayError::MustFollowSuit(Suit::Spades))
    );
    play(&mut g, 1, "LJ");
    let done = play(&mut g, 2, "3C");
    assert_eq!(trick_winner(&done), 0);
}

/// The rule: with the jokers the deck has 15 spades. Seat 3 holds the two
/// jokers and the 4 to the ace of spades: every card it plays is a spade,
/// and the only spades elsewhere are the 2 and 3 of spades, so it takes
/// all 13 tricks however the others play.
///
/// Bids: seat 0 nil, seat 1 nil, seat 2 nil, seat 3 13.
/// Side 0 (seats 0 and 2): two nils made, +100 +100 = 200, no bags.
/// Side 1 (seats 1 and 3): seat 1's nil made, +100; seat 3's 13 made,
/// 10 x 13 = 130; 230, no bags.
#[test]
fn fifteen_spades_let_the_jokers_and_eleven_spades_take_every_trick() {
    let mut g = game(
        Jokers::Replace2H2C,
        3,
        [
            "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2D",
            "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 3C",
            "4C 5C 6C 7C 8C 9C TC JC QC KC AC 2S 3S",
            "4S 5S 6S 7S 8S 9S TS JS QS KS AS LJ BJ",
        ],
    );
    bid(&mut g, [Bid::Nil, Bid::Nil, Bid::Nil, n(13)]);
    let events = play_out(&mut g);
    let score = events
        .iter()
        .find_map(|e| match e {
            Event::Score { tricks, sides, .. } => Some((tricks.clone(), sides.clone())),
            _ => None,
        })
        .expect("the hand is scored");
    assert_eq!(score.0, vec![0, 0, 0, 13]);
    let side = |points, score| SideRecord {
        points,
        bags_added: 0,
        penalty: 0,
        score,
        bags: 0,
    };
    assert_eq!(score.1, vec![side(200, 200), side(230, 230)]);
}

// ------------------------------------------------------------------ deuces_high

/// The rule (deuces high): the 2 of diamonds is a spade, ranking below the
/// jokers and above the 2 of spades and the ace.
///
/// Seat 3 holds only spades and may lead one before spades are broken: it
/// leads the 3 of spades. Seat 0's only spade is the 2 of diamonds, and it
/// must follow with it (a diamond is refused); seat 1 follows with the ace
/// and seat 2 with the king. The 2 of diamonds takes the trick.
#[test]
fn the_two_of_diamonds_follows_a_spade_lead_and_beats_the_ace() {
    let mut g = game(
        Jokers::DeucesHigh,
        2,
        [
            "DD 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "AS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "KS 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "3S 4S 5S 6S 7S 8S 9S TS JS QS DS LJ BJ",
        ],
    );
    bid(&mut g, [n(2), n(3), n(3), n(5)]);
    play(&mut g, 3, "3S");
    assert_eq!(
        refused(&mut g, 0, "3D"),
        RuleError::Play(PlayError::MustFollowSuit(Suit::Spades))
    );
    assert_eq!(g.view(seat(0)).legal_plays(), set("DD"));
    play(&mut g, 0, "DD");
    play(&mut g, 1, "AS");
    let done = play(&mut g, 2, "KS");
    assert_eq!(trick_winner(&done), 0);
    assert!(beats(card("DD"), card("AS")));
    assert!(beats(card("DD"), card("DS")));
    assert!(beats(card("LJ"), card("DD")));
    assert!(beats(card("DS"), card("AS")));
}

/// The rule (deuces high): the 2 of diamonds cannot follow diamonds. Seat
/// 1 holds it with no other diamond, so it is void in diamonds: on seat
/// 0's 3 of diamonds it may play any card, and trumps with the 2 of
/// diamonds; seat 2's ace of spades, played after it, does not beat it.
/// A seat that holds real diamonds too must play one of those.
#[test]
fn the_two_of_diamonds_cannot_follow_diamonds() {
    let mut g = game(
        Jokers::DeucesHigh,
        3,
        [
            "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 3C",
            "DD 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "AS KS 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "3S 4S 5S 6S 7S 8S 9S TS JS QS DS LJ BJ",
        ],
    );
    bid(&mut g, [n(4), n(2), n(3), n(4)]);
    play(&mut g, 0, "3D");
    let view = g.view(seat(1));
    assert_eq!(view.legal_plays(), view.cards(), "void in diamonds");
    play(&mut g, 1, "DD");
    play(&mut g, 2, "AS");
    let done = play(&mut g, 3, "3S");
    assert_eq!(trick_winner(&done), 1);
    // With a real diamond beside it, the 2 of diamonds may not follow.
    let hand = set("DD 7D 3H");
    assert_eq!(legal_plays(hand, Some(Suit::Diamonds), true), set("7D"));
    assert_eq!(legal_plays(hand, Some(Suit::Spades), true), set("DD"));
}

// ------------------------------------------------------------------ whole games

fn any_jokers() -> impl Strategy<Value = Jokers> {
    prop_oneof![
        Just(Jokers::Replace2H2C),
        Just(Jokers::Replace2D2C),
        Just(Jokers::DeucesHigh),
    ]
}

proptest! {
    #![proptest_config(config(48))]

    /// Random games under each joker deck, with the other house rules
    /// varied too: the independent checker (its own card model) finds
    /// nothing wrong, the engine replays and proves the deals, and every
    /// deal is the deck's 52 cards.
    #[test]
    fn random_joker_games_pass_the_independent_checker(
        jokers in any_jokers(),
        mode in any_mode(),
        seed in any::<u64>(),
        exact in any::<bool>(),
        exchange in 0..=3u8,
    ) {
        let rules = Rules::classic(mode)
            .with(|r| {
                r.deck.jokers = jokers;
                r.target_score = 200;
                r.losing_score = Some(-200);
                r.bidding.forbid_exact_total = exact;
                r.blind_nil.exchange = exchange;
                r.blind_nil.min_deficit = 0;
            })
            .expect("valid rules");
        let played = random_game(rules, seed, 6);
        let text = played.record();
        let report = check_record(&text);
        prop_assert!(report.is_ok(), "{jokers} {mode} seed {seed}: {}", report.describe());
        let games = read_games(&text).expect("readable");
        let replayed = replay(&games[0]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(replayed.game.rules().deck.jokers, jokers);
        for event in &played.events {
            if let Event::Deal { hands, out, .. } = event {
                let all = hands.iter().fold(*out, |a, &h| a | h);
                prop_assert_eq!(all, jokers.deck());
            }
        }
    }
}

/// The checker's own card model catches a deal of the wrong deck and a
/// trick given to the wrong joker.
#[test]
fn the_checker_catches_a_wrong_deck_and_a_wrong_trick_winner() {
    let rules = rules(Mode::Partnership, Jokers::Replace2H2C);
    let text = random_game(rules, 11, 2).record();
    assert!(
        check_record(&text).is_ok(),
        "{}",
        check_record(&text).describe()
    );
    // The record says the classic deck: its deals hold cards it has not.
    let classic = text.replacen(
        r#""deck":{"jokers":"replace_2h_2c"}"#,
        r#""deck":{"jokers":"none"}"#,
        1,
    );
    assert_ne!(classic, text);
    let report = check_record(&classic);
    assert!(report.has(2, "not in this deck"), "{}", report.describe());
    // A trick with the Big Joker in it given to another seat.
    let lines: Vec<&str> = text.lines().collect();
    let mut trick: Vec<serde_json::Value> = Vec::new();
    let mut forged = None;
    for (i, line) in lines.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        match v["event"].as_str() {
            Some("play") => trick.push(v),
            Some("trick") => {
                let bj = trick.iter().find(|p| p["card"] == "BJ");
                if let Some(bj) = bj {
                    let winner = bj["seat"].as_u64().unwrap();
                    assert_eq!(v["winner"].as_u64(), Some(winner), "the engine agrees");
                    let mut wrong = v.clone();
                    wrong["winner"] = ((winner + 1) % 4).into();
                    forged = Some((i, wrong.to_string()));
                    break;
                }
                trick.clear();
            }
            _ => {}
        }
    }
    let (at, wrong) = forged.expect("the Big Joker is played in two hands");
    let mut forged_lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    forged_lines[at] = wrong;
    let report = check_record(&(forged_lines.join("\n") + "\n"));
    assert!(
        report.has(at + 1, "is won by seat"),
        "{}",
        report.describe()
    );
}

/// `spades sim` plays joker games with every level, and `spades verify`
/// proves the record.
#[test]
fn sim_plays_joker_games_and_verify_proves_them() {
    let dir = tempfile::tempdir().unwrap();
    for (jokers, mode, seats) in [
        ("deuces_high", "partnership", "hard,normal,easy,normal"),
        ("replace_2h_2c", "cutthroat", "easy,normal,hard"),
    ] {
        std::fs::write(
            dir.path().join("jokers.toml"),
            format!("target_score = 150\nlosing_score = -150\n[deck]\njokers = \"{jokers}\"\n"),
        )
        .unwrap();
        let file = format!("{jokers}.jsonl");
        spades(&dir)
            .args([
                "sim",
                "--games",
                "1",
                "--mode",
                mode,
                "--rules",
                "jokers.toml",
            ])
            .args(["--record", &file, "--seats", seats, "--iterations", "40"])
            .assert()
            .success();
        let text = std::fs::read_to_string(dir.path().join(&file)).unwrap();
        assert!(text.contains(&format!(r#""jokers":"{jokers}""#)));
        let report = check_record(&text);
        assert!(report.is_ok(), "{jokers}: {}", report.describe());
        spades(&dir).args(["verify", &file]).assert().success();
    }
}
