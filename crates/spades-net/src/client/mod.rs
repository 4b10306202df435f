//! The player's side of a table server: the server's lobby of public
//! tables and quick match (`lobby`), a table's seating (`seating`), the
//! seat at the game (`seat`), a spectator's (`watch`) and the account
//! (`account`).
//!
//! Here, the connection, for a program with its own loop (the TUI):
//! messages go out through `send`, and what the server says waits in
//! `try_recv` until asked for. The network runs on a thread of its own, so
//! nothing the player sees ever waits on it.

pub mod account;
pub mod lobby;
pub mod lost;
mod rejoin;
pub mod seat;
pub mod seating;
pub mod seats_kept;
pub mod table_facts;
pub mod watch;

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc as tokio_mpsc;

use super::code::{ServerAddress, TableCode, Trust, fingerprint, host_port};
use super::tls;
use crate::protocol::lines::{LineReader, Read};
use crate::protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage, line, parse};

/// How long connecting (and the TLS handshake) may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the table's last lines are waited for after a goodbye.
pub(super) const LEAVE_WAIT: Duration = Duration::from_secs(2);

/// What arrives from the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incoming {
    Message(ServerMessage),
    /// A line the server sent that this version cannot read: shown, not
    /// acted on.
    Unreadable(String),
    /// The connection is gone, and why.
    Closed(String),
}

/// Where to connect: an address, and how to know the server there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub address: String,
    pub trust: Trust,
}

impl Target {
    /// The server as `spades serve` prints it: `FINGERPRINT@HOST:PORT`
    /// (`plain@HOST:PORT` without TLS, `HOST:PORT` for an authority's
    /// certificate).
    pub fn server(&self) -> String {
        match &self.trust {
            Trust::Pinned(fp) => format!("{fp}@{}", self.address),
            Trust::Plain => format!("plain@{}", self.address),
            Trust::Authority => self.address.clone(),
        }
    }

    /// The host's name, as an authority's certificate must be made for.
    fn host(&self) -> &str {
        let host = self
            .address
            .rsplit_once(':')
            .map_or(self.address.as_str(), |(host, _)| host);
        host.trim_start_matches('[').trim_end_matches(']')
    }
}

impl Target {
    /// The code of `table` on this server, as `spades join` takes it.
    pub fn table_code(&self, table: &str) -> Option<TableCode> {
        let port = self.address.rsplit_once(':')?.1.parse().ok()?;
        Some(TableCode {
            table: table.to_string(),
            trust: self.trust.clone(),
            host: self.host().to_string(),
            port,
        })
    }
}

/// Why a connection could not be made, and whether nothing listens at
/// its address at all: then no server runs there now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreached {
    pub why: String,
    pub nobody_listens: bool,
}

impl Unreached {
    fn because(why: String) -> Unreached {
        Unreached {
            why,
            nobody_listens: false,
        }
    }
}

/// What a client connects to for a server's address, trusting what its
/// `trust` says alone. (Here, not beside `ServerAddress`: the code is read
/// by the client, never the other way round.)
impl ServerAddress {
    pub fn target(&self) -> Target {
        Target {
            address: host_port(&self.host, self.port),
            trust: self.trust.clone(),
        }
    }
}

impl From<&TableCode> for Target {
    fn from(code: &TableCode) -> Target {
        Target {
            address: code.address(),
            trust: code.trust.clone(),
        }
    }
}

pub struct Connection {
    outgoing: tokio_mpsc::UnboundedSender<ClientMessage>,
    incoming: Receiver<Incoming>,
    /// What was read ahead (while signing in) and is still to be taken.
    pending: VecDeque<Incoming>,
    closed: bool,
    /// Where it leads and who said hello, to connect again the same way.
    target: Target,
    name: String,
    /// The fingerprint of the certificate the server presented (`None`
    /// without TLS): what sign-ins name the server by.
    fingerprint: Option<String>,
}

impl Connection {
    /// Connects and says hello as `name`; returns once the connection is
    /// up (or has failed to come up).
    pub fn open(target: &Target, name: &str) -> Result<Connection, String> {
        Connection::reach(target, name).map_err(|unreached| unreached.why)
    }

    /// `open`, saying whether nothing listens at the address when the
    /// connection cannot be made.
    pub fn reach(target: &Target, name: &str) -> Result<Connection, Unreached> {
        let (out_tx, out_rx) = tokio_mpsc::unbounded_channel();
        let (in_tx, in_rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::channel();
        let target_again = target.clone();
        let target = target.clone();
        thread::Builder::new()
            .name("table connection".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = ready_tx.send(Err(Unreached::because(e.to_string())));
                        return;
                    }
                };
                runtime.block_on(run(target, out_rx, in_tx, ready_tx));
            })
            .map_err(|e| Unreached::because(e.to_string()))?;
        let fingerprint = ready_rx
            .recv()
            .map_err(|_| Unreached::because("the connection's thread stopped".into()))??;
        let connection = Connection {
            outgoing: out_tx,
            incoming: in_rx,
            pending: VecDeque::new(),
            closed: false,
            target: target_again,
            name: name.to_string(),
            fingerprint,
        };
        connection.send(ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            name: name.to_string(),
        });
        Ok(connection)
    }

    /// Sends a message; a closed connection drops it (its `Closed` says why).
    pub fn send(&self, message: ClientMessage) {
        let _ = self.outgoing.send(message);
    }

    /// The next thing the server said, if anything has arrived.
    pub fn try_recv(&mut self) -> Option<Incoming> {
        if let Some(incoming) = self.pending.pop_front() {
            return Some(incoming);
        }
        if self.closed {
            return None;
        }
        match self.incoming.try_recv() {
            Ok(incoming) => {
                self.closed = matches!(incoming, Incoming::Closed(_));
                Some(incoming)
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.closed = true;
                Some(Incoming::Closed("the connection stopped".into()))
            }
        }
    }

    /// Waits up to `wait` for the next thing the server says.
    pub fn recv_timeout(&mut self, wait: Duration) -> Option<Incoming> {
        if let Some(incoming) = self.pending.pop_front() {
            return Some(incoming);
        }
        if self.closed {
            return None;
        }
        match self.incoming.recv_timeout(wait) {
            Ok(incoming) => {
                self.closed = matches!(incoming, Incoming::Closed(_));
                Some(incoming)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Some(Incoming::Closed("the connection stopped".into()))
            }
        }
    }

    pub fn is_closed(&self) -> bool {
        self.closed && self.pending.is_empty()
    }

    /// Gives back what was read ahead: taken again, in this order, before
    /// anything newer.
    pub fn put_back(&mut self, read: Vec<Incoming>) {
        for incoming in read.into_iter().rev() {
            self.pending.push_front(incoming);
        }
    }

    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The fingerprint of the certificate the server presented and this
    /// client checked; `None` without TLS.
    pub fn fingerprint(&self) -> Option<&str> {
        self.fingerprint.as_deref()
    }

    /// The name this connection said hello with.
    pub fn name(&self) -> &str {
        &self.name
    }
}

async fn run(
    target: Target,
    outgoing: tokio_mpsc::UnboundedReceiver<ClientMessage>,
    incoming: mpsc::Sender<Incoming>,
    ready: mpsc::Sender<Result<Option<String>, Unreached>>,
) {
    let (ready, fail) = (ready.clone(), move |why: String| {
        let _ = ready.send(Err(Unreached::because(why)));
    });
    let socket =
        match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(&target.address)).await {
            Ok(Ok(socket)) => socket,
            Ok(Err(e)) => {
                let _ = ready.send(Err(Unreached {
                    why: self::lost::reaching(&target.address, &e),
                    nobody_listens: e.kind() == std::io::ErrorKind::ConnectionRefused,
                }));
                return;
            }
            Err(_) => {
                fail(format!("{} does not answer", target.address));
                return;
            }
        };
    let _ = socket.set_nodelay(true);
    super::keep_alive(&socket);
    let (config, name) = match &target.trust {
        Trust::Plain => {
            let _ = ready.send(Ok(None));
            talk(socket, outgoing, incoming).await;
            return;
        }
        Trust::Pinned(fingerprint) => (tls::client(fingerprint), Ok(tls::server_name())),
        Trust::Authority => (tls::client_by_authority(), tls::name_of(target.host())),
    };
    let (config, name) = match (config, name) {
        (Ok(config), Ok(name)) => (config, name),
        (Err(e), _) | (_, Err(e)) => {
            fail(e);
            return;
        }
    };
    let connector = tokio_rustls::TlsConnector::from(config);
    match tokio::time::timeout(CONNECT_TIMEOUT, connector.connect(name, socket)).await {
        Ok(Ok(stream)) => {
            let seen = stream
                .get_ref()
                .1
                .peer_certificates()
                .and_then(|chain| chain.first())
                .map(|own| fingerprint(own));
            let _ = ready.send(Ok(seen));
            talk(stream, outgoing, incoming).await;
        }
        // Closed (or reset, the hello unread) before a word: a server
        // closes so a connection over the limit for its address.
        Ok(Err(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::ConnectionReset
            ) =>
        {
            fail(format!(
                "{} closed the connection before its handshake: it may hold as many \
                 connections from your address as it takes; try again later",
                target.address
            ));
        }
        Ok(Err(e)) => {
            fail(match target.trust {
                Trust::Authority => format!(
                    "{} is not the server it names: its certificate is not one an authority \
                     this system trusts made for {} ({})",
                    target.address,
                    target.host(),
                    self::lost::handshake(&e)
                ),
                _ => format!(
                    "{} is not the table in the code ({})",
                    target.address,
                    self::lost::handshake(&e)
                ),
            });
        }
        Err(_) => fail(format!("{} does not answer", target.address)),
    }
}

/// Carries lines both ways until either side closes.
async fn talk<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    mut outgoing: tokio_mpsc::UnboundedReceiver<ClientMessage>,
    incoming: mpsc::Sender<Incoming>,
) {
    let (reader, mut writer) = tokio::io::split(stream);
    // No line may pass the limit: a server cannot fill our memory.
    let mut reader = LineReader::new(reader);
    // A `ping` is answered here, at the connection's edge: the program
    // never hears of it.
    let pinged = tokio::sync::Notify::new();
    let reading = async {
        loop {
            let bytes = match reader.next().await {
                Ok(Read::Line(bytes)) => bytes,
                Ok(Read::End) => return "the table closed the connection".to_string(),
                Ok(Read::TooLong) => return "the table sent a line too long to read".to_string(),
                Err(e) => return self::lost::while_talking(&e),
            };
            let message = read_server(&String::from_utf8_lossy(&bytes));
            if message == Incoming::Message(ServerMessage::Ping {}) {
                pinged.notify_one();
                continue;
            }
            let bye = matches!(&message, Incoming::Message(ServerMessage::Bye { .. }));
            if incoming.send(message).is_err() || bye {
                return String::new();
            }
        }
    };
    let writing = async {
        loop {
            let message = tokio::select! {
                message = outgoing.recv() => match message {
                    Some(message) => message,
                    None => break,
                },
                () = pinged.notified() => ClientMessage::Pong {},
            };
            let bye = matches!(message, ClientMessage::Bye {});
            if writer.write_all(line(&message).as_bytes()).await.is_err() {
                return;
            }
            if bye {
                let _ = writer.flush().await;
                return;
            }
        }
        // The program let go of the connection: close it politely.
        let _ = writer
            .write_all(line(&ClientMessage::Bye {}).as_bytes())
            .await;
        let _ = writer.flush().await;
    };
    tokio::pin!(reading);
    let why = tokio::select! {
        why = &mut reading => why,
        // After a goodbye the table still sends its last lines (the
        // record's closing line, then its own goodbye): they are read, for
        // a while.
        () = writing => tokio::time::timeout(LEAVE_WAIT, &mut reading)
            .await
            .unwrap_or_default(),
    };
    if !why.is_empty() {
        let _ = incoming.send(Incoming::Closed(why));
    }
    let _ = writer.shutdown().await;
}

/// What the server said, with every string in it cleaned by the one rule
/// for text from outside: names, chat, errors, reasons and record lines
/// reach the screen and the player's record only so, whatever the server.
/// Why a line cannot be read quotes it: cleaned too.
fn read_server(text: &str) -> Incoming {
    let mut value = match parse::<serde_json::Value>(text) {
        Ok(value) => value,
        Err(why) => return Incoming::Unreadable(crate::outside::clean(&why)),
    };
    // A lobby's rules are a rules file, read and never shown as they
    // came: their line breaks are kept (cleaned away, everything after the
    // first line's comment was lost, and the table read as the classic
    // game).
    let rules = match value.get("type").and_then(serde_json::Value::as_str) {
        Some("lobby") => value.get_mut("rules").map(serde_json::Value::take),
        _ => None,
    };
    crate::outside::clean_json(&mut value);
    let is_record = value.get("type").and_then(serde_json::Value::as_str) == Some("record");
    if !is_record {
        clean_names(&mut value);
    }
    if let Some(rules) = rules {
        value["rules"] = match rules {
            serde_json::Value::String(text) => crate::outside::clean_lines(&text).into(),
            other => other,
        };
    }
    match serde_json::from_value(value) {
        Ok(message) => Incoming::Message(message),
        Err(why) => Incoming::Unreadable(crate::outside::clean(&why.to_string())),
    }
}

/// Every name a message holds cut as a table shows a name
/// (`outside::clean_name`): a `name` or a chat's `from`, the names a
/// `start` gives its seats, and a `queued`'s `names`. A server's names are bounded on its side, but
/// what another server sends is not ours to trust.
fn clean_names(value: &mut serde_json::Value) {
    use serde_json::Value;
    let name = |text: &mut String| {
        *text = crate::outside::clean_name(text, crate::naming::MAX_NAME);
    };
    match value {
        Value::Array(items) => items.iter_mut().for_each(clean_names),
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                match (key.as_str(), item) {
                    ("name" | "from", Value::String(text)) => name(text),
                    // A `queued`'s `names` are names too.
                    ("seats" | "names", Value::Array(seats)) => seats.iter_mut().for_each(|seat| {
                        if let Value::String(text) = seat {
                            name(text);
                        } else {
                            clean_names(seat);
                        }
                    }),
                    (_, item) => clean_names(item),
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_a_server_sends_is_cut_as_a_table_shows_it() {
        let marks = format!("A{}", "\u{301}".repeat(1_000));
        let lines = [
            serde_json::json!({ "type": "chat", "from": marks, "text": "hi" }),
            serde_json::json!({ "type": "start", "commitment": null, "seats": [marks, "Bob"] }),
            serde_json::json!({ "type": "tables", "total": 1, "tables": [{
                "table": "T", "mode": "partnership", "rules": "", "started": false,
                "rated": false, "watchers": 0,
                "seats": [{ "name": marks, "player": "person" }],
            }]}),
        ];
        for line in lines {
            let Incoming::Message(message) = read_server(&line.to_string()) else {
                panic!("{line} did not read");
            };
            let told = serde_json::to_string(&message).unwrap();
            assert!(told.len() < 300, "{told}");
            assert!(told.contains("\"A\u{301}\""), "{told}");
        }
    }

    /// A hostile server's `queued`: thousands of names, each long and
    /// full of marks and escapes, and a wait past any bound. The player
    /// keeps `MAX_QUEUED_NAMES` names, each cut as a table shows it, and
    /// a wait of at most `MAX_WAIT` seconds.
    #[test]
    fn a_hostile_queued_is_cut_to_its_bounds() {
        use crate::client::seating::InQueue;
        use crate::protocol::lobby::{MAX_QUEUED_NAMES, MAX_WAIT};
        let long = format!("\u{1b}[2J{}{}", "W".repeat(40), "\u{301}".repeat(200));
        let names = vec![long; 5_000];
        let line = serde_json::json!({
            "type": "queued", "mode": "cutthroat", "waiting": u32::MAX,
            "names": names, "bots_in": u32::MAX,
        });
        let Incoming::Message(ServerMessage::Queued {
            mode,
            waiting,
            names,
            bots_in,
        }) = read_server(&line.to_string())
        else {
            panic!("a queued did not read");
        };
        let now = std::time::Instant::now();
        let heard = InQueue::heard(mode, waiting, names, bots_in, now);
        assert_eq!(heard.names.len(), MAX_QUEUED_NAMES);
        for name in &heard.names {
            let cut = crate::outside::clean_name(name, crate::naming::MAX_NAME);
            assert_eq!(name, &cut, "cut as a table shows a name");
            assert!(name.len() <= crate::naming::MAX_NAME_BYTES, "{name:?}");
            assert!(!name.chars().any(crate::outside::hidden), "{name:?}");
        }
        assert_eq!(heard.seconds_left(now), Some(u64::from(MAX_WAIT)));
        // A server before the keys: the count alone, no time told.
        let old = r#"{"type":"queued","mode":"partnership","waiting":2}"#;
        let Incoming::Message(ServerMessage::Queued { names, bots_in, .. }) = read_server(old)
        else {
            panic!("an old queued did not read");
        };
        assert!(names.is_empty() && bots_in.is_none());
    }

    #[test]
    fn every_string_a_server_sends_arrives_cleaned() {
        let hostile = r"x\u001b]0;t\u0007\u2028\u202e\u200by";
        let error = format!(r#"{{"type":"error","code":"table_full","message":"{hostile}"}}"#);
        let bye = format!(r#"{{"type":"bye","reason":"{hostile}"}}"#);
        let seat = format!(r#"{{"type":"seat","seat":1,"name":"{hostile}","player":"away"}}"#);
        for line in [error, bye, seat] {
            let Incoming::Message(message) = read_server(&line) else {
                panic!("{line} did not read");
            };
            let told = serde_json::to_value(&message).unwrap().to_string();
            assert!(told.contains(r#""x ]0;t  y""#), "{told}");
        }
        let Incoming::Unreadable(why) = read_server(&format!(r#"{{"type":"{hostile}"}}"#)) else {
            panic!("an unknown message read");
        };
        assert!(!why.chars().any(crate::outside::hidden), "{why:?}");
    }

    #[test]
    fn a_lobbys_rules_keep_their_lines_and_lose_whats_hidden() {
        let hundred = crate::config::parse_rules("target_score = 100\n", "rules").unwrap();
        let rules = crate::config::commented_toml(&hundred);
        let lobby = serde_json::json!({
            "type": "lobby", "table": "T", "rules": format!("{rules}\u{202e}# \u{1b}[2J\n"),
            "seats": [], "bots": true, "level": "normal", "can_start": false,
        });
        let Incoming::Message(ServerMessage::Seating(lobby)) = read_server(&lobby.to_string())
        else {
            panic!("the lobby did not read");
        };
        let read = crate::config::parse_rules(&lobby.rules, "rules").unwrap();
        assert_eq!(read.target_score, 100);
        assert!(
            !lobby.rules.contains(['\u{1b}', '\u{202e}']),
            "{}",
            lobby.rules
        );
    }
}
