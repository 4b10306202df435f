//! `hard`: a bot that searches. Where `normal` follows rules, `hard` tries
//! its choices out on guessed deals and keeps the one that wins most.
//!
//! **Card play: determinized search.** The cards the seat cannot see are
//! dealt many times over (`DealGuess`: true to every fact the seat knows,
//! leaning on the bids). On each guessed deal, every candidate card is
//! played and the rest of the hand is played out by cheap habits
//! (`Policy`), then scored by the engine and valued by the chance it
//! leaves the seat's side of winning the game (`hand_outcome`). Each
//! candidate is tried on the same deals, so luck of the deal cancels out
//! between them; the card with the best average is played. Cards that are
//! equal in play (touching, or with only played cards between) are tried
//! once.
//!
//! **Bidding: simulation.** The same guessed deals, with the seats still to
//! bid given the bid their guessed cards are worth, are played out once as
//! a plain bid and once as a nil; every allowed bid is then scored on those
//! tricks and the bid with the best average chance of winning is made.
//!
//! The blind-nil question and the exchange are `normal`'s (for now).
//!
//! The budget (`Effort`) is a number of guessed deals per decision, so a
//! seeded game replays exactly, or a time per decision.

use crate::engine::policy::play_out;
use crate::engine::{
    Bid, Card, CardSet, DealGuess, HandState, Mode, PerSeat, PlayerView, Policy, Seat, hand_outcome,
};

use super::knowledge::hand_tricks;
use super::normal::NormalBot;
use super::{Bot, BotRng, Effort};
use std::time::{Duration, Instant};

/// Guessed deals per decision when not told otherwise: a card decision
/// plays every candidate out on each, a bid plays each out twice.
pub const USUAL_DEALS: u32 = 300;

/// The most guessed deals a timed decision takes, however long it may
/// think: past this the answer no longer changes.
const MOST_DEALS: u32 = 100_000;

/// How much thinking a decision gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Budget {
    deals: u32,
    until: Option<Duration>,
}

impl Budget {
    fn of(effort: Effort) -> Budget {
        match effort {
            Effort::Usual => Budget {
                deals: USUAL_DEALS,
                until: None,
            },
            Effort::Deals(n) => Budget {
                deals: n.max(1),
                until: None,
            },
            Effort::Time(t) => Budget {
                deals: MOST_DEALS,
                until: Some(t),
            },
        }
    }

    /// Deals to guess, stopping when the time (if any) runs out.
    fn deals(self) -> impl Iterator<Item = u32> {
        let started = Instant::now();
        (0..self.deals).take_while(move |&i| {
            // The clock is read every 16 deals: a deal takes microseconds.
            i == 0 || i % 16 != 0 || self.until.is_none_or(|t| started.elapsed() < t)
        })
    }
}

#[derive(Debug)]
pub struct HardBot {
    budget: Budget,
    normal: NormalBot,
}

impl Default for HardBot {
    fn default() -> HardBot {
        HardBot::with_effort(Effort::Usual)
    }
}

impl HardBot {
    pub fn with_effort(effort: Effort) -> HardBot {
        HardBot {
            budget: Budget::of(effort),
            normal: NormalBot::default(),
        }
    }
}

impl Bot for HardBot {
    fn name(&self) -> &'static str {
        "hard"
    }

    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool {
        self.normal.blind_nil(view, rng)
    }

    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        let usual = self.normal.bid(view, &mut rng.clone());
        best_bid(view, usual, self.budget, rng).unwrap_or(usual)
    }

    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        self.normal.exchange(view, rng)
    }

    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        let usual = self.normal.play(view, &mut rng.clone());
        best_card(view, usual, self.budget, rng).unwrap_or(usual)
    }
}

/// How many standard errors better than the usual choice a searched one
/// must be to be made instead: the search overrules `normal`'s judgment
/// (which a partner can read) only when it is sure, and a choice no better
/// than the usual one is taken for better about once in 30,000 decisions.
const SURE: f64 = 4.0;

/// Each choice's chance of winning on each guessed deal, side by side.
struct Trials {
    values: Vec<Vec<f64>>,
}

impl Trials {
    fn new(choices: usize) -> Trials {
        Trials {
            values: vec![Vec::new(); choices],
        }
    }

    fn mean(&self, k: usize) -> f64 {
        let v = &self.values[k];
        v.iter().sum::<f64>() / v.len().max(1) as f64
    }

    /// The best choice by average, the earliest on a tie.
    fn best(&self) -> usize {
        let mut best = 0;
        for k in 1..self.values.len() {
            if self.mean(k) > self.mean(best) {
                best = k;
            }
        }
        best
    }

    /// Is `better` surely better than `usual`, deal for deal?
    fn surely_better(&self, better: usize, usual: usize) -> bool {
        let diffs: Vec<f64> = self.values[better]
            .iter()
            .zip(&self.values[usual])
            .map(|(a, b)| a - b)
            .collect();
        let n = diffs.len() as f64;
        if n < 2.0 {
            return false;
        }
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
        mean > SURE * (var / n).sqrt()
    }

    /// The searched choice, or the usual one unless the search is sure.
    fn verdict(&self, usual: Option<usize>) -> usize {
        let best = self.best();
        match usual {
            Some(usual) if !self.surely_better(best, usual) => usual,
            _ => best,
        }
    }
}

/// The legal cards worth trying: of cards equal in play (same suit, only
/// cards already played or held between them) the lowest stands for all.
pub fn candidates(view: &PlayerView) -> Vec<Card> {
    let legal = view.legal_plays();
    let gone = view.play.played.union(view.cards());
    let mut out: Vec<Card> = Vec::new();
    for card in legal {
        // Cards iterate lowest first within a suit.
        if let Some(&last) = out.last()
            && last.suit() == card.suit()
            && between(last, card).is_subset(gone)
        {
            continue;
        }
        out.push(card);
    }
    out
}

/// The cards of `low`'s suit strictly between `low` and `high`.
fn between(low: Card, high: Card) -> CardSet {
    CardSet::DECK
        .above(low)
        .intersect(CardSet::DECK.below(high))
}

/// Every seat's bid for the play: the bids made.
fn bids_made(view: &PlayerView) -> PerSeat<Bid> {
    view.bids().map(|b| b.unwrap_or(Bid::Tricks(0)))
}

/// The card to play: `usual` (`normal`'s card) unless the search over
/// `deals` guessed deals is sure another wins more often; `None` when the
/// view cannot be guessed from.
fn best_card(view: &PlayerView, usual: Card, budget: Budget, rng: &mut BotRng) -> Option<Card> {
    let cards = candidates(view);
    // A nil on the seat's own side is played by `normal`'s rules, which a
    // partner can count on; the habits of the playouts are cruder there.
    let side_nil = std::iter::once(view.seat)
        .chain(view.partner())
        .any(|s| view.bids()[s].is_some_and(Bid::is_nil) && view.play.tricks_won[s] == 0);
    if cards.len() < 2 || side_nil {
        return Some(usual);
    }
    // `usual` is tried as the candidate that stands for it.
    let usual_at = cards
        .iter()
        .rposition(|&c| c.suit() == usual.suit() && c <= usual)?;
    let guess = DealGuess::new(view).ok()?;
    let bids = bids_made(view);
    let policy = Policy::new(view.mode(), &bids);
    let side = view.side();
    let mut trials = Trials::new(cards.len());
    for _ in budget.deals() {
        let deal = guess.sample(rng);
        let Ok(start) = view.hand_in_play(&deal.hands) else {
            continue;
        };
        for (values, &card) in trials.values.iter_mut().zip(&cards) {
            let mut hand = start;
            hand.play_unchecked(card);
            let tricks = play_out(hand, &policy, rng);
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            values.push(f64::from(outcome.win[side]));
        }
    }
    let chosen = trials.verdict(Some(usual_at));
    Some(if chosen == usual_at {
        usual
    } else {
        cards[chosen]
    })
}

/// The bid a seat's cards are worth by rule of thumb, for seats that have
/// not bid yet in a simulation.
fn rough_bid(hand: CardSet, mode: Mode) -> Bid {
    Bid::Tricks(hand_tricks(hand, mode).round().clamp(1.0, 13.0) as u8)
}

/// The bid to make: `usual` (`normal`'s bid) unless simulation over
/// `deals` guessed deals is sure another number wins more often. A nil is
/// bid only when `normal` would: its judgment of a nil hand is what a
/// partner relies on. `None` when the view cannot be guessed from.
fn best_bid(view: &PlayerView, usual: Bid, budget: Budget, rng: &mut BotRng) -> Option<Bid> {
    let allowed: Vec<Bid> = view
        .allowed_bids()
        .into_iter()
        .filter(|b| *b != Bid::BlindNil && (!b.is_nil() || usual.is_nil()))
        .collect();
    if allowed.len() < 2 {
        return Some(usual);
    }
    let usual_at = allowed.iter().position(|&b| b == usual);
    let guess = DealGuess::new(view).ok()?;
    let mode = view.mode();
    let me = view.seat;
    let made = view.bids();
    let side = view.side();
    let plain = rough_bid(view.cards(), mode);
    let mut trials = Trials::new(allowed.len());
    for _ in budget.deals() {
        let deal = guess.sample(rng);
        let mut hands = deal.hands;
        hands[me] = view.cards();
        let mut bids =
            PerSeat::from_fn(mode, |s: Seat| made[s].unwrap_or(rough_bid(hands[s], mode)));
        let start = HandState::new(hands, view.play.leader);
        // Played out once as a plain bid and once as a nil: the habits
        // differ only there.
        bids[me] = plain;
        let as_plain = play_out(start, &Policy::new(mode, &bids), rng);
        bids[me] = Bid::Nil;
        let as_nil = usual
            .is_nil()
            .then(|| play_out(start, &Policy::new(mode, &bids), rng));
        for (values, &bid) in trials.values.iter_mut().zip(&allowed) {
            bids[me] = bid;
            let tricks = match (bid.is_nil(), as_nil) {
                (true, Some(nil)) => nil,
                _ => as_plain,
            };
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            values.push(f64::from(outcome.win[side]));
        }
    }
    Some(allowed[trials.verdict(usual_at)])
}
