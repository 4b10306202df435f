//! Game review: every decision of one seat judged from that seat's view at
//! that moment (what the player could know, never the hidden cards) by the
//! search hints use, with a budget large enough that the verdict is stable.
//!
//! These are the types the review screens, `spades analyze` and the cache
//! share. The record is walked to each decision (`replay`), each one is
//! judged (`judge`) and read by thresholds (`class`), a game at a time
//! (`game`); `cache` keeps the result beside the record.

mod steps;

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::bots::Effort;
use crate::engine::{Action, Decision, Seat};
use crate::record::RecordedGame;

/// Bumped whenever the analysis would judge differently: a cached
/// analysis of another version is thrown away.
pub const ANALYSIS_VERSION: u32 = 8;

/// One game reviewed for one seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameReview {
    pub version: u32,
    /// The seat whose decisions were judged.
    pub seat: Seat,
    /// Every decision of that seat, in the order made.
    pub decisions: Vec<Verdict>,
    /// Every hand of the game, in order.
    pub hands: Vec<HandReview>,
}

/// One decision judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The hand's number, as in the record.
    pub hand: u16,
    /// For a card, the trick it went to (1-based).
    pub trick: Option<u8>,
    pub decision: Decision,
    /// What the player did.
    pub chosen: Action,
    /// What the search judged best.
    pub best: Action,
    /// The side's chance of winning the game after the player's choice,
    /// and after the best one (0 to 1).
    pub win_chosen: f64,
    pub win_best: f64,
    /// The side's points for the hand after each, on average.
    pub points_chosen: f64,
    pub points_best: f64,
    /// How bad the choice was, if it was bad at all.
    pub class: Option<Class>,
    pub category: Category,
    /// Why the choice was weighed but not judged, when it was not: then it
    /// has no class, its best is the choice itself, and it counts in
    /// neither the accuracy nor the points lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_judged: Option<NotJudged>,
}

/// Why a decision is left unjudged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotJudged {
    /// A card with a nil on the seat's side still live, before the hand's
    /// last tricks: the search is not trusted there (hints keep `normal`'s
    /// card), so it does not fault the rules' card either.
    SideNil,
}

impl std::fmt::Display for NotJudged {
    /// The reason in a few words, as the review prints it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotJudged::SideNil => f.write_str("nil on the side: the rules' card stands"),
        }
    }
}

impl Verdict {
    /// The chance of winning the game the choice gave away (never below 0).
    pub fn lost(&self) -> f64 {
        (self.win_best - self.win_chosen).max(0.0)
    }

    /// The side's points for the hand the choice gave away against the
    /// best one, on average (never below 0).
    pub fn points_lost(&self) -> f64 {
        (self.points_best - self.points_chosen).max(0.0)
    }
}

/// How much a choice gave away, by thresholds of win chance lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// What a decision was about, for the points lost per hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Bidding,
    NilPlay,
    NilCover,
    Bags,
    Setting,
    Play,
}

impl Class {
    pub const ALL: [Class; 3] = [Class::Inaccuracy, Class::Mistake, Class::Blunder];

    /// The class in a word: "inaccuracy".
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// `n` of them: "1 mistake", "2 inaccuracies".
    pub fn counted(self, n: usize) -> String {
        let many = match self {
            Class::Inaccuracy => "inaccuracies",
            Class::Mistake => "mistakes",
            Class::Blunder => "blunders",
        };
        format!("{n} {}", if n == 1 { self.name() } else { many })
    }
}

impl Category {
    /// The category in the player's words: "covering nil".
    pub fn name(self) -> &'static str {
        match self {
            Category::Bidding => "bidding",
            Category::NilPlay => "nil play",
            Category::NilCover => "covering nil",
            Category::Bags => "bags",
            Category::Setting => "setting",
            Category::Play => "play",
        }
    }
}

/// One hand of the game, for the chart and the second opinion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HandReview {
    pub hand: u16,
    /// The side's chance of winning the game once the hand was scored
    /// (at the game's end, 1 or 0).
    pub win_after: f64,
    /// Points the side lost in this hand by its seat's choices, by category.
    pub points_lost: BTreeMap<Category, f64>,
    /// With every card seen: what the deal held.
    pub all_seen: Option<AllSeen>,
}

/// A hand with every card seen (a double-dummy solve of the hand as
/// played after any exchange), shown apart from the verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllSeen {
    /// The most tricks the seat's side could have taken against best defence.
    pub side_tricks: u8,
    /// What the side bid together.
    pub side_bid: u8,
}

impl std::fmt::Display for AllSeen {
    /// "8 tricks, bid 7": what the review shows in a hand's line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tricks = self.side_tricks;
        let s = if tricks == 1 { "" } else { "s" };
        write!(f, "{tricks} trick{s}, bid {}", self.side_bid)
    }
}

/// How far an analysis has come, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
}

/// Why a game could not be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    #[error("{0}")]
    Record(#[from] crate::record::RecordError),
    #[error("stopped")]
    Stopped,
    #[error("{0}")]
    Unfit(String),
}

/// How far an analysis goes: the search's budget per decision and its
/// seed (the same seed judges the same way every time; another shows how
/// steady a verdict is), and whether each hand is also solved with every
/// card seen (seconds a hand on a slow deal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Depth {
    pub effort: Effort,
    pub seed: u64,
    pub all_seen: bool,
}

impl Depth {
    /// `effort` per decision, seed 0, with every card seen too.
    pub fn of(effort: Effort) -> Depth {
        Depth {
            effort,
            seed: 0,
            all_seen: true,
        }
    }
}

/// Judges every decision `seat` made in `recorded`, with `effort` per
/// decision; `progress` hears of each decision judged, and setting `stop`
/// ends it early with `AnalysisError::Stopped`.
pub fn analyze(
    recorded: &RecordedGame,
    seat: Seat,
    effort: Effort,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameReview, AnalysisError> {
    analyze_seeded(recorded, seat, Depth::of(effort), stop, progress)
}

impl GameReview {
    /// How many decisions fell in each class.
    pub fn counts(&self) -> BTreeMap<Class, usize> {
        let mut counts = BTreeMap::new();
        for class in self.decisions.iter().filter_map(|d| d.class) {
            *counts.entry(class).or_insert(0) += 1;
        }
        counts
    }

    /// The game's accuracy, 0 to 100: each judged decision's
    /// (`class::decision_accuracy` of the points it lost and whether it
    /// was the best) averaged; `None` with none judged.
    pub fn accuracy(&self) -> Option<f64> {
        self.judged_mean(|d| decision_accuracy(d.points_lost(), d.best == d.chosen))
    }

    /// The game's accuracy by win chance, 0 to 100: each judged
    /// decision's `class::chance_accuracy` averaged. Near 100 wherever
    /// the game hardly hangs on a card, whoever plays: a second figure,
    /// beside the classes it reads the same loss as.
    pub fn chance_accuracy(&self) -> Option<f64> {
        self.judged_mean(|d| chance_accuracy(d.lost()))
    }

    /// `figure` of each judged decision, averaged.
    fn judged_mean(&self, figure: impl Fn(&Verdict) -> f64) -> Option<f64> {
        let judged: Vec<f64> = self
            .decisions
            .iter()
            .filter(|d| d.not_judged.is_none())
            .map(figure)
            .collect();
        (!judged.is_empty()).then(|| judged.iter().sum::<f64>() / judged.len() as f64)
    }
}

pub mod cache;
pub mod class;
mod game;
mod judge;
mod replay;
#[cfg(test)]
mod tests;

pub use class::{chance_accuracy, decision_accuracy};
pub use game::{ALL_SEEN_LIMIT, analyze_hand, analyze_seeded};
