//! Dealing from a seed: a game's seed fixes every hand's cards on every
//! machine and every version (a golden test guards this).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::card::Card;
use super::cards::CardSet;
use super::deck::Jokers;
use super::seat::{Mode, PerSeat, Seat};

/// The cards of one hand: what each seat was dealt and what is out of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deal {
    /// Each seat's cards as dealt.
    pub hands: PerSeat<CardSet>,
    /// Out of play for the hand (the 52nd card in cutthroat).
    pub out: CardSet,
}

impl Deal {
    /// Deals hand `hand` (numbered from 1) of a classic-deck game with this
    /// seed, one card at a time clockwise from the dealer's left.
    pub fn from_seed(seed: u64, hand: u32, mode: Mode, dealer: Seat) -> Deal {
        Deal::from_seed_in(Jokers::None, seed, hand, mode, dealer)
    }

    /// Deals hand `hand` of a game with this seed from the deck `jokers`
    /// says: the classic deal with each replaced card swapped for the card
    /// in its place (`Jokers::in_place_of`), so the classic deck deals
    /// exactly as it always has.
    pub fn from_seed_in(jokers: Jokers, seed: u64, hand: u32, mode: Mode, dealer: Seat) -> Deal {
        let mut rng = ChaCha8Rng::from_seed(key(seed, u64::from(hand)));
        Deal::shuffled(&mut rng, jokers, mode, dealer)
    }

    /// A deal from any generator: what playouts and samplers use, where
    /// speed matters more than portability.
    pub fn shuffled<R: Rng>(rng: &mut R, jokers: Jokers, mode: Mode, dealer: Seat) -> Deal {
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        if jokers != Jokers::None {
            for slot in &mut deck {
                *slot = jokers
                    .in_place_of(Card::from_index_unchecked(*slot))
                    .index();
            }
        }
        for i in (1..52).rev() {
            let j = below(rng, i as u32 + 1) as usize;
            deck.swap(i, j);
        }
        let n = mode.seats();
        let dealt = n * mode.hand_size();
        let mut hands = PerSeat::filled(mode, CardSet::EMPTY);
        let mut out = CardSet::EMPTY;
        let mut seat = dealer.index();
        for (k, &i) in deck.iter().enumerate() {
            let card = Card::from_index_unchecked(i);
            seat = if seat + 1 == n { 0 } else { seat + 1 };
            if k < dealt {
                hands[Seat::new(seat)].insert(card);
            } else {
                out.insert(card);
            }
        }
        Deal { hands, out }
    }

    /// Checks that the hands and the cards out make the whole classic deck,
    /// split as the mode says.
    pub fn is_valid_for(&self, mode: Mode) -> bool {
        self.is_valid_in(Jokers::None, mode)
    }

    /// Checks that the hands and the cards out make the whole deck `jokers`
    /// says, split as the mode says.
    pub fn is_valid_in(&self, jokers: Jokers, mode: Mode) -> bool {
        let mut all = self.out;
        for h in &self.hands {
            if h.len() as usize != mode.hand_size() || !all.intersect(*h).is_empty() {
                return false;
            }
            all |= *h;
        }
        self.hands.len() == mode.seats() && all == jokers.deck()
    }
}

/// The dealer of the first hand, drawn from the seed so that no seat always
/// leads.
pub fn first_dealer(seed: u64, mode: Mode) -> Seat {
    let mut rng = ChaCha8Rng::from_seed(key(seed, 0));
    // Players are the first seats (the dummy sits last), so the draw is
    // among them.
    Seat::new(below(&mut rng, mode.players() as u32) as usize)
}

/// A 32-byte ChaCha key from the game seed and the hand number (SplitMix64).
fn key(seed: u64, stream: u64) -> [u8; 32] {
    let mut state = seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        chunk.copy_from_slice(&z.to_le_bytes());
    }
    key
}

/// A uniform integer in `0..n` (Lemire's multiply-and-reject), written out
/// here so a library upgrade can never change a deal.
fn below<R: Rng>(rng: &mut R, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deal_is_the_whole_deck() {
        for mode in Mode::ALL {
            for seed in 0..200 {
                for dealer in mode.each_seat() {
                    let d = Deal::from_seed(seed, 1 + seed as u32 % 7, mode, dealer);
                    assert!(d.is_valid_for(mode), "{mode} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn a_joker_deck_deals_its_cards_where_the_classic_deck_deals_its_own() {
        for jokers in Jokers::ALL {
            for mode in Mode::ALL {
                for seed in 0..50 {
                    let dealer = Seat::new(seed as usize % mode.seats());
                    let classic = Deal::from_seed(seed, 3, mode, dealer);
                    let d = Deal::from_seed_in(jokers, seed, 3, mode, dealer);
                    assert!(d.is_valid_in(jokers, mode), "{jokers} {mode} seed {seed}");
                    assert_eq!(d.is_valid_for(mode), jokers == Jokers::None);
                    let swapped = |set: CardSet| -> CardSet {
                        set.iter().map(|c| jokers.in_place_of(c)).collect()
                    };
                    for s in mode.each_seat() {
                        assert_eq!(d.hands[s], swapped(classic.hands[s]));
                    }
                    assert_eq!(d.out, swapped(classic.out));
                }
            }
        }
    }

    #[test]
    fn hands_differ_between_hands_and_seeds() {
        let north = Seat::new(0);
        let a = Deal::from_seed(1, 1, Mode::Partnership, north);
        assert_ne!(a, Deal::from_seed(1, 2, Mode::Partnership, north));
        assert_ne!(a, Deal::from_seed(2, 1, Mode::Partnership, north));
        assert_eq!(a, Deal::from_seed(1, 1, Mode::Partnership, north));
    }
}
