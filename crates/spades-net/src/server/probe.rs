//! The connection state machine without sockets, for the fuzz target
//! `fuzz/fuzz_targets/client_messages.rs` and its share of CI
//! (`tests/net/fuzz_messages.rs`). A server with no listener (`Loose`) is
//! handed in-memory streams, several clients at one table send what a
//! script says, and `check` holds the server to what it promises any
//! client. Not part of the program: public only so that the fuzz crate
//! and the tests reach the real `conn::run`, and share one check.

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::slot::Slot;
use super::{MOST_ERROR, ServerOptions, Shared, conn};
use crate::naming::MAX_NAME;
use crate::protocol::lines::{LineReader, Read};
use crate::protocol::{self, MAX_CHAT, MAX_LINE, PROTOCOL_VERSION, ServerMessage};

/// A plain server with no listener: each connection is given to it as a
/// stream, and runs exactly as an accepted one does after its handshake.
pub struct Loose {
    shared: Arc<Shared>,
    stop: watch::Sender<bool>,
    alive: mpsc::Sender<()>,
    /// Kept so that tables and connections always have someone to tell
    /// they are alive.
    _all_done: mpsc::Receiver<()>,
}

impl Loose {
    pub fn new(options: ServerOptions) -> Loose {
        let (stop, stop_seen) = watch::channel(false);
        let (alive, all_done) = mpsc::channel(1);
        Loose {
            shared: Shared::with_stop(options, stop_seen, None, None),
            stop,
            alive,
            _all_done: all_done,
        }
    }

    /// One connection from `peer` over `stream`, to be run (spawned) on a
    /// tokio runtime; it ends when the connection does.
    pub fn serve<S>(&self, stream: S, peer: IpAddr) -> impl Future<Output = ()> + Send + 'static
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let slot = Slot::take(&self.shared, peer);
        let shared = Arc::clone(&self.shared);
        let alive = self.alive.clone();
        async move {
            let Ok(slot) = slot else { return };
            let hello_by = Instant::now() + shared.options.hello_timeout;
            conn::run(stream, hello_by, shared, alive, slot).await;
        }
    }

    /// Stops it as `Server::stop` does: every table and connection ends.
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }
}

/// The clients of one script.
pub const CONNECTIONS: usize = 3;

/// Written in a line, replaced by the id of the last table any client was
/// seated at (so that joining reaches a table whose id is drawn at random).
pub const TABLE: &str = "@TABLE";
/// Written in a line followed by a digit `n`, replaced by the `n`th seat
/// token given (`@TOKEN0` is the host's); alone, by the last one.
pub const TOKEN: &str = "@TOKEN";

/// One line a client sends, without its newline.
#[derive(Clone, PartialEq, Eq)]
pub struct Said {
    /// Which client: taken modulo `CONNECTIONS`.
    pub conn: usize,
    pub line: Vec<u8>,
}

/// A failing script is shown line by line, long lines cut.
impl std::fmt::Debug for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = String::from_utf8_lossy(&self.line);
        let cut = if self.line.len() > 160 { "…" } else { "" };
        let bytes = self.line.len();
        write!(
            f,
            "\n{}: {}{cut} ({bytes} bytes)",
            self.conn,
            excerpt(&text)
        )
    }
}

/// A fuzzer's bytes as a script: a line each, its first byte choosing the
/// client that sends the rest (`0`, `1` and `2` name the three).
pub fn script(data: &[u8]) -> Vec<Said> {
    data.split(|&b| b == b'\n')
        .filter_map(|line| line.split_first())
        .map(|(&conn, line)| Said {
            conn: usize::from(conn) % CONNECTIONS,
            line: line.to_vec(),
        })
        .collect()
}

/// How long a whole script may take, answers and goodbyes included: the
/// server must never leave a client waiting for ever.
const BOUND: Duration = Duration::from_secs(20);

/// Plays `script` against a fresh server and checks what it answered:
/// nothing panics or hangs; every reply is one valid `ServerMessage` line;
/// no reply repeats more than a short excerpt of what a client sent
/// (errors, chat lines and names are bounded and cleaned); every
/// connection ends once its client stops sending; and the server still
/// welcomes a well-formed hello afterwards. How many messages of each
/// type the clients heard, or why it fails.
pub fn check(script: &[Said]) -> Result<Heard, String> {
    check_until(script, None)
}

/// `check`, but before the clients stop it waits (within the same bound)
/// until one of them has heard a message of type `kind`. A script whose
/// table starts with a bot to act first needs it: the bot thinks on
/// another thread, and the script's own lines may all be sent before it
/// answers and a person is asked.
pub fn check_until(script: &[Said], kind: Option<&str>) -> Result<Heard, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("no runtime: {e}"))?;
    let checked = runtime.block_on(async {
        let server = Loose::new(options());
        let checked = match tokio::time::timeout(BOUND, converse(&server, script, kind)).await {
            Ok(checked) => checked,
            Err(_) => Err(format!("still talking {BOUND:?} after the script began")),
        };
        server.stop();
        checked
    });
    // Bots still thinking on the blocking pool are not waited for long.
    runtime.shutdown_timeout(Duration::from_secs(1));
    checked
}

fn options() -> ServerOptions {
    ServerOptions {
        listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        plain: true,
        hello_timeout: Duration::from_secs(5),
        sit_timeout: Duration::from_secs(5),
        seating_timeout: Some(Duration::from_secs(5)),
        ..ServerOptions::default()
    }
}

/// Where the script's clients connect from.
const PEER: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// Room in each direction of an in-memory connection: a line of any
/// length the server reads fits.
const ROOM: usize = 2 * MAX_LINE;

/// What the clients have been told that a later line may name.
#[derive(Default)]
struct Found {
    table: Option<String>,
    /// Every seat token given, in order.
    tokens: Vec<String>,
    heard: Heard,
}

/// Messages the clients heard, by type (`seated`, `chat`, ...).
pub type Heard = std::collections::BTreeMap<String, usize>;

type Writer = WriteHalf<DuplexStream>;

/// The most connections a script makes: one for each client, and a few
/// more for lines sent after the server closed a client's connection
/// (they go to a new one, as a player coming back to reclaim a seat).
const MOST_CONNECTIONS: usize = CONNECTIONS + 8;

async fn converse(server: &Loose, script: &[Said], until: Option<&str>) -> Result<Heard, String> {
    let found = Arc::new(Mutex::new(Found::default()));
    let mut writers: Vec<Option<Writer>> = (0..CONNECTIONS).map(|_| None).collect();
    let mut readers = Vec::new();
    for said in script {
        let line = named(&said.line, &found);
        let writer = &mut writers[said.conn % CONNECTIONS];
        let sent = match writer {
            Some(write) => send(write, &line).await,
            None => false,
        };
        if !sent {
            *writer = None;
            if readers.len() < MOST_CONNECTIONS {
                let (read, mut write) = connect(server);
                readers.push(tokio::spawn(replies(read, Arc::clone(&found))));
                if send(&mut write, &line).await {
                    *writer = Some(write);
                }
            }
        }
        settle().await;
    }
    if let Some(kind) = until {
        while !found.lock().is_ok_and(|f| f.heard.contains_key(kind)) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    for write in writers.iter_mut().flatten() {
        let _ = write.shutdown().await;
    }
    for reader in readers {
        reader
            .await
            .map_err(|e| format!("a client's reader failed: {e}"))??;
    }
    still_welcomes(server).await?;
    let found = found.lock().unwrap_or_else(|e| e.into_inner());
    Ok(found.heard.clone())
}

/// A client's two ends of a new connection to `server`.
fn connect(server: &Loose) -> (ReadHalf<DuplexStream>, Writer) {
    let (client, end) = tokio::io::duplex(ROOM);
    tokio::spawn(server.serve(end, PEER));
    tokio::io::split(client)
}

/// Writes one line; false once the server no longer reads.
async fn send(write: &mut Writer, line: &[u8]) -> bool {
    write.write_all(line).await.is_ok() && write.write_all(b"\n").await.is_ok()
}

/// Lets the server take in a line and answer it (every task runs on this
/// one thread), so that the next line can name the table it opened.
async fn settle() {
    for _ in 0..24 {
        tokio::task::yield_now().await;
    }
}

/// `line` with `TABLE` and `TOKEN` replaced by what they stand for now.
fn named(line: &[u8], found: &Mutex<Found>) -> Vec<u8> {
    let Ok(mut text) = String::from_utf8(line.to_vec()) else {
        return line.to_vec();
    };
    let found = found.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(table) = &found.table {
        text = text.replace(TABLE, table);
    }
    for (n, token) in found.tokens.iter().enumerate().take(10) {
        text = text.replace(&format!("{TOKEN}{n}"), token);
    }
    if let Some(token) = found.tokens.last() {
        text = text.replace(TOKEN, token);
    }
    text.into_bytes()
}

/// Reads a client's replies until the server closes the connection,
/// checking each.
async fn replies(read: ReadHalf<DuplexStream>, found: Arc<Mutex<Found>>) -> Result<(), String> {
    let mut lines = LineReader::new(read);
    loop {
        match lines.next().await {
            Ok(Read::Line(line)) => reply(&line, &found)?,
            Ok(Read::TooLong) => return Err(format!("a reply over {MAX_LINE} bytes")),
            Ok(Read::End) | Err(_) => return Ok(()),
        }
    }
}

/// One reply: a message, bounded where it carries a client's text.
fn reply(line: &[u8], found: &Mutex<Found>) -> Result<(), String> {
    let text = std::str::from_utf8(line).map_err(|_| "a reply that is not UTF-8".to_string())?;
    let message = protocol::parse::<ServerMessage>(text)
        .map_err(|e| format!("a reply that is not a message ({e}): {}", excerpt(text)))?;
    let kind = serde_json::from_str::<serde_json::Value>(text).ok();
    let kind = kind
        .as_ref()
        .and_then(|k| k["type"].as_str())
        .unwrap_or("?");
    let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
    *found.heard.entry(kind.to_string()).or_default() += 1;
    match message {
        ServerMessage::Error { message, .. } if message.chars().count() > MOST_ERROR => {
            Err(format!(
                "an error of {} characters: {}",
                message.chars().count(),
                excerpt(&message)
            ))
        }
        ServerMessage::Chat { from, text, .. } => {
            bounded_name(&from)?;
            if text.chars().count() > MAX_CHAT || crate::outside::clean(&text) != text {
                return Err(format!(
                    "a chat line not cleaned or cut: {}",
                    excerpt(&text)
                ));
            }
            Ok(())
        }
        ServerMessage::Seating(lobby) => lobby
            .seats
            .iter()
            .flat_map(|s| &s.name)
            .try_for_each(|n| bounded_name(n)),
        ServerMessage::Seated { table, token, .. } => {
            found.table = Some(table);
            found.tokens.push(token);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A name as a client gave it, as the table shows it: cleaned and fitted.
fn bounded_name(name: &str) -> Result<(), String> {
    if crate::outside::clean_name(name, MAX_NAME) == name {
        Ok(())
    } else {
        Err(format!("a name not cleaned or cut: {}", excerpt(name)))
    }
}

/// The start of a long text, for a failure's message.
fn excerpt(text: &str) -> String {
    text.chars()
        .take(120)
        .collect::<String>()
        .escape_debug()
        .to_string()
}

/// After everything, a new client's hello is still welcomed.
async fn still_welcomes(server: &Loose) -> Result<(), String> {
    let (read, mut write) = connect(server);
    let hello = format!("{{\"type\":\"hello\",\"protocol\":{PROTOCOL_VERSION},\"name\":\"Ann\"}}");
    if !send(&mut write, hello.as_bytes()).await {
        return Err("a hello after the script was not read".into());
    }
    let mut lines = LineReader::new(read);
    let first = tokio::time::timeout(Duration::from_secs(5), lines.next()).await;
    let _ = write.shutdown().await;
    match first {
        Ok(Ok(Read::Line(line))) => {
            match protocol::parse::<ServerMessage>(&String::from_utf8_lossy(&line)) {
                Ok(ServerMessage::Welcome { .. }) => Ok(()),
                other => Err(format!("a hello after the script was answered {other:?}")),
            }
        }
        other => Err(format!(
            "a hello after the script was not answered: {other:?}"
        )),
    }
}
