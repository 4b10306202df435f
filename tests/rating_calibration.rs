//! Measures the bot levels against one another the way a person meets
//! them, and fits the fixed ratings `spades::rating` gives each level.
//!
//! A person at the table plays seat 0 and every other seat is a bot of the
//! chosen level. So each measurement seats one bot of level X where the
//! person would sit and level L everywhere else, and plays every deal with X
//! in each seat in turn (duplicate, so the cards' luck cancels out):
//!
//! - partnership: X's side (X and an L partner) against two L bots, one
//!   result a game, as the rating counts a person's partnership game;
//! - cutthroat and individual: X against each L bot, by final score (a
//!   win, a loss or a draw against each), as the rating counts those games.
//!
//! Each measured score p gives a rating gap of 400 log10(p / (1 - p)), the
//! Glicko-2 expectation turned round, and a weighted least-squares fit of
//! every gap, with easy held at 1500, gives each level's rating and its
//! standard error. Run in release (a minute or two on two cores):
//!
//! ```sh
//! cargo test --release --test rating_calibration -- --ignored --nocapture
//! ```
//!
//! It fails when the constants in `src/rating.rs` are no longer within
//! three standard errors (and 25 points) of what the bots now do.

use spades::bots;
use spades::engine::{Mode, Phase, Rules};
use spades::fairness::Dealing;
use spades::rating::{self, ANCHOR};
use spades::table::{Player, Table};

/// Deals per measurement; every deal is played once with X in each seat.
const DEALS: u64 = 2000;
/// Deal k comes from seed SEED + k, openly.
const SEED: u64 = 1;
/// A game still undecided after this many hands is left out, as
/// `spades sim` abandons it.
const MAX_HANDS: u32 = 200;
/// Glicko-2's scale: 400 / ln 10.
const SCALE: f64 = 173.7178;

/// One game's final scores per side, or `None` when it did not end.
fn play(mode: Mode, lineup: &[&str], seed: u64) -> Option<(usize, Vec<i32>)> {
    let players = lineup
        .iter()
        .map(|name| Player::Bot(bots::by_name(name).expect("a level")))
        .collect();
    let mut table = Table::new(Rules::classic(mode), Dealing::Open(seed), players);
    while !(table.phase() == Phase::AwaitingDeal && table.hand_no() >= MAX_HANDS) {
        let Some(step) = table.step_bot() else { break };
        step.expect("bots keep the rules");
    }
    let winner = table.winner()?;
    let scores = table.results().last()?.sides.iter().map(|s| s.score);
    Some((winner.index(), scores.collect()))
}

/// X's results against L: points scored (1 a win, ½ a draw) and results.
fn measure(mode: Mode, x: &str, l: &str) -> (f64, f64) {
    let n = mode.seats();
    let half = |from: u64, to: u64| {
        let (mut points, mut results) = (0.0, 0.0);
        for deal in from..to {
            for at in 0..n {
                let lineup: Vec<&str> = (0..n).map(|s| if s == at { x } else { l }).collect();
                let Some((winner, scores)) = play(mode, &lineup, SEED + deal) else {
                    continue;
                };
                let side = |seat: usize| if mode.has_partners() { seat % 2 } else { seat };
                if mode.has_partners() {
                    points += f64::from(u8::from(winner == side(at)));
                    results += 1.0;
                    continue;
                }
                for other in (0..n).filter(|&s| s != at) {
                    let (mine, theirs) = (scores[side(at)], scores[side(other)]);
                    points += match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                    results += 1.0;
                }
            }
        }
        (points, results)
    };
    // Two cores: half the deals each.
    let ((p1, n1), (p2, n2)) = std::thread::scope(|s| {
        let a = s.spawn(|| half(0, DEALS / 2));
        let b = half(DEALS / 2, DEALS);
        (a.join().expect("no panic"), b)
    });
    (p1 + p2, n1 + n2)
}

/// The fitted rating and standard error of each level, easy held at
/// ANCHOR, and the misfit (chi-squared per degree of freedom).
///
/// The levels do not lie on one line (a stronger partner covers for a
/// weaker player, so X with an L partner against two L bots is not the
/// mirror of L with an X partner against two X bots), so the measurements
/// disagree by more than chance. The standard errors are widened by the
/// square root of the misfit when it is above 1, so a level's deviation
/// says how far its one number may be from what a given player meets.
fn fit(measured: &[(usize, usize, f64, f64)]) -> ([(f64, f64); 3], f64) {
    // Unknowns: random (level 0) and normal (level 2), relative to easy.
    let row_of = |x: usize, l: usize| {
        let mut row = [0.0; 2];
        for (level, sign) in [(x, 1.0), (l, -1.0)] {
            match level {
                0 => row[0] += sign,
                2 => row[1] += sign,
                _ => {}
            }
        }
        row
    };
    // (row, gap, weight) of every measurement that says a gap: a clean
    // sweep (p of 0 or 1) does not.
    let used: Vec<([f64; 2], f64, f64)> = measured
        .iter()
        .map(|&(x, l, points, n)| (x, l, points / n, n))
        .filter(|&(.., p, _)| p > 0.0 && p < 1.0)
        .map(|(x, l, p, n)| {
            let gap = SCALE * (p / (1.0 - p)).ln();
            let weight = n * p * (1.0 - p) / (SCALE * SCALE);
            (row_of(x, l), gap, weight)
        })
        .collect();
    let (mut a, mut b) = ([[0.0; 2]; 2], [0.0; 2]);
    for (row, gap, weight) in &used {
        for i in 0..2 {
            b[i] += weight * row[i] * gap;
            for j in 0..2 {
                a[i][j] += weight * row[i] * row[j];
            }
        }
    }
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    let inv = [
        [a[1][1] / det, -a[0][1] / det],
        [-a[1][0] / det, a[0][0] / det],
    ];
    let solved = [
        inv[0][0] * b[0] + inv[0][1] * b[1],
        inv[1][0] * b[0] + inv[1][1] * b[1],
    ];
    let chi2: f64 = used
        .iter()
        .map(|(row, gap, weight)| {
            let predicted = row[0] * solved[0] + row[1] * solved[1];
            weight * (gap - predicted).powi(2)
        })
        .sum();
    let misfit = if used.len() > 2 {
        chi2 / (used.len() - 2) as f64
    } else {
        1.0
    };
    let widen = misfit.max(1.0).sqrt();
    (
        [
            (ANCHOR + solved[0], inv[0][0].sqrt() * widen),
            (ANCHOR, 0.0),
            (ANCHOR + solved[1], inv[1][1].sqrt() * widen),
        ],
        misfit,
    )
}

#[test]
#[ignore = "plays some hundred thousand games: run in release, by hand"]
fn the_levels_ratings_match_what_the_bots_do() {
    let levels = bots::LEVELS;
    assert_eq!(levels, ["random", "easy", "normal"], "calibrate new levels");
    let mut stale = Vec::new();
    for mode in Mode::ALL {
        let mut measured = Vec::new();
        for x in 0..levels.len() {
            for l in (0..levels.len()).filter(|&l| l != x) {
                let (points, n) = measure(mode, levels[x], levels[l]);
                let p = points / n;
                let gap = SCALE * (p / (1.0 - p)).ln();
                println!(
                    "{mode:<11} {:>6} vs {:<6} results {n:>6}  score {p:.4}  gap {gap:>6.0}",
                    levels[x], levels[l]
                );
                measured.push((x, l, points, n));
            }
        }
        let (fitted, misfit) = fit(&measured);
        println!("{mode:<11} misfit (chi-squared per degree of freedom) {misfit:.1}");
        for (level, (rating, se)) in levels.iter().zip(fitted) {
            let kept = rating::level_rating(mode, level).expect("every level is rated");
            println!(
                "{mode:<11} {level:<6} fitted {rating:>6.0} ± {se:>3.0}   kept {:>6.0} ± {:>3.0}",
                kept.rating, kept.deviation
            );
            if (kept.rating - rating).abs() > (3.0 * se).max(25.0) {
                stale.push(format!(
                    "{mode} {level}: kept {:.0}, fitted {rating:.0}",
                    kept.rating
                ));
            }
        }
    }
    assert!(stale.is_empty(), "recalibrate src/rating.rs: {stale:?}");
}
