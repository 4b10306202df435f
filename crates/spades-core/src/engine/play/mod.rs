//! Trick play: legal cards, trick winners, and `HandState`, the small `Copy`
//! state of a hand in play that the game and search bots both run on.

use super::card::{CARD_INDICES, Card, Suit};
use super::cards::CardSet;
use super::rules::{FirstLead, PlayRules, SpadesLead};
use super::seat::{PerSeat, Seat};

/// Why a card may not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The seat does not hold the card.
    #[error("you do not hold the {0}")]
    NotInHand(Card),
    /// The seat holds the suit led and must play it.
    #[error("you must follow {0}")]
    MustFollowSuit(Suit),
    /// Spades may not be led before they are broken.
    #[error("spades have not been broken: lead another suit")]
    SpadesNotBroken,
    /// The lowest club must lead the first trick (house rule).
    #[error("the lowest club leads the first trick (house rule): lead the {0}")]
    MustLeadLowestClub(Card),
    /// No spade on the first trick while the seat holds another suit (house
    /// rule).
    #[error("spades may not be played on the first trick while you hold another suit (house rule)")]
    NoSpadeOnFirstTrick,
}

/// The cards of `hand` that may be played to a trick led with `led` (`None`
/// when leading), given whether spades have been broken.
#[inline]
pub const fn legal_plays(hand: CardSet, led: Option<Suit>, broken: bool) -> CardSet {
    match led {
        Some(suit) => {
            let follow = hand.suit(suit);
            if follow.is_empty() { hand } else { follow }
        }
        None if broken => hand,
        None => {
            let others = hand.minus(CardSet::of_suit(Suit::Spades));
            if others.is_empty() { hand } else { others }
        }
    }
}

/// The cards of `hand` that may be played under the house rules of play
/// `rules`: `legal_plays`, with spades free to lead under `spades_lead =
/// "any_time"`, and on the first trick (`first_trick`: none completed yet)
/// what `first_trick_plays` leaves.
#[inline]
pub(crate) fn legal_plays_under(
    rules: PlayRules,
    hand: CardSet,
    led: Option<Suit>,
    broken: bool,
    first_trick: bool,
) -> CardSet {
    if first_trick && let Some(only) = first_trick_plays(rules, hand, led) {
        return only;
    }
    legal_plays(
        hand,
        led,
        broken || rules.spades_lead == SpadesLead::AnyTime,
    )
}

/// What the first trick's house rules leave a seat, where they narrow its
/// choice: under `first_lead = "two_of_clubs"` the leader leads its lowest
/// club (the game gives the lead to the holder of the lowest club dealt);
/// without `trump_first_trick` a seat void in the suit led plays no spade
/// while it holds another suit.
#[inline]
fn first_trick_plays(rules: PlayRules, hand: CardSet, led: Option<Suit>) -> Option<CardSet> {
    match led {
        None if rules.first_lead == FirstLead::TwoOfClubs => {
            hand.suit(Suit::Clubs).lowest().map(CardSet::single)
        }
        Some(suit) if !rules.trump_first_trick && !hand.has_suit(suit) => {
            let others = hand.minus(CardSet::of_suit(Suit::Spades));
            (!others.is_empty()).then_some(others)
        }
        _ => None,
    }
}

/// The seat that leads the first trick: `left` (the first player left of
/// the dealer), or under `first_lead = "two_of_clubs"` the holder of the lowest
/// club (the 2C; in cutthroat the 3C when the 2C is the card out).
pub(crate) fn first_leader(rules: PlayRules, hands: &PerSeat<CardSet>, left: Seat) -> Seat {
    if rules.first_lead != FirstLead::TwoOfClubs {
        return left;
    }
    hands
        .pairs()
        .filter_map(|(seat, hand)| Some((hand.suit(Suit::Clubs).lowest()?, seat)))
        .min()
        .map_or(left, |(_, seat)| seat)
}

/// The cards settled for the play of `held`'s owner: played to finished
/// tricks, in `held`, or `not_dealt` (not in the game's deck).
fn settled(
    played: CardSet,
    trick: &PerSeat<Option<Card>>,
    held: CardSet,
    not_dealt: CardSet,
) -> CardSet {
    let on_trick: CardSet = trick.iter().flatten().copied().collect();
    played.minus(on_trick).union(held).union(not_dealt)
}

/// The cards of `legal` that play differently: of cards of one suit with
/// only `settled` cards between them (cards out of play for good, or held
/// by the same seat), the lowest stands for all, since either wins or
/// loses the same tricks. Cards on the current trick are not settled: a
/// card between two of ours still decides which of them beats it.
pub(crate) fn distinct_plays(legal: CardSet, settled: CardSet) -> CardSet {
    let mut out = CardSet::EMPTY;
    let mut last: Option<Card> = None;
    // Cards iterate lowest first within a suit.
    for card in legal {
        let same = last.is_some_and(|low| {
            low.suit() == card.suit()
                && CardSet::ANY
                    .above(low)
                    .intersect(CardSet::ANY.below(card))
                    .is_subset(settled)
        });
        if !same {
            out.insert(card);
        }
        last = Some(card);
    }
    out
}

/// Says exactly why `card` is not legal in the classic game, or `None`
/// when it is (the tests' shorthand for `play_error_under`).
#[cfg(test)]
pub(crate) fn play_error(
    hand: CardSet,
    led: Option<Suit>,
    broken: bool,
    card: Card,
) -> Option<PlayError> {
    play_error_under(PlayRules::default(), hand, led, broken, false, card)
}

/// Says exactly which rule `card` breaks under `rules` (as
/// `legal_plays_under` takes them), or `None` when it is legal.
pub(crate) fn play_error_under(
    rules: PlayRules,
    hand: CardSet,
    led: Option<Suit>,
    broken: bool,
    first_trick: bool,
    card: Card,
) -> Option<PlayError> {
    if !hand.contains(card) {
        return Some(PlayError::NotInHand(card));
    }
    if legal_plays_under(rules, hand, led, broken, first_trick).contains(card) {
        return None;
    }
    let lowest_club = hand.suit(Suit::Clubs).lowest();
    Some(match led {
        Some(suit) if hand.has_suit(suit) => PlayError::MustFollowSuit(suit),
        Some(_) => PlayError::NoSpadeOnFirstTrick,
        None => match lowest_club {
            Some(club) if first_trick && rules.first_lead == FirstLead::TwoOfClubs => {
                PlayError::MustLeadLowestClub(club)
            }
            _ => PlayError::SpadesNotBroken,
        },
    })
}

/// Does `card` beat the card currently winning a trick? (The winning card
/// is a spade or of the suit led, so its own suit stands for the lead.)
pub fn beats(card: Card, winning: Card) -> bool {
    let led = winning.suit() as u8;
    trick_power(card, led) > trick_power(winning, led)
}

/// How strongly a card bids for a trick led in suit `led`: 0 for a discard,
/// 1..=13 following suit, 21..=37 for a spade (34..=37 the trumps above the
/// ace). The highest power wins.
#[inline]
pub fn trick_power(card: Card, led: u8) -> u8 {
    TRICK_POWER[led as usize & 3][card.index() as usize & 63]
}

/// The lowest `trick_power` of a spade: a trick's best power is at least
/// this exactly when a spade was played to it.
pub(crate) const SPADE_POWER: u8 = 21;

/// `trick_power` for every lead and card: one load on the playout path.
/// Rows are 64 wide so that a masked index needs no bounds check.
const TRICK_POWER: [[u8; 64]; 4] = {
    let mut table = [[0u8; 64]; 4];
    let mut led = 0;
    while led < 4 {
        let mut i = 0;
        while i < CARD_INDICES as usize {
            let card = Card::from_index_unchecked(i as u8);
            let (suit, rank) = (card.suit() as usize, card.rank().index());
            table[led][i] = if suit == Suit::Spades as usize {
                rank + SPADE_POWER
            } else if suit == led {
                rank + 1
            } else {
                0
            };
            i += 1;
        }
        led += 1;
    }
    table
};

/// One hand's play from the first lead to the last trick. Plain data, `Copy`,
/// and no allocation, so simulations can copy and play it out freely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandState {
    seats: u8,
    /// Cards still held by each seat.
    pub hands: PerSeat<CardSet>,
    leader: u8,
    turn: u8,
    /// Cards of the current trick by seat; only seats that have played count.
    trick: PerSeat<Option<Card>>,
    in_trick: u8,
    winning: u8,
    /// The suit led to the current trick, and the winning card's power.
    led: u8,
    best: u8,
    broken: bool,
    tricks_won: PerSeat<u8>,
    tricks_done: u8,
    /// Every card played this hand, the current trick included.
    played: CardSet,
    cards_left: u8,
    rules: PlayRules,
}

/// The play of a hand as every seat sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicPlay {
    /// The seat that led the current trick.
    pub leader: Seat,
    /// The seat to play next.
    pub turn: Seat,
    /// Cards of the current trick by seat.
    pub trick: PerSeat<Option<Card>>,
    /// The suit led to the current trick, once a card is down.
    pub led: Option<Suit>,
    /// The seat winning the current trick so far.
    pub winning: Option<Seat>,
    /// Has a spade been played this hand (so spades may be led)?
    pub spades_broken: bool,
    /// The tricks each seat has won this hand.
    pub tricks_won: PerSeat<u8>,
    /// How many tricks are complete this hand.
    pub tricks_done: usize,
    /// Every card played this hand, the current trick included.
    pub played: CardSet,
    /// The house rules of the play, which every seat knows.
    pub rules: PlayRules,
}

/// Why a hand in progress cannot be built from the play and hands given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// The trick's cards do not run clockwise from the leader.
    #[error("the current trick's cards are not from the leader clockwise up to the seat to play")]
    TrickOutOfTurn,
    /// A hand holds more or fewer cards than its place in the trick allows.
    #[error("seat {seat} holds {held} cards but its place in the trick says {expected}")]
    HandSize {
        /// The seat.
        seat: Seat,
        /// The cards it holds.
        held: u32,
        /// The cards its place in the trick says it holds.
        expected: u32,
    },
    /// A card is in two places at once.
    #[error("the {0} is in two places at once (two hands, or a hand and the cards played)")]
    CardTwice(Card),
    /// A card of the trick is not among the cards played.
    #[error("a card of the current trick is not among the cards played")]
    TrickNotPlayed,
    /// The tricks won do not add up to the tricks done.
    #[error("the tricks won do not add up to the tricks done")]
    TricksDontAddUp,
    /// Spades are marked broken, or not, against the cards played.
    #[error("spades are marked broken exactly when a spade has been played, and here they are not")]
    BrokenSpades,
}

/// A trick that has just been completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TrickDone {
    /// The seat that led it.
    pub leader: Seat,
    /// Each seat's card in it.
    pub cards: PerSeat<Option<Card>>,
    /// The seat that won it.
    pub winner: Seat,
}

impl PublicPlay {
    /// No trick has been completed yet.
    pub fn first_trick(&self) -> bool {
        self.tricks_done == 0
    }

    /// The cards of `hand` its holder may play now, on its turn.
    pub fn legal_plays(&self, hand: CardSet) -> CardSet {
        let first = self.first_trick();
        legal_plays_under(self.rules, hand, self.led, self.spades_broken, first)
    }

    /// Why the holder of `hand` may not play `card` now, if it may not.
    pub fn play_error(&self, hand: CardSet, card: Card) -> Option<PlayError> {
        let first = self.first_trick();
        play_error_under(self.rules, hand, self.led, self.spades_broken, first, card)
    }

    /// The cards of `legal`, held in `held`, that play differently
    /// (`distinct_plays`) in a game dealt from `deck`.
    pub fn distinct_plays(&self, legal: CardSet, held: CardSet, deck: CardSet) -> CardSet {
        let not_dealt = CardSet::ANY.minus(deck);
        distinct_plays(legal, settled(self.played, &self.trick, held, not_dealt))
    }
}

impl HandState {
    /// A hand about to be played by the classic rules, one hand of cards
    /// per seat: `leader` leads the first trick.
    pub fn new(hands: PerSeat<CardSet>, leader: Seat) -> HandState {
        let none = hands.map(|_| None);
        HandState {
            seats: hands.len() as u8,
            hands,
            leader: leader.index() as u8,
            turn: leader.index() as u8,
            trick: none,
            in_trick: 0,
            winning: leader.index() as u8,
            led: 0,
            best: 0,
            broken: false,
            tricks_won: hands.map(|_| 0),
            tricks_done: 0,
            played: CardSet::EMPTY,
            cards_left: hands.iter().map(|h| h.len() as u8).sum(),
            rules: PlayRules::default(),
        }
    }

    /// A hand just dealt by `dealer`, about to be played under the house
    /// rules of play `rules`, the seat they name leading (`first_leader`).
    pub fn dealt(hands: PerSeat<CardSet>, left: Seat, rules: PlayRules) -> HandState {
        HandState::new(hands, first_leader(rules, &hands, left)).under(rules)
    }

    /// The same hand played under the house rules of play `rules`.
    pub fn under(self, rules: PlayRules) -> HandState {
        HandState { rules, ..self }
    }

    /// The house rules of the play.
    pub fn rules(&self) -> PlayRules {
        self.rules
    }

    /// How many seats play.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }
    /// The hand exactly where `play` stands, mid-trick or not, with every
    /// seat holding `hands`: what a search builds from a seat's view and a
    /// guess at the cards it cannot see. Seats that have played to the
    /// current trick hold one card fewer than the others. Everything is
    /// checked, so a state built here is one the game could have reached.
    pub fn resume(play: &PublicPlay, hands: PerSeat<CardSet>) -> Result<HandState, ResumeError> {
        let seats = hands.len() as u8;
        let leader = play.leader.index() as u8 % seats;
        let mut state = HandState::new(hands, Seat::masked(leader)).under(play.rules);
        let mut seen = play.played;
        for hand in &hands {
            if let Some(card) = seen.intersect(*hand).lowest() {
                return Err(ResumeError::CardTwice(card));
            }
            seen |= *hand;
        }
        // The trick's cards, from the leader clockwise, through the same
        // steps as playing them: no second idea of who is winning.
        let in_trick = play.trick.iter().flatten().count() as u8;
        if in_trick >= seats {
            return Err(ResumeError::TrickOutOfTurn);
        }
        for k in 0..seats {
            let seat = Seat::masked((leader + k) % seats);
            if play.trick[seat].is_some() != (k < in_trick) {
                return Err(ResumeError::TrickOutOfTurn);
            }
        }
        if play.turn.index() as u8 != (leader + in_trick) % seats {
            return Err(ResumeError::TrickOutOfTurn);
        }
        let held = |seat: Seat| hands[seat].len();
        let after_trick = held(Seat::masked((leader + in_trick) % seats));
        for (k, seat) in (0..seats).map(|k| (k, Seat::masked((leader + k) % seats))) {
            // Once a trick is led the seat to play has a card, and the seats
            // that have played hold one fewer.
            let expected = if k < in_trick {
                after_trick.saturating_sub(1)
            } else {
                after_trick
            };
            if held(seat) != expected || (in_trick > 0 && after_trick == 0) {
                return Err(ResumeError::HandSize {
                    seat,
                    held: held(seat),
                    expected,
                });
            }
        }
        for k in 0..in_trick {
            let seat = Seat::masked((leader + k) % seats);
            let card = play.trick[seat].unwrap_or_else(|| unreachable!("checked above"));
            if !play.played.contains(card) {
                return Err(ResumeError::TrickNotPlayed);
            }
            // Back in the hand it came from, so the count of cards left
            // stays right while it is played again.
            state.hands[seat].insert(card);
            state.cards_left += 1;
            state.play_unchecked(card);
        }
        if play
            .tricks_won
            .iter()
            .map(|&w| usize::from(w))
            .sum::<usize>()
            != play.tricks_done
        {
            return Err(ResumeError::TricksDontAddUp);
        }
        if play.spades_broken != play.played.has_suit(Suit::Spades) {
            return Err(ResumeError::BrokenSpades);
        }
        state.tricks_won = play.tricks_won;
        state.tricks_done = play.tricks_done as u8;
        state.played = play.played;
        state.broken = play.spades_broken;
        state.cards_left = hands.iter().map(|h| h.len() as u8).sum();
        Ok(state)
    }

    /// The seat to play next.
    pub fn turn(&self) -> Seat {
        Seat::masked(self.turn)
    }

    /// The seat that led the current trick.
    pub fn leader(&self) -> Seat {
        Seat::masked(self.leader)
    }

    /// Has a spade been played this hand?
    pub fn spades_broken(&self) -> bool {
        self.broken
    }

    /// May the next leader lead a spade while holding another suit? Once
    /// broken, or at any time under `spades_lead = "any_time"`.
    pub fn spades_may_lead(&self) -> bool {
        self.broken || self.rules.spades_lead == SpadesLead::AnyTime
    }

    /// Is the current trick the first, with a house rule of its own
    /// (`first_lead`, `trump_first_trick`) in force?
    pub fn first_trick_has_house_rules(&self) -> bool {
        self.tricks_done == 0
            && (self.rules.first_lead != FirstLead::DealerLeft || !self.rules.trump_first_trick)
    }

    /// The tricks each seat has won this hand.
    pub fn tricks_won(&self) -> PerSeat<u8> {
        self.tricks_won
    }

    /// How many tricks are complete this hand.
    pub fn tricks_done(&self) -> usize {
        self.tricks_done as usize
    }

    /// Every card played this hand, the current trick's included.
    pub fn played(&self) -> CardSet {
        self.played
    }

    /// The card `seat` has played to the current trick.
    pub fn trick_card(&self, seat: Seat) -> Option<Card> {
        self.trick[seat]
    }

    /// Each seat's card in the current trick.
    pub fn trick_cards(&self) -> PerSeat<Option<Card>> {
        self.trick
    }

    /// The suit led to the current trick, if a card has been led.
    pub fn led_suit(&self) -> Option<Suit> {
        (self.in_trick > 0).then(|| Suit::from_index(self.led))
    }

    /// The seat currently winning the trick, once a card is down.
    pub fn winning(&self) -> Option<Seat> {
        (self.in_trick > 0).then_some(Seat::masked(self.winning))
    }

    /// What every seat may see of the play: all but the hands.
    pub fn public(&self) -> PublicPlay {
        PublicPlay {
            leader: self.leader(),
            turn: self.turn(),
            trick: self.trick,
            led: self.led_suit(),
            winning: self.winning(),
            spades_broken: self.broken,
            tricks_won: self.tricks_won,
            tricks_done: self.tricks_done(),
            played: self.played,
            rules: self.rules,
        }
    }

    /// The cards the seat to play may play that play differently
    /// (`distinct_plays`).
    pub fn distinct_legal(&self) -> CardSet {
        // Every card of the deck is held or played here, so the trumps
        // above the ace found nowhere are not in it. They lie between two
        // legal cards only when a trump above the ace is legal: otherwise
        // (the classic game always) they are left out of the question.
        let above_ace = CardSet::ANY.minus(CardSet::DECK);
        let legal = self.legal();
        let not_dealt = if legal.intersect(above_ace).is_empty() {
            above_ace
        } else {
            let in_game = self.hands.iter().fold(self.played, |all, &h| all.union(h));
            above_ace.minus(in_game)
        };
        let settled = settled(self.played, &self.trick, self.hands[self.turn()], not_dealt);
        distinct_plays(legal, settled)
    }

    /// Tricks not yet finished, the current one included.
    pub fn tricks_left(&self) -> usize {
        (self.cards_left as usize).div_ceil(self.seats())
    }

    /// True once every card has been played.
    pub fn is_over(&self) -> bool {
        self.cards_left == 0
    }

    /// The cards the seat to play may play.
    #[inline]
    pub fn legal(&self) -> CardSet {
        let first = self.tricks_done == 0;
        legal_plays_under(
            self.rules,
            self.hands[self.turn()],
            self.led_suit(),
            self.broken,
            first,
        )
    }

    /// Why the seat to play may not play `card`, if it may not.
    pub fn check(&self, card: Card) -> Option<PlayError> {
        let (hand, first) = (self.hands[self.turn()], self.tricks_done == 0);
        play_error_under(self.rules, hand, self.led_suit(), self.broken, first, card)
    }

    /// Plays `card` for the seat to play, which the caller has checked is
    /// legal. Returns the trick when this card completes it.
    #[inline]
    pub fn play_unchecked(&mut self, card: Card) -> Option<TrickDone> {
        let seat = self.turn();
        self.hands[seat].remove(card);
        self.played.insert(card);
        self.trick[seat] = Some(card);
        let suit = card.suit() as u8;
        let spade = suit == Suit::Spades as u8;
        self.broken |= spade;
        // Plain selects rather than branches: which card wins depends on the
        // cards, and random playouts would mispredict every branch on it.
        let first = self.in_trick == 0;
        self.led = if first { suit } else { self.led };
        let power = trick_power(card, self.led);
        let wins = first | (power > self.best);
        self.best = if wins { power } else { self.best };
        self.winning = if wins { self.turn } else { self.winning };
        self.in_trick += 1;
        self.cards_left -= 1;
        if self.in_trick < self.seats {
            // Next seat clockwise, without a division on this hot path.
            self.turn = if self.turn + 1 == self.seats {
                0
            } else {
                self.turn + 1
            };
            return None;
        }
        let winner = Seat::masked(self.winning);
        let done = TrickDone {
            leader: self.leader(),
            cards: self.trick,
            winner,
        };
        self.tricks_won[winner] += 1;
        self.tricks_done += 1;
        self.leader = self.winning;
        self.turn = self.winning;
        self.trick = self.trick.map(|_| None);
        self.in_trick = 0;
        Some(done)
    }
}

#[cfg(test)]
mod tests;
