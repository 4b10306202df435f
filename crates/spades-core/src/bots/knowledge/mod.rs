//! Card reasoning the rule-based bots share: what is still out, who has
//! shown out of a suit, which card wins a trick and how surely, how many
//! tricks a hand is worth (`hand_worth`) and what it passes (`exchange`).
//! Everything is bit-set arithmetic on what the seat's `PlayerView` shows,
//! so a decision takes microseconds.

use crate::engine::play::beats;
use crate::engine::score::{Contract, side_contract};
use crate::engine::{
    Bid, BiddingGame, Card, CardSet, MAX_SEATS, Mode, PerSeat, PlayerView, Rules, Seat, Side, Suit,
    Teams,
};

const SPADES: Suit = Suit::Spades;

/// The cards of `card`'s suit in `set` that outrank it.
pub fn above(set: CardSet, card: Card) -> CardSet {
    set.above(card)
}

/// The cards of `card`'s suit in `set` that it outranks.
pub(crate) fn below(set: CardSet, card: Card) -> CardSet {
    set.below(card)
}

/// The suits that are not trumps.
const SIDE_SUITS: [Suit; 3] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts];

/// Everything a bot reads off its view to choose a card, computed once.
#[derive(Debug, Clone, Copy)]
pub struct Position {
    /// The seat to decide.
    pub seat: Seat,
    /// The table's mode.
    pub mode: Mode,
    /// Who plays with whom this hand (with a dummy, set by the bidding).
    pub teams: Teams,
    /// How many seats play.
    pub seats: usize,
    /// The seat's partner, if it has one this hand.
    pub partner: Option<Seat>,
    /// The seat's cards.
    pub hand: CardSet,
    /// The cards it may play now.
    pub legal: CardSet,
    /// Cards in other hands or out of play.
    pub unseen: CardSet,
    /// `void[suit][seat]`: the seat has shown out of the suit this hand.
    pub void: [PerSeat<bool>; 4],
    /// Each seat's bid.
    pub bids: PerSeat<Option<Bid>>,
    /// The tricks each seat has won this hand.
    pub won: PerSeat<u8>,
    /// Each seat's card in the current trick.
    pub trick: PerSeat<Option<Card>>,
    /// The suit led to the current trick, if any.
    pub led: Option<Suit>,
    /// Who is winning the current trick, and with what.
    pub winner: Option<(Seat, Card)>,
    later: [Seat; MAX_SEATS],
    later_len: usize,
    /// Tricks still to be won, the current one included.
    pub tricks_left: i32,
    /// May a seat void in the suit led trump this trick? Not on the first
    /// trick without `play.trump_first_trick` (short of a hand of spades).
    may_ruff: bool,
    /// How the side's contracts count (`Contract::under`).
    rules: Rules,
}

impl Position {
    /// Reads the position off the seat's view.
    pub fn new(view: &PlayerView) -> Position {
        let seats = view.seats();
        let seat = view.seat;
        let play = &view.play;
        let played_now = play.trick.iter().flatten().count();
        let mut later = [seat; MAX_SEATS];
        let later_len = seats.saturating_sub(played_now + 1);
        for (k, slot) in later.iter_mut().take(later_len).enumerate() {
            *slot = view.mode().after(seat, 1 + k);
        }
        let winner = play
            .winning
            .and_then(|s| play.trick[s].map(|c| (s, c)))
            .filter(|_| played_now > 0);
        let void = [
            view.void_in(Suit::Clubs),
            view.void_in(Suit::Diamonds),
            view.void_in(Suit::Hearts),
            view.void_in(Suit::Spades),
        ];
        Position {
            seat,
            mode: view.mode(),
            teams: view.teams(),
            seats,
            partner: view.partner(),
            hand: view.cards(),
            legal: view.legal_plays(),
            // A shown hand (the dummy's) counts as unseen here: the odds
            // below spread unseen cards over every other seat, and would
            // otherwise give the shown seat's cards to the hidden ones.
            unseen: view.unseen() | view.shown.map_or(CardSet::EMPTY, |s| s.cards),
            void,
            bids: view.bids(),
            won: play.tricks_won,
            trick: play.trick,
            led: play.led,
            winner,
            later,
            later_len,
            tricks_left: view.mode().hand_size() as i32 - play.tricks_done as i32,
            may_ruff: view.rules.play.trump_first_trick || !play.first_trick(),
            rules: view.rules,
        }
    }

    /// The seats still to play to this trick after this one, in order.
    pub fn later(&self) -> &[Seat] {
        &self.later[..self.later_len]
    }

    /// Does the seat play last to the trick?
    pub fn is_last(&self) -> bool {
        self.later_len == 0
    }

    /// Does the seat lead the trick?
    pub fn is_leading(&self) -> bool {
        self.led.is_none()
    }

    /// Is `s` on another side (neither the seat nor its partner)?
    pub fn is_opponent(&self, s: Seat) -> bool {
        s != self.seat && Some(s) != self.partner
    }

    /// The side the seat scores with.
    pub fn my_side(&self) -> Side {
        self.teams.scoring_side(self.seat)
    }

    /// A nil (or blind nil) bidder who has not yet taken a trick.
    pub fn live_nil(&self, s: Seat) -> bool {
        self.bids[s].is_some_and(Bid::is_nil) && self.won[s] == 0
    }

    /// Is the partner a nil bidder who has taken no trick yet?
    pub fn partner_live_nil(&self) -> bool {
        self.partner.is_some_and(|p| self.live_nil(p))
    }

    /// A side's contract so far, as the scoring counts it.
    fn contract(&self, side: Side) -> Option<Contract> {
        side_contract(&self.rules, self.teams, side, &self.bids, &self.won)
    }

    /// Tricks a side's numeric bidders still need for its contract (0 once
    /// made, or when the side has no contract).
    pub fn need(&self, side: Side) -> i32 {
        self.contract(side).map_or(0, |c| i32::from(c.need()))
    }

    /// Has any numeric bid on `side`?
    pub fn has_contract(&self, side: Side) -> bool {
        self.contract(side).is_some()
    }

    /// The sides playing against this seat this hand.
    pub fn opponent_sides(&self) -> impl Iterator<Item = Side> + '_ {
        let partner_side = self.partner.map(|p| self.teams.scoring_side(p));
        self.mode
            .each_side()
            .filter(move |&side| side != self.my_side() && Some(side) != partner_side)
    }

    /// The cards in `set` that would be winning the trick if played now.
    pub fn beaters(&self, set: CardSet) -> CardSet {
        match self.winner {
            None => set,
            Some((_, w)) => set.iter().filter(|&c| beats(c, w)).collect(),
        }
    }

    /// Is the partner winning this trick so far?
    pub fn partner_winning(&self) -> bool {
        matches!((self.winner, self.partner), (Some((w, _)), Some(p)) if w == p)
    }

    /// The partner's card is winning the trick and no seat still to play
    /// can beat it, by the cards gone and the voids shown: the trick is
    /// the side's whatever this seat plays.
    pub fn partner_sure_winner(&self) -> bool {
        self.partner_winning() && self.winner_holds(|s| self.is_opponent(s)) >= 1.0
    }

    /// Would `card` take the trick from the partner's sure winner (a ruff
    /// or an overtake that wins the side nothing on this trick), when a
    /// legal card would not? A partner's live nil is no winner to spare:
    /// overtaking it is the cover.
    pub fn overtakes_partner(&self, card: Card) -> bool {
        self.partner_sure_winner() && !self.partner_live_nil() && self.needlessly_beats(card)
    }

    /// Would `card`, played by a nil bidder, beat the card winning the
    /// trick when a legal card would duck under it? While the nil is live
    /// that wins a trick whoever still plays may not overtake: the nil is
    /// kept safe while it can be. Once it is lost, it takes the partner's
    /// trick for nothing when the card is no surer to hold it than the
    /// partner's (the trick is a bag then, not one of the contract's).
    pub fn nil_overtakes(&self, card: Card) -> bool {
        if !self.bids[self.seat].is_some_and(Bid::is_nil) || !self.needlessly_beats(card) {
            return false;
        }
        let rival = |s| self.is_rival(s);
        let no_surer = self.win_chance(card, rival) <= self.winner_holds(rival);
        self.live_nil(self.seat) || (self.partner_winning() && no_surer)
    }

    /// `card` beats the card winning the trick, and some legal card does not.
    fn needlessly_beats(&self, card: Card) -> bool {
        let beats_it = self.winner.is_some_and(|(_, w)| beats(card, w));
        beats_it && self.beaters(self.legal) != self.legal
    }

    /// No unseen card of its suit outranks `card`.
    pub fn is_top(&self, card: Card) -> bool {
        above(self.unseen, card).is_empty()
    }

    /// How many other seats may hold unseen cards.
    fn holders(&self) -> f32 {
        (self.seats - 1) as f32
    }

    /// The chance a given other seat holds at least one of `count` unseen
    /// cards, treating the cards as spread evenly.
    fn holds_any(&self, count: u32) -> f32 {
        let h = self.holders();
        1.0 - ((h - 1.0) / h).powi(count as i32)
    }

    /// The chance that seat `s` holds no card of `suit`.
    fn void_chance(&self, s: Seat, suit: Suit) -> f32 {
        if self.void[suit as usize][s] {
            1.0
        } else {
            1.0 - self.holds_any(self.unseen.suit(suit).len())
        }
    }

    /// The chance that seat `s`, playing after `card`, could beat it on a
    /// trick led in `led`.
    fn beat_chance(&self, s: Seat, card: Card, led: Suit) -> f32 {
        let void_led = self.void_chance(s, led);
        let spade_chance = |over: CardSet| {
            if self.void[SPADES as usize][s] || !self.may_ruff {
                0.0
            } else {
                self.holds_any(over.len())
            }
        };
        if card.suit() == led {
            let higher = if self.void[led as usize][s] {
                0.0
            } else {
                self.holds_any(above(self.unseen, card).len())
            };
            let ruff = if led == SPADES {
                0.0
            } else {
                void_led * spade_chance(self.unseen.suit(SPADES))
            };
            1.0 - (1.0 - higher) * (1.0 - ruff)
        } else if card.suit() == SPADES {
            void_led * spade_chance(above(self.unseen, card))
        } else {
            1.0
        }
    }

    /// The chance that `card`, played now, takes the trick: it must beat
    /// what is down and survive every later seat for which `rival` is true.
    pub fn win_chance(&self, card: Card, rival: impl Fn(Seat) -> bool) -> f32 {
        if let Some((_, w)) = self.winner
            && !beats(card, w)
        {
            return 0.0;
        }
        self.survives(card, rival)
    }

    /// The chance the card now winning the trick stays the winner against
    /// the later seats for which `rival` is true.
    pub fn winner_holds(&self, rival: impl Fn(Seat) -> bool) -> f32 {
        let Some((_, w)) = self.winner else {
            return 0.0;
        };
        self.survives(w, rival)
    }

    /// The chance no later seat for which `rival` is true beats `card`.
    fn survives(&self, card: Card, rival: impl Fn(Seat) -> bool) -> f32 {
        let led = self.led.unwrap_or(card.suit());
        self.later()
            .iter()
            .filter(|&&s| rival(s))
            .map(|&s| 1.0 - self.beat_chance(s, card, led))
            .product()
    }

    /// A seat that wants tricks: an opponent that is not playing nil.
    pub fn is_rival(&self, s: Seat) -> bool {
        self.is_opponent(s) && !self.live_nil(s)
    }

    /// The card to throw away when it does not matter what is played: the
    /// one least likely ever to win a trick, from the shortest suit so a
    /// void comes sooner. Keeps spades when anything else is legal.
    pub fn throwaway(&self, set: CardSet) -> Option<Card> {
        let pool = prefer_side_suits(set);
        pool.iter().max_by_key(|&c| {
            let worthless = above(self.unseen, c).len() as i32;
            let short = 13 - self.hand.suit(c.suit()).len() as i32;
            (worthless.min(4), short, -(c.rank().index() as i32))
        })
    }

    /// The card most likely to win a later trick, to get rid of it while it
    /// cannot win this one (shedding bags, or a nil bidder's danger cards).
    pub fn shed(&self, set: CardSet) -> Option<Card> {
        let pool = prefer_side_suits(set);
        pool.iter().min_by_key(|&c| {
            let higher = above(self.unseen, c).len() as i32;
            let lower_held = below(self.hand, c).len() as i32;
            (higher, lower_held, -(c.rank().index() as i32))
        })
    }

    /// The highest card of `set` that does not beat what is down.
    pub fn highest_loser(&self, set: CardSet) -> Option<Card> {
        let losers = set.minus(self.beaters(set));
        losers.iter().max_by_key(|&c| rank_value(c, self.led))
    }
}

/// Non-spades when there are any: a spade thrown on another suit is a
/// trump wasted.
pub(crate) fn prefer_side_suits(set: CardSet) -> CardSet {
    let side = set.minus(CardSet::of_suit(SPADES));
    if side.is_empty() { set } else { side }
}

/// Orders cards by how strongly they play to a trick led in `led`.
pub(crate) fn rank_value(c: Card, led: Option<Suit>) -> i32 {
    let r = c.rank().index() as i32;
    if c.suit() == SPADES {
        r + 40
    } else if Some(c.suit()) == led {
        r + 20
    } else {
        r
    }
}

/// Suicide, for the first partner of a side to bid (nil or a number of at
/// least `Rules::suicide_number` both allowed): bid nil unless this hand,
/// worth `est` tricks, can carry the side's number alone. The partner then
/// has no choice.
pub(crate) fn suicide_nil_first(view: &PlayerView, est: f32) -> bool {
    if view.rules.bidding.game != BiddingGame::Suicide || view.check_bid(Bid::Nil).is_err() {
        return false;
    }
    let number = view.rules.suicide_number();
    view.check_bid(Bid::Tricks(number)).is_ok() && est + 0.5 < f32::from(number)
}

/// The tricks an unseen 13-card hand adds to a team, on average: a
/// quarter of the hand. A player bidding with a dummy counts its own
/// tricks and this for the dummy it has not seen.
pub(crate) const DUMMY_TRICKS: f32 = 13.0 / 4.0;

/// The allowed numeric bid closest to `n` (the lower one on a tie), for the
/// house rule that forbids an exact total.
pub(crate) fn nearest_allowed(view: &PlayerView, n: i32) -> Bid {
    let allowed = view.allowed_bids();
    allowed
        .iter()
        .copied()
        .filter(|b| matches!(b, Bid::Tricks(_)))
        .min_by_key(|b| ((i32::from(b.tricks()) - n).abs(), b.tricks()))
        .or_else(|| allowed.first().copied())
        .unwrap_or(Bid::Tricks(1))
}

mod exchange;
mod hand_worth;

pub(crate) use exchange::{exchange_cards, exchange_pass};
pub(crate) use hand_worth::{hand_tricks, nil_danger, nil_flaw, plain_tricks};

#[cfg(test)]
mod tests;
