//! Playouts with a policy: the rest of a hand played by a cheap rule of
//! thumb at every turn rather than at random, so a search's sampled hands
//! look like hands people play. The rule sees what the seat to play could
//! see (its hand, the trick, the cards played, who bid nil); in a guessed
//! deal that is all it needs.
//!
//! The habits, in order: now and then a random legal card (so playouts of
//! one deal differ); a live nil ducks under the trick with its highest card
//! that loses, and leads its lowest; over a partner's winning card follow
//! low, unless the partner is a live nil, who is overtaken; an opponent's
//! live nil winning is left to win; otherwise win as cheaply as possible,
//! or throw the lowest card. Leaders cash a card no unseen card beats (in
//! the side suit the others hold most of, the least likely trumped), or
//! lead low in a random suit.

use rand::Rng;

use crate::engine::bid::Bid;
use crate::engine::card::{Card, Rank, Suit};
use crate::engine::cards::CardSet;
use crate::engine::play::HandState;
use crate::engine::seat::{MAX_SEATS, Mode, PerSeat, Seat};

const SPADES: CardSet = CardSet::of_suit(Suit::Spades);

/// The rule of thumb for one hand's bids; `Copy` and tiny, shared by every
/// playout of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Seats (bit per seat) that bid nil or blind nil.
    nil: u8,
    /// Each seat's partner, or the seat itself where it has none.
    partner: [u8; MAX_SEATS],
    /// The chance of a random legal card instead, out of 2^32.
    wander: u32,
    /// The cards dealt (`Rules::deck`).
    deck: CardSet,
}

/// The default chance of a random legal card at a turn.
const WANDER: f64 = 0.1;

impl Policy {
    /// The policy for a hand of the classic deck with these bids.
    pub fn new(mode: Mode, bids: &PerSeat<Bid>) -> Policy {
        let mut nil = 0;
        let mut partner = [0u8; MAX_SEATS];
        for seat in mode.each_seat() {
            nil |= u8::from(bids[seat].is_nil()) << seat.index();
            partner[seat.index()] = mode.partner(seat).unwrap_or(seat).index() as u8;
        }
        Policy {
            nil,
            partner,
            wander: 0,
            deck: CardSet::DECK,
        }
        .wandering(WANDER)
    }

    /// The same habits in a game dealt from `deck` (`Rules::deck`).
    pub fn in_deck(self, deck: CardSet) -> Policy {
        Policy { deck, ..self }
    }

    /// The same habits, with a random legal card at a turn with chance
    /// `chance` (0 for none, 1 for a random playout).
    fn wandering(self, chance: f64) -> Policy {
        let wander = (chance.clamp(0.0, 1.0) * 4_294_967_295.0) as u32;
        Policy { wander, ..self }
    }

    /// A seat that bid nil and has taken no trick yet.
    fn live_nil(&self, hand: &HandState, seat: Seat) -> bool {
        self.nil >> seat.index() & 1 != 0 && hand.tricks_won()[seat] == 0
    }

    /// The card the seat to play plays, from the random bits `random`.
    #[inline]
    pub fn choose(&self, hand: &HandState, random: u64) -> Card {
        let legal = hand.legal();
        let or_any = |card: Option<Card>| card.or(legal.lowest()).unwrap_or_else(no_card);
        if (random as u32) < self.wander {
            return or_any(legal.pick((random >> 32) as u32));
        }
        let seat = hand.turn();
        let nil = self.live_nil(hand, seat);
        let Some(winner) = hand.winning() else {
            return or_any(self.lead(hand, legal, nil, (random >> 32) as u32));
        };
        let Some(winning) = hand.trick_card(winner) else {
            return or_any(None);
        };
        let beaters = beaters(legal, winning);
        let losers = legal.minus(beaters);
        let partner = Seat::masked(self.partner[seat.index()]);
        let card = if nil {
            // Duck with the card most dangerous later; if every card wins,
            // the lowest leaves the most room to be overtaken.
            highest_rank(losers).or(beaters.lowest())
        } else if winner == partner && partner != seat && self.live_nil(hand, partner) {
            cheapest(beaters).or(lowest_rank(legal))
        } else if self.live_nil(hand, winner) {
            // An opponent's nil is winning: leave it the trick.
            highest_rank(losers).or(lowest_rank(legal))
        } else if self.hunting(hand, seat, winner, winning) {
            // An opponent's nil plays later: keep the trick low so the
            // nil must get under it, and keep the low cards for leads.
            under(losers, hand.led_suit()).or(cheapest(beaters))
        } else if let Some(high) = self.unblock(hand, seat, winner == partner, beaters, losers) {
            Some(high)
        } else if winner == partner && partner != seat {
            lowest_rank(legal)
        } else {
            cheapest(beaters).or(lowest_rank(legal))
        };
        or_any(card)
    }

    /// An opponent's live nil, not yet in the trick: the seat to play
    /// hunts it.
    fn hunted(&self, hand: &HandState, seat: Seat) -> Option<Seat> {
        self.opponents_live_nil(hand, seat, false)
    }

    /// An opponent of `seat` whose nil is live and who has (`in_trick`) or
    /// has not yet played to this trick.
    fn opponents_live_nil(&self, hand: &HandState, seat: Seat, in_trick: bool) -> Option<Seat> {
        let partner = Seat::masked(self.partner[seat.index()]);
        let mut nils = self.nil & !(1 << seat.index()) & !(1 << partner.index());
        while nils != 0 {
            let nil = Seat::masked(nils.trailing_zeros() as u8);
            nils &= nils - 1;
            if self.live_nil(hand, nil) && hand.trick_card(nil).is_some() == in_trick {
                return Some(nil);
            }
        }
        None
    }

    /// The card that unblocks for a hunt: an opponent's live nil has
    /// played to this trick and is beaten, and the trick is the seat's
    /// side's anyway or beyond it, so the seat spends its highest card of
    /// the suit and keeps the low ones to get under the nil later.
    fn unblock(
        &self,
        hand: &HandState,
        seat: Seat,
        partner_wins: bool,
        beaters: CardSet,
        losers: CardSet,
    ) -> Option<Card> {
        if !(partner_wins || beaters.is_empty()) {
            return None;
        }
        self.opponents_live_nil(hand, seat, true)?;
        hand.led_suit().and_then(|suit| losers.suit(suit).highest())
    }

    /// Whether the seat to lead hunts an opponent's nil that plays before
    /// its partner in the trick (the partner plays after the nil, too
    /// late to cover a low lead), or that has no partner.
    fn leads_through(&self, hand: &HandState) -> bool {
        let leader = hand.turn();
        let Some(nil) = self.hunted(hand, leader) else {
            return false;
        };
        let seats = hand.seats();
        let after = |s: Seat| (s.index() + seats - leader.index()) % seats;
        let cover = Seat::masked(self.partner[nil.index()]);
        cover == nil || after(nil) < after(cover)
    }

    /// Whether the seat to play keeps this trick low for a nil still to
    /// play: unless the nil's partner holds it with a high card already,
    /// which the nil ducks whatever follows, and the trick is worth taking.
    fn hunting(&self, hand: &HandState, seat: Seat, winner: Seat, winning: Card) -> bool {
        let Some(nil) = self.hunted(hand, seat) else {
            return false;
        };
        let covered = winner == Seat::masked(self.partner[nil.index()]);
        !(covered && high_enough_to_cover(winning))
    }

    /// The lead: a nil's lowest card; else a card nobody can beat in its
    /// suit (a side suit first), else the lowest of a random legal suit.
    fn lead(&self, hand: &HandState, legal: CardSet, nil: bool, random: u32) -> Option<Card> {
        let elsewhere = self
            .deck
            .minus(hand.played())
            .minus(hand.hands[hand.turn()]);
        // A nil leads low; its hunter leads where the nil has least room
        // to get under, from where the nil plays before its partner can
        // cover.
        if nil {
            return lowest_rank(legal);
        }
        if self.leads_through(hand) {
            return hardest_to_duck(legal, elsewhere);
        }
        let mut winners = CardSet::EMPTY;
        for suit in Suit::ALL {
            if let Some(top) = legal.suit(suit).highest()
                && elsewhere.above(top).is_empty()
            {
                winners.insert(top);
            }
        }
        // Of the side-suit winners, the one whose suit the others hold most
        // of: the fewer of a suit are left, the likelier it is trumped.
        let side = winners.minus(SPADES);
        let safest = side.iter().max_by_key(|c| elsewhere.suit(c.suit()).len());
        if let Some(card) = safest.or(winners.lowest()) {
            return Some(card);
        }
        let suit = legal.pick(random)?.suit();
        legal.suit(suit).lowest()
    }
}

fn no_card() -> Card {
    unreachable!("a seat to play always holds a legal card")
}

/// The cards of `legal` that would take the trick from `winning` (a spade
/// or a card of the suit led).
#[inline]
fn beaters(legal: CardSet, winning: Card) -> CardSet {
    let over = legal.above(winning);
    if winning.suit() == Suit::Spades {
        over
    } else {
        // A follower's legal cards are all of the suit led, so spades here
        // mean the seat is void and may trump.
        over | legal.intersect(SPADES)
    }
}

/// The beater that costs least: the lowest of the suit led, else the
/// lowest trump.
#[inline]
fn cheapest(beaters: CardSet) -> Option<Card> {
    beaters.minus(SPADES).lowest().or(beaters.lowest())
}

/// The lowest-ranked card, from the side suits while there are any: a
/// spade thrown away is a trick thrown away.
#[inline]
fn lowest_rank(set: CardSet) -> Option<Card> {
    let side = set.minus(SPADES);
    let from = if side.is_empty() { set } else { side };
    Suit::ALL
        .into_iter()
        .filter_map(|s| from.suit(s).lowest())
        .min_by_key(|c| c.rank())
}

/// The lead into an opponent's nil from `pool`: the card with the fewest
/// of the `unseen` cards below it in its suit, the least room for the nil
/// to duck (a low spade as well as a side card: a nil cannot throw spades
/// away for long); ties to the lower rank.
pub(crate) fn hardest_to_duck(pool: CardSet, unseen: CardSet) -> Option<Card> {
    pool.iter()
        .min_by_key(|&c| (unseen.below(c).len(), c.rank().index()))
}

/// A card the nil's partner wins a trick with that the nil ducks under
/// whatever the others play: hunting the nil there only gives the trick
/// away. A ten or higher, or a trump.
pub(crate) fn high_enough_to_cover(card: Card) -> bool {
    card.suit() == Suit::Spades || card.rank() >= Rank::TEN
}

/// The card to play under the trick while hunting a nil: the highest
/// loser of the suit led (the low ones are kept to lead into the nil
/// later), or, void, the lowest side card (the high ones may still win).
#[inline]
fn under(losers: CardSet, led: Option<Suit>) -> Option<Card> {
    let followed = led.and_then(|suit| losers.suit(suit).highest());
    followed.or_else(|| lowest_rank(losers))
}

/// The highest-ranked card, spades first on a tie.
#[inline]
fn highest_rank(set: CardSet) -> Option<Card> {
    Suit::ALL
        .into_iter()
        .filter_map(|s| set.suit(s).highest())
        .max_by_key(|c| (c.rank(), c.suit()))
}

/// Plays `hand` to its end from wherever it stands with `policy` at every
/// turn; returns the tricks each seat won over the whole hand.
#[inline]
pub fn play_out<R: Rng>(hand: HandState, policy: &Policy, rng: &mut R) -> PerSeat<u8> {
    play_out_with(hand, policy, rng, |_, _| {})
}

/// `play_out`, telling `on_card` each seat's card as it is played.
#[inline]
pub fn play_out_with<R: Rng>(
    mut hand: HandState,
    policy: &Policy,
    rng: &mut R,
    mut on_card: impl FnMut(Seat, Card),
) -> PerSeat<u8> {
    while !hand.is_over() {
        let card = policy.choose(&hand, rng.next_u64());
        on_card(hand.turn(), card);
        hand.play_unchecked(card);
    }
    hand.tricks_won()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::{card, set};
    use crate::engine::play::beats;

    fn hand(cards: [&str; 4], leader: usize, bids: [Bid; 4]) -> (HandState, Policy) {
        let hands = PerSeat::from_slice(&cards.map(set)).unwrap();
        let bids = PerSeat::from_slice(&bids).unwrap();
        let policy = Policy::new(Mode::Partnership, &bids).wandering(0.0);
        (HandState::new(hands, Seat::new(leader)), policy)
    }

    const FOURS: [Bid; 4] = [Bid::Tricks(4); 4];

    #[test]
    fn beaters_are_the_cards_that_beat() {
        let legal = set("2H 9H KH 3S QS");
        for w in ["TH", "AH", "5S", "AS", "2H"] {
            let w = card(w);
            let by_rule: CardSet = legal.iter().filter(|&c| beats(c, w)).collect();
            assert_eq!(beaters(legal, w), by_rule, "over {w}");
        }
    }

    #[test]
    fn a_nil_ducks_with_its_highest_loser() {
        let bids = [Bid::Tricks(4), Bid::Nil, Bid::Tricks(4), Bid::Tricks(4)];
        let (mut h, p) = hand(["TH 2C", "2H 9H KH", "3C 4C", "5C 6C"], 0, bids);
        h.play_unchecked(card("TH"));
        assert_eq!(p.choose(&h, 0), card("9H"));
    }

    #[test]
    fn over_a_partner_follow_low_and_over_an_opponent_win_cheaply() {
        let (mut h, p) = hand(["KH 2C", "3H 4C", "2H 9H AH", "5C 6C"], 0, FOURS);
        h.play_unchecked(card("KH"));
        h.play_unchecked(card("3H"));
        assert_eq!(p.choose(&h, 0), card("2H"), "partner's king is winning");
        let (mut h, p) = hand(["2C 3C", "KH 4C", "2H QH AH", "5C 6C"], 1, FOURS);
        h.play_unchecked(card("KH"));
        assert_eq!(p.choose(&h, 0), card("AH"), "the ace is the one beater");
        let (mut h, p) = hand(["2C 3C", "TH 4C", "2H QH AH", "5C 6C"], 1, FOURS);
        h.play_unchecked(card("TH"));
        assert_eq!(p.choose(&h, 0), card("QH"), "the queen is enough");
    }

    #[test]
    fn a_partners_nil_is_covered_and_an_opponents_is_left_to_win() {
        let bids = [Bid::Nil, Bid::Tricks(4), Bid::Tricks(4), Bid::Tricks(4)];
        let (mut h, p) = hand(["KH 2C", "3H 4C", "2H 9H AH", "5C 6C"], 0, bids);
        h.play_unchecked(card("KH"));
        h.play_unchecked(card("3H"));
        assert_eq!(p.choose(&h, 0), card("AH"), "seat 2 covers its nil partner");
        let bids = [Bid::Tricks(4), Bid::Nil, Bid::Tricks(4), Bid::Tricks(4)];
        let (mut h, p) = hand(["4H 5C", "6H 4C", "KH 5H 2D", "7C 8C 9C"], 0, bids);
        h.play_unchecked(card("4H"));
        h.play_unchecked(card("6H"));
        assert_eq!(p.choose(&h, 0), card("5H"), "seat 1's nil keeps the trick");
    }

    #[test]
    fn an_opponents_nil_is_hunted_low() {
        // Seat 1 bid nil; its partner, seat 3, plays after it.
        let bids = [Bid::Tricks(4), Bid::Nil, Bid::Tricks(4), Bid::Tricks(4)];
        let (h, p) = hand(["AD 5C 9C", "2D 3D 4D", "5D 6D 7D", "8D 9D TD"], 0, bids);
        assert_eq!(
            p.choose(&h, 0),
            card("5C"),
            "seat 0 leads low through the nil"
        );
        // Seat 2 leads into seat 3, the nil's partner, who covers first.
        let (h, p) = hand(["2C 3C 4C", "2D 3D 4D", "AD 5C 9C", "8D 9D TD"], 2, bids);
        assert_eq!(p.choose(&h, 0), card("AD"), "seat 2 cashes instead");
        // The nil's partner led low: seat 0 stays under it with the
        // highest card that does, keeping the two.
        let (mut h, p) = hand(["2H 8H KH", "3H 4C 5C", "6C 7C 8C", "9H 9C TC"], 3, bids);
        h.play_unchecked(card("9H"));
        assert_eq!(p.choose(&h, 0), card("8H"));
        // Led high by the nil's partner, the nil ducks whatever follows:
        // the trick is worth taking.
        let (mut h, p) = hand(["2H 8H KH", "3H 4C 5C", "6C 7C 8C", "QH 9C TC"], 3, bids);
        h.play_unchecked(card("QH"));
        assert_eq!(p.choose(&h, 0), card("KH"));
    }

    #[test]
    fn a_hunter_spends_its_high_card_where_the_nil_is_already_safe() {
        // Seat 3 bid nil and ducked under its partner's ace: seat 0 cannot
        // win the trick, so it keeps the two to lead into the nil later.
        let bids = [Bid::Tricks(4), Bid::Tricks(4), Bid::Tricks(4), Bid::Nil];
        let (mut h, p) = hand(["2H QH 5C", "AH 4C 6C", "9H 7C 8C", "4H 9C TC"], 1, bids);
        for c in ["AH", "9H", "4H"] {
            h.play_unchecked(card(c));
        }
        assert_eq!(p.choose(&h, 0), card("QH"));
        // With no nil at stake the trick lost takes the lowest card.
        let bids = [Bid::Tricks(4); 4];
        let (mut h, p) = hand(["2H QH 5C", "AH 4C 6C", "9H 7C 8C", "4H 9C TC"], 1, bids);
        for c in ["AH", "9H", "4H"] {
            h.play_unchecked(card(c));
        }
        assert_eq!(p.choose(&h, 0), card("2H"));
    }

    #[test]
    fn a_hunter_leads_where_the_nil_has_least_room_to_duck() {
        // Seat 0's nil plays before its partner: seat 3 leads into it. Of
        // the cards in play, one heart lies under the nine and two clubs
        // under the eight, so the nine leads, not the lowest card.
        let bids = [Bid::Nil, Bid::Tricks(4), Bid::Tricks(4), Bid::Tricks(4)];
        let cards = ["7H 2C 3C", "TC JC AC", "QC KC 4S", "8C 9H TH"];
        let (h, p) = hand(cards, 3, bids);
        let p = p.in_deck(cards.iter().fold(CardSet::EMPTY, |all, c| all | set(c)));
        assert_eq!(p.choose(&h, 0), card("9H"));
        // Nobody's nil: no reason to lead it.
        let (h, p) = hand(cards, 3, FOURS);
        let p = p.in_deck(cards.iter().fold(CardSet::EMPTY, |all, c| all | set(c)));
        assert_ne!(p.choose(&h, 0), card("9H"));
    }

    #[test]
    fn leaders_cash_winners_and_nils_lead_low() {
        let (mut h, p) = hand(["AD 5C 9C", "2D 3D 4D", "5D 6D 7D", "8D 9D TD"], 0, FOURS);
        assert_eq!(p.choose(&h, 0), card("AD"));
        let bids = [Bid::Nil, Bid::Tricks(4), Bid::Tricks(4), Bid::Tricks(4)];
        let p = Policy::new(Mode::Partnership, &PerSeat::from_slice(&bids).unwrap()).wandering(0.0);
        assert_eq!(p.choose(&h, 0), card("5C"));
        h.play_unchecked(card("5C"));
        // Seat 0's nil is winning the trick: seat 1, void, leaves it there
        // and sheds its highest card.
        assert_eq!(p.choose(&h, 0), card("4D"));
    }
}
