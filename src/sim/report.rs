//! The summary of a run: each game's outcome tallied by bot as the games
//! come in, the figures `--json` prints, and the readable table.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use super::nil_report::{self, Balance, NilFigures, NilTally};
use super::{Outcome, SimConfig};
use crate::bots::{self, BotSpec};
use crate::engine::{Mode, Side};

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
    /// Games won by each side, by side number: what a mirror match (one
    /// bot in every seat) tells.
    pub sides_won: Vec<u32>,
    /// Whether every game's record was written (`--record`).
    pub recorded: bool,
    pub bots: Vec<BotReport>,
    /// Bots in another process that failed, each replaced by `normal` for
    /// the rest of its game.
    pub replaced: Vec<Replacement>,
}

impl Report {
    /// Did every game of the run replace a seat's program? Then the run
    /// says nothing of the program, and `spades sim` fails.
    pub fn every_game_replaced(&self) -> bool {
        // Game numbers run from 1 to `games`: as many distinct as games is all.
        let games: std::collections::BTreeSet<u32> = self.replaced.iter().map(|r| r.game).collect();
        self.games > 0 && games.len() == self.games as usize
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct BotReport {
    pub bot: String,
    /// The seats it holds in the lineup as given.
    pub seats: Vec<usize>,
    /// The games these figures are over: every game but those in which a
    /// seat of it was replaced, which `replaced` counts apart.
    pub games: u32,
    pub games_won: u32,
    pub win_rate: f64,
    pub win_rate_ci95: [f64; 2],
    /// Its side's points per hand.
    pub points_per_hand: f64,
    /// Share of its side's contracts that were made.
    pub bids_made_rate: f64,
    /// Its nils, blind ones included, kept as they were for the tools that
    /// read them (`nil_figures` has plain and blind nils apart).
    pub nil_bids: u32,
    pub nils_made: u32,
    #[serde(flatten)]
    pub nil_figures: NilFigures,
    pub decision_ms: Percentiles,
    /// Quick Play: the runs it played from seat 0, whose side has the
    /// lives (`null` outside Quick Play).
    pub runs: Option<RunReport>,
    /// The same figures over the games in which a seat of it failed and
    /// was replaced: those results are mostly the replacement's, so they
    /// are not credited to the bot. `null` when none was.
    pub replaced: Option<Box<BotReport>>,
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

/// Whose figures a game's seat adds to: a bot of the lineup by name, and
/// whether a seat of it was replaced in that game (counted apart).
pub(super) type TallyKey = (String, bool);

/// One bot's figures over the games so far, summed as they are played.
#[derive(Default)]
pub(super) struct Tally {
    games: u32,
    games_won: u32,
    side_hands: u64,
    points: i64,
    contracts: (u32, u32),
    nils: (u32, u32),
    plain_nils: NilTally,
    blind_nils: NilTally,
    over_tricks: Balance,
    side_over_tricks: Balance,
    times: Vec<Duration>,
    /// Quick Play runs from seat 0: (hands, total) each.
    runs: Vec<(u32, i32)>,
}

/// Adds one game's outcome to the run's figures and to each of its bots'
/// tally.
pub(super) fn tally(
    report: &mut Report,
    tallies: &mut BTreeMap<TallyKey, Tally>,
    outcome: &Outcome,
    mode: Mode,
) {
    // A bot with a seat replaced in this game has the whole game counted
    // apart: from the failure on, the replacement played it.
    let replaced: Vec<&str> = outcome
        .replaced
        .iter()
        .filter_map(|r| outcome.lineup.get(r.seat).map(String::as_str))
        .collect();
    let key = |name: &String| (name.clone(), replaced.contains(&name.as_str()));
    report.hands += u64::from(outcome.hands);
    report.abandoned += u32::from(outcome.winner.is_none());
    if let Some(won) = outcome
        .winner
        .and_then(|w| report.sides_won.get_mut(w.index()))
    {
        *won += 1;
    }
    report.replaced.extend_from_slice(&outcome.replaced);
    if let (Some(total), Some(name)) = (outcome.run_total, outcome.lineup.first()) {
        let t = tallies.entry(key(name)).or_default();
        t.runs.push((outcome.hands, total));
    }
    let mut counted_game: Vec<&str> = Vec::new();
    let mut counted_win: Vec<&str> = Vec::new();
    let mut counted_side: Vec<(&str, Side)> = Vec::new();
    for (seat, name) in mode.each_player().zip(&outcome.lineup) {
        let t = tallies.entry(key(name)).or_default();
        let side = mode.side_of(seat);
        let seat = seat.index();
        if !counted_game.contains(&name.as_str()) {
            t.games += 1;
            counted_game.push(name);
        }
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
            t.side_over_tricks.add(seen.side_over_tricks);
        }
        t.nils.0 += seen.nils.0;
        t.nils.1 += seen.nils.1;
        t.plain_nils.add(seen.plain_nils);
        t.blind_nils.add(seen.blind_nils);
        t.over_tricks.add(seen.over_tricks);
        t.times.extend_from_slice(&outcome.timings[seat]);
    }
}

/// Each bot of the lineup once, in the order it first sits, with the seats
/// it holds and its tally over the games it played whole, then over those
/// in which a seat of it was replaced.
pub(super) fn bot_reports(
    config: &SimConfig,
    mut tallies: BTreeMap<TallyKey, Tally>,
) -> Vec<BotReport> {
    let mode = config.rules.mode;
    let lineup: Vec<String> = config.lineup.iter().map(BotSpec::to_string).collect();
    let mut names: Vec<&String> = Vec::new();
    for name in &lineup {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let seats: Vec<usize> = (0..mode.players())
                .filter(|&s| &lineup[s] == name)
                .collect();
            let quick = config.rules.is_quick();
            let whole = tallies.remove(&(name.clone(), false)).unwrap_or_default();
            let apart = tallies.remove(&(name.clone(), true));
            BotReport {
                replaced: apart.map(|t| Box::new(bot_report(name, seats.clone(), t, quick))),
                ..bot_report(name, seats, whole, quick)
            }
        })
        .collect()
}

fn bot_report(name: &str, seats: Vec<usize>, mut t: Tally, quick: bool) -> BotReport {
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
        games: t.games,
        games_won: t.games_won,
        win_rate: ratio(f64::from(t.games_won), f64::from(t.games)),
        win_rate_ci95: wilson(t.games_won, t.games),
        points_per_hand: ratio(t.points as f64, t.side_hands as f64),
        bids_made_rate: ratio(f64::from(t.contracts.0), f64::from(t.contracts.1)),
        nil_bids: t.nils.1,
        nils_made: t.nils.0,
        nil_figures: NilFigures::new(
            t.plain_nils,
            t.blind_nils,
            t.over_tricks,
            t.side_over_tricks,
        ),
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
        replaced: None,
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
    let mut out = headline(report);
    // One bot in every seat: whatever side wins, that bot won, so only
    // the sides' results say anything.
    let mirror = report.bots.len() == 1;
    if mirror {
        out.push_str(&render_sides(report));
    }
    let rows = rows(&report.bots);
    out.push_str(&render_bots(&rows, mirror));
    out.push_str(&nil_report::render(&rows, name_width(&rows)));
    out.push_str(&render_runs(&rows));
    out.push_str(&render_replaced(&report.replaced));
    out
}

/// What a replaced bot's row is called: under the bot's own row, it counts
/// the games in which a seat of that bot was replaced.
const REPLACED_ROW: &str = "  replaced";

/// The tables' rows: each bot, followed by its games with a seat replaced
/// when it has any.
fn rows(bots: &[BotReport]) -> Vec<BotReport> {
    let mut rows = Vec::new();
    for b in bots {
        rows.push(b.clone());
        if let Some(apart) = &b.replaced {
            rows.push(BotReport {
                bot: REPLACED_ROW.to_string(),
                ..(**apart).clone()
            });
        }
    }
    rows
}

/// What was played, and how (duplicate, seeds), then a blank line.
fn headline(report: &Report) -> String {
    format!(
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
        match (report.seed, report.recorded) {
            (Some(seed), _) => format!("seed {seed}"),
            (None, true) => "secret seeds, each revealed in its record".to_string(),
            (None, false) => "secret seeds; --record keeps each in its game's record".to_string(),
        },
        report.hands,
        if report.abandoned > 0 {
            format!(", {} abandoned at the hand limit", report.abandoned)
        } else {
            String::new()
        }
    )
}

/// A mirror match: the one bot, then each side's games won, after which
/// a blank line.
fn render_sides(report: &Report) -> String {
    let bot = report.bots.first().map_or("", |b| b.bot.as_str());
    let mut out = format!(
        "Mirror match: {bot} in every seat, so it plays only against itself.\n\
         {:<6} {:<8} {:>6} {:>18}\n",
        "side", "seats", "won", "win rate (95% CI)"
    );
    let mode = report.mode;
    for (side, &won) in mode.each_side().zip(&report.sides_won) {
        let seats: Vec<String> = mode
            .each_player()
            .filter(|&s| mode.side_of(s) == side)
            .map(|s| s.index().to_string())
            .collect();
        out.push_str(&format!(
            "{:<6} {:<8} {:>6} {:>18}\n",
            side.index(),
            seats.join(","),
            won,
            win_rate(won, report.games)
        ));
    }
    out.push('\n');
    out
}

/// `wins` of `games` as a percentage with its 95% interval.
fn win_rate(wins: u32, games: u32) -> String {
    let rate = if games > 0 {
        f64::from(wins) / f64::from(games)
    } else {
        0.0
    };
    rate_text(rate, wilson(wins, games))
}

/// A win rate and its 95% interval, as percentages.
fn rate_text(rate: f64, [lo, hi]: [f64; 2]) -> String {
    format!("{:.1}% ({:.1}-{:.1})", rate * 100.0, lo * 100.0, hi * 100.0)
}

/// The table of the bots: a heading, then a line each. In a mirror match
/// the bot's wins are left blank: every game is its win.
fn render_bots(bots: &[BotReport], mirror: bool) -> String {
    let width = name_width(bots);
    let mut out = format!(
        "{:<width$} {:<8} {:>6} {:>18} {:>9} {:>10} {:>10} {:>22}\n",
        "bot",
        "seats",
        "won",
        "win rate (95% CI)",
        "pts/hand",
        "bids made",
        "nils made",
        "decision ms p50/p99/max"
    );
    for b in bots {
        out.push_str(&bot_line(b, width, mirror));
    }
    out
}

/// The width of the tables' bot column: enough for the longest name
/// (`exec:` commands run long).
fn name_width(bots: &[BotReport]) -> usize {
    bots.iter()
        .map(|b| b.bot.chars().count())
        .max()
        .unwrap_or(0)
        .max(10)
}

/// One bot's line of the table, its name padded to `width`; no wins in a
/// mirror match.
fn bot_line(b: &BotReport, width: usize, mirror: bool) -> String {
    let seats = b
        .seats
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let (won, rate) = if mirror {
        ("-".to_string(), "-".to_string())
    } else {
        (
            b.games_won.to_string(),
            rate_text(b.win_rate, b.win_rate_ci95),
        )
    };
    // A bot replaced in every game has figures over nothing: not zeros.
    let (rate, points, made) = if b.games == 0 {
        ("-".to_string(), "-".to_string(), "-".to_string())
    } else {
        (
            rate,
            format!("{:.1}", b.points_per_hand),
            format!("{:.1}%", b.bids_made_rate * 100.0),
        )
    };
    format!(
        "{:<width$} {:<8} {:>6} {:>18} {:>9} {:>10} {:>10} {:>22}\n",
        b.bot,
        seats,
        won,
        rate,
        points,
        made,
        format!("{}/{}", b.nils_made, b.nil_bids),
        format!(
            "{:.3}/{:.3}/{:.3}",
            b.decision_ms.p50, b.decision_ms.p99, b.decision_ms.max
        ),
    )
}

/// Quick Play: the runs each bot played from seat 0, after a blank line;
/// nothing when no bot played one.
fn render_runs(bots: &[BotReport]) -> String {
    let runs: Vec<(&str, RunReport)> = bots
        .iter()
        .filter_map(|b| Some((b.bot.as_str(), b.runs?)))
        .filter(|(_, r)| r.runs > 0)
        .collect();
    let mut out = String::new();
    if runs.is_empty() {
        return out;
    }
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
