//! `spades` (or `spades play`): a game at the table; and `spades resume`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use clap::Args;

use crate::bots::BotSpec;
use crate::engine::Rules;
use crate::look::Chosen;
use crate::paths;
use crate::records_folder::{self, Picked};
use crate::save::{Saved, SetAside};
use crate::session::{self, SessionError};
use crate::table::ResumeError;
use crate::tui::{Ending, Outcome, PlayConfig, Start, TuiError};

use super::args::{LookArgs, RulesFlags, seed_number};
use super::{CliError, check_terminal, say};

#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub table: RulesFlags,
    /// Deal from this seed, openly: the same seed deals the same cards (default: a secret seed, committed to at the start and revealed at the end)
    #[arg(long, allow_negative_numbers = true, value_name = "S", value_parser = seed_number)]
    pub seed: Option<u64>,
    /// Your name at the table
    #[arg(long, default_value = "You")]
    pub name: String,
    /// The computer players' level (random, easy, normal, hard), or
    /// exec:COMMAND for a program of your own in each of their seats
    #[arg(long, value_name = "LEVEL", default_value_t = BotSpec::DEFAULT)]
    pub difficulty: BotSpec,
    #[command(flatten)]
    pub look: LookArgs,
    /// Start a new game, even when one is waiting to be resumed
    #[arg(long)]
    pub new: bool,
    /// A practice game: `u` takes back your last bid or card (kept out of
    /// the rating)
    #[arg(long)]
    pub practice: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ResumeArgs {
    /// The game's id (or the start of it), as `--list` shows it
    #[arg(value_name = "ID")]
    pub id: Option<String>,
    /// List the games waiting to be resumed, newest first
    #[arg(long)]
    pub list: bool,
    /// Give the game up instead: its record is closed and its seed revealed
    #[arg(long, conflicts_with = "list")]
    pub abandon: bool,
    /// Give up every game left DAYS days ago or more (0: every one), as
    /// --abandon gives one up
    #[arg(long, value_name = "DAYS", conflicts_with_all = ["id", "list", "abandon"],
          allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(0..))]
    pub abandon_older_than: Option<u32>,
    #[command(flatten)]
    pub look: LookArgs,
}

/// `spades`: a new game, or the offer of the one left undecided.
pub(super) fn play(args: &PlayArgs) -> Result<(), CliError> {
    let (rules, source) = args.table.rules()?;
    let mut config = look_config(&args.look)?;
    needs_terminal(&config)?;
    config.game = session::GameSetup {
        rules,
        seed: args.seed,
        name: args.name.clone(),
        difficulty: args.difficulty.clone(),
        rules_source: source.to_string(),
        practice: args.practice,
        ..config.game
    };
    // A game waiting to be resumed is offered first, unless asked not to
    // (or a seed asks for a particular new game).
    let start = if args.new || args.seed.is_some() {
        Start::New
    } else {
        let (saved, set_aside) = waiting_games();
        // A game open in another window cannot be taken up here: it is
        // named, and the newest of the others offered.
        let (busy, free): (Vec<Saved>, Vec<Saved>) = saved.into_iter().partition(Saved::in_use);
        if free.is_empty() && busy.is_empty() && set_aside.is_empty() {
            Start::New
        } else {
            Start::Offer {
                saved: free.into_iter().next().map(Box::new),
                busy,
                set_aside,
            }
        }
    };
    play_session(config, start)
}

/// `spades resume`: the newest saved game, or the one named; or the list
/// of them; or giving one up.
pub(super) fn resume(args: &ResumeArgs) -> Result<(), CliError> {
    let (saved, set_aside) = waiting_games();
    for note in &set_aside {
        super::tell(&note.to_string());
    }
    if args.list {
        return say(&listed(&saved, SystemTime::now()));
    }
    if let Some(days) = args.abandon_older_than {
        return abandon_older_than(&saved, days, SystemTime::now());
    }
    let chosen = match &args.id {
        // The newest not open in another window.
        None => saved.into_iter().find(|s| !s.in_use()),
        Some(id) => match records_folder::pick(&saved, id, |s| &s.header.id) {
            Picked::One(one) => Some(one.clone()),
            Picked::None => None,
            Picked::Several(many) => {
                return Err(CliError::BadInput(format!(
                    "`{id}` names {} saved games: give more of the id (spades resume --list)",
                    many.len()
                )));
            }
        },
    };
    let Some(saved) = chosen else {
        return Err(CliError::BadInput(match &args.id {
            Some(id) => format!("no saved game `{id}` (spades resume --list shows them)"),
            None => "no game is waiting to be resumed here (spades starts a new one; \
                     spades resume --list shows any open in another window)"
                .to_string(),
        }));
    };
    // Another spades holds it: taking it up or giving it up here would
    // fail once the terminal is taken.
    if saved.in_use() {
        return Err(CliError::BadInput(format!(
            "the saved game {} is open in another window: go on with it there, or leave it first",
            saved.header.id
        )));
    }
    if args.abandon {
        return abandon(&saved);
    }
    let config = look_config(&args.look)?;
    needs_terminal(&config)?;
    // The game's own rules, names and level come from its save.
    play_session(config, Start::Resume(Box::new(saved)))
}

/// A day, in seconds: `--abandon-older-than` counts whole days.
const DAY: u64 = 24 * 60 * 60;

/// Whole days since a game was left, by its save's time (0 when that is
/// unknown or in the future: such a game is never taken for an old one).
fn days_left(saved: &Saved, now: SystemTime) -> u64 {
    saved
        .left_at()
        .and_then(|at| now.duration_since(at).ok())
        .map_or(0, |d| d.as_secs() / DAY)
}

/// `spades resume --abandon-older-than DAYS`: every waiting game left that
/// long ago, given up as `--abandon` gives one up; games open in another
/// window are left alone, and said to be.
fn abandon_older_than(saved: &[Saved], days: u32, now: SystemTime) -> Result<(), CliError> {
    let old: Vec<&Saved> = saved
        .iter()
        .filter(|s| days_left(s, now) >= u64::from(days))
        .collect();
    if saved.is_empty() {
        return say("No game is waiting to be resumed.\n");
    }
    if old.is_empty() {
        return say(&format!(
            "No game waiting was left {days} or more days ago.\n"
        ));
    }
    for s in old {
        if s.in_use() {
            say(&format!(
                "Left {} alone: it is open in another window.\n",
                s.header.id
            ))?;
        } else {
            abandon(s)?;
        }
    }
    Ok(())
}

/// `spades resume --list`: each waiting game in a line, newest first:
/// its mode, course and preset, where it stands, and when it was left.
fn listed(saved: &[Saved], now: SystemTime) -> String {
    let mut text = String::new();
    if saved.is_empty() {
        text.push_str("No game is waiting to be resumed.\n");
    }
    for s in saved {
        let standing = match s.standing() {
            Ok((hand, scores)) => format!(
                "hand {hand}, scores {}",
                scores
                    .iter()
                    .map(i32::to_string)
                    .collect::<Vec<_>>()
                    .join(" / ")
            ),
            Err(e) => format!("cannot replay: {e}"),
        };
        let preset = crate::presets::played_as(&s.header.rules)
            .map_or("own rules".to_string(), |p| format!("preset {}", p.name));
        let left = match days_left(s, now) {
            0 => "left today".to_string(),
            1 => "left 1 day ago".to_string(),
            n => format!("left {n} days ago"),
        };
        text.push_str(&format!(
            "{}  {}, {}, {preset}, {standing}, {left}{}{}\n",
            s.header.id,
            s.header.rules.mode,
            crate::config::course(&s.header.rules),
            if s.header.practice { " (practice)" } else { "" },
            if s.in_use() {
                " (open in another window)"
            } else {
                ""
            }
        ));
    }
    text
}

/// Gives a saved game up: its record says so and reveals its seed, and
/// its save is removed.
fn abandon(saved: &Saved) -> Result<(), CliError> {
    let record = session::abandon(saved, paths::records().as_deref()).map_err(|e| match e {
        SessionError::Record(_) => CliError::Failed(e.to_string()),
        _ => CliError::BadInput(format!("the saved game {}: {e}", saved.header.id)),
    })?;
    let mut text = format!("Gave up {}.\n", saved.header.id);
    if let Some(record) = &record {
        text.push_str(&where_recorded(std::slice::from_ref(record)));
    }
    say(&text)
}

/// The saves waiting to be resumed, newest first, and those set aside.
fn waiting_games() -> (Vec<Saved>, Vec<SetAside>) {
    match paths::saves() {
        Some(dir) => crate::save::waiting(&dir),
        None => (Vec::new(), Vec::new()),
    }
}

/// What any session at the table needs: how it looks, how long `hard`
/// thinks, and where it keeps its records and saves.
pub(super) fn look_config(look: &LookArgs) -> Result<PlayConfig, CliError> {
    let mut config = PlayConfig::new(Rules::default(), 0);
    config.speed = look.speed.unwrap_or_default();
    config.ascii = look.ascii;
    config.auto_play = !look.no_auto_play;
    // A flag left out keeps a resumed game's own look.
    config.chosen = Chosen {
        speed: look.speed.is_some(),
        ascii: look.ascii,
        auto_play: look.no_auto_play,
    };
    config.game.effort = look.effort.effort();
    config.game.records = paths::records();
    config.game.saves = paths::saves();
    config.preferences = look.access.preferences()?;
    Ok(config)
}

/// The full-screen table needs a terminal; the screen-reader mode writes
/// plain lines, to a terminal or a pipe alike.
fn needs_terminal(config: &PlayConfig) -> Result<(), CliError> {
    if config.preferences.screen_reader {
        Ok(())
    } else {
        check_terminal()
    }
}

fn play_session(config: PlayConfig, start: Start) -> Result<(), CliError> {
    let outcome = if config.preferences.screen_reader {
        crate::tui::spoken::table::run(config, start)?
    } else {
        crate::tui::run(config, start)?
    };
    report_played(outcome)
}

impl From<TuiError> for CliError {
    fn from(e: TuiError) -> CliError {
        match e {
            // A save that does not replay is the file's fault, not ours.
            TuiError::Session(SessionError::Resume(ResumeError::Save(_))) => {
                CliError::BadInput(e.to_string())
            }
            _ => CliError::Failed(e.to_string()),
        }
    }
}

/// Says where the session's games went, and how it ended.
pub(super) fn report_played(outcome: Outcome) -> Result<(), CliError> {
    // The terminal is back to normal: say where the games went, whatever
    // ended them. A window that has closed cannot be told, and need not be.
    let played = &outcome.played;
    let mut text = String::new();
    if !played.records.is_empty() {
        text.push_str(&where_recorded(&played.records));
    }
    if played.saved.is_some() {
        text.push_str(
            "The game is saved where you left it: `spades resume` takes it up again \
             (`spades resume --abandon` gives it up).\n",
        );
    }
    if !text.is_empty() {
        // Names at a shared table came from the server.
        let text = crate::outside::escaped(&text);
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    }
    if let Some(problem) = &played.record_problem {
        super::tell(&format!("the game record could not be written: {problem}"));
    }
    match outcome.ending {
        Ok(Ending::Quit) => Ok(()),
        Ok(ending) => Err(CliError::Stopped {
            why: ending.to_string(),
            code: ending.exit_code(),
        }),
        Err(e) => Err(e.into()),
    }
}

/// Where a session's games were recorded, and the command that checks them.
fn where_recorded(records: &[PathBuf]) -> String {
    let words: Vec<String> = records.iter().map(|p| shell_word(p)).collect();
    match &words[..] {
        [one] => format!("Game recorded in {one}\nCheck it with: spades verify {one}\n"),
        _ => format!(
            "Games recorded in:\n{}Check them with: spades verify {}\n",
            words.iter().map(|w| format!("  {w}\n")).collect::<String>(),
            words.join(" ")
        ),
    }
}

/// A path as one shell word: as it is when that is safe to paste, else in
/// single quotes.
fn shell_word(path: &Path) -> String {
    let text = path.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.into_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_named_with_the_command_that_checks_them() {
        let one = [PathBuf::from(
            "/home/a/.local/share/spades/records/game-1-ab.jsonl",
        )];
        assert_eq!(
            where_recorded(&one),
            "Game recorded in /home/a/.local/share/spades/records/game-1-ab.jsonl\n\
             Check it with: spades verify /home/a/.local/share/spades/records/game-1-ab.jsonl\n"
        );
        let two = [PathBuf::from("r/g-1.jsonl"), PathBuf::from("r/g-2.jsonl")];
        assert_eq!(
            where_recorded(&two),
            "Games recorded in:\n  r/g-1.jsonl\n  r/g-2.jsonl\n\
             Check them with: spades verify r/g-1.jsonl r/g-2.jsonl\n"
        );
    }

    #[test]
    fn paths_are_quoted_only_when_a_shell_would_split_them() {
        let word = |p: &str| shell_word(Path::new(p));
        assert_eq!(word("/tmp/.x/game-1.jsonl"), "/tmp/.x/game-1.jsonl");
        assert_eq!(
            word("/Users/a/Library/Application Support/spades/g.jsonl"),
            "'/Users/a/Library/Application Support/spades/g.jsonl'"
        );
        assert_eq!(word("/tmp/it's/g.jsonl"), "'/tmp/it'\\''s/g.jsonl'");
    }
}
