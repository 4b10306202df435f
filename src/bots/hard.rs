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

use std::time::{Duration, Instant};

use crate::engine::policy::play_out;
use crate::engine::stakes::HandOutcome;
use crate::engine::{
    Action, Bid, Card, CardSet, DealGuess, Decision, HandState, Mode, PerSeat, PlayerView, Policy,
    Seat, hand_outcome,
};

use super::knowledge::hand_tricks;
use super::normal::NormalBot;
use super::{Bot, BotRng, Effort};

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
        best_bid(view, usual, self.budget, rng).map_or(usual, |w| w.chosen)
    }

    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        self.normal.exchange(view, rng)
    }

    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        let usual = self.normal.play(view, &mut rng.clone());
        best_card(view, usual, self.budget, rng).map_or(usual, |w| w.chosen)
    }
}

/// A decision weighed by the search: the choice made, and every choice
/// tried, best first (none when there was nothing to weigh).
#[derive(Debug, Clone, PartialEq)]
pub struct Weighing<A> {
    pub chosen: A,
    pub ranked: Vec<Weighed<A>>,
}

/// What one choice came to over the guessed deals, in the player's terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weighed<A> {
    pub choice: A,
    /// The side's average chance of winning the game after the hand.
    pub win: f64,
    /// The side's average points for the hand.
    pub points: f64,
    /// How often the side's contract was made, when it has one.
    pub contract: Option<f64>,
    /// How often the side's nils were made, when it bid one.
    pub nil: Option<f64>,
    /// How often the opponents' contracts were set.
    pub set: Option<f64>,
}

/// What `hard` would do at `decision`, weighed, for a hint: it is given
/// the seat's view and nothing else, so it can use no card the seat has
/// not seen.
pub fn advise(
    view: &PlayerView,
    decision: Decision,
    effort: Effort,
    rng: &mut BotRng,
) -> Weighing<Action> {
    let mut bot = HardBot::with_effort(effort);
    let usual = |bot: &mut HardBot, rng: &mut BotRng| super::decide(bot, decision, view, rng);
    let weighed = match decision {
        Decision::Play => {
            let normal = bot.normal.play(view, &mut rng.clone());
            best_card(view, normal, bot.budget, rng).map(|w| w.map(Action::Play))
        }
        Decision::Bid => {
            let normal = bot.normal.bid(view, &mut rng.clone());
            best_bid(view, normal, bot.budget, rng).map(|w| w.map(Action::Bid))
        }
        Decision::BlindNil | Decision::Exchange => None,
    };
    weighed.unwrap_or_else(|| Weighing {
        chosen: usual(&mut bot, rng),
        ranked: Vec::new(),
    })
}

impl<A: Copy> Weighing<A> {
    fn map<B: Copy>(self, f: impl Fn(A) -> B) -> Weighing<B> {
        Weighing {
            chosen: f(self.chosen),
            ranked: self
                .ranked
                .into_iter()
                .map(|w| Weighed {
                    choice: f(w.choice),
                    win: w.win,
                    points: w.points,
                    contract: w.contract,
                    nil: w.nil,
                    set: w.set,
                })
                .collect(),
        }
    }
}

/// How many standard errors better than the usual choice a searched one
/// must be to be made instead: the search overrules `normal`'s judgment
/// (which a partner can read) only when it is sure, and a choice no better
/// than the usual one is taken for better about once in 30,000 decisions.
const SURE: f64 = 4.0;

/// Each choice's chance of winning on each guessed deal, side by side,
/// and what it came to in the hand's own terms.
struct Trials {
    values: Vec<Vec<f64>>,
    tallies: Vec<Tally>,
}

/// One choice's hands in the player's terms, summed over the deals.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    points: f64,
    contracts: u32,
    made: u32,
    nils: u32,
    nils_made: u32,
    rivals: u32,
    rivals_set: u32,
}

impl Trials {
    fn new(choices: usize) -> Trials {
        Trials {
            values: vec![Vec::new(); choices],
            tallies: vec![Tally::default(); choices],
        }
    }

    /// Choice `k`'s hand on one deal, for the seat's `side`.
    fn record(&mut self, k: usize, view: &PlayerView, outcome: &HandOutcome) {
        let side = view.side();
        self.values[k].push(f64::from(outcome.win[side]));
        let t = &mut self.tallies[k];
        let mine = &outcome.sides[side];
        t.points += f64::from(mine.points);
        if let Some(c) = mine.contract {
            t.contracts += 1;
            t.made += u32::from(c.made());
        }
        for nil in mine.nils.iter().flatten() {
            t.nils += 1;
            t.nils_made += u32::from(nil.points > 0);
        }
        for rival in view.mode().each_side().filter(|&s| s != side) {
            if let Some(c) = outcome.sides[rival].contract {
                t.rivals += 1;
                t.rivals_set += u32::from(!c.made());
            }
        }
    }

    /// What choice `k` came to, for a hint.
    fn weighed<A: Copy>(&self, k: usize, choice: A) -> Weighed<A> {
        let t = &self.tallies[k];
        let n = self.values[k].len().max(1) as f64;
        let share = |x: u32, of: u32| (of > 0).then(|| f64::from(x) / f64::from(of));
        Weighed {
            choice,
            win: self.mean(k),
            points: t.points / n,
            contract: share(t.made, t.contracts),
            nil: share(t.nils_made, t.nils),
            set: share(t.rivals_set, t.rivals),
        }
    }

    /// Every choice weighed, best first.
    fn ranked<A: Copy>(&self, choices: &[A]) -> Vec<Weighed<A>> {
        let mut all: Vec<Weighed<A>> = choices
            .iter()
            .enumerate()
            .map(|(k, &c)| self.weighed(k, c))
            .collect();
        all.sort_by(|a, b| b.win.total_cmp(&a.win));
        all
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
fn best_card(
    view: &PlayerView,
    usual: Card,
    budget: Budget,
    rng: &mut BotRng,
) -> Option<Weighing<Card>> {
    let cards = candidates(view);
    // A nil on the seat's own side is played by `normal`'s rules, which a
    // partner can count on; the habits of the playouts are cruder there.
    let side_nil = std::iter::once(view.seat)
        .chain(view.partner())
        .any(|s| view.bids()[s].is_some_and(Bid::is_nil) && view.play.tricks_won[s] == 0);
    if cards.len() < 2 || side_nil {
        return Some(Weighing {
            chosen: usual,
            ranked: Vec::new(),
        });
    }
    // `usual` is tried as the candidate that stands for it.
    let usual_at = cards
        .iter()
        .rposition(|&c| c.suit() == usual.suit() && c <= usual)?;
    let guess = DealGuess::new(view).ok()?;
    let bids = bids_made(view);
    let policy = Policy::new(view.mode(), &bids);
    let mut trials = Trials::new(cards.len());
    for _ in budget.deals() {
        let deal = guess.sample(rng);
        let Ok(start) = view.hand_in_play(&deal.hands) else {
            continue;
        };
        for (k, &card) in cards.iter().enumerate() {
            let mut hand = start;
            hand.play_unchecked(card);
            let tricks = play_out(hand, &policy, rng);
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            trials.record(k, view, &outcome);
        }
    }
    let chosen = trials.verdict(Some(usual_at));
    Some(Weighing {
        chosen: if chosen == usual_at {
            usual
        } else {
            cards[chosen]
        },
        ranked: trials.ranked(&cards),
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
fn best_bid(
    view: &PlayerView,
    usual: Bid,
    budget: Budget,
    rng: &mut BotRng,
) -> Option<Weighing<Bid>> {
    let allowed: Vec<Bid> = view
        .allowed_bids()
        .into_iter()
        .filter(|b| *b != Bid::BlindNil && (!b.is_nil() || usual.is_nil()))
        .collect();
    if allowed.len() < 2 {
        return Some(Weighing {
            chosen: usual,
            ranked: Vec::new(),
        });
    }
    let usual_at = allowed.iter().position(|&b| b == usual);
    let guess = DealGuess::new(view).ok()?;
    let mode = view.mode();
    let me = view.seat;
    let made = view.bids();
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
        for (k, &bid) in allowed.iter().enumerate() {
            bids[me] = bid;
            let tricks = match (bid.is_nil(), as_nil) {
                (true, Some(nil)) => nil,
                _ => as_plain,
            };
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            trials.record(k, view, &outcome);
        }
    }
    Some(Weighing {
        chosen: allowed[trials.verdict(usual_at)],
        ranked: trials.ranked(&allowed),
    })
}
