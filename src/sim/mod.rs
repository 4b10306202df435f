//! `spades sim`: whole games between bots, headless, with a summary of how
//! each bot did. With `duplicate`, every deal is played by every seating of
//! the lineup that gives its bots a different side's cards, so the cards'
//! luck cancels out.

use std::collections::BTreeMap;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use crate::bots::{self, BotSpec};
use crate::engine::{HandResult, Mode, PerSide, Phase, Rules, Side};
use crate::fairness::{Dealing, SecretSeed, SecretSeeds};
use crate::record::{GameInfo, MemoryRecord};
use crate::table::{BotError, Player, Table, seat_bot};

mod nil_report;
mod report;

pub use nil_report::NilFigures;
use nil_report::{Balance, NilTally, blind_nil_open, own_contract};
pub use report::{BotReport, Percentiles, Replacement, Report, RunReport, render_table, wilson};
use report::{Tally, TallyKey, bot_reports, tally};

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

/// What one seat saw over a game: its side's points and contracts (made,
/// total), and its own nils (made, bid, blind ones included); the same
/// nils apart by kind, with the seat-hands where each could be bid; the
/// tricks − bid of its own numeric bids and of its side's contracts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct SeatTally {
    side_points: i64,
    side_contracts: (u32, u32),
    nils: (u32, u32),
    plain_nils: NilTally,
    blind_nils: NilTally,
    over_tricks: Balance,
    side_over_tricks: Balance,
}

/// Each seat's tally over the hands of a game, read off the engine's scores
/// so that "made" means what the scoring says it means.
fn seat_tallies(rules: &Rules, results: &[HandResult]) -> Vec<SeatTally> {
    let mode = rules.mode;
    let mut seats = vec![SeatTally::default(); mode.players()];
    // The sides' scores at each deal: none before the first hand.
    let mut scores = PerSide::filled(mode, 0);
    for result in results {
        let blind_nil_sides = blind_nil_open(rules, &scores);
        for (seat, t) in mode.each_player().zip(seats.iter_mut()) {
            let side = &result.sides[mode.side_of(seat)];
            t.side_points += i64::from(side.points);
            if let Some(c) = side.contract {
                t.side_contracts.0 += u32::from(c.made());
                t.side_contracts.1 += 1;
                t.side_over_tricks.count_one(c.taken, c.bid);
            }
            t.plain_nils.eligible += u32::from(rules.nil_is_bid());
            t.blind_nils.eligible += u32::from(blind_nil_sides[mode.side_of(seat)]);
            if let Some(nil) = side.nils.iter().flatten().find(|n| n.seat == seat) {
                t.nils.0 += u32::from(nil.made());
                t.nils.1 += 1;
                let kind = if nil.blind {
                    &mut t.blind_nils
                } else {
                    &mut t.plain_nils
                };
                kind.count_bid(nil.made());
            }
            if let Some((tricks, bid)) = own_contract(result, seat) {
                t.over_tricks.count_one(tricks, bid);
            }
        }
        scores = result.sides.map(|s| s.score);
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
        seats: seat_tallies(&rules, table.results()),
        timings: mode
            .each_player()
            .map(|s| table.timings(s).to_vec())
            .collect(),
        record: memory.take(),
        lineup,
        replaced,
    })
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
    let mut tallies: BTreeMap<TallyKey, Tally> = BTreeMap::new();
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
        sides_won: vec![0; mode.sides()],
        recorded: want_record,
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
    report.bots = bot_reports(config, tallies);
    Ok(report)
}

#[cfg(test)]
mod tests;
