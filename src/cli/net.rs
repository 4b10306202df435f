//! Playing with friends: `spades host` (a table served from this process,
//! or opened on a running server), `spades join` and `spades serve`.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use clap::Args;
use clap::builder::RangedI64ValueParser;

use crate::bots::BotSpec;
use crate::config::RulesSource;
use crate::engine::Rules;
use crate::net::certificate::CertificateError;
use crate::net::client::account::{self, Credentials, SignInError, SignedIn};
use crate::net::client::seating::{Joining, Seeking};
use crate::net::client::seats_kept;
use crate::net::client::{Connection, Target};
use crate::net::code::{ServerAddress, TableCode, Trust, lan_address};
use crate::net::server::{Server, ServerError, ServerOptions};
use crate::paths;
use crate::tui::spoken::{self, remote::Voice};
use crate::tui::{Ending, PlayConfig, RemoteEnd};

use super::account::login_name;
use super::args::{LookArgs, RulesFlags, own_program};
use super::play::{look_config, report_played};
use super::{CliError, check_terminal};

#[derive(Debug, Clone, Args)]
pub struct HostArgs {
    #[command(flatten)]
    pub table: RulesFlags,
    /// Your name at the table (default: your login name)
    #[arg(long)]
    pub name: Option<String>,
    /// The port friends connect to
    #[arg(long, allow_negative_numbers = true, default_value_t = 4466)]
    pub port: u16,
    /// The address friends reach this machine by, shown in the table's code
    /// (default: this machine's address on its network)
    #[arg(long, value_name = "HOST")]
    pub address: Option<String>,
    /// Open the table on a running `spades serve` instead, given as it
    /// prints itself: FINGERPRINT@HOST:PORT (or HOST:PORT for a server
    /// whose certificate an authority signed)
    #[arg(long, value_name = "FINGERPRINT@HOST:PORT", conflicts_with_all = ["port", "address"])]
    pub server: Option<ServerAddress>,
    /// List the table in the server's lobby, for anyone to join (default:
    /// private, joined only by its code)
    #[arg(long)]
    pub public: bool,
    /// No encryption: for debugging on this machine (loopback) only
    #[arg(long)]
    pub insecure_plain: bool,
    /// Let a bot act for a player who has not acted within this many seconds
    #[arg(long, allow_negative_numbers = true, value_name = "SECONDS", value_parser = RangedI64ValueParser::<u64>::new().range(5..=3600))]
    pub turn_timer: Option<u64>,
    /// A program of your own (exec:COMMAND) offered in the lobby as one
    /// more bot level (`l`), for a table served from this process
    #[arg(long, value_name = "exec:COMMAND", value_parser = own_program, conflicts_with = "server")]
    pub bot: Option<BotSpec>,
    #[command(flatten)]
    pub look: LookArgs,
}

#[derive(Debug, Clone, Args)]
pub struct JoinArgs {
    /// The table's code, as the host's screen shows it:
    /// TABLE.FINGERPRINT@HOST:PORT (TABLE@HOST:PORT for a server whose
    /// certificate an authority signed)
    #[arg(value_name = "CODE")]
    pub code: TableCode,
    /// Your name at the table (default: your login name)
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub look: LookArgs,
}

/// `spades join`: the code is read and the table reached before the
/// terminal is touched, so a wrong code or an unreachable host is said
/// plainly on a terminal left as it was.
pub(super) fn join(args: &JoinArgs) -> Result<(), CliError> {
    let code = &args.code;
    let mut config = look_config(&args.look)?;
    let mut voice = voice_for(&config)?;
    let name = args.name.clone().unwrap_or_else(login_name);
    let (connection, signed) = connect_signed(&Target::from(code), name)?;
    config.game.name = signed.name;
    let address = connection.target().address.clone();
    let end = sit_at(config, connection, code, voice.as_mut())?;
    ended_alone(end, &code.table, &address, voice.as_mut())
}

/// The terminal in lines for the screen-reader mode (which works on
/// pipes too); else the full screen, checked before it is taken.
pub(super) fn voice_for(config: &PlayConfig) -> Result<Option<Voice>, CliError> {
    if config.preferences.screen_reader {
        return Ok(Some(Voice::stdio(&config.preferences)?));
    }
    check_terminal()?;
    Ok(None)
}

/// A seat at a shared table, on the full screen or in lines.
fn seat_at(
    config: PlayConfig,
    connection: Connection,
    joining: Joining,
    voice: Option<&mut Voice>,
) -> Result<RemoteEnd, CliError> {
    Ok(match voice {
        Some(voice) => spoken::remote::run_remote(config, connection, joining, voice)?,
        None => crate::tui::run_remote(config, connection, joining)?,
    })
}

/// Sits at the table `code` names through `connection` (hello said,
/// signed in), taking back the seat kept for it if there is one, and
/// plays there; says how it ended.
pub(super) fn sit_at(
    config: PlayConfig,
    connection: Connection,
    code: &TableCode,
    voice: Option<&mut Voice>,
) -> Result<RemoteEnd, CliError> {
    let tokens = paths::seat_tokens();
    let token = tokens
        .as_deref()
        .and_then(|dir| seats_kept::kept(dir, &code.table));
    let shown = code.to_string();
    let joining = Joining {
        table: Some(code.table.clone()),
        seeking: Seeking::Private,
        token,
        keep_token: seats_kept::keeper(tokens),
        code: Box::new(move |_| shown.clone()),
    };
    seat_at(config, connection, joining, voice)
}

/// `spades host`: a table on a running server (`--server`), or one served
/// from this process for as long as the host plays.
pub(super) fn host(args: &HostArgs) -> Result<(), CliError> {
    let (rules, source) = args.table.rules()?;
    let Some(server) = &args.server else {
        return host_here(args, rules, source);
    };
    let target = server.target();
    open_table(
        args,
        rules,
        source,
        &target,
        server.host.clone(),
        server.port,
    )
}

/// Opens a table with `rules` on the server at `target` and plays at it;
/// friends are told to join at `host:port` (where they reach that server).
fn open_table(
    args: &HostArgs,
    rules: Rules,
    source: RulesSource,
    target: &Target,
    host: String,
    port: u16,
) -> Result<(), CliError> {
    let mut config = look_config(&args.look)?;
    let mut voice = voice_for(&config)?;
    let name = args.name.clone().unwrap_or_else(login_name);
    let (connection, signed) = connect_signed(target, name)?;
    config.game.rules = rules;
    config.game.name = signed.name;
    config.game.rules_source = source.to_string();
    // Without --server the table is served from this program.
    config.serves_table = args.server.is_none();
    let seeking = if args.public {
        Seeking::Public
    } else {
        Seeking::Private
    };
    let address = connection.target().address.clone();
    let end = host_on(config, connection, seeking, host, port, voice.as_mut())?;
    ended_alone(end, "", &address, voice.as_mut())
}

/// Finds a seat as `seeking` says through `connection` (hello said,
/// signed in): opens a table with `config`'s rules as its host, or waits
/// for quick match; then plays there, and says how it ended. Friends are
/// told to join at `host:port`.
pub(super) fn host_on(
    config: PlayConfig,
    connection: Connection,
    seeking: Seeking,
    host: String,
    port: u16,
    voice: Option<&mut Voice>,
) -> Result<RemoteEnd, CliError> {
    let trust = connection.target().trust.clone();
    let joining = Joining {
        table: None,
        seeking,
        token: None,
        keep_token: seats_kept::keeper(paths::seat_tokens()),
        code: Box::new(move |table| {
            let code = TableCode {
                table: table.to_string(),
                trust: trust.clone(),
                host: host.clone(),
                port,
            };
            code.to_string()
        }),
    };
    seat_at(config, connection, joining, voice)
}

/// Connects to the server at `target`, says hello as `name` and signs in
/// when it keeps a ladder (registering `name` the first time).
/// A server whose ladder is unavailable is said so on standard error,
/// before the terminal is taken.
pub(super) fn connect_signed(
    target: &Target,
    name: String,
) -> Result<(Connection, SignedIn), CliError> {
    let (connection, signed, unavailable) = connect_signed_quietly(target, name)?;
    if unavailable {
        eprintln!("{LADDER_UNAVAILABLE}");
    }
    Ok((connection, signed))
}

/// `connect_signed`, saying nothing (the terminal is the screen's):
/// whether the server's ladder is unavailable is returned.
pub(super) fn connect_signed_quietly(
    target: &Target,
    name: String,
) -> Result<(Connection, SignedIn, bool), CliError> {
    let mut connection = Connection::open(target, &name).map_err(CliError::Failed)?;
    let offer = account::welcome_offer(&mut connection).map_err(lost)?;
    let signed = signed_in(&mut connection, offer.challenge, name)?;
    Ok((connection, signed, offer.ladder_unavailable))
}

/// Said when a server's ladder is down: its games go on, unrated.
const LADDER_UNAVAILABLE: &str = "spades: the server's ladder is unavailable (its database does not answer): \
     nobody can sign in, and this game is played unrated";

/// Signs in with the welcome's `challenge` when the server offers one,
/// registering `name` the first time: the name the player sits under (the account's, once signed in)
/// and the account's ratings (none without a ladder).
fn signed_in(
    connection: &mut Connection,
    challenge: Option<String>,
    name: String,
) -> Result<SignedIn, CliError> {
    let Some(nonce) = challenge else {
        return Ok(SignedIn {
            name,
            ratings: Vec::new(),
            moved_from: None,
        });
    };
    let (identity, _) = super::account::identity()?;
    let ring = super::account::keyring()?;
    let retired = super::account::retired_keys(&ring)?;
    let credentials = Credentials {
        identity: &identity,
        register_as: Some(&name),
        retired: &retired,
    };
    match account::answer(connection, &credentials, &nonce) {
        Ok(signed) => {
            super::account::remember(&ring, connection, &signed);
            Ok(signed)
        }
        Err(SignInError::Lost(why)) => Err(CliError::Failed(why)),
        Err(refused) => Err(CliError::BadInput(sign_in_refused(&name, &refused))),
    }
}

/// A refused sign-in in the player's terms: another name (`--name`) is
/// advised only when the name is what was refused; a limit on new
/// accounts is the server's own words, which say when to try again.
fn sign_in_refused(name: &str, refused: &SignInError) -> String {
    use crate::protocol::ErrorCode;
    let name = crate::outside::clean(name);
    match refused {
        SignInError::Refused {
            code:
                ErrorCode::NameTaken
                | ErrorCode::NameLookAlike
                | ErrorCode::BotName
                | ErrorCode::BadName,
            message,
        } => format!(
            "cannot sign in as {name}: {}",
            advised(message, "choose another name", "with --name NAME")
        ),
        SignInError::Refused {
            code: ErrorCode::TooManyRegistrations,
            message,
        } => format!("cannot register {name} on this server now: {message}"),
        other => format!("cannot sign in as {name}: {other}"),
    }
}

/// `text` with `how` to follow its `advice`: appended where the text ends
/// by giving that advice already ("…: choose another" + " with --name"),
/// else the whole advice in brackets, so that no advice is said twice.
pub(super) fn advised(text: &str, advice: &str, how: &str) -> String {
    let text = text.trim_end();
    // "choose another name" is advised by "choose another" too.
    let short = advice.strip_suffix(" name").unwrap_or(advice);
    let gives = |said: &str| text.ends_with(said) || text.ends_with(&format!("{said}."));
    if gives(advice) || gives(short) {
        format!("{} {how}", text.trim_end_matches('.'))
    } else {
        format!("{text} ({advice} {how})")
    }
}

fn lost(e: SignInError) -> CliError {
    CliError::Failed(e.to_string())
}

/// What `spades join` and `spades host` say as they end, the seat left:
/// where the game was recorded, or why there was none (`asked`: the
/// table asked for at `address`).
fn ended_alone(
    end: RemoteEnd,
    asked: &str,
    address: &str,
    voice: Option<&mut Voice>,
) -> Result<(), CliError> {
    // In lines, a seat left before its game is said; the other endings
    // are said as the error they end the program with.
    if let (Some(voice), RemoteEnd::Left) = (voice, &end)
        && let Some(line) = spoken::remote::ending_line(&end)
    {
        voice.say(&line);
    }
    match end {
        RemoteEnd::Played(outcome) => report_played(outcome),
        // Ctrl-C before the game only leaves the table's lobby.
        RemoteEnd::Left | RemoteEnd::Stopped(Ending::Interrupted) => Ok(()),
        RemoteEnd::Stopped(ending) => Err(CliError::Stopped {
            why: ending.to_string(),
            code: ending.exit_code(),
        }),
        RemoteEnd::NoTable => Err(CliError::BadInput(format!(
            "no such table {} at {address} (the code is mistyped, or the table has closed)",
            shown_id(asked)
        ))),
        RemoteEnd::Closed(why) => Err(CliError::Failed(format!(
            "the table ended before its game: {why}"
        ))),
    }
}

/// A table id as said back to the player: a code's id is only letters
/// and digits (`TableCode` checks), but of any length; a long one is cut.
pub(super) fn shown_id(id: &str) -> String {
    const SHOWN: usize = 16;
    if id.chars().count() > SHOWN {
        format!("{}...", id.chars().take(SHOWN).collect::<String>())
    } else {
        id.to_string()
    }
}

/// A server that cannot start: the address asked for is bad input (the
/// same for `host` and `serve`), the machine's own trouble a failure.
pub(super) fn server_error(e: ServerError) -> CliError {
    if let ServerError::Store(_) = e {
        return CliError::BadInput(advised(&e.to_string(), "give another", "with --db"));
    }
    if let ServerError::Certificate(CertificateError::File { .. }) = e {
        return CliError::BadInput(e.to_string());
    }
    if e.is_bad_input() {
        CliError::BadInput(format!("{e} (choose another --port, or free this one)"))
    } else {
        CliError::Failed(e.to_string())
    }
}

/// `spades host` with the table served from this process for as long as
/// the host plays: friends reach it at this machine's address on its
/// network (or `--address`), and the host's own screen is a client of it
/// like theirs, so the server is the one authority for everyone.
fn host_here(args: &HostArgs, rules: Rules, source: RulesSource) -> Result<(), CliError> {
    // The terminal is checked before a server is started for it.
    if !look_config(&args.look)?.preferences.screen_reader {
        check_terminal()?;
    }
    let ip = if args.insecure_plain {
        Ipv4Addr::LOCALHOST
    } else {
        Ipv4Addr::UNSPECIFIED
    };
    let server = Server::start(ServerOptions {
        listen: SocketAddr::from((ip, args.port)),
        plain: args.insecure_plain,
        turn_timer: args.turn_timer.map(Duration::from_secs),
        own_bot: args.bot.clone(),
        host_is_the_server: true,
        ..ServerOptions::default()
    })
    .map_err(server_error)?;
    let port = server.address().port();
    let target = Target {
        address: format!("127.0.0.1:{port}"),
        trust: Trust::of(server.fingerprint()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ErrorCode;
    use clap::Parser;

    /// Advice the server's words already give is finished, not repeated;
    /// advice they lack is added whole.
    #[test]
    fn advice_is_said_once() {
        let refused = |code, message: &str| SignInError::Refused {
            code,
            message: message.into(),
        };
        let taken = refused(
            ErrorCode::NameTaken,
            "the name `u3` is taken: choose another",
        );
        assert_eq!(
            sign_in_refused("u3", &taken),
            "cannot sign in as u3: the name `u3` is taken: choose another with --name NAME"
        );
        let bot = refused(
            ErrorCode::BotName,
            "`North` could pass for a computer player or a seat: choose another name",
        );
        let said = sign_in_refused("North", &bot);
        assert!(
            said.ends_with("choose another name with --name NAME"),
            "{said}"
        );
        let empty = refused(
            ErrorCode::BadName,
            "a name needs at least one letter or digit",
        );
        let said = sign_in_refused("--", &empty);
        assert!(
            said.ends_with("digit (choose another name with --name NAME)"),
            "{said}"
        );
        // Another name does not get round a limit on new accounts.
        let limit = refused(
            ErrorCode::TooManyRegistrations,
            "this server registers at most 5 accounts an hour from one address: try again in 42 minutes",
        );
        let said = sign_in_refused("u3", &limit);
        assert!(!said.contains("--name"), "{said}");
        assert!(said.ends_with("try again in 42 minutes"), "{said}");
        assert_eq!(
            advised(
                "x is not a spades ladder: give another",
                "give another",
                "with --db"
            ),
            "x is not a spades ladder: give another with --db"
        );
        assert_eq!(
            advised("cannot open x: refused", "give another", "with --db"),
            "cannot open x: refused (give another with --db)"
        );
    }

    #[test]
    fn a_hosted_table_is_private_unless_made_public() {
        let host = |args: &[&str]| {
            let cli =
                crate::cli::Cli::try_parse_from([&["spades", "host"], args].concat()).unwrap();
            let Some(crate::cli::Command::Host(args)) = cli.command else {
                panic!("not host")
            };
            args.public
        };
        assert!(!host(&[]));
        assert!(host(&["--public", "--server", "plain@127.0.0.1:4466"]));
    }
}
