//! `spades sim`: games between bots, without a screen.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use clap::builder::RangedI64ValueParser;

use crate::bots::BotSpec;
use crate::fairness::SecretSeeds;
use crate::sim::{self, Seeds, SimConfig, SimError};

use super::args::{EffortArgs, RulesFlags, seed_number};
use super::{CliError, open_record, say};

/// The most deals one `spades sim` plays: each may be played up to four
/// times with `--duplicate`, and the games are counted in a `u32`.
const MAX_DEALS: i64 = 1_000_000_000;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Exit status: 0 when the games were played; 1 when every game replaced an \
exec: seat's program (which failed each time: the summary says why) or the record could not \
be written; 2 for bad input."
)]
pub struct SimArgs {
    #[command(flatten)]
    pub table: RulesFlags,
    #[command(flatten)]
    pub effort: EffortArgs,
    /// Deals to play (each by every seating of the lineup with --duplicate)
    #[arg(long, allow_negative_numbers = true, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=MAX_DEALS))]
    pub games: u32,
    /// Deal game k from seed S+k, openly (default: each game's seed secret until it ends, revealed in its record)
    #[arg(long, allow_negative_numbers = true, value_name = "S", value_parser = seed_number)]
    pub seed: Option<u64>,
    /// One bot per seat, comma-separated, e.g. hard,normal,hard,normal; hard@1200 or hard@150ms gives one seat its own budget; exec:COMMAND runs a program that speaks the table protocol on its standard input and output (docs/bot-authors.md), one per game; the command cannot contain a comma
    #[arg(long, value_name = "SPEC", value_delimiter = ',')]
    pub seats: Option<Vec<BotSpec>>,
    /// How long an exec: bot may take to say hello and to answer each ask,
    /// in milliseconds; one that does not is replaced by normal for the
    /// rest of the game
    #[arg(long, allow_negative_numbers = true, value_name = "MS", default_value_t = 5000,
          value_parser = RangedI64ValueParser::<u64>::new().range(1..=600_000))]
    pub bot_timeout: u64,
    /// Write every game's record (JSON Lines) to PATH, which must not exist
    #[arg(long, value_name = "PATH")]
    pub record: Option<PathBuf>,
    /// Let --record overwrite an existing file
    #[arg(long, requires = "record")]
    pub force: bool,
    /// Play every deal again with the lineup turned a seat, until each bot
    /// has held every side's cards (2 games a deal in partnership, 3 in
    /// cutthroat, 4 in individual)
    #[arg(long)]
    pub duplicate: bool,
    /// Print the summary as one JSON object
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: one per core)
    #[arg(long, allow_negative_numbers = true, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=sim::MAX_THREADS as i64))]
    pub threads: Option<u16>,
    /// Abandon a game still undecided after this many hands
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_hands: u32,
}

/// `spades sim`: games between bots, without a screen, and a summary.
pub(super) fn run(args: &SimArgs) -> Result<(), CliError> {
    let (rules, _source) = args.table.rules()?;
    let n = rules.mode.players();
    let lineup = match &args.seats {
        Some(seats) => seats.clone(),
        None => vec![BotSpec::DEFAULT; n],
    };
    // Before the record file is created, so a bad lineup truncates nothing.
    sim::check_lineup(rules.mode, &lineup).map_err(|e| CliError::BadInput(e.to_string()))?;
    // Without --seed each game's seed stays secret until the game ends.
    let seeds = match args.seed {
        Some(seed) => Seeds::Open(seed),
        None => Seeds::Secret(SecretSeeds::draw().map_err(|e| CliError::Failed(e.to_string()))?),
    };
    let config = SimConfig {
        rules,
        games: args.games,
        seeds,
        lineup,
        duplicate: args.duplicate,
        threads: args.threads.map_or_else(sim::default_threads, usize::from),
        max_hands: args.max_hands,
        effort: args.effort.effort(),
        bot_timeout: std::time::Duration::from_millis(args.bot_timeout),
    };
    let mut record_file = match &args.record {
        // Unbuffered: the sim writes each game whole, in one write.
        Some(path) => Some(open_record(path, args.force)?),
        None => None,
    };
    let bar = progress_bar(u64::from(sim::total_games(&config)));
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let result = sim::run(
        &config,
        record_file.as_mut().map(|f| f as &mut dyn Write),
        &tick,
    );
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let report = result.map_err(|e| match e {
        SimError::Record(_) | SimError::Bot { .. } => CliError::Failed(e.to_string()),
        _ => CliError::BadInput(e.to_string()),
    })?;
    if args.json {
        let json = serde_json::to_string(&report).map_err(|e| CliError::Failed(e.to_string()))?;
        say(&format!("{json}\n"))?;
    } else {
        say(&sim::render_table(&report))?;
        if let Some(path) = &args.record {
            say(&format!("\nrecords written to {}\n", path.display()))?;
        }
    }
    // The summary is printed all the same: it says why each one failed.
    if report.every_game_replaced() {
        return Err(CliError::Failed(format!(
            "a seat's program failed and was replaced in every game ({} of {}): the summary says why",
            report.games, report.games
        )));
    }
    Ok(())
}

fn progress_bar(total: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} (eta {eta})")
    {
        bar.set_style(style);
    }
    Some(bar)
}
