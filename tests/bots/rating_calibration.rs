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
//! standard error. Pairs that seat `hard`, which searches and is some
//! hundred times slower per decision than `normal`, play `SEARCHING_DEALS`
//! deals instead of `DEALS`. Run in release (about twenty minutes on two
//! cores, nearly all of it the pairs with `hard`):
//!
//! ```sh
//! cargo test --release --test bots rating_calibration -- --ignored --nocapture
//! ```
//!
//! It fails when the constants in `crates/spades-store/src/rating.rs` are no longer within
//! three standard errors (and 25 points) of what the bots now do.

use spades::engine::{Mode, Phase, Rules};
use spades::fairness::Dealing;
use spades::rating::{self, ANCHOR};
use spades::table::{Player, Table};

/// Deals per measurement; every deal is played once with X in each seat.
const DEALS: u64 = 2000;
/// Levels that search, 100 to 300 times slower per decision than
/// `normal`: a measurement with one of them on either side plays
/// `SEARCHING_DEALS` deals.
const SEARCHING: &[&str] = &["hard"];
/// Deals per measurement that seats a searching level: 40 (seeds 1 to 40)
/// keep the eighteen such measurements to about twenty minutes on two
/// shared cores (80 were measured at 85 to 110 seconds for each partnership
/// pair with three `hard` seats, and cutthroat and individual games take
/// `hard` longer still), where 2,000 would take most of a day. `hard`
/// against each level is still 160 results in partnership, 240 in
/// cutthroat and 480 in individual: a gap's standard error of 15 to 30
/// points where the score is near even.
const SEARCHING_DEALS: u64 = 40;
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
        .map(|name| Player::Bot(support::bot(name).expect("a level")))
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

/// Deals to measure X against L on.
fn deals(x: &str, l: &str) -> u64 {
    if SEARCHING.contains(&x) || SEARCHING.contains(&l) {
        SEARCHING_DEALS
    } else {
        DEALS
    }
}

/// X's results against L over `deals` deals: points scored (1 a win, ½ a
/// draw) and results.
fn measure(mode: Mode, x: &str, l: &str, deals: u64) -> (f64, f64) {
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
        let a = s.spawn(|| half(0, deals / 2));
        let b = half(deals / 2, deals);
        (a.join().expect("no panic"), b)
    });
    (p1 + p2, n1 + n2)
}

/// Solves `a x = b` for a symmetric positive definite `a` by Gauss-Jordan
/// elimination (pivoting on the largest entry of each column), and returns
/// `x` with the inverse of `a`.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> (Vec<f64>, Vec<Vec<f64>>) {
    let k = b.len();
    let mut inv: Vec<Vec<f64>> = (0..k)
        .map(|i| (0..k).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("a column");
        assert!(
            a[pivot][col].abs() > 1e-12,
            "a level no measurement ties to the others"
        );
        a.swap(col, pivot);
        b.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for j in 0..k {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        b[col] /= d;
        for i in (0..k).filter(|&i| i != col) {
            let f = a[i][col];
            if f == 0.0 {
                continue;
            }
            for j in 0..k {
                a[i][j] -= f * a[col][j];
                inv[i][j] -= f * inv[col][j];
            }
            b[i] -= f * b[col];
        }
    }
    (b, inv)
}

/// The fitted rating and standard error of each level, easy (`anchor`)
/// held at ANCHOR, and the misfit (chi-squared per degree of freedom).
///
/// The levels do not lie on one line (a stronger partner covers for a
/// weaker player, so X with an L partner against two L bots is not the
/// mirror of L with an X partner against two X bots), so the measurements
/// disagree by more than chance. The standard errors are widened by the
/// square root of the misfit when it is above 1, so a level's deviation
/// says how far its one number may be from what a given player meets.
fn fit(
    levels: usize,
    anchor: usize,
    measured: &[(usize, usize, f64, f64)],
) -> (Vec<(f64, f64)>, f64) {
    // Unknowns: every level but the anchor, relative to it.
    let unknown = |level: usize| match level.cmp(&anchor) {
        std::cmp::Ordering::Less => Some(level),
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some(level - 1),
    };
    let k = levels - 1;
    let row_of = |x: usize, l: usize| {
        let mut row = vec![0.0; k];
        for (level, sign) in [(x, 1.0), (l, -1.0)] {
            if let Some(i) = unknown(level) {
                row[i] += sign;
            }
        }
        row
    };
    // (row, gap, weight) of every measurement that says a gap: a clean
    // sweep (p of 0 or 1) does not.
    let used: Vec<(Vec<f64>, f64, f64)> = measured
        .iter()
        .map(|&(x, l, points, n)| (x, l, points / n, n))
        .filter(|&(.., p, _)| p > 0.0 && p < 1.0)
        .map(|(x, l, p, n)| {
            let gap = SCALE * (p / (1.0 - p)).ln();
            let weight = n * p * (1.0 - p) / (SCALE * SCALE);
            (row_of(x, l), gap, weight)
        })
        .collect();
    // The normal equations: (Rᵀ W R) s = Rᵀ W g.
    let (mut a, mut b) = (vec![vec![0.0; k]; k], vec![0.0; k]);
    for (row, gap, weight) in &used {
        for i in 0..k {
            b[i] += weight * row[i] * gap;
            for j in 0..k {
                a[i][j] += weight * row[i] * row[j];
            }
        }
    }
    let (solved, inv) = solve(a, b);
    let chi2: f64 = used
        .iter()
        .map(|(row, gap, weight)| {
            let predicted: f64 = row.iter().zip(&solved).map(|(r, s)| r * s).sum();
            weight * (gap - predicted).powi(2)
        })
        .sum();
    let misfit = if used.len() > k {
        chi2 / (used.len() - k) as f64
    } else {
        1.0
    };
    let widen = misfit.max(1.0).sqrt();
    let fitted = (0..levels)
        .map(|level| match unknown(level) {
            Some(i) => (ANCHOR + solved[i], inv[i][i].sqrt() * widen),
            None => (ANCHOR, 0.0),
        })
        .collect();
    (fitted, misfit)
}

#[test]
fn the_fit_recovers_ratings_that_explain_the_scores() {
    // Four levels 300 apart, easy (1) the anchor: every score exactly what
    // the ratings say, so the fit finds them with no misfit.
    let truth = [1200.0, ANCHOR, 1800.0, 2100.0];
    let mut measured = Vec::new();
    for x in 0..4 {
        for l in (0..4).filter(|&l| l != x) {
            let p = 1.0 / (1.0 + (-(truth[x] - truth[l]) / SCALE).exp());
            measured.push((x, l, 1000.0 * p, 1000.0));
        }
    }
    let (fitted, misfit) = fit(4, 1, &measured);
    for (level, &(rating, se)) in fitted.iter().enumerate() {
        assert!((rating - truth[level]).abs() < 1e-6, "{fitted:?}");
        assert!(level == 1 || se > 0.0, "{fitted:?}");
    }
    assert!(misfit < 1e-12, "{misfit}");
}

#[test]
#[ignore = "plays some hundred thousand games: run in release, by hand"]
fn the_levels_ratings_match_what_the_bots_do() {
    let levels = support::level_names();
    let anchor = levels
        .iter()
        .position(|&l| l == "easy")
        .expect("easy is the anchor");
    let started = std::time::Instant::now();
    let mut stale = Vec::new();
    for mode in Mode::ALL {
        let mut measured = Vec::new();
        for x in 0..levels.len() {
            for l in (0..levels.len()).filter(|&l| l != x) {
                let took = std::time::Instant::now();
                let (points, n) = measure(mode, levels[x], levels[l], deals(levels[x], levels[l]));
                let p = points / n;
                let gap = SCALE * (p / (1.0 - p)).ln();
                println!(
                    "{mode:<11} {:>6} vs {:<6} results {n:>6}  score {p:.4}  gap {gap:>6.0}  ({:.0} s)",
                    levels[x],
                    levels[l],
                    took.elapsed().as_secs_f64()
                );
                measured.push((x, l, points, n));
            }
        }
        let (fitted, misfit) = fit(levels.len(), anchor, &measured);
        println!("{mode:<11} misfit (chi-squared per degree of freedom) {misfit:.1}");
        for (level, (rating, se)) in levels.iter().zip(fitted) {
            let Some(kept) = rating::level_rating(mode, level.parse().expect("a level")) else {
                println!("{mode:<11} {level:<6} fitted {rating:>6.0} ± {se:>3.0}   not rated");
                stale.push(format!(
                    "{mode} {level}: not rated, fitted {rating:.0} ± {se:.0}"
                ));
                continue;
            };
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
    println!("took {:.0} s", started.elapsed().as_secs_f64());
    assert!(
        stale.is_empty(),
        "recalibrate crates/spades-store/src/rating.rs: {stale:?}"
    );
}
