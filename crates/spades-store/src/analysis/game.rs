//! One game judged: every decision of the seat in turn, then each hand's
//! points lost and the side's chance of winning after it.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::SeedableRng;

use crate::bots::{BotRng, Effort};
use crate::engine::{Mode, Seat, Side};
use crate::record::RecordedGame;
use crate::search::double_dummy::most_tricks_within;

use super::judge::verdict;
use super::replay::{HandEnd, walk};
use super::{
    ANALYSIS_VERSION, AllSeen, AnalysisError, Depth, GameReview, HandReview, Progress, Verdict,
};

/// Odd constant spreading decision numbers over the generator's seeds.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// `analyze` as deep as `depth` says.
pub fn analyze_seeded(
    recorded: &RecordedGame,
    seat: Seat,
    depth: Depth,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameReview, AnalysisError> {
    analyze_part(recorded, seat, None, depth, stop, progress)
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
    analyze_part(
        recorded,
        seat,
        Some(hand),
        Depth::of(effort),
        stop,
        progress,
    )
}

/// The decisions of every hand, or of `only` that one, judged.
fn analyze_part(
    recorded: &RecordedGame,
    seat: Seat,
    only: Option<u16>,
    depth: Depth,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameReview, AnalysisError> {
    let mode = recorded.header.rules.mode;
    if mode.dummy().is_some() {
        return Err(AnalysisError::Unfit(format!(
            "a {mode} game cannot be analysed: the search does not play with a dummy"
        )));
    }
    let Depth {
        effort,
        seed,
        all_seen: solve,
    } = depth;
    let effort = match effort {
        Effort::Usual => Effort::Deals(super::cache::DEFAULT_DEALS),
        other => other,
    };
    let walked = walk(recorded, seat)?;
    let side = mode.side_of(seat);
    let wanted = |hand: u16| only.is_none_or(|h| h == hand);
    let hands: Vec<&HandEnd> = walked.hands.iter().filter(|h| wanted(h.hand)).collect();
    // Numbered through the whole game, so a hand judged alone is judged
    // as in the game's review.
    let moments: Vec<_> = walked
        .moments
        .iter()
        .enumerate()
        .filter(|(_, m)| wanted(m.hand))
        .collect();
    // Each hand solved with every card seen counts as a step too.
    let total = moments.len() + hands.len();
    let mut done = 0;
    let mut step = |progress: &mut dyn FnMut(Progress)| {
        done += 1;
        progress(Progress { done, total });
    };
    let mut decisions = Vec::new();
    for (i, moment) in moments {
        go_on(stop)?;
        // Each decision's generator is its own, so one verdict does not
        // depend on how many were judged before it.
        let mut rng = BotRng::seed_from_u64(seed ^ (i as u64 + 1).wrapping_mul(SPREAD));
        decisions.extend(verdict(moment, effort, &mut rng));
        step(progress);
    }
    let mut reviewed = Vec::new();
    for end in hands {
        go_on(stop)?;
        let seen = if solve {
            all_seen(end, mode, side)
        } else {
            None
        };
        reviewed.push(hand_review(end, &decisions, seen));
        step(progress);
    }
    Ok(GameReview {
        version: ANALYSIS_VERSION,
        seat,
        decisions,
        hands: reviewed,
    })
}

/// `Stopped` once asked to stop.
fn go_on(stop: &AtomicBool) -> Result<(), AnalysisError> {
    if stop.load(Ordering::Relaxed) {
        return Err(AnalysisError::Stopped);
    }
    Ok(())
}

/// The solver's budget for one hand "with all cards seen" (kept with the
/// solver, whose benchmark measures it).
pub use crate::search::double_dummy::ALL_SEEN_LIMIT;

/// The hand as its play began, with every card seen: the most tricks the
/// side could have taken, beside its bid; `None` where the record does not
/// show the play, or the solver gave up.
fn all_seen(end: &HandEnd, mode: Mode, side: Side) -> Option<AllSeen> {
    let (start, side_bid) = end.start?;
    let side_tricks = most_tricks_within(&start, mode, side, ALL_SEEN_LIMIT)?;
    Some(AllSeen {
        side_tricks,
        side_bid,
    })
}

/// A scored hand: the points the seat's classed choices lost in it, by
/// category (the best choice's average points less the chosen one's).
/// Choices that lost less than an inaccuracy are left out: there the
/// difference is mostly the guessed deals' noise.
fn hand_review(end: &HandEnd, decisions: &[Verdict], all_seen: Option<AllSeen>) -> HandReview {
    let mut points_lost = BTreeMap::new();
    for d in decisions
        .iter()
        .filter(|d| d.hand == end.hand && d.class.is_some())
    {
        *points_lost.entry(d.category).or_insert(0.0) += d.points_lost();
    }
    HandReview {
        hand: end.hand,
        win_after: end.win_after,
        points_lost,
        all_seen,
    }
}
