use super::exchange::{dangerous_cards, low_cards, spare_low_cards};
use super::hand_worth::plays_as;
use super::*;
use crate::engine::Rank;

use crate::engine::notation::{card, set};

#[test]
fn above_and_below_stay_in_suit() {
    let all = CardSet::DECK;
    assert_eq!(above(all, card("QH")), set("KH AH"));
    assert_eq!(below(set("2H 5H 9H 3S"), card("9H")), set("2H 5H"));
    assert!(above(all, card("AS")).is_empty());
    assert!(below(all, card("2C")).is_empty());
}

#[test]
fn the_blind_nil_passes_danger_and_its_partner_passes_low_cards() {
    let hand = set("AS KS 4S AH 9H 3H KD 7D 2D QC 8C 5C 2C");
    assert_eq!(dangerous_cards(hand, 2, CardSet::DECK), set("AS KS"));
    assert_eq!(dangerous_cards(hand, 3, CardSet::DECK), set("AS KS AH"));
    let partner = set("AS KS QS 2S AH KH 5H AD 9D 4D KC 6C 3C");
    assert_eq!(low_cards(partner, 2), set("3C 4D"));
}

#[test]
fn a_nil_partner_passes_low_cards_its_own_nil_can_spare() {
    let rules = Rules::default();
    // The 2D and 3H guard its jack and queen; the clubs guard nothing.
    let hand = set("QH 7H 3H JD 5D 2D 8C 6C 4C 3C 6S 4S 2S");
    assert_eq!(spare_low_cards(hand, 2, &rules), set("3C 4C"));
    // A low singleton goes first: the void takes the queen later.
    let singleton = set("QH 7H 3H 2D 9C 8C 6C 5C 4C 3C 6S 4S 2S");
    assert_eq!(spare_low_cards(singleton, 1, &rules), set("2D"));
    // Its own ace of spades sinks either nil: it stays with the cheaper.
    let ace = set("AS 2S 3H 5H 7H 2D 4D 6D 8D 3C 5C 7C 9C");
    assert!(!spare_low_cards(ace, 2, &rules).contains(card("AS")));
}

#[test]
fn nil_danger_ranks_hands() {
    let safe = set("2S 4S 3H 5H 6H 2D 4D 7D 8D 3C 5C 6C 8C");
    let queen = set("2S 4S QH 5H 6H 2D 4D 7D 8D 3C 5C 6C 8C");
    let side_ace = set("2S 4S AH 5H 6H 2D 4D 7D 8D 3C 5C 6C 8C");
    assert!(nil_danger(safe, CardSet::DECK) < nil_danger(queen, CardSet::DECK));
    assert!(nil_danger(queen, CardSet::DECK) < nil_danger(side_ace, CardSet::DECK));
    assert!(nil_danger(set("KS 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C"), CardSet::DECK) >= 10.0);
}

#[test]
fn the_jokers_count_as_the_top_trumps() {
    use crate::engine::Jokers;
    let jokers = Jokers::Replace2H2C.deck();
    let rank = |c: &str| plays_as(card(c), jokers);
    assert_eq!(rank("BJ"), Rank::ACE);
    assert_eq!(rank("LJ"), Rank::KING);
    assert_eq!(rank("AS"), Rank::QUEEN);
    assert_eq!(rank("AH"), Rank::ACE);
    let high = Jokers::DeucesHigh.deck();
    assert_eq!(plays_as(card("DD"), high), Rank::QUEEN);
    assert_eq!(plays_as(card("DS"), high), Rank::JACK);
    for c in CardSet::DECK {
        assert_eq!(plays_as(c, CardSet::DECK), c.rank(), "{c}");
    }
    // Three top trumps are three tricks, as the ace, king and queen are.
    let with_jokers = set("BJ LJ AS 3H 5H 7H 9H 4D 6D 8D 3C 5C 7C");
    let classic = set("AS KS QS 3H 5H 7H 9H 4D 6D 8D 3C 5C 7C");
    let count = hand_tricks(with_jokers, Mode::Partnership, jokers);
    assert_eq!(
        count,
        hand_tricks(classic, Mode::Partnership, CardSet::DECK)
    );
    assert!(count > 2.5, "{count}");
    assert!(nil_danger(set("BJ 2S 3H 4H 5H 2D 3D 4D 6D 3C 4C 5C 6C"), jokers) >= 10.0);
}

#[test]
fn strong_hands_count_more_tricks_than_weak_ones() {
    let strong = set("AS KS QS JS 4S AH KH 3H AD 5D 4D 2C 3C");
    let weak = set("2S 3S 4H 6H 7H 2D 5D 8D 3C 6C 7C 9C TC");
    assert!(hand_tricks(strong, Mode::Partnership, CardSet::DECK) > 7.0);
    assert!(hand_tricks(weak, Mode::Partnership, CardSet::DECK) < 1.0);
    assert!(plain_tricks(strong, CardSet::DECK) > plain_tricks(weak, CardSet::DECK));
    assert!(nil_danger(weak, CardSet::DECK) < 1.0);
    assert!(nil_danger(strong, CardSet::DECK) >= 10.0);
}
