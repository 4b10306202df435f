use super::*;

use crate::engine::notation::{card, set};

#[test]
fn cards_with_only_settled_cards_between_play_alike() {
    // The ten in a finished trick: the nine stands for the jack.
    assert_eq!(
        distinct_plays(set("9H JH 2C"), set("9H JH TH")),
        set("9H 2C")
    );
    // Cards we hold between them count as settled too.
    assert_eq!(distinct_plays(set("9H TH JH"), set("9H TH JH")), set("9H"));
    // The ten on the current trick: the jack beats it, the nine does not.
    let hands =
        PerSeat::from_slice(&[set("9H JH"), set("2C 3C"), set("4C 5C"), set("TH 6C")]).unwrap();
    let mut hand = HandState::new(hands, Seat::new(3));
    hand.play_unchecked(card("TH"));
    assert_eq!(hand.distinct_legal(), set("9H JH"));
}

#[test]
fn must_follow_the_suit_led() {
    let hand = set("2H KH 5C AS");
    assert_eq!(legal_plays(hand, Some(Suit::Hearts), true), set("2H KH"));
    assert_eq!(
        play_error(hand, Some(Suit::Hearts), true, card("5C")),
        Some(PlayError::MustFollowSuit(Suit::Hearts))
    );
    assert_eq!(play_error(hand, Some(Suit::Hearts), true, card("KH")), None);
}

#[test]
fn void_may_play_anything_including_a_spade() {
    // 000 "Breaking Spades": David has no hearts and may trump or discard.
    let hand = set("3C 4D AS");
    assert_eq!(legal_plays(hand, Some(Suit::Hearts), false), hand);
}

#[test]
fn spades_may_not_be_led_until_broken_unless_only_spades() {
    let hand = set("2C AS");
    assert_eq!(legal_plays(hand, None, false), set("2C"));
    assert_eq!(
        play_error(hand, None, false, card("AS")),
        Some(PlayError::SpadesNotBroken)
    );
    assert_eq!(legal_plays(hand, None, true), hand);
    assert_eq!(legal_plays(set("2S AS"), None, false), set("2S AS"));
    assert_eq!(
        play_error(hand, None, false, card("KD")),
        Some(PlayError::NotInHand(card("KD")))
    );
}

fn four_hands() -> PerSeat<CardSet> {
    let hands = ["KH 2C 3S", "AH 4D 5C", "2H 7C 9D", "3H 8S TC"];
    PerSeat::from_slice(&hands.map(set)).unwrap()
}

#[test]
fn a_hand_resumed_mid_trick_is_the_hand_it_came_from() {
    let mut h = HandState::new(four_hands(), Seat::new(3));
    // A whole trick (won by seat 1), then two cards of the next.
    for c in ["3H", "KH", "AH", "2H", "5C", "7C"] {
        h.play_unchecked(card(c));
    }
    let resumed = HandState::resume(&h.public(), h.hands).unwrap();
    assert_eq!(resumed.public(), h.public());
    assert_eq!(resumed.hands, h.hands);
    assert_eq!(resumed.legal(), set("TC"), "clubs were led");
    let (mut a, mut b) = (h, resumed);
    for c in ["TC", "2C"] {
        assert_eq!(a.play_unchecked(card(c)), b.play_unchecked(card(c)));
    }
    assert_eq!(b.tricks_won(), a.tricks_won());
    assert_eq!(b.winning(), None);
    assert_eq!(b.turn(), Seat::new(3), "the ten of clubs took the trick");
}

#[test]
fn a_resumed_hand_must_fit_the_play() {
    let mut h = HandState::new(four_hands(), Seat::new(0));
    h.play_unchecked(card("KH"));
    let public = h.public();
    let mut hands = h.hands;
    // Seat 0 has played: it cannot still hold three cards.
    hands[Seat::new(0)].insert(card("AD"));
    assert_eq!(
        HandState::resume(&public, hands),
        Err(ResumeError::HandSize {
            seat: Seat::new(0),
            held: 3,
            expected: 2
        })
    );
    let mut hands = h.hands;
    hands[Seat::new(2)] = set("KH 7C 9D");
    assert_eq!(
        HandState::resume(&public, hands),
        Err(ResumeError::CardTwice(card("KH")))
    );
    let mut late = public;
    late.turn = Seat::new(2);
    assert_eq!(
        HandState::resume(&late, h.hands),
        Err(ResumeError::TrickOutOfTurn)
    );
    let mut unbroken = public;
    unbroken.spades_broken = true;
    assert_eq!(
        HandState::resume(&unbroken, h.hands),
        Err(ResumeError::BrokenSpades)
    );
}

#[test]
fn highest_spade_wins_else_highest_of_suit_led() {
    let seat = Seat::new;
    let hands = PerSeat::from_slice(&[set("KH"), set("AH"), set("2S"), set("3S")]).unwrap();
    let mut h = HandState::new(hands, seat(0));
    assert!(h.play_unchecked(card("KH")).is_none());
    assert!(h.play_unchecked(card("AH")).is_none());
    assert!(h.play_unchecked(card("2S")).is_none());
    let done = h.play_unchecked(card("3S")).unwrap();
    assert_eq!(done.winner, seat(3));
    assert_eq!(h.turn(), seat(3));
    assert!(h.spades_broken());

    let hands = PerSeat::from_slice(&[set("5D"), set("AC"), set("9D")]).unwrap();
    let mut h = HandState::new(hands, seat(1));
    h.play_unchecked(card("AC"));
    h.play_unchecked(card("9D"));
    let done = h.play_unchecked(card("5D")).unwrap();
    assert_eq!(done.winner, seat(1), "off-suit cards never win");
    assert_eq!(h.tricks_won()[seat(1)], 1);
    assert!(h.is_over());
}

fn house(change: impl FnOnce(&mut PlayRules)) -> PlayRules {
    let mut rules = PlayRules::default();
    change(&mut rules);
    rules
}

#[test]
fn under_two_of_clubs_the_lowest_club_leads_the_first_trick() {
    let rules = house(|r| r.first_lead = FirstLead::TwoOfClubs);
    let hands = four_hands();
    // Seat 0 holds the 2C; the dealer (seat 2) does not decide.
    assert_eq!(first_leader(rules, &hands, Seat::new(3)), Seat::new(0));
    assert_eq!(
        first_leader(PlayRules::default(), &hands, Seat::new(3)),
        Seat::new(3)
    );
    let mut h = HandState::dealt(hands, Seat::new(3), rules);
    assert_eq!(h.turn(), Seat::new(0));
    assert_eq!(h.legal(), set("2C"));
    assert_eq!(
        h.check(card("KH")),
        Some(PlayError::MustLeadLowestClub(card("2C")))
    );
    h.play_unchecked(card("2C"));
    // Only the first lead is fixed: the follows are as ever.
    assert_eq!(h.legal(), set("5C"));
    // In cutthroat with the 2C out, the 3C leads.
    let three = PerSeat::from_slice(&[set("KH 5C"), set("3C 4D"), set("2H 9D")]).unwrap();
    assert_eq!(first_leader(rules, &three, Seat::new(1)), Seat::new(1));
}

#[test]
fn under_any_time_spades_lead_before_they_are_broken() {
    let rules = house(|r| r.spades_lead = SpadesLead::AnyTime);
    let hand = set("2C AS");
    assert_eq!(legal_plays_under(rules, hand, None, false, true), hand);
    assert_eq!(
        play_error_under(rules, hand, None, false, true, card("AS")),
        None
    );
    let classic = PlayRules::default();
    assert_eq!(
        play_error_under(classic, hand, None, false, true, card("AS")),
        Some(PlayError::SpadesNotBroken)
    );
    // Still unbroken until a spade is played.
    let h = HandState::dealt(four_hands(), Seat::new(0), rules);
    assert!(!h.spades_broken() && h.spades_may_lead());
}

#[test]
fn without_trump_first_trick_a_void_seat_keeps_its_spades_on_trick_one() {
    let rules = house(|r| r.trump_first_trick = false);
    let hand = set("3C 4D AS");
    let hearts = Some(Suit::Hearts);
    assert_eq!(
        legal_plays_under(rules, hand, hearts, false, true),
        set("3C 4D")
    );
    assert_eq!(
        play_error_under(rules, hand, hearts, false, true, card("AS")),
        Some(PlayError::NoSpadeOnFirstTrick)
    );
    assert_eq!(
        PlayError::NoSpadeOnFirstTrick.to_string(),
        "spades may not be played on the first trick while you hold another suit (house rule)"
    );
    // Only spades left: a spade it is. From the second trick: any card.
    assert_eq!(
        legal_plays_under(rules, set("2S AS"), hearts, false, true),
        set("2S AS")
    );
    assert_eq!(legal_plays_under(rules, hand, hearts, false, false), hand);
    // Following suit is untouched.
    assert_eq!(
        legal_plays_under(rules, set("3H AS"), hearts, false, true),
        set("3H")
    );
}

#[test]
fn a_resumed_hand_keeps_its_house_rules() {
    let rules = house(|r| {
        r.first_lead = FirstLead::TwoOfClubs;
        r.trump_first_trick = false;
    });
    let mut h = HandState::dealt(four_hands(), Seat::new(2), rules);
    h.play_unchecked(card("2C"));
    let resumed = HandState::resume(&h.public(), h.hands).unwrap();
    assert_eq!(resumed.rules(), rules);
    assert_eq!(resumed, h);
    assert!(resumed.first_trick_has_house_rules());
}
