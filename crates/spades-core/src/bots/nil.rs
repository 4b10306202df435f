//! Playing around a nil, the same at every level: one's own nil, a
//! partner's to cover and an opponent's to bust. A card wrong here costs a
//! whole nil, so no level leaves it to chance.

use super::knowledge::{Position, above, below, rank_value};
use crate::engine::play::beats;
use crate::engine::{Bid, Card, CardSet, Seat, Suit};
use crate::search::policy::{hardest_to_duck, high_enough_to_cover};

/// Which rule around a nil chose a card: what a hint says of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NilRule {
    /// The seat's own nil: a lead someone must beat.
    OwnLead,
    /// The seat's own nil: the highest card that still loses.
    OwnDuck,
    /// The seat's own nil, taking the trick anyway: the most dangerous card.
    OwnUnload,
    /// The seat's own nil, every card beats: low, hoping to be overtaken.
    OwnHope,
    /// The partner's nil: a lead the partner can play under.
    CoverLead,
    /// The partner's nil: overtake the partner's winning card.
    CoverOvertake,
    /// The partner's nil, the partner still to play: win the trick first.
    CoverAbove,
    /// An opponent's nil: lead low into the nil bidder's suit.
    BustLead,
    /// An opponent's nil: stay under the nil bidder's card.
    BustUnder,
    /// An opponent's nil, the nil bidder still to play: keep the trick low.
    BustLow,
}

/// The card a nil on the table calls for: this seat's own, or else the
/// partner's to cover or an opponent's to bust when the seat's contract has
/// more than `bust_margin` tricks to spare. `None` when no nil is at stake
/// in this trick and the contract decides.
pub fn nil_card(pos: &Position, bust_margin: i32) -> Option<Card> {
    nil_card_why(pos, bust_margin).map(|(card, _)| card)
}

/// `nil_card`, with the rule that chose it.
pub fn nil_card_why(pos: &Position, bust_margin: i32) -> Option<(Card, NilRule)> {
    if pos.bids[pos.seat].is_some_and(Bid::is_nil) {
        return nil_play(pos);
    }
    cover_play(pos).or_else(|| bust_play(pos, bust_margin))
}

/// `card` chosen by `rule`.
fn by(rule: NilRule) -> impl Fn(Card) -> (Card, NilRule) {
    move |card| (card, rule)
}

/// Playing a nil: the highest card that still loses, dangerous high cards
/// thrown when void, and leads that someone must beat.
fn nil_play(pos: &Position) -> Option<(Card, NilRule)> {
    let legal = pos.legal;
    if pos.is_leading() {
        return legal
            .iter()
            .max_by_key(|&c| {
                let higher = above(pos.unseen, c).len() as i32;
                let lower = below(pos.unseen, c).len() as i32;
                let spade = i32::from(c.suit() == Suit::Spades);
                let safe = i32::from(higher > 0);
                (safe, -spade, higher - 2 * lower, -(c.rank().index() as i32))
            })
            .map(by(NilRule::OwnLead));
    }
    let losers = legal.minus(pos.beaters(legal));
    let led = pos.led?;
    if !losers.is_empty() {
        let duck = if legal.has_suit(led) {
            pos.highest_loser(legal)
        } else {
            pos.shed(losers)
        };
        return duck.map(by(NilRule::OwnDuck));
    }
    if pos.is_last() {
        // Taking this trick anyway: unload the most dangerous card.
        return legal
            .iter()
            .max_by_key(|&c| rank_value(c, pos.led))
            .map(by(NilRule::OwnUnload));
    }
    // Everything beats what is down: play low and hope to be overtaken.
    legal
        .iter()
        .min_by_key(|&c| rank_value(c, pos.led))
        .map(by(NilRule::OwnHope))
}

/// Covering a partner's nil: lead winners, overtake the partner, and play
/// over a low card the partner might be forced to beat. `None` when the
/// partner is safe this trick and the contract decides.
fn cover_play(pos: &Position) -> Option<(Card, NilRule)> {
    if !pos.partner_live_nil() {
        return None;
    }
    let p = pos.partner?;
    let legal = pos.legal;
    if pos.is_leading() {
        // Leads the partner can play under: winners, or high cards of a
        // suit the partner has shown out of.
        return legal
            .iter()
            .max_by_key(|&c| {
                let class = if pos.is_top(c) && c.suit() != Suit::Spades {
                    3
                } else if pos.void[c.suit() as usize][p] {
                    2
                } else if c.suit() == Suit::Spades && !pos.is_top(c) {
                    0
                } else {
                    1
                };
                (class, c.rank().index())
            })
            .map(by(NilRule::CoverLead));
    }
    let (_, w) = pos.winner?;
    let led = pos.led?;
    if pos.trick[p].is_some() {
        if pos.partner_winning() {
            // Overtake: the cheapest card that beats the partner's.
            return pos
                .beaters(legal)
                .iter()
                .min_by_key(|&c| rank_value(c, pos.led))
                .map(by(NilRule::CoverOvertake));
        }
        return None;
    }
    // The partner plays later. Safe if void in the suit, if the trick has
    // been trumped, or if nothing unseen beats the card winning now.
    if pos.void[led as usize][p] || w.suit() != led || above(pos.unseen, w).is_empty() {
        return None;
    }
    let beaters = pos.beaters(legal);
    if beaters.is_empty() {
        return None;
    }
    if legal.has_suit(led) {
        // A card nothing unseen beats protects for sure; else the highest.
        let top = beaters.iter().filter(|&c| pos.is_top(c)).min();
        return top
            .or_else(|| beaters.iter().max())
            .map(by(NilRule::CoverAbove));
    }
    // Void: a trump makes the partner safe whatever they hold.
    beaters
        .iter()
        .min_by_key(|&c| rank_value(c, pos.led))
        .map(by(NilRule::CoverAbove))
}

/// The cards that cover a partner's live nil: this seat's highest card of
/// each suit the partner has not shown out of, when it outranks a card of
/// that suit the partner may still hold. Spent on a trick, it leaves the
/// partner's high card of the suit to win a later one.
fn covering_cards(pos: &Position) -> CardSet {
    let Some(p) = pos.partner.filter(|_| pos.partner_live_nil()) else {
        return CardSet::EMPTY;
    };
    Suit::ALL
        .into_iter()
        .filter(|&suit| !pos.void[suit as usize][p])
        .filter_map(|suit| pos.hand.suit(suit).highest())
        .filter(|&top| !below(pos.unseen, top).is_empty())
        .collect()
}

/// The position with the cards that cover a partner's live nil set aside,
/// for a trick the side does not need: the other legal cards, or when
/// every legal card covers, the lowest of them.
pub fn sparing_cover(pos: &Position) -> Position {
    let keep = covering_cards(pos);
    let spare = pos.legal.minus(keep);
    let mut sparing = *pos;
    sparing.legal = if spare.is_empty() {
        let lowest = pos.legal.iter().min_by_key(|&c| rank_value(c, pos.led));
        lowest.map_or(pos.legal, CardSet::single)
    } else {
        spare
    };
    sparing
}

/// Busting an opponent's nil when the contract can spare the effort (more
/// than `margin` tricks left beyond what it needs): lead low into the nil
/// bidder's suits and never rescue them by overtaking.
fn bust_play(pos: &Position, margin: i32) -> Option<(Card, NilRule)> {
    // The contract first while it can be made and needs the effort; a
    // contract already lost leaves the nil as the only swing.
    let target = hunted_nil(pos)?;
    let side = pos.my_side();
    let need = pos.need(side);
    let hopeless = need > pos.tricks_left;
    if need > 0 && !hopeless && pos.tricks_left - need < margin {
        return None;
    }
    let legal = pos.legal;
    if pos.is_leading() {
        return bust_lead(pos, target).map(by(NilRule::BustLead));
    }
    let led = pos.led?;
    let (winner, winning) = pos.winner?;
    if pos.trick[target].is_some() {
        if winner != target {
            // The nil is safe in this trick: if it is lost to us anyway,
            // spend a high card of the suit and keep the low ones to get
            // under the nil later.
            let ours = Some(winner) == pos.partner;
            let beaten = pos.beaters(legal).is_empty();
            if (ours || beaten) && legal.has_suit(led) {
                return pos.highest_loser(legal).map(by(NilRule::BustUnder));
            }
            return None;
        }
        // The nil bidder is winning: stay under.
        return stay_under(pos, led).map(by(NilRule::BustUnder));
    }
    // The nil bidder plays later: keep the winning card low, unless the
    // nil's partner already holds the trick high, when the nil ducks
    // whatever follows.
    let nil_partner = pos.mode.partner(target);
    let covered = Some(winner) == nil_partner && high_enough_to_cover(winning);
    if pos.void[led as usize][target] || covered {
        return None;
    }
    if let Some(under) = stay_under(pos, led) {
        return Some((under, NilRule::BustLow));
    }
    legal
        .iter()
        .min_by_key(|&c| rank_value(c, pos.led))
        .map(by(NilRule::BustLow))
}

/// The lead into an opponent's nil: the card that leaves it least room to
/// duck, of a suit it still holds, and not of one its partner has shown
/// out of while it may still hold a spade (the partner would ruff, and the
/// nil throw anything under the trump). `None` when no such card is held.
fn bust_lead(pos: &Position, target: Seat) -> Option<Card> {
    let open =
        |c: &Card| !pos.void[c.suit() as usize][target] && !cover_ruffs(pos, target, c.suit());
    let pool: CardSet = pos.legal.iter().filter(open).collect();
    hardest_to_duck(pool, pos.unseen)
}

/// May the partner of the nil bidder `target` ruff a lead of `suit`: it
/// has shown out of the suit and not yet of spades?
fn cover_ruffs(pos: &Position, target: Seat, suit: Suit) -> bool {
    let void = |seat: Seat, suit: Suit| pos.void[suit as usize][seat];
    let cover = pos.mode.partner(target);
    suit != Suit::Spades && cover.is_some_and(|c| void(c, suit) && !void(c, Suit::Spades))
}

/// The opponent whose live nil this seat hunts, if any.
pub fn hunted_nil(pos: &Position) -> Option<Seat> {
    pos.mode
        .each_seat()
        .find(|&s| pos.is_opponent(s) && pos.live_nil(s))
}

/// Does `card`, played instead of `usual` (`normal`'s card), spoil the
/// hunt of the nil bid by `target`? Leading: a lead its partner may ruff
/// (the nil then throws its worst card under the trump), a lead above the
/// seat's lowest of the suit (it leaves the nil room to duck), or a winner
/// cashed (the nil throws its cards of the suit under it). Following: a
/// card that beats the nil's winning card when a lower one would not (it
/// rescues the nil), a lower card of the suit where both lose (the low
/// cards are kept to lead into the nil), or a higher one where both win.
pub fn spoils_hunt(pos: &Position, target: Seat, card: Card, usual: Card) -> bool {
    if pos.is_leading() {
        let lowest = pos.hand.suit(card.suit()).lowest() == Some(card);
        return cover_ruffs(pos, target, card.suit()) || pos.is_top(card) || !lowest;
    }
    let wins = |c: Card| !pos.beaters(CardSet::single(c)).is_empty();
    let loser_left = !pos.legal.minus(pos.beaters(pos.legal)).is_empty();
    let rescues = pos
        .winner
        .is_some_and(|(winner, winning)| winner == target && beats(card, winning));
    let wasted = card.suit() == usual.suit()
        && match (wins(card), wins(usual)) {
            (false, false) => card < usual,
            (true, true) => card > usual,
            _ => false,
        };
    (loser_left && rescues) || wasted
}

/// The card that stays under the trick while hunting a nil: following,
/// the highest that does (the low ones are kept to lead into the nil
/// later); void, the least useful loser. `None` when every card beats.
fn stay_under(pos: &Position, led: Suit) -> Option<Card> {
    let losers = pos.legal.minus(pos.beaters(pos.legal));
    if losers.is_empty() {
        None
    } else if pos.legal.has_suit(led) {
        pos.highest_loser(pos.legal)
    } else {
        pos.throwaway(losers)
    }
}

#[cfg(test)]
mod tests;
