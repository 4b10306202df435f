use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::*;
use crate::engine::{Deal, HandState};

fn seat(i: usize) -> Seat {
    Seat::new(i)
}

/// Plays `playout` and replays its cards through `HandState`: every card
/// must be legal there, from the seat whose turn it is, and the tricks
/// must go to the same seats.
fn agrees_with_hand_state(playout: Playout, rng: &mut Pcg64Mcg) {
    let mut hand = HandState::new(playout.hands(), playout.leader());
    let won = playout.play_with(rng, |seat, card| {
        assert_eq!(hand.turn(), seat);
        assert_eq!(hand.check(card), None, "{card} from {:?}", hand.hands);
        hand.play_unchecked(card);
    });
    assert!(hand.is_over());
    assert_eq!(won, hand.tricks_won());
}

#[test]
fn playouts_follow_the_rules_of_hand_state() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    for mode in Mode::ALL {
        for i in 0..3000 {
            let p = Playout::deal(&mut rng, mode, seat(i % mode.seats()));
            agrees_with_hand_state(p, &mut rng);
            let deal = Deal::from_seed(i as u64, 1, mode, seat(0));
            let p = Playout::from_hands(&deal.hands, seat(i % mode.seats()), false, &mut rng);
            agrees_with_hand_state(p, &mut rng);
        }
    }
}

#[test]
fn batches_follow_the_rules_of_hand_state() {
    let mut rng = Pcg64Mcg::seed_from_u64(16);
    for mode in Mode::ALL {
        for i in 0..500 {
            let dealers = std::array::from_fn(|k| seat((i + k) % mode.seats()));
            let mut lanes: [Playout; 3] = Playout::deal_batch(&mut rng, mode, dealers);
            for (lane, dealer) in lanes.iter().zip(dealers) {
                assert_eq!(lane.leader(), mode.next(dealer));
                let hands = lane.hands();
                let held = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
                let out = CardSet::DECK.minus(held);
                assert!(Deal { hands, out }.is_valid_for(mode), "{mode}: {hands:?}");
            }
            let mut hands = lanes.map(|p| HandState::new(p.hands(), p.leader()));
            let won = Playout::play_batch_with(&mut lanes, &mut rng, |lane, seat, card| {
                let hand = &mut hands[lane];
                assert_eq!(hand.turn(), seat);
                assert_eq!(hand.check(card), None, "{card} from {:?}", hand.hands);
                hand.play_unchecked(card);
            });
            for (won, hand) in won.iter().zip(&hands) {
                assert!(hand.is_over());
                assert_eq!(*won, hand.tricks_won());
            }
        }
    }
}

#[test]
fn dealt_playouts_hold_the_whole_deck() {
    let mut rng = Pcg64Mcg::seed_from_u64(12);
    for mode in Mode::ALL {
        for dealer in mode.each_seat() {
            for _ in 0..200 {
                let p = Playout::deal(&mut rng, mode, dealer);
                let hands = p.hands();
                let held = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
                let deal = Deal {
                    hands,
                    out: CardSet::DECK.minus(held),
                };
                assert!(deal.is_valid_for(mode), "{mode}: {deal:?}");
                assert_eq!(p.leader(), mode.next(dealer));
            }
        }
    }
}

#[test]
fn broken_spades_may_be_led() {
    let hands =
        PerSeat::from_slice(&["AS 2C", "KS 3C", "QS 4C", "JS 5C"].map(|h| h.parse().unwrap()))
            .unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(13);
    let mut spade_leads = 0;
    for _ in 0..200 {
        let p = Playout::from_hands(&hands, seat(0), true, &mut rng);
        let mut first = None;
        p.play_with(&mut rng, |_, c| {
            first.get_or_insert(c);
        });
        spade_leads += usize::from(first.unwrap().suit() == Suit::Spades);
    }
    assert!((60..140).contains(&spade_leads), "{spade_leads}");
}

#[test]
fn a_finished_hand_keeps_the_first_tricks_house_rules() {
    use crate::engine::rules::PlayRules;
    // Seat 1, void in hearts, may ruff the first trick with the AS and
    // then win the second with the 4D (nobody else has a diamond);
    // barred from ruffing, it takes exactly one trick, the AS's.
    let hands =
        PerSeat::from_slice(&["2H 3H", "AS 4D", "5H 6H", "7H 8H"].map(|h| h.parse().unwrap()))
            .unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(17);
    let no_ruff = PlayRules {
        trump_first_trick: false,
        ..PlayRules::default()
    };
    let mut twice = 0;
    for _ in 0..200 {
        let hand = HandState::new(hands, seat(0));
        twice += usize::from(Playout::finish(hand, &mut rng)[seat(1)] == 2);
        let won = Playout::finish(hand.under(no_ruff), &mut rng);
        assert_eq!(won[seat(1)], 1, "{won:?}");
    }
    assert!(twice > 20, "the classic rules let it ruff: {twice}");
}

/// Counts must all sit within `sigmas` standard deviations of `expected`.
fn assert_even(counts: &[u32], expected: f64, sigmas: f64) {
    let tolerance = sigmas * expected.sqrt();
    for (i, &c) in counts.iter().enumerate() {
        assert!(
            (f64::from(c) - expected).abs() < tolerance,
            "entry {i}: {c}, expected {expected} ± {tolerance}: {counts:?}"
        );
    }
}

#[test]
fn deals_are_even() {
    let mut rng = Pcg64Mcg::seed_from_u64(14);
    let rounds = 20_000;
    let mut seat_of_card = [[0u32; 4]; 52];
    for round in 0..rounds / 2 {
        // Single deals and batch lanes alike.
        let lanes = if round % 2 == 0 {
            [0, 1].map(|_| Playout::deal(&mut rng, Mode::Partnership, seat(0)))
        } else {
            Playout::deal_batch(&mut rng, Mode::Partnership, [seat(0); 2])
        };
        for lane in lanes {
            for (seat, hand) in lane.hands().iter().enumerate() {
                for card in *hand {
                    seat_of_card[card.index() as usize][seat] += 1;
                }
            }
        }
    }
    for counts in &seat_of_card {
        assert_even(counts, f64::from(rounds) / 4.0, 5.0);
    }
}

/// Picks are even: the first lead over the non-spades, and the second
/// seat's follow over the ranks of the suit led. A stack left in rank
/// order would fail the second.
fn picks_are_even(mut next: impl FnMut(&mut Pcg64Mcg) -> Playout, held: Option<CardSet>) {
    let mut rng = Pcg64Mcg::seed_from_u64(15);
    let rounds = 39_000;
    let mut leads = [0u32; 52];
    let mut follows = [0u32; 52];
    for _ in 0..rounds {
        let p = next(&mut rng);
        let mut cards = Vec::with_capacity(2);
        p.play_with(&mut rng, |_, c| {
            if cards.len() < 2 {
                cards.push(c);
            }
        });
        leads[cards[0].index() as usize] += 1;
        if cards[1].suit() == cards[0].suit() {
            follows[cards[1].index() as usize] += 1;
        }
    }
    match held {
        // Fixed hands: leads even over the leader's non-spades, follows
        // even over the follower's cards of each suit.
        Some(follower) => {
            let lead_cards: Vec<u32> = leads.iter().copied().filter(|&c| c > 0).collect();
            assert_even(
                &lead_cards,
                f64::from(rounds) / lead_cards.len() as f64,
                5.0,
            );
            for suit in Suit::ALL {
                let mine: Vec<u32> = follower
                    .suit(suit)
                    .iter()
                    .map(|c| follows[c.index() as usize])
                    .collect();
                let total: u32 = mine.iter().sum();
                // Spades are not led before they are broken.
                if total > 0 {
                    assert_even(&mine, f64::from(total) / mine.len() as f64, 5.0);
                }
            }
        }
        // Random deals: every non-spade as likely to be led, every rank
        // as likely to follow.
        None => {
            assert_even(&leads[..39], f64::from(rounds) / 39.0, 5.0);
            for suit in 0..3 {
                let ranks = &follows[suit * 13..suit * 13 + 13];
                let total: u32 = ranks.iter().sum();
                assert_even(ranks, f64::from(total) / 13.0, 5.0);
            }
        }
    }
}

#[test]
fn dealt_picks_are_even() {
    picks_are_even(|rng| Playout::deal(rng, Mode::Partnership, seat(3)), None);
}

#[test]
fn picks_from_given_hands_are_even() {
    let deal = Deal::from_seed(5, 1, Mode::Partnership, seat(3));
    let follower = deal.hands[seat(1)];
    picks_are_even(
        |rng| Playout::from_hands(&deal.hands, seat(0), false, rng),
        Some(follower),
    );
}

#[test]
fn joker_decks_play_out_as_hand_state_plays_them() {
    use crate::engine::Jokers;
    let mut rng = Pcg64Mcg::seed_from_u64(17);
    for jokers in Jokers::ALL {
        for mode in Mode::ALL {
            for i in 0..40u64 {
                let deal = Deal::from_seed_in(jokers, i, 1, mode, seat(0));
                let playout = Playout::from_hands(&deal.hands, seat(1), false, &mut rng);
                agrees_with_hand_state(playout, &mut rng);
            }
        }
    }
}

#[test]
fn a_hand_of_all_sixteen_spades_is_finished_card_by_card() {
    use crate::engine::Jokers;
    // Cutthroat, deuces high: seat 0 holds every spade and the 3 of clubs.
    let deck = Jokers::DeucesHigh.deck();
    let spades = deck.suit(Suit::Spades);
    let first = spades.union(CardSet::single("3C".parse().unwrap()));
    let rest: Vec<Card> = deck.minus(first).iter().collect();
    let hands = PerSeat::from_slice(&[
        first,
        rest[..17].iter().copied().collect(),
        rest[17..34].iter().copied().collect(),
    ])
    .unwrap();
    assert!(!Playout::fits(&hands));
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    for _ in 0..20 {
        let won = Playout::finish(HandState::new(hands, seat(1)), &mut rng);
        assert_eq!(won.iter().map(|&w| u32::from(w)).sum::<u32>(), 17);
        // Sixteen spades take sixteen tricks at least.
        assert!(won[seat(0)] >= 16, "{won:?}");
    }
}

#[test]
fn held_suits_finds_nonempty_suits() {
    for held in 0..16usize {
        let mut counts = 0u32;
        for suit in 0..4 {
            if held & (1 << suit) != 0 {
                counts |= (1 + suit as u32 * 4) << (8 * suit);
            }
        }
        assert_eq!(held_suits(counts), held);
        assert_eq!(held_suits(counts | 0x0D0D_0D0D), 0xF);
    }
}
