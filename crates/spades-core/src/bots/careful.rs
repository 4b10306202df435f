//! The card a careful player would most often play, with no search: where
//! the table's cursor starts on the player's turn (`tui`), kept with the
//! card strategy rather than the screen.

use crate::engine::play::beats;
use crate::engine::{Bid, Card, PlayerView, Suit};

/// The card a careful player would most often play now, where a cursor
/// should start: on a nil, the highest card that cannot win the trick
/// (the lowest when leading, or when every card wins); otherwise the
/// lowest legal card, keeping spades when another suit may be played.
pub fn cautious_play(view: &PlayerView) -> Option<Card> {
    let legal = view.legal_plays();
    let by_rank = |c: &Card| (c.suit() == Suit::Spades, c.rank());
    let lowest = legal.iter().min_by_key(by_rank);
    if !view.bids()[view.seat].is_some_and(Bid::is_nil) {
        return lowest;
    }
    let winning = view.play.winning.and_then(|w| view.play.trick[w]);
    let losers = legal
        .iter()
        .filter(|&c| winning.is_some_and(|w| !beats(c, w)));
    losers
        .max_by_key(|c| (c.suit() == view.play.led.unwrap_or(c.suit()), c.rank()))
        .or(lowest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::{card, set};
    use crate::engine::{Action, CardSet, Deal, Game, Mode, PerSeat, Phase, Rules, Seat};

    /// A partnership game where seat 0 holds `mine`, the other seats the
    /// rest of the deck in order, seat `dealer` deals and everyone has bid
    /// (seat 0 `my_bid`, the others 3).
    fn bid_game(mine: &str, dealer: usize, my_bid: Bid) -> Game {
        let mine = set(mine);
        let rest: Vec<Card> = CardSet::DECK.minus(mine).iter().collect();
        let hands = PerSeat::from_fn(Mode::Partnership, |s| match s.index() {
            0 => mine,
            k => rest[(k - 1) * 13..k * 13].iter().copied().collect(),
        });
        let deal = Deal {
            hands,
            out: CardSet::EMPTY,
        };
        let mut game = Game::with_deals(Rules::default(), Seat::new(dealer), vec![deal]);
        while let Some(turn) = game.to_act() {
            let bid = if turn.seat.index() == 0 {
                my_bid
            } else {
                Bid::Tricks(3)
            };
            game.apply(turn.seat, Action::Bid(bid)).unwrap();
            if game.phase() != Phase::Bidding {
                break;
            }
        }
        game
    }

    const MINE: &str = "AS KS 2S 5H 9H KH 3C 7C 9C QC 4D 8D TD";

    #[test]
    fn the_cautious_card_is_the_lowest_keeping_spades() {
        // Leading: the lowest side card, not the two of spades.
        let game = bid_game(MINE, 3, Bid::Tricks(4));
        assert_eq!(cautious_play(&game.view(Seat::new(0))), Some(card("3C")));
        // Following hearts: the lowest heart.
        let mut game = bid_game(MINE, 2, Bid::Tricks(4));
        let lead = game
            .view(Seat::new(3))
            .legal_plays()
            .suit(Suit::Hearts)
            .highest();
        game.apply(Seat::new(3), Action::Play(lead.unwrap()))
            .unwrap();
        assert_eq!(cautious_play(&game.view(Seat::new(0))), Some(card("5H")));
    }

    #[test]
    fn on_nil_the_cautious_card_is_the_highest_that_cannot_win() {
        let mut game = bid_game(MINE, 2, Bid::Nil);
        // Seat 3 holds the other hearts from 2H up: it leads the jack.
        game.apply(Seat::new(3), Action::Play(card("JH"))).unwrap();
        assert_eq!(cautious_play(&game.view(Seat::new(0))), Some(card("9H")));
        // Leading on nil: the lowest card.
        let game = bid_game(MINE, 3, Bid::Nil);
        assert_eq!(cautious_play(&game.view(Seat::new(0))), Some(card("3C")));
    }
}
