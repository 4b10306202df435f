//! `random`: uniform among the legal actions. The floor every other level
//! must beat, and a fuzzer for the engine.

use rand::RngExt;

use super::{Bot, BotRng};
use crate::engine::{Bid, Card, CardSet, PlayerView};

/// The `random` level: any legal bid and card, a baseline to measure the others
/// against.
pub struct RandomBot;

fn pick(set: CardSet, rng: &mut BotRng) -> Option<Card> {
    if set.is_empty() {
        return None;
    }
    set.nth(rng.random_range(0..set.len()))
}

impl Bot for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(RandomBot)
    }

    fn blind_nil(&mut self, _view: &PlayerView, rng: &mut BotRng) -> bool {
        rng.random_bool(0.02)
    }

    /// Now and then any blind number on offer, so games exercise them.
    fn blind_number(&mut self, view: &PlayerView, rng: &mut BotRng) -> Option<u8> {
        let numbers = view.blind_numbers();
        if numbers.is_empty() || !rng.random_bool(0.05) {
            return None;
        }
        Some(numbers[rng.random_range(0..numbers.len())])
    }

    /// Mostly a small number, sometimes anything allowed: bidding uniformly
    /// over 1..13 would set every side every hand and no game would end.
    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        let fair_share = (view.mode().hand_size() / view.seats()) as u8;
        let any = rng.random_bool(0.1);
        let bids: Vec<Bid> = view
            .allowed_bids()
            .into_iter()
            .filter(|&b| !b.is_blind() && (any || (1..=fair_share).contains(&b.tricks())))
            .collect();
        if bids.is_empty() {
            return view.allowed_bids()[0];
        }
        bids[rng.random_range(0..bids.len())]
    }

    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        let count = view.exchange.map_or(0, |e| e.count);
        let mut left = view.cards();
        let mut chosen = CardSet::EMPTY;
        for _ in 0..count {
            if let Some(c) = pick(left, rng) {
                left.remove(c);
                chosen.insert(c);
            }
        }
        chosen
    }

    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        pick(view.legal_plays(), rng).expect("the game asks only a seat that holds a legal card")
    }
}
