//! The command line: parsing the arguments, and saying what happened. A
//! file per family of commands: `play` (a game at the table, resume),
//! `records` (history, export, stats, verify, replay), `analyze`, `net`
//! (host, join, serve), `lobby` (a server's public tables), `sim`,
//! `rules`, and `conventions` (shell completions and the manual page); the
//! flags they share are in `args`. What the commands do lives
//! below, in the session, the store, the network and the
//! screen. Bad input is reported before the terminal is touched, with exit
//! code 2; a failure of the program's own, or a record that does not
//! verify, exits 1.

mod account;
mod analyze;
mod args;
mod conventions;
mod lobby;
mod net;
mod play;
mod records;
mod rules;
mod serve;
mod sim;
mod watch;

use std::io::{IsTerminal, Write};
use std::path::Path;

use clap::{Parser, Subcommand};

use crate::config::RulesFileError;

pub use account::{AccountAction, AccountArgs, LadderArgs};
pub use analyze::AnalyzeArgs;
pub use args::{EffortArgs, LookArgs, ModeArg, RulesFlags};
pub use conventions::{CompletionsArgs, ManArgs};
pub use lobby::LobbyArgs;
pub use net::{HostArgs, JoinArgs};
pub use play::{PlayArgs, ResumeArgs};
pub use records::{ExportArgs, HistoryArgs, ReplayArgs, StatsArgs, VerifyArgs};
pub use rules::RulesArgs;
pub use serve::ServeArgs;
pub use sim::SimArgs;
pub use watch::{WatchArgs, watch};

const EXAMPLES: &str = "\
Examples:
  spades                                  play partnership spades to 500
  spades --mode cutthroat --target 300    three players, 17 cards each
  spades --seed 42 --speed fast           replay the same deals, quicker bots
  spades --screen-reader                  plain lines for a screen reader or braille (remembered)
  spades --four-color --high-contrast     a colour a suit, bright on black (remembered)
  spades sim --games 500 --json           500 bot games, summary as JSON
  spades sim --seats normal,easy,normal,easy --games 1000 --duplicate
  spades sim --seats 'exec:python3 examples/bot.py',normal,normal,normal
                                          your own bot, in any language
  spades rules                            the rules in force, as TOML
  spades rules --init                     write a commented rules.toml here
  spades rules --presets                  the shipped sets of house rules
  spades --preset quick                   Quick Play: hands until your side has lost 3 lives
  spades --quick                          Quick Play with the rules in force
  spades verify game.jsonl                check a game's deals and moves after it
  spades history                          the games you played, newest first
  spades export game-1764552000           copy a game's record to ./game-1764552000-….jsonl
  spades stats                            your games, hands, contracts, nils, bags and rating
  spades replay game-1764552000           step through a recorded game, every hand face up
  spades replay r.jsonl --game 2          the second game of a `spades sim --record` file
  spades analyze game-1764552000          your mistakes in a game, judged by the search
  spades completions bash                 the shell's completions (also zsh, fish, powershell)
  spades man | man -l -                   the manual page";

#[derive(Debug, Parser)]
#[command(
    name = "spades",
    version,
    about = "Spades in the terminal: partnership, cutthroat and individual.",
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub play: PlayArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game at the table (what `spades` alone does).
    Play(PlayArgs),
    /// Play games between bots without a screen and summarise how each did.
    Sim(SimArgs),
    /// Print the rules in force as TOML, or write a commented rules.toml.
    Rules(RulesArgs),
    /// Check game records: the revealed seed matches the commitment made
    /// at the start, it deals every hand, and every move follows the rules.
    Verify(VerifyArgs),
    /// Resume a game left undecided: the newest, or the one named.
    Resume(ResumeArgs),
    /// List the games you played, newest first, from their records.
    History(HistoryArgs),
    /// Copy one game's record to a file of its own.
    Export(ExportArgs),
    /// Your statistics and rating, worked out from your games' records.
    Stats(StatsArgs),
    /// Step through a recorded game trick by trick, every hand face up,
    /// with the bids, the exchange and each hand's score.
    Replay(ReplayArgs),
    /// Judge every decision of one seat in a recorded game from what it
    /// could see: inaccuracies, mistakes, blunders and an accuracy figure.
    Analyze(AnalyzeArgs),
    /// Open a table friends can join over the network, and play at it.
    Host(HostArgs),
    /// Sit at a friend's table by its code, and play there.
    Join(JoinArgs),
    /// Watch a table by its code, live, seeing only what anyone may see:
    /// the bids, the cards as they are played, the scores.
    Watch(WatchArgs),
    /// Run a table server for many tables, without a screen, until Ctrl-C.
    Serve(ServeArgs),
    /// A server's public tables: join or watch one, open one, or wait for
    /// a quick match; and its ladder.
    Lobby(LobbyArgs),
    /// Your key for the servers you sign in to: see it, carry it to
    /// another machine, replace it.
    Account(AccountArgs),
    /// A server's ladder: rank, name, rating and games; and your own rated
    /// games there.
    Ladder(LadderArgs),
    /// Print the completion script for a shell: bash, zsh, fish or
    /// powershell.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one for every command.
    Man(ManArgs),
}

/// Why a command failed. Bad input exits 2; a record that reads but does
/// not verify, and a failure of the program's own, exit 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Rules(#[from] RulesFileError),
    /// A flag, a file or a name the user gave cannot be used: what to fix.
    #[error("{0}")]
    BadInput(String),
    #[error("{0}")]
    NotVerified(String),
    /// Something went wrong that the user's input did not cause.
    #[error("{0}")]
    Failed(String),
    /// The game was stopped by Ctrl-C or a signal; the code says which.
    #[error("{why}")]
    Stopped { why: String, code: i32 },
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Rules(_) | CliError::BadInput(_) => 2,
            CliError::NotVerified(_) | CliError::Failed(_) => 1,
            CliError::Stopped { code, .. } => *code,
        }
    }
}

pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Some(Command::Sim(args)) => sim::run(&args),
        Some(Command::Rules(args)) => rules::run(&args),
        Some(Command::Verify(args)) => records::verify(&args),
        Some(Command::Resume(args)) => play::resume(&args),
        Some(Command::History(args)) => records::history(&args),
        Some(Command::Export(args)) => records::export(&args),
        Some(Command::Stats(args)) => records::stats(&args),
        Some(Command::Replay(args)) => records::replay(&args),
        Some(Command::Analyze(args)) => analyze::analyze(&args),
        Some(Command::Serve(args)) => serve::serve(&args),
        Some(Command::Play(args)) => play::play(&args),
        Some(Command::Host(args)) => net::host(&args),
        Some(Command::Join(args)) => net::join(&args),
        Some(Command::Lobby(args)) => lobby::lobby(&args),
        Some(Command::Watch(args)) => watch::run(&args),
        Some(Command::Account(args)) => account::account(&args),
        Some(Command::Ladder(args)) => account::ladder(&args),
        Some(Command::Completions(args)) => conventions::completions(&args),
        Some(Command::Man(args)) => conventions::man(&args),
        None => play::play(&cli.play),
    }
}

/// A terminal the table can be drawn on, or why not.
fn check_terminal() -> Result<(), CliError> {
    if cfg!(unix)
        && let Some(problem) = term_problem(std::env::var_os("TERM").as_deref())
    {
        return Err(CliError::BadInput(problem));
    }
    if !std::io::stdout().is_terminal() {
        return Err(CliError::BadInput(
            "spades plays in a terminal: run it without redirecting its output (or try `spades sim`)"
                .into(),
        ));
    }
    Ok(())
}

/// Why the terminal `TERM` names cannot show the table, if it cannot. The
/// table needs colour and cursor movement, which a `dumb` terminal, or one
/// that does not say what it is, does not promise.
fn term_problem(term: Option<&std::ffi::OsStr>) -> Option<String> {
    let term = term.map(|t| t.to_string_lossy());
    let what = match term.as_deref().map(str::trim) {
        None => "TERM is not set".to_string(),
        Some("") => "TERM is empty".to_string(),
        Some("dumb") => "TERM=dumb".to_string(),
        Some(_) => return None,
    };
    Some(format!(
        "spades draws its table with colour and cursor movement, which this terminal \
         does not offer ({what}): play in a terminal that does (TERM=xterm-256color \
         suits most), or watch bots play without a screen with `spades sim`"
    ))
}

/// Prints to stdout. A reader that has gone away (`spades sim | head`) is
/// not an error worth a message; any other failure is.
/// What a record, a save or a server said may be in it: shown escaped.
fn say(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let text = crate::outside::escaped(text);
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Failed(format!("cannot write to the output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Opens a new record file, or with `force` empties an existing one. A
/// record is not overwritten by default: rerunning a command should not
/// lose a long run's games.
/// A line on stderr, escaped as `say` escapes. Not `eprintln!`, which
/// panics when stderr is gone (a closed window).
pub fn tell(text: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "spades: {}",
        crate::outside::escaped(text)
    );
}

fn open_record(path: &Path, force: bool) -> Result<std::fs::File, CliError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    options
        .open(path)
        .map_err(|e| CliError::BadInput(cannot_write(path, &e)))
}

/// Why `path` cannot be written, in the reader's terms.
fn cannot_write(path: &Path, e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    let shown = path.display();
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    match e.kind() {
        ErrorKind::AlreadyExists => {
            format!("{shown} already exists; it was left as it is (--force overwrites it)")
        }
        ErrorKind::NotFound => format!(
            "cannot write {shown}: the directory {} does not exist",
            dir.display()
        ),
        ErrorKind::NotADirectory => {
            format!("cannot write {shown}: {} is not a directory", dir.display())
        }
        ErrorKind::PermissionDenied => format!("cannot write {shown}: permission denied"),
        _ => format!("cannot write {shown}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `spades --help` says what every command is for: a command with no
    /// doc comment is listed bare.
    #[test]
    fn every_command_has_its_description_in_the_help() {
        use clap::CommandFactory;
        let help = Cli::command().render_help().to_string();
        let commands = help
            .lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "));
        let mut seen = 0;
        for line in commands {
            let mut words = line.split_whitespace();
            let name = words.next().unwrap_or_default();
            assert!(
                words.next().is_some(),
                "`{name}` has no description:\n{help}"
            );
            seen += 1;
        }
        assert!(seen > 10, "{help}");
    }

    #[test]
    fn only_a_terminal_that_cannot_draw_is_refused() {
        use std::ffi::OsStr;
        for term in ["xterm-256color", "screen", "linux", "tmux-256color"] {
            assert_eq!(term_problem(Some(OsStr::new(term))), None, "{term}");
        }
        for (term, says) in [
            (Some("dumb"), "TERM=dumb"),
            (Some(""), "TERM is empty"),
            (None, "TERM is not set"),
        ] {
            let problem = term_problem(term.map(OsStr::new)).expect("refused");
            assert!(problem.contains(says), "{problem}");
            assert!(problem.contains("spades sim"), "{problem}");
        }
    }
}
