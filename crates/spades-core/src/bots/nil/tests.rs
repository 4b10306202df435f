use super::*;
use crate::engine::notation::{card, set};
use crate::engine::{Action, Deal, Game, Mode, PerSeat, Rules};

/// A partnership hand dealt by seat 0, so seat 1 leads: seat 1 bids nil
/// and the others 3. `given` are cards of each seat's hand; the rest of
/// the deck goes to the seats with room, in order, never a heart to a
/// seat in `no_hearts`. Then `plays` are played.
fn position_after(given: [&str; 4], no_hearts: &[usize], plays: &[&str]) -> (Game, Seat) {
    let mut hands: Vec<CardSet> = given.iter().map(|g| set(g)).collect();
    let held = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
    for c in CardSet::DECK.minus(held) {
        let seat = (0..4)
            .find(|&s| hands[s].len() < 13 && !(c.suit() == Suit::Hearts && no_hearts.contains(&s)))
            .expect("room for every card");
        hands[seat].insert(c);
    }
    let deal = Deal {
        hands: PerSeat::from_slice(&hands).unwrap(),
        out: CardSet::EMPTY,
    };
    let mut game = Game::with_deals(Rules::classic(Mode::Partnership), Seat::new(0), vec![deal]);
    for bid in [Bid::Nil, Bid::Tricks(3), Bid::Tricks(3), Bid::Tricks(3)] {
        let seat = game.to_act().unwrap().seat;
        game.apply(seat, Action::Bid(bid)).unwrap();
    }
    for c in plays {
        let seat = game.to_act().unwrap().seat;
        game.apply(seat, Action::Play(card(c))).unwrap();
    }
    let seat = game.to_act().unwrap().seat;
    (game, seat)
}

/// Does `card` instead of `usual` spoil the hunt of seat 1's nil, for the
/// seat to play after `plays`?
fn spoils(given: [&str; 4], no_hearts: &[usize], plays: &[&str], c: &str, usual: &str) -> bool {
    let (game, seat) = position_after(given, no_hearts, plays);
    let view = game.view(seat);
    let pos = Position::new(&view);
    assert_eq!(hunted_nil(&pos), Some(Seat::new(1)));
    spoils_hunt(&pos, Seat::new(1), card(c), card(usual))
}

#[test]
fn a_lead_into_the_nil_is_the_lowest_of_its_suit_and_no_winner() {
    // Seat 1's nil leads 3D; seat 0 wins with the ace and leads next.
    let hands = ["2H 8H QH 2C AD", "3D", "4D", "5D"];
    let plays = ["3D", "4D", "5D", "AD"];
    assert!(!spoils(hands, &[], &plays, "2H", "2H"));
    assert!(spoils(hands, &[], &plays, "8H", "2H"), "room to duck");
    assert!(!spoils(hands, &[], &plays, "2C", "2H"));
    // A lone ace is the lowest of its suit, and a winner cashed.
    let cashed = ["AH 2C AD", "3D", "4D", "5D"];
    assert!(spoils(cashed, &[], &plays, "AH", "2C"), "a winner cashed");
}

#[test]
fn no_lead_into_a_suit_the_nils_partner_ruffs() {
    // Seat 3, the nil's partner, shows out of hearts on seat 0's queen.
    let hands = ["2H 8H QH 3C 4C", "3H 4S", "4H", "2C"];
    let plays = ["3H", "4H", "2C", "QH"];
    assert!(spoils(hands, &[3], &plays, "2H", "3C"), "the partner ruffs");
    assert!(!spoils(hands, &[3], &plays, "3C", "2H"));
}

#[test]
fn following_keeps_the_nil_unrescued_and_the_low_cards_kept() {
    // The nil leads the seven; seat 2 and seat 3 play under it.
    let hands = ["2H 8H QH", "7H", "4H", "5H"];
    let plays = ["7H", "4H", "5H"];
    assert!(spoils(hands, &[], &plays, "8H", "2H"), "rescues the nil");
    assert!(!spoils(hands, &[], &plays, "2H", "8H"));
    // Under the nil's nine both the eight and the two lose: the two is
    // kept to lead into the nil later.
    let hands = ["2H 8H QH", "9H", "4H", "5H"];
    let plays = ["9H", "4H", "5H"];
    assert!(spoils(hands, &[], &plays, "2H", "8H"), "the low card spent");
    assert!(!spoils(hands, &[], &plays, "8H", "2H"));
}

#[test]
fn a_winner_no_higher_than_needed() {
    // The nil ducks under seat 2's queen; seat 0 wins with either
    // the king or the ace: the ace is spent for nothing.
    let hands = ["KH AH 2C", "3H", "QH", "4H"];
    let plays = ["3H", "QH", "4H"];
    assert!(spoils(hands, &[], &plays, "AH", "KH"));
    assert!(!spoils(hands, &[], &plays, "KH", "AH"));
}
