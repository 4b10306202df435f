//! The order the solver tries a seat's cards in: the card likeliest to
//! settle the question first, so that alpha-beta cuts the rest early. Only
//! the order comes from here; which cards may be played is the engine's
//! (`HandState::distinct_legal`).

use crate::engine::card::{Card, Suit};
use crate::engine::cards::CardSet;
use crate::engine::play::{HandState, beats, trick_power};
use crate::engine::seat::MAX_SEATS;

/// The most cards a seat holds (cutthroat's 17), with room to spare.
const MOST_CARDS: usize = 20;

/// The cards the seat to play may play, each once for cards equal in
/// play, best guess first: `first` when it may be played (the card that
/// settled the question last time). `ours` says which seats play for the
/// side.
pub(super) fn ordered(
    hand: &HandState,
    ours: [bool; MAX_SEATS],
    first: Option<Card>,
) -> impl Iterator<Item = Card> {
    let mut cards: [(i16, Option<Card>); MOST_CARDS] = [(0, None); MOST_CARDS];
    let mut len = 0;
    for card in hand.distinct_legal().iter().take(MOST_CARDS) {
        let score = if Some(card) == first {
            i16::MAX
        } else {
            score(hand, &ours, card)
        };
        // Insertion by score, highest first; ties keep the lower card first.
        let mut i = len;
        while i > 0 && cards[i - 1].0 < score {
            cards[i] = cards[i - 1];
            i -= 1;
        }
        cards[i] = (score, Some(card));
        len += 1;
    }
    cards.into_iter().map_while(|(_, card)| card)
}

/// How promising `card` is for the seat to play. Following: with the
/// trick already its team's, the lowest card (overtaking last); else a
/// card that takes the trick, the cheapest when last to play and the
/// highest before (it must stand up to the seats after), then the lowest.
fn score(hand: &HandState, ours: &[bool; MAX_SEATS], card: Card) -> i16 {
    let rank = i16::from(card.rank().index());
    let (Some(winner), Some(led)) = (hand.winning(), hand.led_suit()) else {
        return lead_score(hand, ours, card);
    };
    let Some(best) = hand.trick_card(winner) else {
        return -rank;
    };
    let power = i16::from(trick_power(card, led as u8));
    let seat = hand.turn().index();
    let team_winning = ours[winner.index()] == ours[seat];
    let played = hand.trick_cards().iter().flatten().count();
    let last = played + 1 == hand.seats();
    match (beats(card, best), team_winning) {
        (true, true) => -100 - power,
        (true, false) if last => 200 - power,
        (true, false) => 100 + power,
        (false, _) => -rank,
    }
}

/// Leading: a suit's top card out first (a winner), then a low card to a
/// partner holding the suit's top, then the lowest; a suit an opponent can
/// ruff last.
fn lead_score(hand: &HandState, ours: &[bool; MAX_SEATS], card: Card) -> i16 {
    let rank = i16::from(card.rank().index());
    let suit = card.suit();
    let seat = hand.turn();
    let team = ours[seat.index()];
    let out = hand
        .hands
        .iter()
        .fold(CardSet::EMPTY, |all, &h| all.union(h));
    let top = out.suit(suit).highest();
    let top_holder = top.and_then(|top| hand.hands.iter().position(|h| h.contains(top)));
    let ruffed = suit != Suit::Spades
        && hand.hands.pairs().any(|(other, held)| {
            ours[other.index()] != team && !held.has_suit(suit) && held.has_suit(Suit::Spades)
        });
    let score = if top == Some(card) {
        50 + rank
    } else if top_holder.is_some_and(|holder| holder != seat.index() && ours[holder] == team) {
        30 - rank
    } else {
        -rank
    };
    if ruffed { score - 80 } else { score }
}
