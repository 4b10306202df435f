//! Card reasoning the rule-based bots share: what is still out, who has
//! shown out of a suit, which card wins a trick and how surely, and how many
//! tricks a hand is worth. Everything is bit-set arithmetic on what the
//! seat's `PlayerView` shows, so a decision takes microseconds.

use crate::engine::play::beats;
use crate::engine::score::{Contract, side_contract};
use crate::engine::{
    Bid, BiddingGame, Card, CardSet, MAX_SEATS, Mode, PerSeat, PlayerView, Rank, Rules, Seat, Side,
    Suit, Teams,
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

/// The classic rank `card` plays as in a game dealt from `deck`: its place
/// from the top of its suit. The classic deck's cards play as their own
/// rank; in a joker deck the Big Joker plays as the ace of trumps, the
/// Little Joker as the king and the ace of spades as the queen, and the
/// spades too far down for a classic rank play as the two.
pub(crate) fn plays_as(card: Card, deck: CardSet) -> Rank {
    let from_top = deck.above(card).len().min(12) as u8;
    Rank::from_index(12 - from_top).unwrap_or(Rank::TWO)
}

/// Does `cards` (of one suit) hold the card that plays as `rank`?
fn has(cards: CardSet, deck: CardSet, rank: Rank) -> bool {
    cards.iter().any(|c| plays_as(c, deck) == rank)
}

/// Rough count of tricks: aces, guarded kings, spade honours and spades past
/// the third. What a casual player counts. Honours are counted from the
/// top of each suit of `deck` (`plays_as`): a Big Joker is an ace.
pub(crate) fn plain_tricks(hand: CardSet, deck: CardSet) -> f32 {
    let mut t = 0.0;
    for suit in SIDE_SUITS {
        let cards = hand.suit(suit);
        if has(cards, deck, Rank::ACE) {
            t += 1.0;
        }
        if has(cards, deck, Rank::KING) && cards.len() >= 2 {
            t += 0.7;
        }
    }
    let spades = hand.suit(SPADES);
    let n = spades.len();
    if has(spades, deck, Rank::ACE) {
        t += 1.0;
    }
    if has(spades, deck, Rank::KING) && n >= 2 {
        t += 1.0;
    }
    if has(spades, deck, Rank::QUEEN) && n >= 3 {
        t += 0.7;
    }
    t + n.saturating_sub(3) as f32 * 0.8
}

/// A careful count of the tricks a hand should take: side aces and guarded
/// kings (queens only in short suits), spade honours and length, and ruffs
/// from short side suits with spare spades. Honours are counted from the
/// top of each suit of `deck` (`plays_as`): the jokers and high deuces are
/// the top trumps.
pub(crate) fn hand_tricks(hand: CardSet, mode: Mode, deck: CardSet) -> f32 {
    // With 17 cards each side suits run longer before anyone shows out.
    let long = if mode == Mode::Cutthroat { 7 } else { 5 };
    let mut t = 0.0;
    let mut shortness = 0.0f32;
    for suit in SIDE_SUITS {
        let cards = hand.suit(suit);
        let n = cards.len();
        let (a, k, q) = (
            has(cards, deck, Rank::ACE),
            has(cards, deck, Rank::KING),
            has(cards, deck, Rank::QUEEN),
        );
        if a {
            t += if n > long + 1 { 0.7 } else { 1.0 };
        }
        if k {
            t += match (a, n) {
                (_, 1) => 0.15,
                (true, n) if n <= long => 0.9,
                (false, 2) => 0.55,
                (false, n) if n <= long => 0.65,
                _ => 0.3,
            };
        }
        if q && n <= 4 {
            t += match (a, k, n) {
                (true, true, _) => 0.5,
                (true, false, 3..) | (false, true, 3..) => 0.35,
                (false, false, 3..) => 0.2,
                _ => 0.05,
            };
        }
        shortness += match n {
            0 => 1.0,
            1 => 0.6,
            2 => 0.2,
            _ => 0.0,
        };
    }
    let spades = hand.suit(SPADES);
    let n = spades.len();
    let mut honours = 0;
    let mut sp = 0.0;
    for (i, c) in spades.iter().rev().enumerate() {
        let r = plays_as(c, deck);
        let value = if r == Rank::ACE {
            1.0
        } else if r == Rank::KING {
            if n >= 2 { 0.95 } else { 0.45 }
        } else if r == Rank::QUEEN {
            match n {
                0..=1 => 0.15,
                2 => 0.45,
                _ => 0.8,
            }
        } else if r == Rank::JACK {
            match n {
                0..=2 => 0.05,
                3 => 0.3,
                _ => 0.55,
            }
        } else {
            0.0
        };
        // The fourth spade on tends to win as a trump whatever its rank.
        let length = if i >= 3 { 0.85 } else { 0.0 };
        let v = f32::max(value, length);
        if value > 0.4 {
            honours += 1;
        }
        sp += v;
    }
    t += sp;
    // Ruffs need spades beyond those already counted as length winners.
    let spare = (n.min(3) as f32 - honours.min(3) as f32).max(0.0);
    t += shortness.min(spare) * 0.8;
    t
}

/// How risky a hand is to bid nil on: 0 for a perfect nil hand, 10 or more
/// for one that must not (the ace of spades, a side ace, long or high
/// spades). High cards count less with small cards of their suit to duck
/// under them; short side suits help by giving discards. Ranks are counted
/// from the top of each suit of `deck` (`plays_as`): a Big Joker is the ace.
pub(crate) fn nil_danger(hand: CardSet, deck: CardSet) -> f32 {
    let spades = hand.suit(SPADES);
    if has(spades, deck, Rank::ACE) {
        return 10.0;
    }
    let n = spades.len();
    let mut d = 0.0;
    if n > 3 {
        d += 1.5 * (n - 3) as f32;
    }
    for c in spades {
        d += card_danger(c, below(spades, c).len(), deck);
    }
    for suit in SIDE_SUITS {
        let cards = hand.suit(suit);
        let small = cards.iter().filter(|&c| is_small(c)).count() as f32;
        for c in cards {
            d += card_danger(c, below(cards, c).len(), deck);
        }
        match cards.len() {
            0 => d -= 0.3,
            1 if small > 0.0 => d -= 0.15,
            _ => {}
        }
    }
    d.max(0.0)
}

/// A card low enough to duck under most leads of its suit: two to six.
fn is_small(c: Card) -> bool {
    c.rank().index() <= 4
}

/// A holding a strong player never bids nil with, however low the rest of
/// the hand: too many spades or spade honours, or a side honour that will
/// be left to win a round of its suit. Over thousands of arena hands such
/// nils made 40-55% of the time, against about 77% for the others, and the
/// strong players' guides say the same. Ranks are counted from the top of
/// each suit of `deck` (`plays_as`).
pub(crate) fn nil_flaw(hand: CardSet, deck: CardSet) -> bool {
    spade_flaw(hand.suit(SPADES), deck) || SIDE_SUITS.iter().any(|&s| bare_honour(hand.suit(s)))
}

/// Four spades, or two of the ten and up ("no J10 of spades"): too many
/// chances to be forced to win a spade trick.
fn spade_flaw(spades: CardSet, deck: CardSet) -> bool {
    let honours = spades
        .iter()
        .filter(|&c| plays_as(c, deck) >= Rank::TEN)
        .count();
    spades.len() >= 4 || honours >= 2
}

/// A side ace, king or queen with no small card in its suit to duck with,
/// an ace with fewer than three cards under it ("no Axx"), or a king with
/// fewer than two under the jack ("no Kxx", nor K-Q-x or K-J-x).
fn bare_honour(cards: CardSet) -> bool {
    let small = cards.iter().any(is_small);
    cards.iter().any(|c| {
        let under = below(cards, c);
        let spots = under.iter().filter(|u| u.rank() < Rank::JACK).count();
        match c.rank() {
            Rank::ACE => !small || under.len() < 3,
            Rank::KING => !small || spots < 2,
            Rank::QUEEN => !small,
            _ => false,
        }
    })
}

/// How risky one card is to a nil bidder who holds `lower` smaller cards
/// of its suit: a king or queen of spades without small spades under it
/// counts as much as the ace. Ranks are counted from the top of the suit
/// of `deck` (`plays_as`).
fn card_danger(card: Card, lower: u32, deck: CardSet) -> f32 {
    let rank = plays_as(card, deck).index();
    if card.suit() == SPADES {
        return match rank {
            12 => 10.0,
            11 if lower >= 3 => 2.0,
            10 if lower >= 2 => 1.2,
            10..=11 => 10.0,
            9 => 0.7,
            8 => 0.4,
            7 => 0.25,
            6 => 0.15,
            _ => 0.05,
        };
    }
    let base = match rank {
        12 => 4.0,
        11 => 1.6,
        10 => 0.9,
        9 => 0.45,
        8 => 0.25,
        7 => 0.1,
        _ => 0.0,
    };
    // Small cards below let the seat duck the first rounds.
    let cover = (1.0 - 0.25 * lower.min(3) as f32).max(0.3);
    base * cover
}

/// The cards a seat passes in the blind-nil exchange or the nil pass. Who
/// passes what comes from the nils bid: a blind-nil bidder, or a plain nil
/// beside a numeric bid, passes its most dangerous cards; its partner low
/// ones.
pub(crate) fn exchange_cards(view: &PlayerView) -> CardSet {
    let Some(exchange) = view.exchange else {
        return CardSet::EMPTY;
    };
    let bids = view.bids();
    exchange_pass(
        view.cards(),
        bids[view.seat],
        bids[exchange.partner],
        exchange.count,
        &view.rules,
    )
}

/// The `count` cards a seat holding `hand`, having bid `bid` beside a
/// partner's `partner`, passes (`exchange_cards`, for any hand: a search
/// passes by it on guessed deals).
pub(crate) fn exchange_pass(
    hand: CardSet,
    bid: Option<Bid>,
    partner: Option<Bid>,
    count: u8,
    rules: &Rules,
) -> CardSet {
    match (bid, partner) {
        (Some(Bid::BlindNil), _) => dangerous_cards(hand, count, rules.deck()),
        (Some(Bid::Nil), Some(Bid::BlindNil)) => spare_low_cards(hand, count, rules),
        // The nil pass: the nil's danger goes to the partner who covers it.
        (Some(Bid::Nil), _) => dangerous_cards(hand, count, rules.deck()),
        _ => low_cards(hand, count),
    }
}

/// The blind-nil bidder's pass: its most dangerous cards, spade honours
/// first. It passes them even to a partner who bid nil: the blind nil is
/// worth more, and a card kept sinks it as surely as a card passed sinks
/// the partner's.
fn dangerous_cards(hand: CardSet, count: u8, deck: CardSet) -> CardSet {
    let mut order: Vec<Card> = hand.iter().collect();
    order.sort_by_key(|&c| {
        let spade_honour = c.suit() == SPADES && plays_as(c, deck) >= Rank::TEN;
        let short = hand.suit(c.suit()).len();
        (
            std::cmp::Reverse(spade_honour),
            std::cmp::Reverse(c.rank()),
            short,
        )
    });
    order.into_iter().take(usize::from(count)).collect()
}

/// A numeric-bidding partner's pass: its lowest side cards, from short
/// suits first so it can ruff and cover sooner, and never a high spade.
fn low_cards(hand: CardSet, count: u8) -> CardSet {
    let mut order: Vec<Card> = hand.iter().collect();
    order.sort_by_key(|&c| {
        let spade = c.suit() == SPADES;
        let short = hand.suit(c.suit()).len();
        (spade, c.rank(), short)
    });
    order.into_iter().take(usize::from(count)).collect()
}

/// The pass of a partner who bid plain nil beside a blind nil, where both
/// nils are at stake. Like any partner of a blind nil it passes low cards,
/// but the ones its own nil can best spare: each card is weighed by the
/// danger it brings the blind nil, at the blind nil's value, against what
/// giving it up costs its own nil, at the nil's value. So a low singleton
/// goes (the void then takes discards), or a low card of a suit with no
/// honour to guard, before the small card under its own queen; and a card
/// that would sink either nil stays with the cheaper one.
fn spare_low_cards(hand: CardSet, count: u8, rules: &Rules) -> CardSet {
    let (nil, blind) = (rules.nil.value as f32, rules.blind_nil.value as f32);
    let deck = rules.deck();
    let mut kept = hand;
    let mut passed = CardSet::EMPTY;
    for _ in 0..count {
        let cost = |c: Card| {
            blind * card_danger(c, 0, deck) + nil * nil_danger(kept.minus(CardSet::single(c)), deck)
        };
        let Some(card) = kept
            .iter()
            .min_by(|&a, &b| cost(a).total_cmp(&cost(b)).then(a.rank().cmp(&b.rank())))
        else {
            break;
        };
        kept.remove(card);
        passed.insert(card);
    }
    passed
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

/// The allowed numeric bid closest to `n` (the lower one on a tie), for the
/// house rule that forbids an exact total.
/// The tricks an unseen 13-card hand adds to a team, on average: a
/// quarter of the hand. A player bidding with a dummy counts its own
/// tricks and this for the dummy it has not seen.
pub(crate) const DUMMY_TRICKS: f32 = 13.0 / 4.0;

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

#[cfg(test)]
mod tests;
