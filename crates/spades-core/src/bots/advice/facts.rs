//! The facts of a seat's view that a reason may claim, each checked here
//! and nowhere else: a hint's words are chosen from these, so a reason
//! never says more than the seat can see. "Out" is every card of the deck
//! neither played nor in the seat's hand (a dummy's shown cards count as
//! out: the seat does not know them to be safe).

use crate::engine::play::beats;
use crate::engine::{Bid, Card, CardSet, PlayerView, Seat, Suit};

use super::super::knowledge::{Position, above, rank_value};
use super::super::nil::hunted_nil;
use super::super::normal::{BidRule, Moved, Tuning};

/// What the seat's view shows about the card it plays and the trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardFacts {
    /// `is_winner`: the card takes the trick whatever the others hold.
    pub winner: bool,
    /// No card of its suit still out outranks it.
    pub top_left: bool,
    /// The lowest card of its suit in the seat's hand.
    pub lowest: bool,
    /// As high as the seat's highest card of its suit: no card out ranks
    /// between the two.
    pub high: bool,
    /// It beats every card down (a lead does).
    pub beats: bool,
    /// It beats every card down and no legal card that does plays lower.
    pub cheapest: bool,
    /// Some legal card beats every card down.
    pub can_win: bool,
    /// Every legal card beats every card down.
    pub every_card_beats: bool,
    /// Of the suit led (a lead is).
    pub follows: bool,
    /// A spade on a trick led in another suit.
    pub ruff: bool,
    /// Cards down before this one.
    pub down: u8,
    /// No seat plays after this one.
    pub last: bool,
    /// A spade is still out.
    pub spades_out: bool,
    /// The partner and the trick.
    pub partner: PartnerFacts,
    /// The side's contract as the tricks stand.
    pub contract: ContractState,
    /// An opponent's contract is not made yet.
    pub set_open: bool,
    /// An opponent's live nil: is its bidder winning the trick?
    pub nil_bidder_winning: bool,
}

/// The partner and the trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PartnerFacts {
    /// The partner has not played to this trick yet.
    pub to_play: bool,
    /// The partner's card is winning the trick so far.
    pub winning: bool,
    /// The partner's card is winning and `unbeaten`: no opponent still
    /// to play can beat it.
    pub holds: bool,
    /// The partner has shown out of the card's suit.
    pub void: bool,
    /// The partner has shown out of the card's suit, not of spades, and a
    /// spade is still out: it may trump a lead of the suit.
    pub may_ruff: bool,
    /// `nil_safe`: with this card down, the partner's live nil cannot be
    /// forced to take the trick.
    pub nil_safe: bool,
}

/// The seat's side's contract, as the tricks stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContractState {
    /// Tricks still needed, and enough left to take them.
    #[default]
    Needs,
    /// Taken already.
    Made,
    /// More tricks needed than are left.
    Lost,
    /// No numeric bid on the side.
    NoContract,
}

impl CardFacts {
    /// The facts about `card`, played by the seat whose view this is.
    pub fn of(view: &PlayerView, card: Card) -> CardFacts {
        let pos = Position::new(view);
        let led = pos.led.unwrap_or(card.suit());
        let beaters = pos.beaters(pos.legal);
        let cheaper = |c: Card| rank_value(c, Some(led)) < rank_value(card, Some(led));
        let beats_down = beaters.contains(card);
        let held = pos.hand.suit(card.suit());
        CardFacts {
            winner: is_winner(view, &pos, card),
            top_left: above(pos.unseen, card).is_empty(),
            lowest: held.lowest() == Some(card),
            high: held.highest().is_some_and(|top| {
                let between = above(pos.unseen, card).minus(above(pos.unseen, top));
                between.is_empty()
            }),
            beats: beats_down,
            cheapest: beats_down && !beaters.iter().any(cheaper),
            can_win: !beaters.is_empty(),
            every_card_beats: beaters == pos.legal,
            follows: card.suit() == led,
            ruff: card.suit() == Suit::Spades && led != Suit::Spades,
            down: pos.trick.iter().flatten().count() as u8,
            last: pos.is_last(),
            spades_out: !pos.unseen.suit(Suit::Spades).is_empty(),
            partner: PartnerFacts::of(view, &pos, card),
            contract: contract_state(&pos),
            set_open: pos
                .opponent_sides()
                .any(|side| pos.has_contract(side) && pos.need(side) > 0),
            nil_bidder_winning: hunted_nil(&pos)
                .is_some_and(|nil| pos.winner.is_some_and(|(w, _)| w == nil)),
        }
    }

    /// "Low": the lowest of its suit the seat holds, and not the top card
    /// of the suit left.
    pub fn low(&self) -> bool {
        self.lowest && !self.top_left
    }
}

impl PartnerFacts {
    fn of(view: &PlayerView, pos: &Position, card: Card) -> PartnerFacts {
        let Some(p) = pos.partner else {
            return PartnerFacts::default();
        };
        let void = |suit: Suit| pos.void[suit as usize][p];
        let winning = pos.partner_winning();
        let spades_out = !pos.unseen.suit(Suit::Spades).is_empty();
        PartnerFacts {
            to_play: pos.later().contains(&p),
            winning,
            holds: winning && pos.winner.is_some_and(|(_, w)| unbeaten(view, pos, w)),
            void: void(card.suit()),
            may_ruff: void(card.suit())
                && card.suit() != Suit::Spades
                && !void(Suit::Spades)
                && spades_out,
            nil_safe: pos.partner_live_nil() && nil_safe(pos, p, card),
        }
    }
}

fn contract_state(pos: &Position) -> ContractState {
    let side = pos.my_side();
    let need = pos.need(side);
    if !pos.has_contract(side) {
        ContractState::NoContract
    } else if need == 0 {
        ContractState::Made
    } else if need > pos.tricks_left {
        ContractState::Lost
    } else {
        ContractState::Needs
    }
}

/// A *winner*: `card`, played now, takes the trick whatever the other
/// hands hold, as far as the seat's view shows. It beats every card down,
/// and it is `unbeaten`: no opponent still to play can beat it. (The
/// partner may: the trick is the side's either way.)
pub fn is_winner(view: &PlayerView, pos: &Position, card: Card) -> bool {
    pos.beaters(CardSet::single(card)).contains(card) && unbeaten(view, pos, card)
}

/// No opponent still to play to the trick can beat `card`, winning it now
/// or played now. An opponent can beat it when it has not shown out of
/// the card's suit and a higher card of the suit is out (following the
/// lead, or over-trumping a trump on another suit); or, for a card of a
/// side suit led, when it may trump: it has not shown out of spades, a
/// spade is out, and the rules let it trump this trick (not on the first
/// trick without `trump_first_trick`, unless the spades out could be its
/// whole hand). Any seat may be void in the suit led: its hand is hidden.
pub fn unbeaten(view: &PlayerView, pos: &Position, card: Card) -> bool {
    let led = pos.led.unwrap_or(card.suit());
    let spades = pos.unseen.suit(Suit::Spades);
    let hand_size = view.mode().hand_size() as u32;
    let may_trump =
        view.rules.play.trump_first_trick || !view.play.first_trick() || spades.len() >= hand_size;
    let can_beat = |s: Seat| {
        let shown_out = |suit: Suit| pos.void[suit as usize][s];
        let higher = !shown_out(card.suit()) && !above(pos.unseen, card).is_empty();
        let trumps = led != Suit::Spades
            && card.suit() == led
            && may_trump
            && !shown_out(Suit::Spades)
            && !spades.is_empty();
        let beats_it = if card.suit() == led || card.suit() == Suit::Spades {
            higher
        } else {
            // A discard: anything of the suit led beats it.
            true
        };
        beats_it || trumps
    };
    !pos.later()
        .iter()
        .any(|&s| pos.is_opponent(s) && can_beat(s))
}

/// With `card` down, can the partner `p` (on a live nil) play under the
/// trick's winning card? It has played and its card is no longer winning;
/// or it is still to play and has shown out of the suit led (a nil
/// bidder throws off, never trumps), or the winning card is a trump on a
/// side suit, or no card of the winning card's suit out outranks it.
fn nil_safe(pos: &Position, p: Seat, card: Card) -> bool {
    let led = pos.led.unwrap_or(card.suit());
    let winning = match pos.winner {
        Some((_, w)) if !beats(card, w) => pos.winner,
        _ => Some((pos.seat, card)),
    };
    let Some((seat, w)) = winning else {
        return false;
    };
    if pos.trick[p].is_some() {
        return seat != p;
    }
    pos.void[led as usize][p]
        || (w.suit() == Suit::Spades && led != Suit::Spades)
        || above(pos.unseen, w).is_empty()
}

/// `rule` with what moved `bid` off the hand's count kept only when the
/// bid went the way its words say: up for a push, down for the others. (A
/// push and a shading together can leave the bid below the count, and the
/// table's allowed bids can move it either way.)
pub fn moved_as_said(rule: BidRule, bid: Bid) -> BidRule {
    let BidRule::Count { count, moved } = rule else {
        return rule;
    };
    let plain = (count + Tuning::default().round_up).floor().max(1.0) as i32;
    let went = i32::from(bid.tricks()).cmp(&plain);
    let told = match moved {
        Some(Moved::Push) => went.is_gt(),
        Some(Moved::Dummy) | None => true,
        Some(_) => went.is_lt(),
    };
    BidRule::Count {
        count,
        moved: moved.filter(|_| told),
    }
}
