//! Seed 42 deals the same cards forever: on every machine, in every version.
//! A change here breaks every saved seed and record, so it must be deliberate.

use spades::engine::deal::first_dealer;
use spades::engine::{Action, Bid, Deal, Event, Game, Mode, Rules, Seat};

const SEED: u64 = 42;

/// Partnership and individual deal alike: same seats, same hand size.
const FOUR_SEATS_HAND_1: [&str; 4] = [
    "2C 8C 9C JC 3D JD AD 7H KH 5S 7S 8S JS",
    "6C 7C TC 5D 6D 9D TD 6H QH 2S 3S 9S AS",
    "3C 4C QC KC 7D 8D QD KD 2H TH TS QS KS",
    "5C AC 2D 4D 3H 4H 5H 8H 9H JH AH 4S 6S",
];

const FOUR_SEATS_HAND_2: [&str; 4] = [
    "6C 7C 9C TC KC AC 3D 4D 6D TD AD 4H 9S",
    "2C 3C 4C QC 8D 9D JD 7H 8H TH JH 4S 8S",
    "8C 5D 7D 3H 6H 9H AH 2S 3S 5S 7S TS JS",
    "5C JC 2D QD KD 2H 5H QH KH 6S QS KS AS",
];

const CUTTHROAT_HAND_1: [&str; 3] = [
    "4C 6C 7C JC 2D 4D 9D JD QD KD 9H QH KH AH 7S 8S KS",
    "2C 3C 8C TC QC 3D 6D 8D TD 5H 6H 7H 8H TH 2S 4S 6S",
    "5C 9C KC AC 5D 7D AD 2H 3H 4H JH 3S 5S 9S JS QS AS",
];
const CUTTHROAT_OUT_1: &str = "TS";

const CUTTHROAT_HAND_2: [&str; 3] = [
    "4C 9C TC JC AC 6D 7D 9D AD 9H TH JH AH 6S JS QS KS",
    "3C 7C 2D 4D 5D TD JD 2H 4H 5H 8H QH 4S 5S 7S 8S TS",
    "2C 5C 6C 8C QC KC 3D 8D QD 3H 6H 7H KH 2S 3S 9S AS",
];
const CUTTHROAT_OUT_2: &str = "KD";

/// The pinned first dealers: seat 2 at a table of four, seat 1 at three.
/// With a dummy the first dealer is drawn among the three players, as in
/// cutthroat.
fn pinned_first_dealer(mode: Mode) -> Seat {
    match mode {
        Mode::Cutthroat | Mode::Dummy => Seat::new(1),
        _ => Seat::new(2),
    }
}

/// The dealer of hand `hand`: the deal passes to the next player.
fn pinned_dealer(mode: Mode, hand: u32) -> Seat {
    (1..hand).fold(pinned_first_dealer(mode), |d, _| mode.next_player(d))
}

fn pinned(mode: Mode, hand: u32) -> (Vec<&'static str>, &'static str) {
    match (mode, hand) {
        // The same cards as at four seats, each seat getting the next
        // one's: its dealers (1, then 2) sit one seat before those (2, 3).
        (Mode::Dummy, _) => {
            let (mut hands, out) = pinned(Mode::Individual, hand);
            hands.rotate_left(1);
            (hands, out)
        }
        (Mode::Cutthroat, 1) => (CUTTHROAT_HAND_1.to_vec(), CUTTHROAT_OUT_1),
        (Mode::Cutthroat, _) => (CUTTHROAT_HAND_2.to_vec(), CUTTHROAT_OUT_2),
        (_, 1) => (FOUR_SEATS_HAND_1.to_vec(), ""),
        (_, _) => (FOUR_SEATS_HAND_2.to_vec(), ""),
    }
}

/// The cards of a deal as written, seat by seat, then the cards out.
fn written(
    hands: &[spades::engine::CardSet],
    out: spades::engine::CardSet,
) -> (Vec<String>, String) {
    (
        hands.iter().map(|h| h.to_string()).collect(),
        out.to_string(),
    )
}

#[test]
fn the_pinned_lists_are_whole_decks() {
    // Guards the literals themselves: a typo would otherwise pin nonsense.
    for mode in Mode::ALL {
        for hand in 1..=2 {
            let (hands, out) = pinned(mode, hand);
            let mut seen = std::collections::HashSet::new();
            for word in hands
                .iter()
                .chain([&out])
                .flat_map(|h| h.split_whitespace())
            {
                assert!(seen.insert(word), "{mode} hand {hand}: {word} twice");
            }
            assert_eq!(seen.len(), 52, "{mode} hand {hand}");
            for h in &hands {
                assert_eq!(h.split_whitespace().count(), mode.hand_size());
            }
        }
    }
}

#[test]
fn seed_42_first_dealer_is_pinned() {
    for mode in Mode::ALL {
        assert_eq!(
            first_dealer(SEED, mode),
            pinned_first_dealer(mode),
            "{mode}"
        );
    }
}

#[test]
fn seed_42_hands_1_and_2_are_pinned() {
    for mode in Mode::ALL {
        for hand in 1..=2u32 {
            let dealer = pinned_dealer(mode, hand);
            let deal = Deal::from_seed(SEED, hand, mode, dealer);
            let (hands, out) = pinned(mode, hand);
            assert_eq!(
                written(deal.hands.as_slice(), deal.out),
                (
                    hands.iter().map(|s| s.to_string()).collect(),
                    out.to_string()
                ),
                "{mode} hand {hand}"
            );
        }
    }
}

/// The game deals from the seed too: hand 1 as dealt, and hand 2 by the next
/// dealer after a hand played out.
#[test]
fn a_game_with_seed_42_deals_the_pinned_hands() {
    for mode in Mode::ALL {
        let mut game = Game::new(Rules::classic(mode), SEED);
        let mut deals = vec![game.deal_event()];
        while deals.len() < 2 {
            if game.phase() == spades::engine::Phase::AwaitingDeal {
                deals.extend(game.deal_next_hand());
                continue;
            }
            let turn = game.to_act().expect("the game waits for a seat");
            let view = game.view(turn.seat);
            let action = match view.hand {
                None => Action::Look,
                Some(_) if game.phase() == spades::engine::Phase::Bidding => {
                    Action::Bid(Bid::Tricks(1))
                }
                Some(_) => Action::Play(view.legal_plays().lowest().expect("a legal card")),
            };
            for e in game.apply(turn.seat, action).expect("a legal action") {
                if matches!(e, Event::Deal { .. }) {
                    deals.push(e);
                }
            }
        }
        for (i, deal) in deals.into_iter().enumerate() {
            let hand = i as u32 + 1;
            let Event::Deal {
                hand: number,
                dealer,
                hands,
                out,
            } = deal
            else {
                unreachable!()
            };
            let (want, want_out) = pinned(mode, hand);
            assert_eq!(number, hand);
            assert_eq!(dealer, pinned_dealer(mode, hand), "{mode} hand {hand}");
            assert_eq!(
                written(&hands, out),
                (
                    want.iter().map(|s| s.to_string()).collect(),
                    want_out.to_string()
                ),
                "{mode} hand {hand}"
            );
        }
    }
}
