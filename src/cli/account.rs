//! `spades account` (the player's key: show, export, import, rotate) and
//! `spades ladder` (a server's ladder).

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use sha2::{Digest, Sha256};

use crate::engine::Mode;
use crate::ladder::keyring::Keyring;
use crate::ladder::keys::Identity;
use crate::net::client::Connection;
use crate::net::client::account::{self, Credentials, SignInError, SignedIn};
use crate::net::code::ServerAddress;
use crate::paths;
use crate::protocol::account::{MAX_ROWS, Rated, Rung, hex};
use crate::protocol::{ClientMessage, ServerMessage};

use super::args::ModeArg;
use super::{CliError, say};

#[derive(Debug, Clone, Args)]
pub struct AccountArgs {
    #[command(subcommand)]
    pub action: AccountAction,
}

#[derive(Debug, Clone, Subcommand)]
pub enum AccountAction {
    /// Your public key, its short form, where the key file is, and the
    /// old keys kept with the servers that still know them
    Show,
    /// Print your key as text, to import on another machine (keep it
    /// secret: it signs in as you)
    Export,
    /// Use a key exported on another machine (TEXT, or - to read it from
    /// standard input)
    Import {
        #[arg(value_name = "TEXT|-")]
        text: String,
        /// Replace the key this machine has (its accounts are lost unless
        /// rotated or exported first)
        #[arg(long)]
        force: bool,
    },
    /// Make a new key and move your account on the server at CODE to it;
    /// the old key is kept, and moves your account on any other server
    /// at your next sign-in there
    Rotate {
        #[arg(value_name = "FINGERPRINT@HOST:PORT")]
        code: ServerAddress,
    },
}

#[derive(Debug, Clone, Args)]
pub struct LadderArgs {
    /// The server, as `spades serve` prints it: FINGERPRINT@HOST:PORT
    #[arg(value_name = "CODE")]
    pub code: ServerAddress,
    /// The mode's ladder
    #[arg(long, value_enum, default_value = "partnership")]
    pub mode: ModeArg,
    /// The rows as JSON
    #[arg(long)]
    pub json: bool,
}

/// The most an imported key's text may be.
const MOST_KEY_TEXT: u64 = 4096;

fn key_path() -> Result<PathBuf, CliError> {
    paths::account_key()
        .ok_or_else(|| CliError::Failed("the system names no data folder for the key".into()))
}

fn key_error(e: crate::ladder::keys::KeyError) -> CliError {
    use crate::ladder::keys::KeyError;
    match e {
        KeyError::BadExport(_) | KeyError::Exists(_) | KeyError::OpenToOthers { .. } => {
            CliError::BadInput(e.to_string())
        }
        _ => CliError::Failed(e.to_string()),
    }
}

/// The name a player is shown by at a shared table: the login name, until
/// `--name` says otherwise (the server cuts it to what the table shows).
pub(super) fn login_name() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .ok()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "Player".to_string())
}

/// What the player's machine remembers beside their key.
pub(super) fn keyring() -> Result<Keyring, CliError> {
    Ok(Keyring::new(key_path()?))
}

/// The keys the player rotated away from, newest first: an account a
/// server knows by one of them is moved to the key in use at sign-in.
pub(super) fn retired_keys(ring: &Keyring) -> Result<Vec<Identity>, CliError> {
    let retired = ring.retired().map_err(key_error)?;
    Ok(retired.into_iter().map(|r| r.identity).collect())
}

/// Remembers that the key in use signed in at `connection`'s server (and
/// that a retired key it moved the account from is known there no more).
/// Not remembered, the account still works: said, and play goes on.
pub(super) fn remember(ring: &Keyring, connection: &Connection, signed: &SignedIn) {
    let server = connection.target().server();
    if let Err(e) = ring.signed_in(&server, signed.moved_from.as_ref()) {
        eprintln!("spades: could not note where your key signed in: {e}");
    }
}

/// The player's key, made the first time.
pub(super) fn identity() -> Result<(Identity, PathBuf), CliError> {
    let path = key_path()?;
    let identity = Identity::load_or_create(&path).map_err(key_error)?;
    Ok((identity, path))
}

pub(super) fn account(args: &AccountArgs) -> Result<(), CliError> {
    match &args.action {
        AccountAction::Show => {
            let mut text = shown_key()?;
            for old in keyring()?.retired().map_err(key_error)? {
                text.push_str(&format!(
                    "old key {}: ",
                    short_form(old.identity.public_key().as_bytes())
                ));
                text.push_str(&still_known(&old.known_on));
            }
            say(&text)
        }
        AccountAction::Export => say(&format!("{}\n", identity()?.0.export())),
        AccountAction::Import { text, force } => import(text, *force),
        AccountAction::Rotate { code } => rotate(code),
    }
}

/// The key in use as `show` says it; only read, never made: a key made
/// here would stand in the way of importing the player's own.
fn shown_key() -> Result<String, CliError> {
    use crate::ladder::keys::KeyError;
    let path = key_path()?;
    match Identity::load(&path) {
        Ok(identity) => {
            let key = identity.public_key();
            Ok(format!(
                "public key: {}\nshort form: {}\nkey file:   {}\n",
                hex(key.as_bytes()),
                short_form(key.as_bytes()),
                path.display()
            ))
        }
        Err(KeyError::File { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(format!(
                "no key on this machine yet (it would be kept in {}):\n  \
                 one is made the first time you sign in to a server (spades join, spades lobby,\n  \
                 spades host --server), or bring yours from another machine with\n  \
                 `spades account import TEXT` (TEXT from `spades account export` there)\n",
                path.display()
            ))
        }
        Err(e) => Err(key_error(e)),
    }
}

/// A key's short form to compare by eye: 16 base32 letters of its hash,
/// in fours.
fn short_form(key: &[u8]) -> String {
    let text = data_encoding::BASE32_NOPAD.encode(&Sha256::digest(key));
    let letters: Vec<char> = text.chars().take(16).collect();
    letters
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

fn import(text: &str, force: bool) -> Result<(), CliError> {
    let text = if text == "-" {
        let mut read = String::new();
        std::io::stdin()
            .take(MOST_KEY_TEXT)
            .read_to_string(&mut read)
            .map_err(|e| CliError::BadInput(format!("cannot read the key from the input: {e}")))?;
        read
    } else {
        text.to_string()
    };
    let identity = Identity::import(&text).map_err(key_error)?;
    let path = key_path()?;
    if path.exists() && !force {
        return Err(CliError::BadInput(format!(
            "{} holds a key already: export it first if it has accounts, then import with --force",
            path.display()
        )));
    }
    replace_key(&identity, &path)?;
    keyring()?.new_key().map_err(key_error)?;
    say(&format!(
        "imported the key {} into {}\n",
        short_form(identity.public_key().as_bytes()),
        path.display()
    ))
}

/// Puts `identity` at `path` in one step: written beside it, then moved
/// over it, so no moment leaves the player without a key.
fn replace_key(identity: &Identity, path: &Path) -> Result<(), CliError> {
    let beside = path.with_extension("key.new");
    let _ = std::fs::remove_file(&beside);
    identity.save_new(&beside).map_err(key_error)?;
    std::fs::rename(&beside, path)
        .map_err(|e| CliError::Failed(format!("cannot put the key at {}: {e}", path.display())))
}

fn connect(code: &ServerAddress) -> Result<Connection, CliError> {
    Connection::open(&code.target(), &login_name()).map_err(CliError::Failed)
}

fn refused(e: SignInError) -> CliError {
    match e {
        SignInError::Lost(why) => CliError::Failed(why),
        other => CliError::BadInput(other.to_string()),
    }
}

fn rotate(code: &ServerAddress) -> Result<(), CliError> {
    let path = key_path()?;
    let old = Identity::load(&path).map_err(key_error)?;
    let ring = keyring()?;
    let retired = retired_keys(&ring)?;
    let mut connection = connect(code)?;
    let credentials = Credentials {
        identity: &old,
        register_as: None,
        retired: &retired,
    };
    let signed = account::sign_in(&mut connection, &credentials)
        .map_err(refused)?
        .ok_or_else(|| CliError::BadInput("that server keeps no accounts".into()))?;
    remember(&ring, &connection, &signed);
    let new = Identity::generate().map_err(key_error)?;
    let name = account::rotate(&mut connection, &old, &new.public_key()).map_err(refused)?;
    // The old key is kept before the new one takes its place: no moment
    // loses the key other servers know the account by.
    let still = ring
        .retire(&old, &connection.target().server())
        .map_err(key_error)?;
    replace_key(&new, &path)?;
    // `name` is the account's name as the server has it now.
    let mut text = format!(
        "the account {} now has the key {}, kept in {}\n",
        name,
        short_form(new.public_key().as_bytes()),
        path.display()
    );
    text.push_str(&format!(
        "the old key {} is kept, to move your accounts on other servers;\n",
        short_form(old.public_key().as_bytes())
    ));
    text.push_str(&still_known(&still));
    say(&text)
}

/// The servers that still know an old key, as said to the player.
fn still_known(servers: &[String]) -> String {
    if servers.is_empty() {
        return "no server this machine signed in to still knows it\n".into();
    }
    let mut text =
        "still known on these servers (your account there moves to the new key at your next sign-in there):\n"
            .to_string();
    for server in servers {
        text.push_str(&format!("  {}\n", crate::outside::clean(server)));
    }
    text
}

pub(super) fn ladder(args: &LadderArgs) -> Result<(), CliError> {
    let mut connection = connect(&args.code)?;
    let mode = Mode::from(args.mode);
    let signed = sign_in_if_known(&mut connection)?;
    let (rows, you) = ask_ladder(&mut connection, mode)?;
    if args.json {
        let text =
            serde_json::to_string_pretty(&rows).map_err(|e| CliError::Failed(e.to_string()))?;
        return say(&format!("{text}\n"));
    }
    let mut text = shown(mode, &rows);
    if let (Some(name), Some(games)) = (signed, you) {
        text.push_str(&yours(&name, mode, &games));
    }
    say(&text)
}

/// Signs in with this machine's key where it has one and the server knows
/// it, to be shown the player's own games; the name signed in as. A key
/// is never made nor an account registered just to read the ladder.
fn sign_in_if_known(connection: &mut Connection) -> Result<Option<String>, CliError> {
    let path = key_path()?;
    if !path.exists() {
        return Ok(None);
    }
    let identity = Identity::load(&path).map_err(key_error)?;
    let ring = keyring()?;
    let retired = retired_keys(&ring)?;
    let credentials = Credentials {
        identity: &identity,
        register_as: None,
        retired: &retired,
    };
    match account::sign_in(connection, &credentials) {
        Ok(Some(signed)) => {
            remember(&ring, connection, &signed);
            Ok(Some(signed.name))
        }
        Ok(None) => Ok(None),
        Err(SignInError::Lost(why)) => Err(CliError::Failed(why)),
        // Not known there: the ladder alone.
        Err(SignInError::NoAccount | SignInError::Refused { .. }) => Ok(None),
    }
}

/// The signed-in player's rated games in `mode`, newest first.
fn yours(name: &str, mode: Mode, games: &[Rated]) -> String {
    let name = crate::outside::clean(name);
    if games.is_empty() {
        return format!("\n{name}: no rated {mode} games yet\n");
    }
    let mut text = format!("\n{name}'s rated {mode} games, newest first\n");
    for game in games.iter().rev() {
        let when = u64::try_from(game.finished)
            .map_or_else(|_| "-".to_string(), crate::history::utc_minute);
        let change = game.after - game.before;
        text.push_str(&format!(
            "  {when} UTC  {:>5} -> {:>5}  ({change:+}, ± {})\n",
            game.before, game.after, game.deviation
        ));
    }
    text
}

/// A mode's ladder from the server, at most `MAX_ROWS` rows, and the
/// signed-in player's own rated games in it (at most as many).
pub(super) fn ask_ladder(
    connection: &mut Connection,
    mode: Mode,
) -> Result<(Vec<Rung>, Option<Vec<Rated>>), CliError> {
    connection.send(ClientMessage::Ladder { mode });
    let mut aside = Vec::new();
    let (mut rows, mut you) = account::next(connection, &mut aside, |m| match m {
        ServerMessage::Ladder { rows, you, .. } => Some(Ok((rows.clone(), you.clone()))),
        ServerMessage::Error { message, .. } => Some(Err(message.clone())),
        _ => None,
    })
    .map_err(refused)?
    .map_err(|why| CliError::BadInput(format!("the server refused: {why}")))?;
    rows.truncate(MAX_ROWS);
    if let Some(games) = &mut you {
        games.truncate(MAX_ROWS);
    }
    Ok((rows, you))
}

/// The ladder as lines: rank, name, rating ± deviation (`?` while
/// provisional), games.
fn shown(mode: Mode, rows: &[Rung]) -> String {
    if rows.is_empty() {
        return format!("no rated {mode} games on this server yet\n");
    }
    let mut text = format!(
        "{:>4}  {:<12}  {:>12}  {:>5}\n",
        "rank", "name", "rating", "games"
    );
    for row in rows {
        let mark = if row.provisional { "?" } else { "" };
        let rating = format!("{}{mark} ± {}", row.rating, row.deviation);
        let name = crate::outside::clean(&row.name);
        text.push_str(&format!(
            "{:>4}  {:<12}  {:>12}  {:>5}\n",
            row.rank, name, rating, row.games
        ));
    }
    text
}
