//! Worked examples of three players with a dummy (`mode = "dummy"`), each
//! played through `Game::apply` on a deal made by hand, with the points
//! worked out by hand.
//!
//! The rule: seats 0, 1 and 2 are the players, seat 3 the dummy. Only
//! players deal and bid, clockwise from the dealer's left; every bid is a
//! team total from 1 to 13 (no nil). The highest bidder, the earlier on a
//! tie, is the declarer: it plays the dummy's cards in the dummy's turn
//! and must take its bid with the dummy. The other two defend with a
//! contract of 13 less that bid. The first bidder leads; the declarer
//! sees the dummy from the end of the bidding, everyone else once the
//! opening lead is down. Each player keeps its own score and bags.

use spades::engine::{
    Action, Bid, BidError, CardSet, Deal, Decision, Event, Game, Mode, PerSeat, Phase, RuleError,
    RuleSettings, Rules, Seat, SideRecord,
};
use support::checker::check_record;

const ANN: Seat = Seat::new(0);
const BEN: Seat = Seat::new(1);
const CAT: Seat = Seat::new(2);
const DUMMY: Seat = Seat::new(3);

fn rules() -> Rules {
    Rules::new(RuleSettings::classic(Mode::Dummy)).expect("the classic dummy game")
}

/// Each seat holds one whole suit, `suits[s]` being seat `s`'s (C, D, H
/// or S). Whoever holds the spades trumps every trick: the spade holder
/// wins all 13, whatever is led.
fn one_suit_each(suits: [char; 4]) -> Deal {
    let hands = PerSeat::from_fn(Mode::Dummy, |s| {
        let suit = suits[s.index()];
        "23456789TJQKA"
            .chars()
            .map(|r| format!("{r}{suit}"))
            .collect::<Vec<_>>()
            .join(" ")
            .parse::<CardSet>()
            .expect("cards")
    });
    Deal {
        hands,
        out: CardSet::EMPTY,
    }
}

fn bid_all(game: &mut Game, bids: &[(Seat, u8)]) -> Vec<Event> {
    let mut events = Vec::new();
    for &(seat, n) in bids {
        let turn = game.to_act().expect("a bid is due");
        assert_eq!((turn.seat, turn.decision), (seat, Decision::Bid));
        events.extend(
            game.apply(seat, Action::Bid(Bid::Tricks(n)))
                .expect("a legal bid"),
        );
    }
    events
}

/// Plays the hand out, each seat its lowest legal card, the dummy's
/// cards chosen by the declarer as the engine says; returns the events.
fn play_out(game: &mut Game) -> Vec<Event> {
    let mut events = Vec::new();
    while game.phase() == Phase::Playing {
        let turn = game.to_act().expect("a card is due");
        let card = game.view(turn.seat).legal_plays().lowest().expect("a card");
        events.extend(
            game.apply(turn.seat, Action::Play(card))
                .expect("a legal card"),
        );
    }
    events
}

fn score_of(events: &[Event]) -> (Vec<u8>, Vec<SideRecord>, Option<Seat>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Score {
                tricks,
                sides,
                declarer,
                ..
            } => Some((tricks.clone(), sides.clone(), *declarer)),
            _ => None,
        })
        .expect("a score")
}

fn side(points: i32, bags_added: i32, score: i32, bags: i32) -> SideRecord {
    SideRecord {
        points,
        bags_added,
        penalty: 0,
        score,
        bags,
    }
}

#[test]
fn the_players_bid_from_the_dealers_left_and_the_dummy_never_bids() {
    // Cat (seat 2) deals: the dummy sits at her left, so Ann bids first.
    let mut game = Game::with_deals(rules(), CAT, vec![one_suit_each(['S', 'H', 'D', 'C'])]);
    assert_eq!(game.to_act().map(|t| t.seat), Some(ANN));
    // Nil is not a team total.
    assert_eq!(
        game.apply(ANN, Action::Bid(Bid::Nil)),
        Err(RuleError::Bid(BidError::NilWithDummy))
    );
    assert!(game.view(ANN).allowed_bids().iter().all(|b| !b.is_nil()));
    // The dummy's cards are nobody's to see during the bidding.
    assert_eq!(game.view(DUMMY).hand, None);
    bid_all(&mut game, &[(ANN, 9), (BEN, 4)]);
    assert_eq!(
        game.apply(DUMMY, Action::Bid(Bid::Tricks(3))),
        Err(RuleError::NotYourTurn { turn: CAT })
    );
    assert_eq!(game.teams().declarer(), None, "not before every bid is in");
    bid_all(&mut game, &[(CAT, 9)]);
    assert_eq!(game.phase(), Phase::Playing);
}

/// Ann and Cat both bid 9: Ann bid first, so Ann declares. Ann holds every
/// spade and takes all 13 tricks: her team (she and the dummy) bid 9 and
/// took 13, 90 + 4 = 94 and 4 bags. The defenders' contract is 13 - 9 = 4
/// tricks; Ben and Cat took none: each is set, -40.
#[test]
fn a_tie_goes_to_the_earlier_bidder_who_makes_the_contract_and_sets_the_defenders() {
    let mut game = Game::with_deals(rules(), CAT, vec![one_suit_each(['S', 'H', 'D', 'C'])]);
    bid_all(&mut game, &[(ANN, 9), (BEN, 4), (CAT, 9)]);
    let teams = game.teams();
    assert_eq!(teams.declarer(), Some(ANN));
    assert_eq!(teams.partner(ANN), Some(DUMMY));
    assert_eq!(teams.partner(BEN), Some(CAT));
    assert_eq!(teams.player_for(DUMMY), ANN);

    // Ann has picked up the dummy; the defenders see it only after the
    // opening lead, which is Ann's (the first bidder's).
    let dummy_cards = game.dealt().hands[DUMMY];
    assert_eq!(game.view(ANN).seen_hand(DUMMY), Some(dummy_cards));
    assert_eq!(game.view(BEN).shown, None);
    assert_eq!(game.view(CAT).shown, None);
    assert_eq!(game.to_act().map(|t| t.seat), Some(ANN));
    let lead = game.view(ANN).legal_plays().lowest().unwrap();
    game.apply(ANN, Action::Play(lead)).unwrap();
    let after_lead = game.view(BEN).seen_hand(DUMMY).expect("face up");
    assert_eq!(after_lead, dummy_cards);
    assert_eq!(
        game.view(BEN).seen_hand(ANN),
        None,
        "a player's own cards stay hidden"
    );

    // Ben, Cat, then the dummy's turn: the engine names the dummy's seat,
    // and Ann decides for it.
    for seat in [BEN, CAT] {
        let card = game.view(seat).legal_plays().lowest().unwrap();
        game.apply(seat, Action::Play(card)).unwrap();
    }
    let turn = game.to_act().unwrap();
    assert_eq!(turn.seat, DUMMY);
    assert_eq!(game.teams().player_for(turn.seat), ANN);
    let dummy_view = game.view(DUMMY);
    assert_eq!(dummy_view.hand, Some(dummy_cards));
    assert_eq!(
        dummy_view.seen_hand(ANN),
        Some(game.hand_state().hands[ANN])
    );
    assert_eq!(dummy_view.partner(), Some(ANN));
    // Another seat may not play the dummy's card out of turn.
    let card = dummy_view.legal_plays().lowest().unwrap();
    assert_eq!(
        game.apply(BEN, Action::Play(card)),
        Err(RuleError::NotYourTurn { turn: DUMMY })
    );
    game.apply(DUMMY, Action::Play(card)).unwrap();

    let (tricks, sides, declarer) = score_of(&play_out(&mut game));
    assert_eq!(declarer, Some(ANN));
    assert_eq!(tricks, [13, 0, 0, 0]);
    assert_eq!(
        sides,
        [
            side(94, 4, 94, 4),
            side(-40, 0, -40, 0),
            side(-40, 0, -40, 0)
        ]
    );
    let result = &game.results()[0];
    assert_eq!(result.declarer, Some(ANN));
    assert_eq!(result.bids[DUMMY], Bid::Tricks(9), "the dummy plays for 9");
}

/// Ben bids highest (5) and declares; Ann, a defender, holds every spade
/// and takes all 13. Ben and the dummy are set: -50. The defenders'
/// contract is 13 - 5 = 8 and they took 13: 80 + 5 = 85 and 5 bags each.
/// In the second hand (Ann deals: the deal skips the dummy) the dummy
/// holds the spades and Cat declares 10: the dummy's 13 tricks are Cat's,
/// 100 + 3 = 103, 3 bags; Ann and Ben, contract 3, are set: -30 each,
/// their bags standing at 5.
#[test]
fn a_set_declarer_and_defenders_scoring_as_a_side_each_on_its_own_total() {
    let deals = vec![
        one_suit_each(['S', 'H', 'D', 'C']),
        one_suit_each(['C', 'H', 'D', 'S']),
    ];
    let mut game = Game::with_deals(rules(), CAT, deals);
    bid_all(&mut game, &[(ANN, 3), (BEN, 5), (CAT, 4)]);
    assert_eq!(game.teams().declarer(), Some(BEN));
    let (tricks, sides, declarer) = score_of(&play_out(&mut game));
    assert_eq!(declarer, Some(BEN));
    assert_eq!(tricks, [13, 0, 0, 0]);
    assert_eq!(
        sides,
        [side(85, 5, 85, 5), side(-50, 0, -50, 0), side(85, 5, 85, 5)]
    );

    let deal = game.deal_next_hand().expect("a second hand");
    assert!(matches!(deal, Event::Deal { dealer, .. } if dealer == ANN));
    bid_all(&mut game, &[(BEN, 2), (CAT, 10), (ANN, 6)]);
    let (tricks, sides, declarer) = score_of(&play_out(&mut game));
    assert_eq!(declarer, Some(CAT));
    assert_eq!(tricks, [0, 0, 0, 13]);
    assert_eq!(
        sides,
        [
            side(-30, 0, 55, 5),
            side(-30, 0, -80, 0),
            side(103, 3, 188, 8)
        ]
    );
}

/// Ann bids all 13 and the dummy, holding every spade, takes them all:
/// with `boston.wins_game` Ann's Boston wins the game outright, though
/// every trick was the dummy's (its tricks are the declarer's, for the
/// Boston as for the bonus).
#[test]
fn a_declarers_boston_counts_the_dummys_tricks_and_wins_outright() {
    let moonshot = rules()
        .with(|r| {
            r.boston.wins_game = true;
            r.boston.bonus = 200;
        })
        .expect("valid rules");
    let mut game = Game::with_deals(moonshot, CAT, vec![one_suit_each(['H', 'D', 'C', 'S'])]);
    bid_all(&mut game, &[(ANN, 13), (BEN, 1), (CAT, 2)]);
    let events = play_out(&mut game);
    let (tricks, sides, declarer) = score_of(&events);
    assert_eq!(declarer, Some(ANN));
    assert_eq!(tricks, [0, 0, 0, 13]);
    assert_eq!(sides[0], side(130 + 200, 0, 330, 0));
    assert_eq!(game.phase(), Phase::Over, "the Boston ends the game");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::End { winner, .. } if winner.index() == ANN.index()))
    );
}

#[test]
fn a_rule_that_adds_the_bids_makes_no_sense_with_a_dummy() {
    let err = Rules::classic(Mode::Dummy)
        .with(|r| r.bidding.forbid_exact_total = true)
        .unwrap_err();
    assert_eq!(err.key, "bidding.forbid_exact_total");
}

/// Whole games of every level through the table, every record through the
/// independent checker.
#[test]
fn bots_play_dummy_games_the_checker_accepts() {
    use spades::fairness::Dealing;
    use spades::record::{GameInfo, MemoryRecord};
    use spades::table::{Player, Table};
    for (seed, level) in [(1, "random"), (2, "easy"), (3, "normal"), (4, "hard")] {
        let players = (0..3)
            .map(|_| Player::Bot(support::bot(level).unwrap()))
            .collect();
        let rules = Rules::classic(Mode::Dummy)
            .with(|r| r.target_score = 200)
            .unwrap();
        let mut table = Table::new(rules, Dealing::Open(seed), players);
        let out = MemoryRecord::default();
        let names = vec!["a".into(), "b".into(), "c".into()];
        table
            .record_to(Box::new(out.clone()), names, GameInfo::default())
            .unwrap();
        let mut steps = 0;
        while table.phase() != Phase::Over && table.hand_no() <= 12 {
            match table.step_bot() {
                Some(step) => step.unwrap(),
                None => break,
            }
            steps += 1;
        }
        assert!(steps > 0);
        table.abandon();
        drop(table);
        let report = check_record(&out.text());
        assert!(report.is_ok(), "{level}: {}", report.describe());
    }
}
