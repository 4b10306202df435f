//! `spades sim`: whole games between bots, headless, with a summary of how
//! each bot did. With `duplicate`, every deal is played by every seating of
//! the lineup that gives its bots a different side's cards, so the cards'
//! luck cancels out.

use std::collections::BTreeMap;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use serde::Serialize;

use crate::bots::{self, BotSpec};
use crate::engine::{HandResult, Mode, Phase, Rules, Side};
use crate::fairness::{Dealing, SecretSeed, SecretSeeds};
use crate::record::{GameInfo, MemoryRecord};
use crate::table::{BotError, Player, Table, seat_bot};

#[derive(Debug, Clone)]
pub struct SimConfig {
    pub rules: Rules,
    /// Deals (before duplication).
    pub games: u32,
    pub seeds: Seeds,
    /// One bot per player.
    pub lineup: Vec<BotSpec>,
    pub duplicate: bool,
    /// Worker threads, at most `MAX_THREADS`.
    pub threads: usize,
    /// A game still undecided after this many hands is abandoned.
    pub max_hands: u32,
    /// How long searching bots think per decision.
    pub effort: bots::Effort,
    /// How long a bot in another process (`exec:`) may take to say hello
    /// and to answer each ask before it is replaced.
    pub bot_timeout: Duration,
}

/// The most worker threads a run uses.
pub const MAX_THREADS: usize = 64;

/// The worker threads a run uses when not told: one per core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("--seats lists {got} bots but a {mode} table has {want} seats")]
    SeatCount { got: usize, want: usize, mode: Mode },
    #[error("a bot broke the rules in game {game}: {error}")]
    Bot { game: u32, error: BotError },
    #[error("cannot write the record: {0}")]
    Record(#[from] std::io::Error),
}

/// Where a run's deals come from.
#[derive(Debug, Clone)]
pub enum Seeds {
    /// Deal `k`'s cards come from seed `S + k`, known to all (`--seed S`).
    Open(u64),
    /// Each game's seed is secret until the game ends: its record's `game`
    /// line carries a commitment, and no game's seed tells another's.
    Secret(SecretSeeds),
}

/// How one game went, as the summary needs it.
struct Outcome {
    lineup: Vec<String>,
    winner: Option<Side>,
    hands: u32,
    /// Quick Play: the run's total (seat 0's side's score at the end).
    run_total: Option<i32>,
    seats: Vec<SeatTally>,
    timings: Vec<Vec<Duration>>,
    record: Vec<u8>,
    replaced: Vec<Replacement>,
}

/// A bot in another process that failed in a game, and was replaced for
/// the rest of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replacement {
    /// The game, from 1, in the order games are recorded.
    pub game: u32,
    /// Its seat in that game.
    pub seat: usize,
    /// The seat's spec, as `--seats` gave it.
    pub bot: String,
    #[serde(flatten)]
    pub replaced: bots::Replaced,
}

/// What one seat saw over a game: its side's points and contracts (made,
/// total), and its own nils (made, bid).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct SeatTally {
    side_points: i64,
    side_contracts: (u32, u32),
    nils: (u32, u32),
}

/// Each seat's tally over the hands of a game, read off the engine's scores
/// so that "made" means what the scoring says it means.
fn seat_tallies(mode: Mode, results: &[HandResult]) -> Vec<SeatTally> {
    let mut seats = vec![SeatTally::default(); mode.players()];
    for result in results {
        for (seat, t) in mode.each_player().zip(seats.iter_mut()) {
            let side = &result.sides[mode.side_of(seat)];
            t.side_points += i64::from(side.points);
            if let Some(c) = side.contract {
                t.side_contracts.0 += u32::from(c.made());
                t.side_contracts.1 += 1;
            }
            if let Some(nil) = side.nils.iter().flatten().find(|n| n.seat == seat) {
                t.nils.0 += u32::from(nil.made());
                t.nils.1 += 1;
            }
        }
    }
    seats
}

/// How many seatings of the lineup play each deal. In duplicate the lineup
/// turns one seat per game until each of its bots has held every side's
/// cards: in cutthroat and individual every seat is a side, so that is once
/// round the table (3 and 4 games). In partnership turning one seat already
/// swaps the two sides' cards; turning it further would only swap partners
/// within a side, so two games suffice.
fn seatings_per_deal(config: &SimConfig) -> u32 {
    if config.duplicate {
        config.rules.mode.sides() as u32
    } else {
        1
    }
}

/// The lineup for game `index`, turned one seat for each earlier game of
/// the same deal.
fn lineup_for(config: &SimConfig, index: u32) -> Vec<BotSpec> {
    let mut lineup = config.lineup.clone();
    lineup.rotate_right((index % seatings_per_deal(config)) as usize);
    lineup
}

/// The dealing of game `index`: every seating of one deal shares its seed.
fn dealing_for(config: &SimConfig, index: u32) -> std::io::Result<Dealing> {
    let deal_no = u64::from(index / seatings_per_deal(config));
    Ok(match &config.seeds {
        Seeds::Open(seed) => Dealing::Open(seed.wrapping_add(deal_no)),
        Seeds::Secret(seeds) => Dealing::Secret(SecretSeed::with_fresh_salt(seeds.seed(deal_no))?),
    })
}

/// The games the run plays: every deal once per seating.
pub fn total_games(config: &SimConfig) -> u32 {
    config.games * seatings_per_deal(config)
}

fn play_one(config: &SimConfig, index: u32, record: bool) -> Result<Outcome, SimError> {
    let rules = config.rules;
    let mode = rules.mode;
    let specs = lineup_for(config, index);
    let players = specs
        .iter()
        .map(|spec| Player::Bot(seat_bot(spec, config.effort, config.bot_timeout)))
        .collect();
    let lineup: Vec<String> = specs.iter().map(BotSpec::to_string).collect();
    let mut table = Table::new(rules, dealing_for(config, index)?, players);
    let memory = MemoryRecord::default();
    if record {
        let names = lineup
            .iter()
            .enumerate()
            .map(|(s, b)| format!("{b} {s}"))
            .collect();
        table.record_to(Box::new(memory.clone()), names, GameInfo::arena())?;
    }
    // Hands are dealt until one decides the game or the hand limit is reached.
    while !(table.phase() == Phase::AwaitingDeal && table.hand_no() >= config.max_hands) {
        let Some(step) = table.step_bot() else { break };
        step.map_err(|error| SimError::Bot { game: index, error })?;
    }
    // A game past the hand limit is left: its record says so.
    table.abandon();
    if let Some(problem) = table.record_problem() {
        return Err(SimError::Record(std::io::Error::other(problem.to_string())));
    }
    let replaced = mode
        .each_player()
        .zip(&lineup)
        .filter_map(|(seat, name)| match table.player(seat) {
            Player::Bot(bot) => Some(Replacement {
                game: index + 1,
                seat: seat.index(),
                bot: name.clone(),
                replaced: bot.replaced()?.clone(),
            }),
            Player::Human | Player::Away(_) | Player::Dummy => None,
        })
        .collect();
    let run_total = rules.is_quick().then(|| {
        table.results().last().map_or(0, |last| {
            last.sides[crate::engine::quick::run_side(mode)].score
        })
    });
    Ok(Outcome {
        winner: table.winner(),
        hands: table.results().len() as u32,
        run_total,
        seats: seat_tallies(mode, table.results()),
        timings: mode
            .each_player()
            .map(|s| table.timings(s).to_vec())
            .collect(),
        record: memory.take(),
        lineup,
        replaced,
    })
}

/// The summary `--json` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub mode: Mode,
    /// The run's seed with `--seed`; `null` when each game's seed was
    /// secret (each record's closing line reveals its own).
    pub seed: Option<u64>,
    pub duplicate: bool,
    /// Deals played; in duplicate each is played by several seatings.
    pub deals: u32,
    pub games: u32,
    /// Worker threads the games were played on.
    pub threads: usize,
    pub hands: u64,
    pub abandoned: u32,
    pub bots: Vec<BotReport>,
    /// Bots in another process that failed, each replaced by `normal` for
    /// the rest of its game.
    pub replaced: Vec<Replacement>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BotReport {
    pub bot: String,
    /// The seats it holds in the lineup as given.
    pub seats: Vec<usize>,
    pub games_won: u32,
    pub win_rate: f64,
    pub win_rate_ci95: [f64; 2],
    /// Its side's points per hand.
    pub points_per_hand: f64,
    /// Share of its side's contracts that were made.
    pub bids_made_rate: f64,
    pub nil_bids: u32,
    pub nils_made: u32,
    pub decision_ms: Percentiles,
    /// Quick Play: the runs it played from seat 0, whose side has the
    /// lives (`null` outside Quick Play).
    pub runs: Option<RunReport>,
}

/// Quick Play runs played by one bot from seat 0.
#[derive(Debug, Clone, Copy, Serialize, Default)]
pub struct RunReport {
    pub runs: u32,
    /// Hands a run lasted, on average.
    pub hands_per_run: f64,
    /// The run's total score, on average, and the best.
    pub total_per_run: f64,
    pub best_total: i32,
}

#[derive(Debug, Clone, Copy, Serialize, Default)]
pub struct Percentiles {
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

#[derive(Default)]
struct Tally {
    games_won: u32,
    side_hands: u64,
    points: i64,
    contracts: (u32, u32),
    nils: (u32, u32),
    times: Vec<Duration>,
    /// Quick Play runs from seat 0: (hands, total) each.
    runs: Vec<(u32, i32)>,
}

/// Checks that the lineup names one bot per player (with a dummy, its
/// declarer's bot plays it).
pub fn check_lineup(mode: Mode, lineup: &[BotSpec]) -> Result<(), SimError> {
    if lineup.len() != mode.players() {
        return Err(SimError::SeatCount {
            got: lineup.len(),
            want: mode.players(),
            mode,
        });
    }
    Ok(())
}

/// How many games each worker may play ahead of the oldest game not yet
/// taken: enough to keep the others busy through a long game or a worker
/// the machine pauses, while the results held (some tens of kilobytes a
/// game, mostly its record) stay around a megabyte on two threads.
const GAMES_AHEAD_PER_THREAD: u32 = 16;

/// Plays games `0..total` on `threads` workers and hands each one's result
/// to `take` in game order, stopping at `take`'s first error. A game starts
/// only while it is fewer than `window` games past the oldest one not yet
/// taken, so however long one game lasts, at most `window` results wait
/// for it.
fn play_in_order<T: Send, E>(
    total: u32,
    threads: usize,
    window: u32,
    play: impl Fn(u32) -> T + Sync,
    mut take: impl FnMut(u32, T) -> Result<(), E>,
) -> Result<(), E> {
    // A ticket is leave to play one game; they are handed out as the window
    // moves.
    let (tickets, ticket_box) = mpsc::channel::<u32>();
    let ticket_box = Mutex::new(ticket_box);
    std::thread::scope(|scope| {
        // Dropped on return, ending the workers even after an error.
        let tickets = tickets;
        let (played, results) = mpsc::channel();
        for _ in 0..threads {
            let (ticket_box, play, played) = (&ticket_box, &play, played.clone());
            scope.spawn(move || {
                while let Some(index) = next_ticket(ticket_box) {
                    // A panicking game is passed on, not left for ever unplayed.
                    let result = std::panic::catch_unwind(AssertUnwindSafe(|| play(index)));
                    if played.send((index, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(played);
        let mut issued = 0;
        let mut issue_until = |end: u32| {
            while issued < end.min(total) {
                // Cannot fail: the receiving end outlives this scope.
                let _ = tickets.send(issued);
                issued += 1;
            }
        };
        issue_until(window);
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        while next < total {
            let (index, result) = results.recv().expect("workers wait while tickets remain");
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                take(
                    next,
                    result.unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                )?;
                next += 1;
                issue_until(next.saturating_add(window));
            }
        }
        Ok(())
    })
}

/// The next game a worker may play, or `None` once there will be no more.
fn next_ticket(ticket_box: &Mutex<mpsc::Receiver<u32>>) -> Option<u32> {
    ticket_box.lock().ok()?.recv().ok()
}

/// Plays every game, writing records in game order to `record` and calling
/// `progress` after each game.
pub fn run(
    config: &SimConfig,
    mut record: Option<&mut dyn Write>,
    progress: &(dyn Fn() + Sync),
) -> Result<Report, SimError> {
    let mode = config.rules.mode;
    check_lineup(config.rules.mode, &config.lineup)?;
    let total = total_games(config);
    let threads = config.threads.clamp(1, MAX_THREADS);
    let want_record = record.is_some();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut report = Report {
        mode,
        seed: match config.seeds {
            Seeds::Open(seed) => Some(seed),
            Seeds::Secret(_) => None,
        },
        duplicate: config.duplicate,
        deals: config.games,
        games: total,
        threads,
        hands: 0,
        abandoned: 0,
        bots: Vec::new(),
        replaced: Vec::new(),
    };
    play_in_order(
        total,
        threads,
        GAMES_AHEAD_PER_THREAD * threads as u32,
        |index| play_one(config, index, want_record),
        |_, outcome| -> Result<(), SimError> {
            let outcome = outcome?;
            if let Some(out) = record.as_mut() {
                // The whole game in one write, as soon as it and every game
                // before it are over: a run killed mid-way leaves all its
                // finished games readable, and at most the last cut off.
                out.write_all(&outcome.record)?;
                out.flush()?;
            }
            tally(&mut report, &mut tallies, &outcome, mode);
            progress();
            Ok(())
        },
    )?;
    let lineup: Vec<String> = config.lineup.iter().map(BotSpec::to_string).collect();
    let mut names: Vec<&String> = Vec::new();
    for name in &lineup {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    report.bots = names
        .into_iter()
        .map(|name| {
            let t = tallies.remove(name).unwrap_or_default();
            let seats = (0..mode.players())
                .filter(|&s| &lineup[s] == name)
                .collect();
            bot_report(name, seats, t, total, config.rules.is_quick())
        })
        .collect();
    Ok(report)
}

fn tally(
    report: &mut Report,
    tallies: &mut BTreeMap<String, Tally>,
    outcome: &Outcome,
    mode: Mode,
) {
    report.hands += u64::from(outcome.hands);
    report.abandoned += u32::from(outcome.winner.is_none());
    report.replaced.extend_from_slice(&outcome.replaced);
    if let (Some(total), Some(name)) = (outcome.run_total, outcome.lineup.first()) {
        let t = tallies.entry(name.clone()).or_default();
        t.runs.push((outcome.hands, total));
    }
    let mut counted_win: Vec<&str> = Vec::new();
    let mut counted_side: Vec<(&str, Side)> = Vec::new();
    for (seat, name) in mode.each_player().zip(&outcome.lineup) {
        let t = tallies.entry(name.clone()).or_default();
        let side = mode.side_of(seat);
        let seat = seat.index();
        if outcome.winner == Some(side) && !counted_win.contains(&name.as_str()) {
            t.games_won += 1;
            counted_win.push(name);
        }
        let seen = &outcome.seats[seat];
        // A side shared by two seats of the same bot counts once.
        if !counted_side.contains(&(name.as_str(), side)) {
            counted_side.push((name, side));
            t.side_hands += u64::from(outcome.hands);
            t.points += seen.side_points;
            t.contracts.0 += seen.side_contracts.0;
            t.contracts.1 += seen.side_contracts.1;
        }
        t.nils.0 += seen.nils.0;
        t.nils.1 += seen.nils.1;
        t.times.extend_from_slice(&outcome.timings[seat]);
    }
}

fn bot_report(name: &str, seats: Vec<usize>, mut t: Tally, games: u32, quick: bool) -> BotReport {
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    t.times.sort_unstable();
    let ms = |q: f64| {
        if t.times.is_empty() {
            return 0.0;
        }
        let i = ((t.times.len() - 1) as f64 * q).round() as usize;
        t.times[i].as_secs_f64() * 1e3
    };
    BotReport {
        bot: name.to_string(),
        seats,
        games_won: t.games_won,
        win_rate: ratio(f64::from(t.games_won), f64::from(games)),
        win_rate_ci95: wilson(t.games_won, games),
        points_per_hand: ratio(t.points as f64, t.side_hands as f64),
        bids_made_rate: ratio(f64::from(t.contracts.0), f64::from(t.contracts.1)),
        nil_bids: t.nils.1,
        nils_made: t.nils.0,
        decision_ms: Percentiles {
            p50: ms(0.5),
            p99: ms(0.99),
            max: ms(1.0),
        },
        runs: quick.then(|| {
            let n = t.runs.len() as f64;
            RunReport {
                runs: t.runs.len() as u32,
                hands_per_run: ratio(t.runs.iter().map(|r| f64::from(r.0)).sum(), n),
                total_per_run: ratio(t.runs.iter().map(|r| f64::from(r.1)).sum(), n),
                best_total: t.runs.iter().map(|r| r.1).max().unwrap_or(0),
            }
        }),
    }
}

/// The Wilson score interval at 95% for `wins` out of `n`.
pub fn wilson(wins: u32, n: u32) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = f64::from(n);
    let p = f64::from(wins) / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    // At 0 or n wins the bound is exact; don't print float dust.
    let lo = if wins == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if wins as f64 == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [lo, hi]
}

/// The readable summary printed without `--json`.
pub fn render_table(report: &Report) -> String {
    let mut out = format!(
        "{} games of {} spades{} ({}), {} hands{}\n\n",
        report.games,
        report.mode,
        if report.duplicate {
            format!(
                ", {} duplicate deals each played by {} seatings of the lineup",
                report.deals,
                report.games / report.deals.max(1)
            )
        } else {
            String::new()
        },
        match report.seed {
            Some(seed) => format!("seed {seed}"),
            None => "secret seeds, each revealed in its record".to_string(),
        },
        report.hands,
        if report.abandoned > 0 {
            format!(", {} abandoned at the hand limit", report.abandoned)
        } else {
            String::new()
        }
    );
    // Wide enough for the longest name (`exec:` commands run long).
    let width = report
        .bots
        .iter()
        .map(|b| b.bot.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    out.push_str(&format!(
        "{:<width$} {:<8} {:>6} {:>18} {:>9} {:>10} {:>10} {:>22}\n",
        "bot",
        "seats",
        "won",
        "win rate (95% CI)",
        "pts/hand",
        "bids made",
        "nils made",
        "decision ms p50/p99/max"
    ));
    for b in &report.bots {
        let seats = b
            .seats
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",");
        out.push_str(&format!(
            "{:<width$} {:<8} {:>6} {:>18} {:>9.1} {:>9.1}% {:>10} {:>22}\n",
            b.bot,
            seats,
            b.games_won,
            format!(
                "{:.1}% ({:.1}-{:.1})",
                b.win_rate * 100.0,
                b.win_rate_ci95[0] * 100.0,
                b.win_rate_ci95[1] * 100.0
            ),
            b.points_per_hand,
            b.bids_made_rate * 100.0,
            format!("{}/{}", b.nils_made, b.nil_bids),
            format!(
                "{:.3}/{:.3}/{:.3}",
                b.decision_ms.p50, b.decision_ms.p99, b.decision_ms.max
            ),
        ));
    }
    let runs: Vec<(&str, RunReport)> = report
        .bots
        .iter()
        .filter_map(|b| Some((b.bot.as_str(), b.runs?)))
        .filter(|(_, r)| r.runs > 0)
        .collect();
    if !runs.is_empty() {
        out.push_str(&format!(
            "\nQuick Play runs (seat 0's side has the lives)\n{:<10} {:>6} {:>10} {:>10} {:>8}\n",
            "bot", "runs", "hands/run", "total/run", "best"
        ));
        for (bot, r) in runs {
            out.push_str(&format!(
                "{:<10} {:>6} {:>10.1} {:>10.1} {:>8}\n",
                bot, r.runs, r.hands_per_run, r.total_per_run, r.best_total
            ));
        }
    }
    out.push_str(&render_replaced(&report.replaced));
    out
}

/// The most replacements the readable summary lists; `--json` has them all.
const REPLACEMENTS_LISTED: usize = 20;

/// Each bot in another process that failed: where, when and why, with its
/// last words on standard error.
fn render_replaced(replaced: &[Replacement]) -> String {
    let mut out = String::new();
    if replaced.is_empty() {
        return out;
    }
    out.push('\n');
    for r in replaced.iter().take(REPLACEMENTS_LISTED) {
        out.push_str(&format!(
            "seat {} ({}) was replaced by {} in game {}, hand {}: {}\n",
            r.seat, r.bot, r.replaced.by, r.game, r.replaced.hand, r.replaced.reason
        ));
        for line in &r.replaced.stderr {
            out.push_str(&format!("  stderr: {line}\n"));
        }
    }
    if replaced.len() > REPLACEMENTS_LISTED {
        out.push_str(&format!(
            "... and {} more replacements (--json lists them all)\n",
            replaced.len() - REPLACEMENTS_LISTED
        ));
    }
    out
}

#[cfg(test)]
mod tests;
