//! One game judged: every decision of the seat in turn, then each hand's
//! points lost and the side's chance of winning after it.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::SeedableRng;

use crate::bots::{BotRng, Effort};
use crate::engine::Seat;
use crate::record::RecordedGame;

use super::judge::verdict;
use super::replay::{HandEnd, walk};
use super::{ANALYSIS_VERSION, AnalysisError, GameReview, HandReview, Progress, Verdict};

/// Odd constant spreading decision numbers over the generator's seeds.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// `analyze` with the search's generator seeded by `seed`: the same seed
/// judges the same way every time; another shows how stable a verdict is.
pub fn analyze_seeded(
    recorded: &RecordedGame,
    seat: Seat,
    effort: Effort,
    seed: u64,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameReview, AnalysisError> {
    analyze_part(recorded, seat, None, effort, seed, stop, progress)
}

/// The review of hand `hand` alone (the hand review's `a` during a game):
/// only that hand's decisions are judged, so a late hand takes no longer
/// than an early one.
pub fn analyze_hand(
    recorded: &RecordedGame,
    seat: Seat,
    hand: u16,
    effort: Effort,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameReview, AnalysisError> {
    analyze_part(recorded, seat, Some(hand), effort, 0, stop, progress)
}

/// The decisions of every hand, or of `only` that one, judged.
fn analyze_part(
    recorded: &RecordedGame,
    seat: Seat,
    only: Option<u16>,
    effort: Effort,
    seed: u64,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameReview, AnalysisError> {
    let mode = recorded.header.rules.mode;
    if mode.dummy().is_some() {
        return Err(AnalysisError::Unfit(format!(
            "a {mode} game cannot be analysed: the search does not play with a dummy"
        )));
    }
    let effort = match effort {
        Effort::Usual => Effort::Deals(super::cache::DEFAULT_DEALS),
        other => other,
    };
    let walked = walk(recorded, seat)?;
    let wanted = |hand: u16| only.is_none_or(|h| h == hand);
    let total = walked.moments.iter().filter(|m| wanted(m.hand)).count();
    let mut decisions = Vec::new();
    // Numbered through the whole game, so a hand judged alone is judged
    // as in the game's review.
    let chosen = walked
        .moments
        .iter()
        .enumerate()
        .filter(|(_, m)| wanted(m.hand));
    for (done, (i, moment)) in chosen.enumerate() {
        if stop.load(Ordering::Relaxed) {
            return Err(AnalysisError::Stopped);
        }
        // Each decision's generator is its own, so one verdict does not
        // depend on how many were judged before it.
        let mut rng = BotRng::seed_from_u64(seed ^ (i as u64 + 1).wrapping_mul(SPREAD));
        decisions.extend(verdict(moment, effort, &mut rng));
        progress(Progress {
            done: done + 1,
            total,
        });
    }
    let hands = walked
        .hands
        .iter()
        .filter(|end| wanted(end.hand))
        .map(|end| hand_review(end, &decisions))
        .collect();
    Ok(GameReview {
        version: ANALYSIS_VERSION,
        seat,
        decisions,
        hands,
    })
}

/// A scored hand: the points the seat's classed choices lost in it, by
/// category (the best choice's average points less the chosen one's).
/// Choices that lost less than an inaccuracy are left out: there the
/// difference is mostly the guessed deals' noise.
fn hand_review(end: &HandEnd, decisions: &[Verdict]) -> HandReview {
    let mut points_lost = BTreeMap::new();
    for d in decisions
        .iter()
        .filter(|d| d.hand == end.hand && d.class.is_some())
    {
        let lost = (d.points_best - d.points_chosen).max(0.0);
        *points_lost.entry(d.category).or_insert(0.0) += lost;
    }
    HandReview {
        hand: end.hand,
        win_after: end.win_after,
        points_lost,
        all_seen: end.all_seen,
    }
}
