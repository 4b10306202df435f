//! `spades analyze`: one recorded game reviewed for one seat's mistakes,
//! printed as a table or as JSON, and kept beside the record.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;

use clap::Args;
use serde::Serialize;

use crate::analysis::Depth;
use crate::analysis::cache::{self, Cached, DEFAULT_DEALS, Source};
use crate::analysis::{AnalysisError, Class, GameReview, Progress, Verdict};
use crate::bots::Effort;
use crate::engine::{Action, Seat};

use super::args::seed_number;
use super::records::{FoundGame, find_game, to_json};
use super::{CliError, say, tell};

#[derive(Debug, Clone, Args)]
pub struct AnalyzeArgs {
    /// A game's id (its record's file name without `.jsonl`, or enough of
    /// its start to name one game), or a record file
    #[arg(value_name = "ID|FILE")]
    pub record: String,
    /// Which game of a record holding several (`spades sim --record`), from 1
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Whose decisions to judge, from 0 (default: the seat of the person
    /// who played the game, else seat 0)
    #[arg(long, allow_negative_numbers = true, value_name = "S")]
    pub seat: Option<i64>,
    /// Print the review as one JSON object (docs/analysis.md)
    #[arg(long)]
    pub json: bool,
    /// List every decision judged, not only the inaccuracies and worse
    #[arg(long)]
    pub all: bool,
    /// Guessed deals per decision (default 5000): more is steadier and slower
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub iterations: Option<u32>,
    /// Seed the search (default 0): another seed shows how steady a verdict is
    #[arg(long, allow_negative_numbers = true, value_name = "S", value_parser = seed_number)]
    pub seed: Option<u64>,
    /// Leave out the second opinion with every card seen (each hand solved
    /// double dummy: a few seconds on a slow deal, more in cutthroat)
    #[arg(long)]
    pub no_all_seen: bool,
}

/// The review as `--json` prints it: the `GameReview` with the figures
/// worked out from it.
#[derive(Debug, Serialize)]
struct Report<'a> {
    /// The game within its record, from 1.
    game: u32,
    /// Guessed deals per decision.
    deals: u32,
    seed: u64,
    /// Whether the review was read from the cache beside the record.
    cached: bool,
    /// The headline: by the points each decision lost and whether it was
    /// the best.
    accuracy: Option<f64>,
    /// By the win chance each decision lost (the classes' measure).
    win_chance_accuracy: Option<f64>,
    counts: std::collections::BTreeMap<Class, usize>,
    #[serde(flatten)]
    review: &'a GameReview,
}

/// `spades analyze`: the record is found and read, the seat checked, then
/// every decision of it judged (or the kept review read back).
pub(super) fn analyze(args: &AnalyzeArgs) -> Result<(), CliError> {
    let found = find_game(&args.record, args.game)?;
    let seat = seat_of(args.seat, &found)?;
    let deals = args.iterations.unwrap_or(DEFAULT_DEALS);
    let seed = args.seed.unwrap_or(0);
    let source = Source {
        path: &found.path,
        text: &found.text,
        game: found.number,
        recorded: &found.game,
    };
    let bar = progress_bar();
    let mut progress = |p: Progress| {
        if let Some(bar) = &bar {
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
        }
    };
    let stop = AtomicBool::new(false);
    let depth = Depth {
        effort: Effort::Deals(deals),
        seed,
        all_seen: !args.no_all_seen,
    };
    let done = cache::cached_or_run(source, seat, depth, &stop, &mut progress);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let Cached {
        review,
        from_cache,
        not_kept,
    } = done.map_err(|e| unfit(&found, e))?;
    if let Some(why) = not_kept {
        tell(&why);
    }
    if args.json {
        return say(&to_json(&Report {
            game: found.number,
            deals,
            seed,
            cached: from_cache,
            accuracy: review.accuracy(),
            win_chance_accuracy: review.chance_accuracy(),
            counts: review.counts(),
            review: &review,
        })?);
    }
    say(&render(&found, &review, args.all, deals))
}

/// The seat asked for, or the record's player's, or seat 0: one the game
/// has.
fn seat_of(asked: Option<i64>, found: &FoundGame) -> Result<Seat, CliError> {
    let mode = found.game.header.rules.mode;
    let Some(asked) = asked else {
        return Ok(found.game.header.info.player_seat.unwrap_or(Seat::new(0)));
    };
    usize::try_from(asked)
        .ok()
        .and_then(Seat::from_index)
        .filter(|&s| mode.has_seat(s))
        .ok_or_else(|| {
            CliError::BadInput(format!(
                "--seat {asked}: a {mode} game has seats 0 to {}",
                mode.seats() - 1
            ))
        })
}

/// Why a game could not be analysed, naming the file (and line).
fn unfit(found: &FoundGame, e: AnalysisError) -> CliError {
    let (file, n) = (&found.file, found.number);
    match e {
        AnalysisError::Record(e) => CliError::BadInput(format!(
            "{file}:{}: game {n} does not replay: {}",
            e.line, e.message
        )),
        AnalysisError::Unfit(why) => CliError::BadInput(format!("{file}: game {n}: {why}")),
        AnalysisError::Stopped => CliError::Failed("the analysis was stopped".into()),
    }
}

fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} decisions  {elapsed} (eta {eta})",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

/// A choice as a player says it.
fn said(action: Action) -> String {
    match action {
        Action::Look => "look".into(),
        Action::Bid(bid) => format!("bid {bid}"),
        Action::Exchange(cards) => format!("pass {cards}"),
        Action::Play(card) => card.to_string(),
    }
}

/// One decision's line of the table; one not judged says why in place of
/// what it was about.
fn decision_line(d: &Verdict) -> String {
    let trick = d.trick.map_or("-".to_string(), |t| t.to_string());
    let (class, about) = match d.not_judged {
        Some(why) => ("not judged", why.to_string()),
        None => (
            d.class.map_or("", Class::name),
            d.category.name().to_string(),
        ),
    };
    format!(
        "{:>4}  {:>5}  {:<14} {:<14} {:>6.1}  {:>6.1}  {class:<10} {about}\n",
        d.hand,
        trick,
        said(d.chosen),
        said(d.best),
        d.lost() * 100.0,
        d.points_lost(),
    )
}

/// The review as a table: the decisions (classed ones, or all), then the
/// game's counts, accuracy and each hand's points lost and chances.
fn render(found: &FoundGame, review: &GameReview, all: bool, deals: u32) -> String {
    let name = found
        .game
        .header
        .names
        .get(review.seat.index())
        .map_or("", String::as_str);
    let unjudged = review
        .decisions
        .iter()
        .filter(|d| d.not_judged.is_some())
        .count();
    let judged = review.decisions.len() - unjudged;
    // Cards left to the rules are counted apart from those judged.
    let left = match unjudged {
        0 => String::new(),
        n => format!("; {n} not judged"),
    };
    let mut out = format!(
        "{} game {}: seat {} ({name}), {judged} decisions judged with {deals} guessed deals each{left}\n\n",
        found.file, found.number, review.seat,
    );
    // Lost: win chance, in percentage points, and the hand's points.
    out.push_str("hand  trick  chosen         best           chance  points  class      about\n");
    for d in review.decisions.iter().filter(|d| all || d.class.is_some()) {
        out.push_str(&decision_line(d));
    }
    let counts = review.counts();
    let counted = Class::ALL.map(|class| class.counted(counts.get(&class).copied().unwrap_or(0)));
    let figure = |a: Option<f64>| a.map_or("-".to_string(), |a| format!("{a:.1}"));
    out.push_str(&format!(
        "\n{}; accuracy {} (by points lost and best choices found), by win chance {}\n",
        counted.join(", "),
        figure(review.accuracy()),
        figure(review.chance_accuracy()),
    ));
    out.push_str("\nhand  win after  all cards seen     points lost\n");
    for h in &review.hands {
        let lost: Vec<String> = h
            .points_lost
            .iter()
            .filter(|(_, p)| **p >= 0.5)
            .map(|(&c, p)| format!("{} {p:.0}", c.name()))
            .collect();
        // Apart from the verdicts: what the deal held, every card seen.
        let seen = h.all_seen.map_or("-".to_string(), |s| s.to_string());
        out.push_str(&format!(
            "{:>4}  {:>8.0}%  {seen:<17}  {}\n",
            h.hand,
            h.win_after * 100.0,
            if lost.is_empty() {
                "-".to_string()
            } else {
                lost.join(", ")
            }
        ));
    }
    out
}
