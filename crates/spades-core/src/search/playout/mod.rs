//! Random playouts: the rest of a hand played with a uniformly random legal
//! card at every turn, as fast as a search bot needs (millions per second).
//!
//! Each seat keeps its cards as one stack per suit, in uniformly random
//! order. Taking the top card of a randomly ordered stack is a uniform pick
//! from that suit, and what is left stays randomly ordered, so a card is
//! never searched for: a suit is drawn with weight equal to its legal cards
//! held and its top card taken, which makes each legal card equally likely.
//! A trick's draws share one random word. The rules themselves come from
//! `play`: legal suits from `legal_plays`, trick winners from `trick_power`.
//!
//! `play_batch` and `deal_batch` run several playouts side by side: one
//! playout is a chain of dependent steps from each trick's leader to its
//! winner, and independent chains keep the processor busy.

use rand::Rng;

use crate::engine::card::{Card, Suit};
use crate::engine::cards::CardSet;
use crate::engine::play::{HandState, SPADE_POWER, legal_plays, trick_power};
use crate::engine::seat::{MAX_SEATS, Mode, PerSeat, Seat};

/// Seats as plain numbers inside the playout's hot loops.
type SeatNo = usize;

/// The cards still to be played and who leads the next trick, ready for
/// any number of random playouts (it is `Copy`; each playout consumes one).
/// Not `PartialEq`: stack bytes above the tops are left over, not cleared.
#[derive(Debug, Clone, Copy)]
pub struct Playout {
    /// SeatNo `s` has 64 bytes from `s << 6`, suit `t` 16 of them from
    /// `s << 6 | t << 4`: card indices, the top of the stack last.
    stacks: [u8; 256],
    /// `tops[4 * s + t]`: where seat `s`'s stack of suit `t` ends in
    /// `stacks`, `s << 6 | t << 4` plus the cards held (so the low nibbles
    /// are the counts and the top card is one slot below). Bytes, so that
    /// taking a card is a byte decrement; a seat's four are read together.
    tops: [u8; 4 * MAX_SEATS],
    seats: u8,
    leader: u8,
    broken: bool,
}

/// `tops` when no seat holds a card.
const EMPTY_TOPS: [u8; 4 * MAX_SEATS] = {
    let mut tops = [0u8; 4 * MAX_SEATS];
    let mut i = 0;
    while i < tops.len() {
        tops[i] = ((i / 4) << 6 | (i % 4) << 4) as u8;
        i += 1;
    }
    tops
};

impl Playout {
    /// A hand of the classic deck dealt from `rng` the way `Deal::shuffled`
    /// deals (a uniform shuffle, one card at a time clockwise from the
    /// dealer's left, though not card for card the same from the same
    /// generator), with the dealer's left to lead.
    pub fn deal<R: Rng>(rng: &mut R, mode: Mode, dealer: Seat) -> Playout {
        let mut playout = Playout::empty(mode.seats(), 0, false);
        let lanes = std::array::from_mut(&mut playout);
        let dealer = dealer.index();
        match mode.seats() {
            3 => Playout::deal_into::<3, 1, R>(rng, mode.hand_size(), [dealer], lanes),
            _ => Playout::deal_into::<4, 1, R>(rng, mode.hand_size(), [dealer], lanes),
        }
        playout
    }

    /// `B` classic hands dealt as `deal` deals them, shuffled side by side so that
    /// the processor has independent work while each waits on its loads.
    pub fn deal_batch<const B: usize, R: Rng>(
        rng: &mut R,
        mode: Mode,
        dealers: [Seat; B],
    ) -> [Playout; B] {
        // Built in place: copying a playout just after its bytes are
        // written stalls on store forwarding.
        let mut playouts = [Playout::empty(mode.seats(), 0, false); B];
        let dealers = dealers.map(Seat::index);
        match mode.seats() {
            3 => Playout::deal_into::<3, B, R>(rng, mode.hand_size(), dealers, &mut playouts),
            _ => Playout::deal_into::<4, B, R>(rng, mode.hand_size(), dealers, &mut playouts),
        }
        playouts
    }

    /// A Fisher-Yates shuffle from the top of the deck, dealing each
    /// position as soon as its card is final: position `p` goes to seat
    /// `(dealer + 1 + p) % N`, as in a deal from the top one at a time.
    ///
    /// Four draws share each 64-bit random word: together they are the
    /// digits of one draw below the product of their ranges (at most
    /// 52^4 < 2^23) from 64 bits, so any outcome's chance is off by less
    /// than one part in 2^41.
    #[inline(always)]
    fn deal_into<const N: usize, const B: usize, R: Rng>(
        rng: &mut R,
        hand_size: usize,
        dealers: [SeatNo; B],
        playouts: &mut [Playout; B],
    ) {
        // Only the fields that say what is held: stack bytes above the tops
        // are never read.
        for (playout, dealer) in playouts.iter_mut().zip(dealers) {
            playout.seats = N as u8;
            playout.leader = ((dealer + 1) % N) as u8;
            playout.broken = false;
        }
        let dealt = N * hand_size;
        let mut decks = [std::array::from_fn::<u8, 64, _>(|i| i as u8); B];
        let mut seats = dealers.map(|dealer| (dealer + 52) % N);
        let mut tops = [EMPTY_TOPS; B];
        // Ranges 52 down to 1, four to a word.
        for chunk in 0..13 {
            let words: [u128; B] = std::array::from_fn(|_| u128::from(rng.next_u64()));
            // Draw k is digit k of floor(word * r0 * .. * r3 / 2^64) in
            // the mixed radix of the ranges r0..r3: the high half of word
            // times the product of the first k + 1 ranges, less the high
            // half for the first k times range k. The same digits as
            // multiplying the low half along, without four multiplies in
            // a row on the critical path.
            let mut product = 1u64;
            let mut before = [0u64; B];
            for k in 0..4 {
                let pos = 51 - 4 * chunk - k;
                let range = pos as u64 + 1;
                product *= range;
                for b in 0..B {
                    let high = ((words[b] * u128::from(product)) >> 64) as u64;
                    let j = high.wrapping_sub(before[b].wrapping_mul(range)) as usize & 63;
                    before[b] = high;
                    let deck = &mut decks[b];
                    let card = deck[j];
                    deck[j] = deck[pos];
                    if pos < dealt {
                        // With four seats each word's draws go to the same
                        // four seats in turn, so the seat is fixed by `k`.
                        let to = if N == 4 {
                            (dealers[b] + 4 - k) % 4
                        } else {
                            seats[b]
                        };
                        let suit = usize::from(SUIT_OF[usize::from(card & 63)]);
                        let top = &mut tops[b][(to * 4 + suit) & 15];
                        playouts[b].stacks[usize::from(*top)] = card;
                        *top += 1;
                    }
                    seats[b] = if seats[b] == 0 { N - 1 } else { seats[b] - 1 };
                }
            }
        }
        for (playout, tops) in playouts.iter_mut().zip(tops) {
            playout.tops = tops;
        }
    }

    /// Playouts from given hands at the start of a trick that `leader`
    /// leads; every seat holds the same number of cards, at most 15 of a
    /// suit (`fits`: only a 17-card hand of the deuces-high deck can hold
    /// more, all 16 spades). Each suit of each
    /// hand is shuffled once here by Fisher-Yates, from one 64-bit word per
    /// suit: its draws are the digits of one draw below 13! < 2^33 at most,
    /// so any order's chance is off by less than one part in 2^31.
    pub fn from_hands<R: Rng>(
        hands: &PerSeat<CardSet>,
        leader: Seat,
        spades_broken: bool,
        rng: &mut R,
    ) -> Playout {
        debug_assert!(hands.iter().all(|h| h.len() == hands.as_slice()[0].len()));
        debug_assert!(Playout::fits(hands));
        let mut playout = Playout::empty(hands.len(), leader.index(), spades_broken);
        for (seat, hand) in hands.iter().enumerate() {
            for card in *hand {
                playout.push(seat, card.index());
            }
            for suit in 0..4 {
                let len = playout.count(seat, suit);
                if len < 2 {
                    continue;
                }
                let stack = &mut playout.stacks[seat << 6 | suit << 4..][..16];
                let mut word = rng.next_u64();
                for i in (1..len).rev() {
                    let product = u128::from(word) * (i as u128 + 1);
                    word = product as u64;
                    stack.swap(i, (product >> 64) as usize & 15);
                }
            }
        }
        playout
    }

    /// Can every hand's suits be stacked (at most 15 cards of a suit)?
    /// Only spades, 16 in the deuces-high deck, can be more.
    pub fn fits(hands: &PerSeat<CardSet>) -> bool {
        hands.iter().all(|h| h.suit(Suit::Spades).len() < 16)
    }

    /// Plays `hand` to its end at random from wherever it stands, mid-trick
    /// or not (a search's hand resumed from a view): the current trick card
    /// by card through `HandState` (the first trick too, when a house rule
    /// governs it), the rest as a `Playout`, which knows only whether
    /// spades may be led (or card by card to the end where the hands do not
    /// `fit`). Returns the tricks each seat won over the whole hand.
    pub fn finish<R: Rng>(mut hand: HandState, rng: &mut R) -> PerSeat<u8> {
        let mut play_one = |hand: &mut HandState| {
            let card = hand.legal().pick(rng.next_u32());
            hand.play_unchecked(
                card.unwrap_or_else(|| unreachable!("the seat to play holds a card")),
            );
        };
        while hand.winning().is_some() || (hand.first_trick_has_house_rules() && !hand.is_over()) {
            play_one(&mut hand);
        }
        if !Playout::fits(&hand.hands) {
            while !hand.is_over() {
                play_one(&mut hand);
            }
            return hand.tricks_won();
        }
        let rest = Playout::from_hands(&hand.hands, hand.turn(), hand.spades_may_lead(), rng);
        let won = rest.play(rng);
        let mut total = hand.tricks_won();
        for (total, won) in total.as_mut_slice().iter_mut().zip(won.iter()) {
            *total += won;
        }
        total
    }

    fn empty(seats: usize, leader: SeatNo, broken: bool) -> Playout {
        Playout {
            stacks: [0; 256],
            tops: EMPTY_TOPS,
            seats: seats as u8,
            leader: leader as u8,
            broken,
        }
    }

    fn push(&mut self, seat: SeatNo, card: u8) {
        let top = &mut self.tops[seat * 4 + usize::from(SUIT_OF[usize::from(card & 63)])];
        self.stacks[usize::from(*top)] = card;
        *top += 1;
    }

    /// Byte `suit` of the result: how many cards of that suit `seat` holds.
    #[inline(always)]
    fn counts(&self, seat: SeatNo) -> u32 {
        self.seat_tops(seat) & 0x0F0F_0F0F
    }

    /// `seat`'s four `tops` bytes as one word, suit 0 lowest.
    #[inline(always)]
    fn seat_tops(&self, seat: SeatNo) -> u32 {
        let at = (seat & 3) * 4;
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| self.tops[at + i]);
        u32::from_le_bytes([a, b, c, d])
    }

    fn count(&self, seat: SeatNo, suit: usize) -> usize {
        (self.counts(seat) >> (8 * suit)) as usize & 0xFF
    }

    /// The cards each seat holds.
    pub fn hands(&self) -> PerSeat<CardSet> {
        let hands = std::array::from_fn(|seat| {
            let mut hand = CardSet::EMPTY;
            for suit in 0..4 {
                for &card in &self.stacks[seat << 6 | suit << 4..][..self.count(seat, suit)] {
                    hand.insert(Card::from_index_unchecked(card));
                }
            }
            hand
        });
        PerSeat::from_array(usize::from(self.seats), hands)
    }

    /// The seat that led the current trick.
    pub fn leader(&self) -> Seat {
        Seat::masked(self.leader)
    }

    /// Plays every remaining trick at random; returns the tricks each seat won.
    #[inline]
    pub fn play<R: Rng>(self, rng: &mut R) -> PerSeat<u8> {
        self.play_with(rng, |_, _| {})
    }

    /// `play`, telling `on_card` each seat's card as it is played.
    #[inline]
    pub fn play_with<R: Rng, F: FnMut(Seat, Card)>(self, rng: &mut R, on_card: F) -> PerSeat<u8> {
        let seats = usize::from(self.seats);
        let won = match self.seats {
            1 => self.run::<1, R, F>(rng, on_card),
            2 => self.run::<2, R, F>(rng, on_card),
            3 => self.run::<3, R, F>(rng, on_card),
            _ => self.run::<4, R, F>(rng, on_card),
        };
        PerSeat::from_array(seats, won)
    }

    #[inline(always)]
    fn run<const N: usize, R: Rng, F: FnMut(Seat, Card)>(
        mut self,
        rng: &mut R,
        mut on_card: F,
    ) -> [u8; MAX_SEATS] {
        let tricks = self.tricks_left();
        let lanes = std::array::from_mut(&mut self);
        let mut won = [[0u8; MAX_SEATS]];
        for _ in 0..tricks {
            Playout::trick::<N, 1, R, _>(lanes, &mut won, rng, &mut |_, seat, card| {
                on_card(Seat::masked(seat as u8), card)
            });
        }
        won[0]
    }

    /// Tricks still to play: the cards each seat holds.
    fn tricks_left(&self) -> u32 {
        self.counts(self.leader as usize).wrapping_mul(0x0101_0101) >> 24
    }

    /// Plays `playouts` out together, in place (copy them first to keep
    /// the start), each as `play` would; all must have the same seats and
    /// cards left. One playout is a chain of dependent loads and multiplies
    /// from each trick's leader to its winner, so the processor mostly
    /// waits; several chains in step keep it busy.
    pub fn play_batch<const B: usize, R: Rng>(
        playouts: &mut [Playout; B],
        rng: &mut R,
    ) -> [PerSeat<u8>; B] {
        Playout::play_batch_with(playouts, rng, |_, _, _| {})
    }

    /// `play_batch`, telling `on_card` each (lane, seat, card) as it is played.
    #[inline]
    pub fn play_batch_with<const B: usize, R: Rng, F: FnMut(usize, Seat, Card)>(
        playouts: &mut [Playout; B],
        rng: &mut R,
        mut on_card: F,
    ) -> [PerSeat<u8>; B] {
        let mut won = [[0u8; MAX_SEATS]; B];
        let Some(first) = playouts.first() else {
            return won.map(|w| PerSeat::from_array(1, w));
        };
        let (seats, tricks) = (first.seats, first.tricks_left());
        assert!(
            playouts
                .iter()
                .all(|p| p.seats == seats && p.tricks_left() == tricks),
            "a batch's playouts must have the same seats and cards left"
        );
        let f = &mut |lane, seat: SeatNo, card| on_card(lane, Seat::masked(seat as u8), card);
        for _ in 0..tricks {
            match seats {
                1 => Playout::trick::<1, B, R, _>(playouts, &mut won, rng, f),
                2 => Playout::trick::<2, B, R, _>(playouts, &mut won, rng, f),
                3 => Playout::trick::<3, B, R, _>(playouts, &mut won, rng, f),
                _ => Playout::trick::<4, B, R, _>(playouts, &mut won, rng, f),
            }
        }
        won.map(|w| PerSeat::from_array(usize::from(seats), w))
    }

    /// Plays one trick in each of `lanes` (for `N` seats), counting it in
    /// `won`; `on_card` hears (lane, seat, card). Lanes go card by card in
    /// step, so their independent work sits side by side.
    #[inline(always)]
    fn trick<const N: usize, const B: usize, R: Rng, F: FnMut(usize, SeatNo, Card)>(
        lanes: &mut [Playout; B],
        won: &mut [[u8; MAX_SEATS]; B],
        rng: &mut R,
        on_card: &mut F,
    ) {
        // One random word serves each trick's draws: each multiplies it by
        // its range, keeps the high half as the draw and the low half for
        // the next. Together they are the digits of one draw below the
        // product of the ranges (at most 52^4 < 2^23) from 64 bits, so any
        // outcome's chance is off by less than one part in 2^41.
        let mut word: [u64; B] = std::array::from_fn(|_| rng.next_u64());
        let mut leader = [0usize; B];
        let mut rule = [0usize; B];
        // The winning card's power and seat as `power << 8 | seat`: a card
        // takes over exactly when this grows, as no two cards that can win
        // have the same power (off-suit discards have 0). One value per
        // lane keeps the lanes' state in registers.
        let mut best = [0usize; B];
        for b in 0..B {
            let p = &mut lanes[b];
            leader[b] = p.leader as usize % N;
            let (card, suit) = p.take(leader[b], rule_key(LEADING, p.broken), &mut word[b]);
            on_card(b, leader[b], Card::from_index_unchecked(card));
            let power = trick_power(Card::from_index_unchecked(card), suit);
            best[b] = usize::from(power) << 8 | leader[b];
            rule[b] = rule_key(usize::from(suit), p.broken);
        }
        for i in 1..N {
            for b in 0..B {
                let seat = next_seat::<N>(leader[b] + i);
                let (card, _) = lanes[b].take(seat, rule[b], &mut word[b]);
                on_card(b, seat, Card::from_index_unchecked(card));
                let power = trick_power(Card::from_index_unchecked(card), (rule[b] >> 5) as u8);
                // A select, not a branch: who wins is as random as the cards.
                best[b] = best[b].max(usize::from(power) << 8 | seat);
            }
        }
        for b in 0..B {
            // A spade in the trick would be its best card.
            lanes[b].broken |= best[b] >> 8 >= usize::from(SPADE_POWER);
            let winner = best[b] & 3;
            won[b][winner] += 1;
            lanes[b].leader = winner as u8;
        }
    }

    /// Takes a uniformly random legal card, and its suit, from `seat`'s
    /// hand. `rule` is `rule_key(lead, broken)` with `lead` the suit led or
    /// `LEADING`; `word` is the random bits a trick's draws share (see
    /// `trick`).
    ///
    /// No branch: a suit is drawn with weight equal to its legal cards held,
    /// which is also how the usual follow (one legal suit) goes. Branching
    /// on voids would mispredict about once a trick.
    #[inline(always)]
    fn take(&mut self, seat: SeatNo, rule: usize, word: &mut u64) -> (u8, u8) {
        let tops = self.seat_tops(seat);
        let counts = tops & 0x0F0F_0F0F;
        let legal = LEGAL_BYTES[(rule | held_suits(counts)) & 0xFF];
        // Byte s of `running` counts the legal cards in suits 0..=s; the
        // suit drawn is how many of those are <= k.
        let running = (counts & legal).wrapping_mul(0x0101_0101);
        let product = u128::from(*word) * u128::from(running >> 24);
        *word = product as u64;
        let k = (product >> 64) as u32;
        let at_or_below = ((k * 0x0101_0101) | 0x8080_8080).wrapping_sub(running) & 0x8080_8080;
        let suit = (at_or_below >> 7).wrapping_mul(0x0101_0101) >> 24;
        // The seat's four tops are written back as one word, as they are
        // read: a byte store read back inside a wider load cannot be
        // forwarded and stalls the next read of this seat until it lands.
        let tops = tops.wrapping_sub(1 << (8 * (suit & 3)));
        let at = (seat & 3) * 4;
        self.tops[at..at + 4].copy_from_slice(&tops.to_le_bytes());
        let top = (tops >> (8 * (suit & 3))) as u8;
        (self.stacks[usize::from(top)], suit as u8)
    }
}

/// `SUIT_OF[card]`: the suit of a card index (64 wide for masked indices).
const SUIT_OF: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        table[i] = Card::from_index_unchecked(i as u8).suit() as u8;
        i += 1;
    }
    table
};

/// Bit `suit` set when byte `suit` of `counts` is not zero (counts < 128).
#[inline(always)]
fn held_suits(counts: u32) -> usize {
    let nonzero = ((counts + 0x7F7F_7F7F) & 0x8080_8080) >> 7;
    // Gathers bits 0, 8, 16 and 24 into bits 24..=27; no partial products overlap.
    // Nothing lands above bit 27, so no mask is needed.
    (nonzero.wrapping_mul(0x0102_0408) >> 24) as usize
}

/// SeatNo `seat % N` for `seat < 2 * N`, without a division.
#[inline(always)]
fn next_seat<const N: usize>(seat: usize) -> usize {
    if N.is_power_of_two() {
        seat & (N - 1)
    } else if seat >= N {
        seat - N
    } else {
        seat
    }
}

/// The `LEGAL_SUITS` index of the suits held for a lead (or `LEADING`).
#[inline(always)]
fn rule_key(lead: usize, broken: bool) -> usize {
    lead << 5 | usize::from(broken) << 4
}

/// Index of `LEGAL_SUITS` for a lead rather than a follow.
const LEADING: usize = 4;

/// `LEGAL_SUITS[lead << 5 | broken << 4 | held]`: the suits (bit per suit) a
/// seat holding the suits `held` may play, read off `legal_plays` for one
/// card per suit.
const LEGAL_SUITS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut lead = 0;
    while lead < 5 {
        let led = if lead == LEADING {
            None
        } else {
            Some(Suit::from_index(lead as u8))
        };
        let mut broken = 0;
        while broken < 2 {
            let mut held = 0;
            while held < 16 {
                let mut hand = 0u64;
                let mut suit = 0;
                while suit < 4 {
                    if held & (1 << suit) != 0 {
                        hand |= 1 << (13 * suit);
                    }
                    suit += 1;
                }
                let legal = legal_plays(CardSet::from_bits_truncate(hand), led, broken == 1).bits();
                let mut suits = 0u8;
                let mut suit = 0;
                while suit < 4 {
                    if legal & (1 << (13 * suit)) != 0 {
                        suits |= 1 << suit;
                    }
                    suit += 1;
                }
                table[lead << 5 | broken << 4 | held] = suits;
                held += 1;
            }
            broken += 1;
        }
        lead += 1;
    }
    table
};

/// `LEGAL_BYTES[i]`: all ones in the bytes of the suits in `LEGAL_SUITS[i]`.
const LEGAL_BYTES: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut suit = 0;
        while suit < 4 {
            if LEGAL_SUITS[i] & (1 << suit) != 0 {
                table[i] |= 0xFF << (8 * suit);
            }
            suit += 1;
        }
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests;
