//! The player's games: `spades history`, `export`, `stats`, `verify` and
//! `replay`, each read from the game records.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::bots::Effort;
use crate::history::{self, Entry, History, Unreadable};
use crate::paths;
use crate::rating::Ledger;
use crate::record::{RecordedGame, read_games};
use crate::records_folder::find_record;
use crate::signals::StopSignals;
use crate::stats::{self, Stats};
use crate::tui::replay::{Source, Viewer};
use crate::tui::spoken::{self, Lines, Speech};
use crate::tui::{Ending, Theme};

use super::{CliError, cannot_write, check_terminal, open_record, say};

#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// Record files (JSON Lines), as `spades` and `spades sim --record` write them
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct HistoryArgs {
    /// Print the games as a JSON array, newest first
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// The game's id, as `spades history` lists it, or the start of it
    pub id: String,
    /// Where to write the record (default: ./ID.jsonl)
    pub path: Option<PathBuf>,
    /// Overwrite PATH if it exists
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Print the statistics and rating as one JSON object
    #[arg(long)]
    pub json: bool,
    /// Kept for scripts that pass it: nothing is cached, so every run works
    /// the figures out from the records afresh, and says what it read.
    #[arg(long, hide = true)]
    pub rebuild: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// A game's id (its record's file name without `.jsonl`, or enough of
    /// its start to name one game), or a record file
    #[arg(value_name = "ID|FILE")]
    pub record: String,
    /// Which game of a record holding several (`spades sim --record`), from 1
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Draw suits as S H D C instead of symbols
    #[arg(long)]
    pub ascii: bool,
    /// Guessed deals per decision when `a` reviews the game (default 5000,
    /// as `spades analyze`): fewer is quicker and less steady
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub iterations: Option<u32>,
    #[command(flatten)]
    pub access: super::args::AccessArgs,
}

/// `spades verify`: every game of every record file, checked.
pub(super) fn verify(args: &VerifyArgs) -> Result<(), CliError> {
    let mut unreadable = Vec::new();
    let (mut games, mut failed) = (0, 0);
    for path in &args.records {
        let file = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                unreadable.push(format!("{file}: cannot read: {e}"));
                continue;
            }
        };
        match crate::verify::verify(&text) {
            Ok(verdicts) => {
                say(&crate::verify::describe(&file, &verdicts))?;
                games += verdicts.len();
                failed += verdicts.iter().filter(|v| !v.is_verified()).count();
            }
            Err(e) => unreadable.push(format!(
                "{file}:{}: not a game record spades can read: {}",
                e.line, e.message
            )),
        }
    }
    if !unreadable.is_empty() {
        return Err(CliError::BadInput(unreadable.join("\n")));
    }
    if failed > 0 {
        return Err(CliError::NotVerified(format!(
            "{failed} of {games} game{} did not verify",
            if games == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

/// The folder the player's games are recorded in.
fn records_folder() -> Result<PathBuf, CliError> {
    paths::records().ok_or_else(|| {
        CliError::BadInput(
            "cannot tell where your games are recorded: no home or data directory is set".into(),
        )
    })
}

/// The player's games, or why the records folder cannot be read.
fn read_history() -> Result<(PathBuf, History), CliError> {
    let dir = records_folder()?;
    let history = History::read(&dir).map_err(|e| CliError::BadInput(e.to_string()))?;
    Ok((dir, history))
}

/// Records that were left out, each with its file and line: reported once
/// everything else has been shown, as bad input.
fn left_out(unreadable: &[Unreadable]) -> Result<(), CliError> {
    if unreadable.is_empty() {
        return Ok(());
    }
    let n = unreadable.len();
    let (what, were) = if n == 1 {
        ("record", "was")
    } else {
        ("records", "were")
    };
    Err(CliError::BadInput(format!(
        "{n} {what} could not be read and {were} left out:\n{}",
        unreadable
            .iter()
            .map(|u| format!("  {u}"))
            .collect::<Vec<_>>()
            .join("\n")
    )))
}

/// JSON for stdout: what came from a record is escaped the JSON way, so
/// the output stays JSON and holds nothing a terminal obeys.
pub(super) fn to_json<T: serde::Serialize>(value: &T) -> Result<String, CliError> {
    serde_json::to_string_pretty(value)
        .map(|j| crate::outside::escaped_json(&j) + "\n")
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// `spades history`: the player's games, newest first.
pub(super) fn history(args: &HistoryArgs) -> Result<(), CliError> {
    let (dir, history) = read_history()?;
    if args.json {
        let newest_first: Vec<Entry> = history.games.iter().rev().map(Entry::from).collect();
        say(&to_json(&newest_first)?)?;
    } else if history.games.is_empty() {
        say(&format!(
            "No games to list: each game you play with `spades` is recorded in {}\n",
            dir.display()
        ))?;
    } else {
        say(&history::render(&history.games))?;
    }
    left_out(&history.unreadable)
}

/// `spades export`: one game's record, copied to a file of its own.
pub(super) fn export(args: &ExportArgs) -> Result<(), CliError> {
    let dir = records_folder()?;
    let folder = history::read_folder(&dir).map_err(|e| CliError::BadInput(e.to_string()))?;
    let found = history::find(&folder, &args.id).map_err(|e| {
        let mut why = format!("{e}\n  records folder: {}", dir.display());
        if let Err(CliError::BadInput(left_out)) = left_out(&folder.unreadable) {
            why.push('\n');
            why.push_str(&left_out);
        }
        CliError::BadInput(why)
    })?;
    let path = match &args.path {
        Some(path) => path.clone(),
        None if history::plain_name(&found.id) => PathBuf::from(format!("{}.jsonl", found.id)),
        None => {
            return Err(CliError::BadInput(format!(
                "the game's id {:?} is not a plain file name: say where to write it (spades export ID PATH)",
                found.id
            )));
        }
    };
    let bytes = found
        .record_bytes()
        .map_err(|e| CliError::BadInput(format!("cannot read {}: {e}", found.file.display())))?;
    let mut file = open_record(&path, args.force)?;
    file.write_all(&bytes)
        .and_then(|()| file.flush())
        .map_err(|e| CliError::BadInput(cannot_write(&path, &e)))?;
    say(&format!("wrote {} (game {})\n", path.display(), found.id))
}

/// `spades stats`: the statistics and the rating, from the records.
pub(super) fn stats(args: &StatsArgs) -> Result<(), CliError> {
    let (dir, history) = read_history()?;
    let stats = Stats::of(&history.games);
    let analyses = stats::Analyses::of(&history.games);
    let ledger = Ledger::of(&history.games);
    let games = history.games.len();
    let read = format!(
        "{} record file{} ({games} game{})",
        history.files,
        if history.files == 1 { "" } else { "s" },
        if games == 1 { "" } else { "s" },
    );
    // Nothing is cached: the figures are worked out from the records on
    // every run, so a rebuild is an ordinary run that says what it read.
    let rebuilt = format!(
        "Rebuilt from the records: read {read}. Nothing is cached: every run works the figures out afresh.\n"
    );
    if args.json {
        say(&to_json(&stats::Report {
            stats: &stats,
            rating: (&ledger).into(),
            records_folder: &dir,
            record_files: history.files,
            unreadable: &history.unreadable,
            analyses: &analyses,
        })?)?;
        if args.rebuild {
            // On stderr, so that the output stays one JSON object.
            let _ = std::io::stderr().write_all(crate::outside::escaped(&rebuilt).as_bytes());
        }
    } else {
        let mut out = String::new();
        let mut lines = stats::render(&stats, &ledger);
        let analysed = stats::analyses::render(&analyses);
        if !analysed.is_empty() {
            lines.push(String::new());
            lines.extend(analysed);
        }
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(&format!("\nFrom {read} in {}\n", dir.display()));
        if args.rebuild {
            out.push_str(&rebuilt);
        }
        say(&out)?;
    }
    left_out(&history.unreadable)
}

/// One game of a record named on the command line, read.
pub(super) struct FoundGame {
    pub path: PathBuf,
    /// The path as shown in messages.
    pub file: String,
    /// The record file's whole text.
    pub text: String,
    /// How many games the record holds.
    pub count: usize,
    /// Which of them this is, from 1.
    pub number: u32,
    pub game: RecordedGame,
}

/// Game `n` (from 1) of the record `arg` names (an id or a file), or why
/// it cannot be read: bad input, naming the file and line.
pub(super) fn find_game(arg: &str, n: u32) -> Result<FoundGame, CliError> {
    let path = find_record(arg, paths::records().as_deref())
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    let file = path.display().to_string();
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError::BadInput(format!("{file}: cannot read: {e}")))?;
    let games = read_games(&text).map_err(|e| {
        CliError::BadInput(format!(
            "{file}:{}: not a game record spades can read: {}",
            e.line, e.message
        ))
    })?;
    let count = games.len();
    let Some(game) = games.into_iter().nth(n as usize - 1) else {
        return Err(CliError::BadInput(match count {
            0 => format!("{file} holds no game"),
            1 => format!("{file} holds 1 game: there is no game {n}"),
            _ => format!("{file} holds {count} games: --game takes 1 to {count}"),
        }));
    };
    Ok(FoundGame {
        path,
        file,
        text,
        count,
        number: n,
        game,
    })
}

/// `spades replay`: the record is found, read and replayed through the
/// engine before the terminal is touched, so a bad one is reported with
/// its file and line on a terminal left as it was.
pub(super) fn replay(args: &ReplayArgs) -> Result<(), CliError> {
    let found = find_game(&args.record, args.game)?;
    let (file, n) = (found.file.clone(), found.number);
    let name = found
        .path
        .file_name()
        .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
    let source = Source::Record {
        name,
        game: n as usize,
        games: found.count,
    };
    let (path, text, game) = (found.path, found.text, found.game);
    let effort = args.iterations.map_or(Effort::Usual, Effort::Deals);
    let mut viewer = Viewer::of_record(source, path, text, n, game, effort).map_err(|e| {
        CliError::BadInput(format!(
            "{file}:{}: game {n} does not replay: {}",
            e.line, e.message
        ))
    })?;
    let preferences = args.access.preferences()?;
    let ended = if preferences.screen_reader {
        // Lines on standard output, terminal or pipe: nothing to check.
        let speech = Speech::from_preferences(&preferences);
        let mut lines = Lines::stdio();
        let signals = StopSignals::watch().map_err(crate::tui::TuiError::from)?;
        spoken::replay::read_as(&mut viewer, &speech, &mut lines, &signals)
    } else {
        check_terminal()?;
        let theme = Theme::for_player(args.ascii, &preferences);
        crate::tui::run_replay(viewer, theme)
    };
    match ended {
        Ok(Ending::Quit) => Ok(()),
        Ok(ending) => Err(CliError::Stopped {
            why: ending.to_string(),
            code: ending.exit_code(),
        }),
        Err(e) => Err(e.into()),
    }
}
