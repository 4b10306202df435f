//! `easy`: a casual player. It counts its aces and spades to bid, wins a
//! trick when that is cheap and otherwise plays its lowest card, and now
//! and then slips: a bid one off, or a plausible but worse card. It never
//! does anything absurd: no nil holding the ace of spades, no trumping or
//! overtaking a partner who has the trick (unless to cover the partner's
//! nil), and around a nil it plays as every level does and never slips.

use rand::RngExt;

use super::knowledge::{
    DUMMY_TRICKS, Position, exchange_cards, nearest_allowed, nil_danger, plain_tricks,
    prefer_side_suits, rank_value, suicide_nil_first,
};
use super::nil::nil_card;
use super::{Bot, BotRng};
use crate::engine::{Bid, Card, CardSet, PlayerView, Suit};

/// How often a play or a bid goes a little wrong.
const SLIP: f64 = 0.12;

/// Tricks to spare beyond the contract before busting an opponent's nil:
/// a casual player goes after one only when its own bid looks safe.
const BUST_MARGIN: i32 = 3;

pub struct EasyBot;

impl Bot for EasyBot {
    fn name(&self) -> &'static str {
        "easy"
    }

    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(EasyBot)
    }

    fn blind_nil(&mut self, _view: &PlayerView, _rng: &mut BotRng) -> bool {
        false
    }

    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        let hand = view.cards();
        let deck = view.rules.deck();
        let est = plain_tricks(hand, deck);
        let partner_nil = view
            .partner()
            .is_some_and(|p| view.bids()[p].is_some_and(Bid::is_nil));
        if est < 1.0
            && !partner_nil
            && nil_danger(hand, deck) < 0.8
            && view.check_bid(Bid::Nil).is_ok()
        {
            return Bid::Nil;
        }
        if suicide_nil_first(view, est) {
            return Bid::Nil;
        }
        // With a dummy the bid is a team total: the dummy as an average hand.
        let dummy = if view.mode().dummy().is_some() {
            DUMMY_TRICKS
        } else {
            0.0
        };
        let mut n = (est + dummy).round() as i32;
        if rng.random_bool(SLIP) {
            n += if rng.random_bool(0.5) { 1 } else { -1 };
        }
        nearest_allowed(view, n.max(1))
    }

    fn exchange(&mut self, view: &PlayerView, _rng: &mut BotRng) -> CardSet {
        exchange_cards(view)
    }

    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        let pos = Position::new(view);
        let pick = nil_card(&pos, BUST_MARGIN).or_else(|| {
            let plain = plain_play(&pos);
            // While the partner's nil is live, the high cards that cover
            // it are not to be wasted by a slip either.
            if !pos.partner_live_nil() && rng.random_bool(SLIP) {
                slip(&pos, rng).or(plain)
            } else {
                plain
            }
        });
        pick.or(pos.legal.lowest())
            .expect("the game asks only a seat that holds a legal card")
    }
}

/// Is the partner winning with a card the opponents are unlikely to beat?
fn partner_has_it(pos: &Position) -> bool {
    pos.partner_winning() && pos.winner_holds(|s| pos.is_rival(s)) >= 0.6
}

fn plain_play(pos: &Position) -> Option<Card> {
    let legal = pos.legal;
    let lowest = |set: CardSet| set.iter().min_by_key(|&c| rank_value(c, pos.led));
    if pos.is_leading() {
        // A winner if there is one, else a low card of the longest suit.
        let top = legal
            .iter()
            .filter(|&c| c.suit() != Suit::Spades && pos.is_top(c))
            .max();
        return top.or_else(|| {
            let longest = Suit::ALL
                .into_iter()
                .filter(|&s| legal.has_suit(s))
                .max_by_key(|&s| (legal.suit(s).len(), s != Suit::Spades))?;
            legal.suit(longest).lowest()
        });
    }
    if partner_has_it(pos) || pos.partner_winning() && pos.is_last() {
        return pos.throwaway(legal);
    }
    let beaters = pos.beaters(legal);
    let cheapest = lowest(beaters);
    match cheapest {
        Some(c) if pos.is_last() || pos.is_top(c) || c.suit() == Suit::Spades => Some(c),
        _ => pos.throwaway(legal),
    }
}

/// A human-looking slip: any legal card except one that would take the
/// trick from a partner who has it, or a trump wasted under it.
fn slip(pos: &Position, rng: &mut BotRng) -> Option<Card> {
    let mut pool = pos.legal;
    if pos.partner_winning() {
        let losers = pool.minus(pos.beaters(pool));
        if !losers.is_empty() {
            pool = prefer_side_suits(losers);
        }
    }
    // Nobody throws away the top trumps by accident.
    let honours: CardSet = pool
        .suit(Suit::Spades)
        .iter()
        .filter(|c| c.rank().index() >= 10)
        .collect();
    if pool.len() > honours.len() {
        pool = pool.minus(honours);
    }
    pool.nth(rng.random_range(0..pool.len()))
}
