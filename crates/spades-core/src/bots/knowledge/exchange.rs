//! The cards a seat passes in the blind-nil exchange or the nil pass.

use super::SPADES;
use super::hand_worth::{card_danger, nil_danger, plays_as};
use crate::engine::{Bid, Card, CardSet, PlayerView, Rank, Rules};

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
pub(super) fn dangerous_cards(hand: CardSet, count: u8, deck: CardSet) -> CardSet {
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
pub(super) fn low_cards(hand: CardSet, count: u8) -> CardSet {
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
pub(super) fn spare_low_cards(hand: CardSet, count: u8, rules: &Rules) -> CardSet {
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
