use super::*;
use crate::engine::Bid;

/// A bid weighed with these figures; no nil, contract or set to tell.
fn bid(tricks: u8, win: f64, points: f64, bags: f64, taken: f64) -> Weighed<Action> {
    Weighed {
        choice: Action::Bid(Bid::Tricks(tricks)),
        win,
        points,
        bags,
        tricks: taken,
        contract: None,
        nil: None,
        set: None,
    }
}

fn weighing(ranked: Vec<Weighed<Action>>) -> Weighing<Action> {
    Weighing {
        chosen: ranked[0].choice,
        ranked,
    }
}

/// The reason line, with room left for nothing else, fits the notice.
fn fits(edge: Edge) -> String {
    let words = edge.to_string();
    assert!(words.chars().count() <= 76, "{words}");
    words
}

/// The gain of the edge `w` shows.
fn gain(w: &Weighing<Action>) -> Option<Gain> {
    edge(w).map(|e| e.gain)
}

#[test]
fn more_points_from_a_trick_more_are_said_as_the_trick() {
    let w = weighing(vec![
        bid(4, 0.6, 30.0, 0.2, 4.2),
        bid(3, 0.5, 22.0, 0.2, 3.3),
    ]);
    let edge = edge(&w).unwrap();
    assert_eq!(edge.gain, Gain::Tricks(4.2, 3.3));
    assert_eq!(
        fits(edge),
        "Takes about a trick more: 4.2 against 3.3 for bidding 3."
    );
}

#[test]
fn fewer_bags_from_a_trick_given_up_are_said_as_the_trick() {
    let w = weighing(vec![
        bid(3, 0.6, 30.0, 0.4, 3.4),
        bid(4, 0.5, 30.0, 1.2, 4.2),
    ]);
    let edge = edge(&w).unwrap();
    assert_eq!(edge.gain, Gain::Tricks(3.4, 4.2));
    assert_eq!(
        fits(edge),
        "Fewer bags: about a trick less, 3.4 against 4.2 for bidding 4."
    );
}

/// A difference in tricks too small to name, or one behind the
/// contract, leaves the edge as it was.
#[test]
fn the_tricks_give_way_when_small_or_behind_the_contract() {
    let small = weighing(vec![
        bid(4, 0.6, 30.0, 0.2, 3.5),
        bid(3, 0.5, 22.0, 0.2, 3.3),
    ]);
    assert_eq!(gain(&small), Some(Gain::Points(30.0, 22.0)));
    let mut top = bid(4, 0.6, 30.0, 0.2, 4.2);
    let mut next = bid(3, 0.5, 22.0, 0.2, 3.3);
    (top.contract, next.contract) = (Some(0.8), Some(0.6));
    let contract = weighing(vec![top, next]);
    assert_eq!(gain(&contract), Some(Gain::Contract(0.8, 0.6)));
}

/// Every edge fits the line with the longest names of a next choice,
/// cards as the table shows them.
#[test]
fn every_edge_fits_the_reason_line() {
    use crate::engine::{Card, CardSet};
    let nexts = [
        Action::Play(Card::BIG_JOKER),
        Action::Play(crate::engine::notation::card("TS")),
        Action::Bid(Bid::Tricks(13)),
        Action::Bid(Bid::Tricks(17)),
        Action::Bid(Bid::BlindNil),
        Action::Bid(Bid::Blind(10)),
        Action::Look,
        Action::Exchange(CardSet::DECK),
        Action::Exchange(crate::engine::notation::set("TS TH")),
    ];
    // The widest face a card shows at the table (`Theme::card`).
    let face = |_: Card| "BJ\u{2605}".to_string();
    for next in nexts {
        for gain in [
            Gain::Nil(1.0, 0.61),
            Gain::Contract(1.0, 0.62),
            Gain::Set(1.0, 0.08),
            Gain::Bags(10.4, 11.5),
            Gain::Points(-113.0, -140.0),
            Gain::Points(-213.0, -540.0),
            Gain::Tricks(12.9, 9.3),
            Gain::Tricks(3.3, 13.7),
            Gain::Tricks(3.3, 3.7),
            Gain::Even,
        ] {
            let edge = Edge { gain, next };
            fits(edge);
            let said = edge.said(&face);
            assert!(said.chars().count() <= 76, "{said}");
        }
    }
    let ten = Action::Play(crate::engine::notation::card("TS"));
    let edge = |gain| Edge { gain, next: ten };
    assert_eq!(
        fits(edge(Gain::Tricks(12.9, 9.3))),
        "Takes about 4 tricks more: 12.9 against 9.3 for the TS."
    );
    assert!(fits(edge(Gain::Tricks(3.3, 3.7))).starts_with("Fewer bags: about half a trick less"));
    assert_eq!(fits(edge(Gain::Even)), "The TS is about as good.");
}

/// A partnership hand dealt by seat 0, so seat 1 leads, with `bids` by
/// seat. `given` are cards of each seat's hand; the rest of the deck goes
/// to the seats with room, in order. Then `plays` are played; the view is
/// of the seat to play next.
fn position(given: [&str; 4], bids: [Bid; 4], plays: &[&str]) -> PlayerView {
    use crate::engine::notation::{card, set};
    use crate::engine::{CardSet, Deal, Game, Mode, PerSeat, Rules, Seat};
    let mut hands: Vec<CardSet> = given.iter().map(|g| set(g)).collect();
    let held = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
    for c in CardSet::DECK.minus(held) {
        let seat = (0..4).find(|&s| hands[s].len() < 13).expect("room");
        hands[seat].insert(c);
    }
    let deal = Deal {
        hands: PerSeat::from_slice(&hands).unwrap(),
        out: CardSet::EMPTY,
    };
    let mut game = Game::with_deals(Rules::classic(Mode::Partnership), Seat::new(0), vec![deal]);
    while let Some(turn) = game.to_act().filter(|t| t.decision != Decision::Play) {
        let action = match turn.decision {
            Decision::Bid => Action::Bid(bids[turn.seat.index()]),
            _ => Action::Look,
        };
        game.apply(turn.seat, action).unwrap();
    }
    for c in plays {
        let seat = game.to_act().unwrap().seat;
        game.apply(seat, Action::Play(card(c))).unwrap();
    }
    game.view(game.to_act().unwrap().seat)
}

/// The reason `normal`'s card gets when the search keeps it, and the rule.
fn rule_reason(view: &PlayerView) -> (crate::engine::Card, String) {
    let usual = card_and_rule(view);
    let weighing = Weighing {
        chosen: Action::Play(usual.card),
        ranked: Vec::new(),
    };
    (
        usual.card,
        reason(view, Decision::Play, &weighing).to_string(),
    )
}

const THREE: Bid = Bid::Tricks(3);

/// Covering seat 3's nil, seat 1 leads its highest card, the 7D, with the
/// ace, king, queen and nine of diamonds still out: no winner.
#[test]
fn a_cover_lead_with_higher_cards_out_is_not_called_a_winner() {
    let hands = ["", "7D 6D 3D 2H 3H 4H 5H 2C 3C 4C 5C 6C 2S", "", ""];
    let view = position(hands, [THREE, THREE, THREE, Bid::Nil], &[]);
    let (card, words) = rule_reason(&view);
    assert_eq!(card.to_string(), "7D");
    assert_eq!(words, "Lead high: your partner can play under it.");
}

/// After the ace and king of hearts, seat 1 leads the jack with the queen
/// still out.
#[test]
fn a_jack_led_under_the_queen_out_is_not_called_a_winner() {
    let hands = ["5H", "AH JH 2H 3H 2C 3C 4C 5C 2D 3D 4D 5D 2S", "KH", "4H"];
    let view = position(
        hands,
        [THREE, THREE, THREE, Bid::Nil],
        &["AH", "KH", "4H", "5H"],
    );
    let (card, words) = rule_reason(&view);
    assert_eq!(card.to_string(), "JH");
    assert_eq!(words, "Lead high: your partner can play under it.");
}

/// Three rounds of clubs leave seat 1 the queen, the top club left and
/// its lowest: led from the suit that costs least, but never "low".
#[test]
fn the_top_club_left_is_not_called_a_low_lead() {
    let hands = [
        "8C 9C TC",
        "AC KC JC QC 2D 3D 4D 2H 3H 2S 3S 4S 5S",
        "2C 3C 4C",
        "5C 6C 7C",
    ];
    let plays = [
        "AC", "2C", "5C", "8C", "KC", "3C", "6C", "9C", "JC", "4C", "7C", "TC",
    ];
    let view = position(hands, [THREE; 4], &plays);
    let (card, words) = rule_reason(&view);
    assert_eq!(card.to_string(), "QC");
    assert_eq!(
        words,
        "The top card left of the suit that costs least, but it may be trumped."
    );
}

/// Second to play over seat 1's 3D, covering seat 0's nil, seat 2 plays
/// its highest diamond, the 8D: seat 3 still plays, with higher diamonds
/// out, so nothing is won yet.
#[test]
fn a_second_hand_cover_with_a_seat_to_play_does_not_claim_the_trick() {
    let hands = ["", "3D", "8D 5D 4D", ""];
    let view = position(hands, [Bid::Nil, THREE, THREE, THREE], &["3D"]);
    let (card, words) = rule_reason(&view);
    assert_eq!(card.to_string(), "8D");
    assert_eq!(
        words,
        "Play high before your partner plays: they can go under it."
    );
}

/// "For the next" names the next best choice.
#[test]
fn the_edge_names_the_next_best_choice() {
    let mut top = bid(4, 0.6, 62.0, 0.2, 4.0);
    let mut next = bid(3, 0.5, 45.0, 0.2, 3.9);
    (top.choice, next.choice) = (
        Action::Play(crate::engine::notation::card("AS")),
        Action::Play(crate::engine::notation::card("4S")),
    );
    let words = edge(&weighing(vec![top, next])).unwrap().to_string();
    assert_eq!(words, "More points: +62, against +45 for the 4S.");
}
