//! The command line: `spades [play]`, `spades resume`, `spades sim`,
//! `spades rules`, `spades verify`, and the player's own games:
//! `spades history`, `spades export` and `spades stats`.
//! Bad input is reported before the terminal is touched, with exit code 2.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bots;
use crate::config::{self, RulesFileError, RulesSource};
use crate::engine::{GameKind, Mode, Rules};
use crate::fairness::SecretSeeds;
use crate::history::{self, Entry, History, Unreadable};
use crate::presets;
use crate::rating::{self, Ledger};
use crate::records_folder::Picked;
use crate::save::{Saved, SetAside};
use crate::sim::{self, Seeds, SimConfig, SimError};
use crate::stats::{self, Stats};
use crate::tui::Start;

const EXAMPLES: &str = "\
Examples:
  spades                                  play partnership spades to 500
  spades --mode cutthroat --target 300    three players, 17 cards each
  spades --seed 42 --speed fast           replay the same deals, quicker bots
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
  spades replay r.jsonl --game 2          the second game of a `spades sim --record` file";

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
    /// Open a table friends can join over the network, and play at it.
    Host(HostArgs),
    /// Sit at a friend's table by its code, and play there.
    Join(JoinArgs),
    /// Run a table server for many tables, without a screen, until Ctrl-C.
    Serve(ServeArgs),
}

/// A program speaking the table protocol, as `exec:COMMAND`.
fn own_program(text: &str) -> Result<String, String> {
    if !text.starts_with(bots::external::PREFIX) {
        return Err(format!("give a program as exec:COMMAND, not `{text}`"));
    }
    level_or_program(text)
}

/// A bot level, or a program speaking the table protocol (`exec:COMMAND`).
fn level_or_program(text: &str) -> Result<String, String> {
    bots::by_spec(text, bots::Effort::Usual)
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

/// The name a player is shown by at a shared table: the login name, until
/// `--name` says otherwise (the server cuts it to what the table shows).
fn login_name() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .ok()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "Player".to_string())
}

#[derive(Debug, Clone, Args)]
pub struct HostArgs {
    #[command(flatten)]
    pub table: RulesFlags,
    /// Your name at the table (default: your login name)
    #[arg(long)]
    pub name: Option<String>,
    /// The port friends connect to
    #[arg(long, default_value_t = 4466)]
    pub port: u16,
    /// The address friends reach this machine by, shown in the table's code
    /// (default: this machine's address on its network)
    #[arg(long, value_name = "HOST")]
    pub address: Option<String>,
    /// Open the table on a running `spades serve` instead, given as it
    /// prints itself: FINGERPRINT@HOST:PORT
    #[arg(long, value_name = "FINGERPRINT@HOST:PORT", conflicts_with_all = ["port", "address"])]
    pub server: Option<String>,
    /// No encryption: for debugging on this machine (loopback) only
    #[arg(long)]
    pub insecure_plain: bool,
    /// Let a bot act for a player who has not acted within this many seconds
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(5..=3600))]
    pub turn_timer: Option<u64>,
    /// A program of your own (exec:COMMAND) offered in the lobby as one
    /// more bot level (`l`), for a table served from this process
    #[arg(long, value_name = "exec:COMMAND", value_parser = own_program, conflicts_with = "server")]
    pub bot: Option<String>,
    #[command(flatten)]
    pub look: LookArgs,
}

#[derive(Debug, Clone, Args)]
pub struct JoinArgs {
    /// The table's code, as the host's screen shows it:
    /// TABLE.FINGERPRINT@HOST:PORT
    #[arg(value_name = "CODE")]
    pub code: String,
    /// Your name at the table (default: your login name)
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub look: LookArgs,
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
    #[command(flatten)]
    pub look: LookArgs,
}

/// How the table looks and moves, in a new game or a resumed one.
#[derive(Debug, Clone, Args)]
pub struct LookArgs {
    #[command(flatten)]
    pub effort: EffortArgs,
    /// How fast the computer players' cards appear
    #[arg(long, default_value = "normal", value_parser = ["slow", "normal", "fast", "instant"])]
    pub speed: String,
    /// Draw suits as S H D C instead of symbols
    #[arg(long)]
    pub ascii: bool,
    /// Never play a card for you, even when it is the only one you may play
    #[arg(long)]
    pub no_auto_play: bool,
}

/// How long a searching bot (`hard`) thinks per decision.
#[derive(Debug, Clone, Args)]
pub struct EffortArgs {
    /// Let `hard` think this long per decision, in milliseconds, on every
    /// core (default: a fixed number of guessed deals; see --iterations)
    #[arg(long, value_name = "MS", conflicts_with = "iterations",
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub think_ms: Option<u64>,
    /// Let `hard` guess this many deals per decision, shared out over every
    /// core, so that a seeded run replays exactly (default 300)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub iterations: Option<u32>,
}

impl EffortArgs {
    pub fn effort(&self) -> bots::Effort {
        match (self.think_ms, self.iterations) {
            (Some(ms), _) => bots::Effort::Time(std::time::Duration::from_millis(ms)),
            (None, Some(n)) => bots::Effort::Deals(n),
            (None, None) => bots::Effort::Usual,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// You and a partner against two opponents (4 seats)
    Partnership,
    /// Three players, 17 cards each, one card out
    Cutthroat,
    /// Four players, no partners
    Individual,
    /// Three players and a dummy: the top bidder declares with it
    Dummy,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Partnership => Mode::Partnership,
            ModeArg::Cutthroat => Mode::Cutthroat,
            ModeArg::Individual => Mode::Individual,
            ModeArg::Dummy => Mode::Dummy,
        }
    }
}

/// Flags every command that plays takes: they override rules.toml.
#[derive(Debug, Clone, Args)]
pub struct RulesFlags {
    /// Table mode (overrides `mode` in rules.toml)
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Score that ends the game (overrides `target_score`)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i32).range(1..))]
    pub target: Option<i32>,
    /// Rules file (default: ./rules.toml, then the user config dir, then the classic game)
    #[arg(long, value_name = "PATH")]
    pub rules: Option<PathBuf>,
    /// Play one of the shipped sets of house rules instead of a rules file
    /// (`spades rules --presets` lists them)
    #[arg(long, value_name = "NAME", conflicts_with = "rules")]
    pub preset: Option<String>,
    /// Quick Play: one hand at a time until your side has lost its lives
    /// (sets `game.kind = "quick"`)
    #[arg(long)]
    pub quick: bool,
}

#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub table: RulesFlags,
    /// Deal from this seed, openly: the same seed deals the same cards (default: a secret seed, committed to at the start and revealed at the end)
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Your name at the table
    #[arg(long, default_value = "You")]
    pub name: String,
    /// The computer players' level (random, easy, normal, hard), or
    /// exec:COMMAND for a program of your own in each of their seats
    #[arg(long, value_name = "LEVEL", default_value = bots::DEFAULT_LEVEL, value_parser = level_or_program)]
    pub difficulty: String,
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

/// The most deals one `spades sim` plays: each may be played up to four
/// times with `--duplicate`, and the games are counted in a `u32`.
const MAX_DEALS: i64 = 1_000_000_000;

#[derive(Debug, Clone, Args)]
pub struct SimArgs {
    #[command(flatten)]
    pub table: RulesFlags,
    #[command(flatten)]
    pub effort: EffortArgs,
    /// Deals to play (each by every seating of the lineup with --duplicate)
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=MAX_DEALS))]
    pub games: u32,
    /// Deal game k from seed S+k, openly (default: each game's seed secret until it ends, revealed in its record)
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// One bot per seat, comma-separated, e.g. hard,normal,hard,normal; hard@1200 or hard@150ms gives one seat its own budget; exec:COMMAND runs a program that speaks the table protocol on its standard input and output (docs/protocol.md), one per game; the command cannot contain a comma
    #[arg(long, value_name = "SPEC", value_delimiter = ',')]
    pub seats: Option<Vec<String>>,
    /// How long an exec: bot may take to say hello and to answer each ask,
    /// in milliseconds; one that does not is replaced by normal for the
    /// rest of the game
    #[arg(long, value_name = "MS", default_value_t = 5000,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
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
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=sim::MAX_THREADS as i64))]
    pub threads: Option<u16>,
    /// Abandon a game still undecided after this many hands
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_hands: u32,
}

#[derive(Debug, Clone, Args)]
pub struct RulesArgs {
    /// Rules file to show (default: where a game would look)
    #[arg(long, value_name = "PATH")]
    pub rules: Option<PathBuf>,
    /// Show (or with --init write) one of the shipped presets
    #[arg(long, value_name = "NAME", conflicts_with = "rules")]
    pub preset: Option<String>,
    /// List the shipped presets
    #[arg(long, conflicts_with_all = ["rules", "preset", "init"])]
    pub presets: bool,
    /// Write a fully commented rules file (never overwrites)
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "rules.toml")]
    pub init: Option<PathBuf>,
}

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
    /// Work everything out from the records again (nothing is cached, so
    /// this is what every run does; it also says how many records it read)
    #[arg(long)]
    pub rebuild: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// A game's id (its record's file name without `.jsonl`, or enough of
    /// its start to name one game), or a record file
    #[arg(value_name = "ID|FILE")]
    pub record: String,
    /// Which game of a record holding several (`spades sim --record`), from 1
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Draw suits as S H D C instead of symbols
    #[arg(long)]
    pub ascii: bool,
}

/// Why a command failed. Bad input exits 2; a record that reads but does
/// not verify, and a failure of our own, exit 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Rules(#[from] RulesFileError),
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    NotVerified(String),
    #[error("{0}")]
    Internal(String),
    /// The game was stopped by Ctrl-C or a signal; the code says which.
    #[error("{why}")]
    Stopped { why: String, code: i32 },
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Rules(_) | CliError::Usage(_) => 2,
            CliError::NotVerified(_) | CliError::Internal(_) => 1,
            CliError::Stopped { code, .. } => *code,
        }
    }
}

/// The rules a game uses: the file's, with flags on top.
pub fn effective_rules(flags: &RulesFlags) -> Result<(Rules, RulesSource), CliError> {
    let (rules, source) = match &flags.preset {
        Some(name) => preset_rules(name)?,
        None => config::find_rules(flags.rules.as_deref())?,
    };
    let rules = rules
        .with(|r| {
            if flags.quick {
                r.game.kind = GameKind::Quick;
            }
            if let Some(mode) = flags.mode {
                r.mode = mode.into();
            }
            if let Some(target) = flags.target {
                r.target_score = target;
            }
        })
        .map_err(|e| CliError::Usage(format!("the flags and {source} do not fit together: {e}")))?;
    Ok((rules, source))
}

/// A shipped preset's rules, by name.
fn preset_rules(name: &str) -> Result<(Rules, RulesSource), CliError> {
    let preset = presets::find(name).map_err(CliError::Usage)?;
    Ok((preset.rules()?, RulesSource::Preset(preset.name)))
}

pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Some(Command::Sim(args)) => run_sim(&args),
        Some(Command::Rules(args)) => run_rules(&args),
        Some(Command::Verify(args)) => run_verify(&args),
        Some(Command::Resume(args)) => run_resume(&args),
        Some(Command::History(args)) => run_history(&args),
        Some(Command::Export(args)) => run_export(&args),
        Some(Command::Stats(args)) => run_stats(&args),
        Some(Command::Replay(args)) => run_replay(&args),
        Some(Command::Serve(args)) => run_serve(&args),
        Some(Command::Play(args)) => run_play(&args),
        Some(Command::Host(args)) => run_host(&args),
        Some(Command::Join(args)) => run_join(&args),
        None => run_play(&cli.play),
    }
}

fn run_play(args: &PlayArgs) -> Result<(), CliError> {
    let (rules, source) = effective_rules(&args.table)?;
    check_terminal()?;
    let config = crate::tui::PlayConfig {
        rules,
        seed: args.seed,
        name: args.name.clone(),
        difficulty: args.difficulty.clone(),
        rules_source: source.to_string(),
        practice: args.practice,
        ..session_config(&args.look)?
    };
    // A game waiting to be resumed is offered first, unless asked not to
    // (or a seed asks for a particular new game).
    let start = if args.new || args.seed.is_some() {
        Start::New
    } else {
        let (saved, set_aside) = waiting_games();
        if saved.is_empty() && set_aside.is_empty() {
            Start::New
        } else {
            Start::Offer {
                saved: saved.into_iter().next().map(Box::new),
                set_aside,
            }
        }
    };
    play_session(config, start)
}

fn run_resume(args: &ResumeArgs) -> Result<(), CliError> {
    let (saved, set_aside) = waiting_games();
    for note in &set_aside {
        let _ = writeln!(std::io::stderr(), "spades: {note}");
    }
    if args.list {
        let mut text = String::new();
        if saved.is_empty() {
            text.push_str("No game is waiting to be resumed.\n");
        }
        for s in &saved {
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
            text.push_str(&format!(
                "{}  {}, {}, {standing}{}\n",
                s.header.id,
                s.header.rules.mode,
                s.header.rules.course(),
                if s.header.practice { " (practice)" } else { "" }
            ));
        }
        return say(&text);
    }
    let chosen = match &args.id {
        None => saved.into_iter().next(),
        Some(id) => match crate::records_folder::pick(&saved, id, |s| &s.header.id) {
            Picked::One(one) => Some(one.clone()),
            Picked::None => None,
            Picked::Several(many) => {
                return Err(CliError::Usage(format!(
                    "`{id}` names {} saved games: give more of the id (spades resume --list)",
                    many.len()
                )));
            }
        },
    };
    let Some(saved) = chosen else {
        return Err(CliError::Usage(match &args.id {
            Some(id) => format!("no saved game `{id}` (spades resume --list shows them)"),
            None => "no game is waiting to be resumed (spades starts a new one)".to_string(),
        }));
    };
    if args.abandon {
        return abandon(&saved);
    }
    check_terminal()?;
    let config = crate::tui::config_for(
        &saved,
        &crate::tui::PlayConfig {
            rules: saved.header.rules,
            ..session_config(&args.look)?
        },
    );
    play_session(config, Start::Resume(Box::new(saved)))
}

/// Gives a saved game up: set at the table again, then abandoned, so its
/// record says so and reveals its seed, and its save is removed.
fn abandon(saved: &Saved) -> Result<(), CliError> {
    let mode = saved.header.rules.mode;
    let players =
        crate::table::player_and_bots(mode, &saved.header.difficulty, bots::Effort::Usual)
            .map_err(|e| CliError::Usage(format!("the saved game {}: {e}", saved.header.id)))?;
    let names = crate::tui::seats::Names::new(mode, &saved.header.name);
    let mut table = crate::table::Table::resume(saved, players, names.all())
        .map_err(|e| CliError::Usage(format!("the saved game {}: {e}", saved.header.id)))?;
    table.abandon();
    if let Some(problem) = table.record_problem() {
        return Err(CliError::Internal(format!(
            "the record could not be closed: {problem}"
        )));
    }
    let mut text = format!("Gave up {}.\n", saved.header.id);
    if let Some(record) = &saved.header.record {
        text.push_str(&where_recorded(std::slice::from_ref(record)));
    }
    say(&text)
}

/// The saves waiting to be resumed, newest first, and those set aside.
fn waiting_games() -> (Vec<Saved>, Vec<SetAside>) {
    match crate::save::saves_dir() {
        Some(dir) => crate::save::waiting(&dir),
        None => (Vec::new(), Vec::new()),
    }
}

/// A terminal the table can be drawn on, or why not.
fn check_terminal() -> Result<(), CliError> {
    if cfg!(unix)
        && let Some(problem) = term_problem(std::env::var_os("TERM").as_deref())
    {
        return Err(CliError::Usage(problem));
    }
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "spades plays in a terminal: run it without redirecting its output (or try `spades sim`)"
                .into(),
        ));
    }
    Ok(())
}

/// What any session at the table needs: how it looks, where it keeps its
/// records and saves.
fn session_config(look: &LookArgs) -> Result<crate::tui::PlayConfig, CliError> {
    Ok(crate::tui::PlayConfig {
        speed: look.speed.parse().map_err(CliError::Usage)?,
        ascii: look.ascii,
        auto_play: !look.no_auto_play,
        effort: look.effort.effort(),
        records: crate::record::records_dir(),
        saves: crate::save::saves_dir(),
        ..crate::tui::PlayConfig::new(Rules::default(), 0)
    })
}

fn play_session(config: crate::tui::PlayConfig, start: Start) -> Result<(), CliError> {
    let outcome = crate::tui::run(config, start).map_err(|e| CliError::Internal(e.to_string()))?;
    report_played(outcome)
}

/// `spades join`: the code is read and the table reached before the
/// terminal is touched, so a wrong code or an unreachable host is said
/// plainly on a terminal left as it was.
fn run_join(args: &JoinArgs) -> Result<(), CliError> {
    let code: crate::net::code::TableCode = args
        .code
        .parse()
        .map_err(|e: crate::net::code::BadCode| CliError::Usage(e.to_string()))?;
    check_terminal()?;
    let name = args.name.clone().unwrap_or_else(login_name);
    let connection =
        crate::net::client::Connection::open(&crate::net::client::Target::from(&code), &name)
            .map_err(CliError::Internal)?;
    let tokens = crate::net::seats_kept::tokens_dir();
    let token = tokens
        .as_deref()
        .and_then(|dir| crate::net::seats_kept::kept(dir, &code.table));
    let shown = code.to_string();
    let joining = crate::tui::Joining {
        table: Some(code.table.clone()),
        token,
        keep_token: keep_tokens(tokens),
        join_command: Box::new(move |_| format!("spades join {shown}")),
    };
    let config = crate::tui::PlayConfig {
        name,
        ..session_config(&args.look)?
    };
    remote_session(config, connection, joining)
}

/// `spades host`: a table on a running server (`--server`), or one served
/// from this process for as long as the host plays.
fn run_host(args: &HostArgs) -> Result<(), CliError> {
    let (rules, source) = effective_rules(&args.table)?;
    let Some(server) = &args.server else {
        return host_here(args, rules, source);
    };
    let (fingerprint, address) = server.split_once('@').ok_or_else(|| {
        CliError::Usage(format!(
            "`{server}` is not a server: give it as `spades serve` prints it, FINGERPRINT@HOST:PORT"
        ))
    })?;
    let fingerprint = match fingerprint {
        "plain" => None,
        fp => Some(fp.to_ascii_uppercase()),
    };
    let (host, port) = address
        .rsplit_once(':')
        .and_then(|(h, p)| Some((h.trim_matches(['[', ']']).to_string(), p.parse().ok()?)))
        .ok_or_else(|| CliError::Usage(format!("`{address}` is not HOST:PORT")))?;
    check_terminal()?;
    let target = crate::net::client::Target {
        address: address.to_string(),
        fingerprint,
    };
    open_table(args, rules, source, &target, host, port)
}

/// Opens a table with `rules` on the server at `target` and plays at it;
/// friends are told to join at `host:port` (where they reach that server).
fn open_table(
    args: &HostArgs,
    rules: Rules,
    source: RulesSource,
    target: &crate::net::client::Target,
    host: String,
    port: u16,
) -> Result<(), CliError> {
    let name = args.name.clone().unwrap_or_else(login_name);
    let connection =
        crate::net::client::Connection::open(target, &name).map_err(CliError::Internal)?;
    let fingerprint = target.fingerprint.clone();
    let joining = crate::tui::Joining {
        table: None,
        token: None,
        keep_token: keep_tokens(crate::net::seats_kept::tokens_dir()),
        join_command: Box::new(move |table| {
            let code = crate::net::code::TableCode {
                table: table.to_string(),
                fingerprint: fingerprint.clone(),
                host: host.clone(),
                port,
            };
            format!("spades join {code}")
        }),
    };
    let config = crate::tui::PlayConfig {
        rules,
        name,
        rules_source: source.to_string(),
        ..session_config(&args.look)?
    };
    remote_session(config, connection, joining)
}

/// Keeps each seat token the server gives, to take the seat back later.
fn keep_tokens(dir: Option<PathBuf>) -> crate::tui::KeepToken {
    Box::new(move |table, token| {
        if let Some(dir) = &dir {
            // A token not kept only means the seat cannot be taken back.
            let _ = crate::net::seats_kept::keep(dir, table, token);
        }
    })
}

fn remote_session(
    config: crate::tui::PlayConfig,
    connection: crate::net::client::Connection,
    joining: crate::tui::Joining,
) -> Result<(), CliError> {
    match crate::tui::run_remote(config, connection, joining)
        .map_err(|e| CliError::Internal(e.to_string()))?
    {
        crate::tui::RemoteEnd::Played(outcome) => report_played(outcome),
        crate::tui::RemoteEnd::Left => Ok(()),
        crate::tui::RemoteEnd::Closed(why) => Err(CliError::Internal(format!(
            "the table ended before its game: {why}"
        ))),
    }
}

/// Says where the session's games went, and how it ended.
fn report_played(outcome: crate::tui::Outcome) -> Result<(), CliError> {
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
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    }
    if let Some(problem) = &played.record_problem {
        let _ = writeln!(
            std::io::stderr(),
            "spades: the game record could not be written: {problem}"
        );
    }
    match outcome.ending {
        Ok(crate::tui::Ending::Quit) => Ok(()),
        Ok(ending) => Err(CliError::Stopped {
            why: ending.to_string(),
            code: ending.exit_code(),
        }),
        Err(e) => Err(CliError::Internal(e.to_string())),
    }
}

/// `spades replay`: the record is found, read and replayed through the
/// engine before the terminal is touched, so a bad one is reported with
/// its file and line on a terminal left as it was.
fn run_replay(args: &ReplayArgs) -> Result<(), CliError> {
    let path =
        crate::records_folder::find_record(&args.record, crate::record::records_dir().as_deref())
            .map_err(|e| CliError::Usage(e.to_string()))?;
    let file = path.display().to_string();
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError::Usage(format!("{file}: cannot read: {e}")))?;
    let games = crate::record::read_games(&text).map_err(|e| {
        CliError::Usage(format!(
            "{file}:{}: not a game record spades can read: {}",
            e.line, e.message
        ))
    })?;
    let count = games.len();
    let n = args.game as usize;
    let Some(game) = games.get(n - 1) else {
        return Err(CliError::Usage(match count {
            0 => format!("{file} holds no game"),
            1 => format!("{file} holds 1 game: there is no game {n}"),
            _ => format!("{file} holds {count} games: --game takes 1 to {count}"),
        }));
    };
    let story = crate::review::Story::from_record(game).map_err(|e| {
        CliError::Usage(format!(
            "{file}:{}: game {n} does not replay: {}",
            e.line, e.message
        ))
    })?;
    check_terminal()?;
    let name = path
        .file_name()
        .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
    let source = crate::tui::replay::Source::Record {
        name,
        game: n,
        games: count,
    };
    let viewer = crate::tui::replay::Viewer::new(story, source);
    let theme = crate::tui::Theme::from_env(args.ascii);
    match crate::tui::run_replay(viewer, theme) {
        Ok(crate::tui::Ending::Quit) => Ok(()),
        Ok(ending) => Err(CliError::Stopped {
            why: ending.to_string(),
            code: ending.exit_code(),
        }),
        Err(e) => Err(CliError::Internal(e.to_string())),
    }
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

fn run_sim(args: &SimArgs) -> Result<(), CliError> {
    let (rules, _source) = effective_rules(&args.table)?;
    let n = rules.mode.players();
    let lineup = match &args.seats {
        Some(seats) => seats.iter().map(|s| s.trim().to_string()).collect(),
        None => vec![bots::DEFAULT_LEVEL.to_string(); n],
    };
    // Before the record file is created, so a bad lineup truncates nothing.
    sim::check_lineup(rules.mode, &lineup).map_err(|e| match e {
        SimError::UnknownBot(_) => CliError::Usage(format!("--seats: {e}")),
        _ => CliError::Usage(e.to_string()),
    })?;
    // Without --seed each game's seed stays secret until the game ends.
    let seeds = match args.seed {
        Some(seed) => Seeds::Open(seed),
        None => Seeds::Secret(SecretSeeds::draw().map_err(|e| CliError::Internal(e.to_string()))?),
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
        SimError::Record(_) | SimError::Bot { .. } => CliError::Internal(e.to_string()),
        _ => CliError::Usage(e.to_string()),
    })?;
    if args.json {
        let json = serde_json::to_string(&report).map_err(|e| CliError::Internal(e.to_string()))?;
        say(&format!("{json}\n"))?;
    } else {
        say(&sim::render_table(&report))?;
        if let Some(path) = &args.record {
            say(&format!("\nrecords written to {}\n", path.display()))?;
        }
    }
    Ok(())
}

fn run_verify(args: &VerifyArgs) -> Result<(), CliError> {
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
        return Err(CliError::Usage(unreadable.join("\n")));
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
    crate::record::records_dir().ok_or_else(|| {
        CliError::Usage(
            "cannot tell where your games are recorded: no home or data directory is set".into(),
        )
    })
}

/// The player's games, or why the records folder cannot be read.
fn read_history() -> Result<(PathBuf, History), CliError> {
    let dir = records_folder()?;
    let history = History::read(&dir).map_err(|e| CliError::Usage(e.to_string()))?;
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
    Err(CliError::Usage(format!(
        "{n} {what} could not be read and {were} left out:\n{}",
        unreadable
            .iter()
            .map(|u| format!("  {u}"))
            .collect::<Vec<_>>()
            .join("\n")
    )))
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, CliError> {
    serde_json::to_string_pretty(value)
        .map(|j| j + "\n")
        .map_err(|e| CliError::Internal(e.to_string()))
}

fn run_history(args: &HistoryArgs) -> Result<(), CliError> {
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

fn run_export(args: &ExportArgs) -> Result<(), CliError> {
    let dir = records_folder()?;
    let folder = history::read_folder(&dir).map_err(|e| CliError::Usage(e.to_string()))?;
    let found = history::find(&folder, &args.id).map_err(|e| {
        let mut why = format!("{e}\n  records folder: {}", dir.display());
        if let Err(CliError::Usage(left_out)) = left_out(&folder.unreadable) {
            why.push('\n');
            why.push_str(&left_out);
        }
        CliError::Usage(why)
    })?;
    let path = match &args.path {
        Some(path) => path.clone(),
        None if history::plain_name(&found.id) => PathBuf::from(format!("{}.jsonl", found.id)),
        None => {
            return Err(CliError::Usage(format!(
                "the game's id {:?} is not a plain file name: say where to write it (spades export ID PATH)",
                found.id
            )));
        }
    };
    let bytes = found
        .record_bytes()
        .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", found.file.display())))?;
    let mut file = open_record(&path, args.force)?;
    file.write_all(&bytes)
        .and_then(|()| file.flush())
        .map_err(|e| CliError::Usage(cannot_write(&path, &e)))?;
    say(&format!("wrote {} (game {})\n", path.display(), found.id))
}

/// `spades stats --json`: the statistics, the rating, and what was read.
#[derive(serde::Serialize)]
struct StatsReport<'a> {
    #[serde(flatten)]
    stats: &'a Stats,
    rating: rating::Summary<'a>,
    records_folder: &'a Path,
    record_files: usize,
    unreadable: &'a [Unreadable],
}

fn run_stats(args: &StatsArgs) -> Result<(), CliError> {
    let (dir, history) = read_history()?;
    let stats = Stats::of(&history.games);
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
        say(&to_json(&StatsReport {
            stats: &stats,
            rating: (&ledger).into(),
            records_folder: &dir,
            record_files: history.files,
            unreadable: &history.unreadable,
        })?)?;
        if args.rebuild {
            // On stderr, so that the output stays one JSON object.
            let _ = std::io::stderr().write_all(rebuilt.as_bytes());
        }
    } else {
        let mut out = String::new();
        for line in stats::render(&stats, &ledger) {
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

/// Opens a new record file, or with `force` empties an existing one. A
/// record is not overwritten by default: rerunning a command should not
/// lose a long run's games.
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
        .map_err(|e| CliError::Usage(cannot_write(path, &e)))
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

fn run_rules(args: &RulesArgs) -> Result<(), CliError> {
    if args.presets {
        let width = presets::PRESETS
            .iter()
            .map(|p| p.name.len())
            .max()
            .unwrap_or(0);
        let list: String = presets::PRESETS
            .iter()
            .map(|p| format!("{:width$}  {}\n", p.name, p.about()))
            .collect();
        return say(&format!(
            "{list}\nPlay one with `spades --preset NAME`; see its rules with `spades rules --preset NAME`.\n"
        ));
    }
    let preset = args.preset.as_deref().map(preset_rules).transpose()?;
    if let Some(path) = &args.init {
        if path.exists() {
            return Err(CliError::Usage(format!(
                "{} already exists; it was left as it is (remove it or pick another path)",
                path.display()
            )));
        }
        let rules = match (&preset, &args.rules) {
            (Some((rules, _)), _) => *rules,
            (None, Some(from)) => config::read_rules(from)?,
            (None, None) => Rules::default(),
        };
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", path.display())))?;
        file.write_all(config::commented_toml(&rules).as_bytes())
            .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", path.display())))?;
        say(&format!("wrote {}\n", path.display()))?;
        return Ok(());
    }
    let (rules, source) = match preset {
        Some(found) => found,
        None => config::find_rules(args.rules.as_deref())?,
    };
    say(&format!(
        "# rules from: {source}\n{}",
        config::commented_toml(&rules)
    ))
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port, printed at the start)
    #[arg(long, value_name = "P")]
    pub port: u16,
    /// The address to listen on (default: every IPv4 address of this machine)
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0")]
    pub listen: std::net::IpAddr,
    /// No TLS, for debugging: refused unless --listen is a loopback address
    #[arg(long)]
    pub insecure_plain: bool,
    /// A bot makes a person's decision when they take longer than this
    /// (default: no limit)
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub turn_timer: Option<u64>,
    /// A program of this machine's (exec:COMMAND) offered to every host as
    /// one more bot level
    #[arg(long, value_name = "exec:COMMAND", value_parser = own_program)]
    pub bot: Option<String>,
}

/// `spades serve`: the table server alone, until Ctrl-C or a stop signal,
/// when everyone at a table is told it is shutting down.
fn run_serve(args: &ServeArgs) -> Result<(), CliError> {
    use crate::net::server::{Server, ServerOptions};
    if args.insecure_plain && !args.listen.is_loopback() {
        return Err(CliError::Usage(format!(
            "--insecure-plain turns TLS off, so it listens only on a loopback address: add --listen 127.0.0.1 (not {})",
            args.listen
        )));
    }
    let options = ServerOptions {
        listen: std::net::SocketAddr::new(args.listen, args.port),
        plain: args.insecure_plain,
        turn_timer: args.turn_timer.map(std::time::Duration::from_secs),
        own_bot: args.bot.clone(),
        ..ServerOptions::default()
    };
    let signals = crate::tui::terminal::StopSignals::watch()
        .map_err(|e| CliError::Internal(format!("cannot watch for stop signals: {e}")))?;
    let server = Server::start(options).map_err(CliError::Usage)?;
    let address = server.address();
    let host = match address.ip() {
        ip if ip.is_unspecified() => "HOST".to_string(),
        std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        ip => ip.to_string(),
    };
    let mut text = format!(
        "spades serve: listening on {address} ({})\n",
        if args.insecure_plain {
            "plain, no TLS"
        } else {
            "TLS"
        }
    );
    if let Some(fp) = server.fingerprint() {
        text.push_str(&format!("fingerprint: {fp}\n"));
    }
    text.push_str(&format!(
        "open a table: spades host --server {}@{host}:{}\n",
        server.fingerprint().unwrap_or("plain"),
        address.port()
    ));
    if host == "HOST" {
        text.push_str("  (HOST: this machine's name or address, as the players reach it)\n");
    }
    text.push_str("Ctrl-C stops the server; everyone at a table is told.\n");
    say(&text)?;
    while signals.received().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    say("spades serve: stopping\n")?;
    server.stop();
    Ok(())
}

/// Prints to stdout. A reader that has gone away (`spades sim | head`) is
/// not an error worth a message; any other failure is.
fn say(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Internal(format!(
            "cannot write to the output: {e}"
        ))),
        _ => Ok(()),
    }
}

/// `spades host` with the table served from this process for as long as
/// the host plays: friends reach it at this machine's address on its
/// network (or `--address`), and the host's own screen is a client of it
/// like theirs, so the server is the one authority for everyone.
fn host_here(args: &HostArgs, rules: Rules, source: RulesSource) -> Result<(), CliError> {
    use crate::net::server::{Server, ServerOptions};
    check_terminal()?;
    let ip = if args.insecure_plain {
        std::net::Ipv4Addr::LOCALHOST
    } else {
        std::net::Ipv4Addr::UNSPECIFIED
    };
    let server = Server::start(ServerOptions {
        listen: std::net::SocketAddr::from((ip, args.port)),
        plain: args.insecure_plain,
        turn_timer: args.turn_timer.map(std::time::Duration::from_secs),
        own_bot: args.bot.clone(),
        ..ServerOptions::default()
    })
    .map_err(|e| CliError::Internal(format!("cannot open the table on port {}: {e}", args.port)))?;
    let port = server.address().port();
    let target = crate::net::client::Target {
        address: format!("127.0.0.1:{port}"),
        fingerprint: server.fingerprint().map(str::to_string),
    };
    let host = match (&args.address, args.insecure_plain) {
        (Some(address), _) => address.clone(),
        (None, true) => "127.0.0.1".to_string(),
        (None, false) => lan_address().unwrap_or_else(|| "127.0.0.1".to_string()),
    };
    let played = open_table(args, rules, source, &target, host, port);
    // Everyone still at the table is told it has closed.
    server.stop();
    played
}

/// This machine's address on the network its default route leads to, as
/// friends on that network reach it. Connecting a UDP socket sends nothing:
/// it only picks the way out.
fn lan_address() -> Option<String> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then(|| ip.to_string())
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
