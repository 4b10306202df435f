//! The table server: the one authority over its tables. It deals, checks
//! every action with the engine (through `Table`), and sends each
//! connection only what its seat may see. `spades serve` runs one on its
//! own; `spades host` runs one inside the player's program.
//!
//! One tokio runtime, on threads of its own, runs everything: a task per
//! connection reads its lines (at most `MAX_LINE` bytes each) and a task
//! writes them; a task per table owns the game and is the only one to touch
//! it; bots think on the blocking pool, so no table waits for another's.

mod conn;
mod fleet;
mod flood;
mod ladder;
mod link;
mod lobby;
mod matching;
// Not part of the program (built only with the `probe` feature): the fuzz
// target and its tests reach the real connection state machine through
// it, over in-memory streams.
#[cfg(any(test, feature = "probe"))]
pub mod probe;
mod queue;
mod queue_told;
pub mod ranked;
pub mod registrations;
mod slot;
mod table;

use crate::bots::BotSpec;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{mpsc, watch};

use super::tls;
pub use fleet::{FleetOptions, Membership, PublicAddress};
pub use registrations::RegistrationLimits;
use registrations::{Full, Registrations};

/// How a server listens and runs its tables.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    pub listen: SocketAddr,
    /// No TLS: refused unless `listen` is a loopback address.
    pub plain: bool,
    /// The certificate presented (with TLS): its fingerprint is the
    /// server's identity in codes and sign-ins.
    pub certificate: super::certificate::Certificate,
    /// How long a person may take over a decision before a bot makes it
    /// for them (the seat stays theirs); `None`: as long as they like.
    pub turn_timer: Option<Duration>,
    /// How long a table may stay in its seating (its game not started)
    /// before it is closed (`--lobby-timeout`); `None`: as long as it likes.
    pub seating_timeout: Option<Duration>,
    /// How long a new connection has to say `hello` (TLS handshake
    /// included): short, as a connection that has said nothing holds a
    /// place others could use; the time to sit down comes after.
    pub hello_timeout: Duration,
    /// How long a connection that has said `hello` has to open a table
    /// or sit at one; then it is closed.
    pub sit_timeout: Duration,
    /// How long a connection may stay silent before it is sent `ping`.
    pub ping_after: Duration,
    /// How long a connection may stay silent (not a line, not even a
    /// `pong`) before it is closed as gone: a connection lost without a
    /// word (a laptop shut, a NAT that forgot it) ends, and its seat is
    /// away, within this time.
    pub read_timeout: Duration,
    /// Connections at once (never more than the process's descriptors
    /// allow); more are closed as soon as they are accepted.
    pub max_connections: usize,
    /// Connections at once from one address; more are closed at once,
    /// holding no place (told so over plain TCP).
    pub per_address: usize,
    /// The runtime's worker threads (`None`: one a core).
    pub threads: Option<usize>,
    /// A program of the server's own (`exec:COMMAND`) offered to every
    /// host as one more bot level. Only whoever starts the server names
    /// it: a client can choose it, never give one.
    pub own_bot: Option<BotSpec>,
    /// The ladder's database (a SQLite file, or PostgreSQL): accounts,
    /// rated games, ratings. `None`: no accounts nor ladder (`spades host`).
    pub db: Option<crate::ladder::store::Database>,
    /// Where rated games the database could not take wait to be written
    /// (`None`: `<file>.outbox` beside a SQLite file; none for PostgreSQL
    /// unless given).
    pub outbox: Option<std::path::PathBuf>,
    /// How often the games waiting in the outbox are tried again.
    pub ladder_retry: Duration,
    /// Accounts registered, at most: from one address in an hour, and
    /// for the whole server in an hour and in a day.
    pub registrations: RegistrationLimits,
    /// The rules each mode's games must be played under to be rated.
    pub ranked: ranked::RankedRules,
    /// The server runs inside its one host's program (`spades host`): the
    /// host leaving ends their table, since the server goes with them.
    /// Elsewhere a host who leaves is one more leaver.
    pub host_is_the_server: bool,
    /// With a PostgreSQL ladder: how this server takes part in the lobby
    /// of the fleet of servers sharing it.
    pub fleet: FleetOptions,
}

/// The port table codes name when none is given.
const DEFAULT_PORT: u16 = 4466;

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            listen: SocketAddr::from((Ipv4Addr::UNSPECIFIED, DEFAULT_PORT)),
            plain: false,
            certificate: super::certificate::Certificate::Fresh,
            turn_timer: None,
            seating_timeout: Some(Duration::from_secs(30 * 60)),
            hello_timeout: Duration::from_secs(5),
            sit_timeout: Duration::from_secs(60),
            ping_after: Duration::from_secs(20),
            read_timeout: Duration::from_secs(45),
            max_connections: 4096,
            per_address: 16,
            threads: None,
            own_bot: None,
            db: None,
            outbox: None,
            ladder_retry: ladder::RETRY_EVERY,
            registrations: RegistrationLimits::default(),
            ranked: ranked::RankedRules::default(),
            host_is_the_server: false,
            fleet: FleetOptions::default(),
        }
    }
}

/// A running server. Dropping it stops it as `stop` does.
pub struct Server {
    address: SocketAddr,
    fingerprint: Option<String>,
    shutdown: watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The fleet it is a node of, with a PostgreSQL ladder.
    fleet: Option<Arc<fleet::Fleet>>,
}

/// A connection's number, unique for the server's life.
pub(crate) type ConnId = u64;

/// What every task of a server shares.
pub(crate) struct Shared {
    options: ServerOptions,
    /// The open tables by id: where to send what their connections say.
    tables: Mutex<HashMap<String, mpsc::Sender<table::Command>>>,
    shutdown: watch::Receiver<bool>,
    next_conn: AtomicU64,
    counts: slot::Counts,
    /// The ladder, when the server keeps one.
    ladder: Option<ladder::Ladder>,
    /// When the latest accounts were registered, by address and in all.
    registered: Mutex<Registrations>,
    /// The public tables, as the lobby lists them.
    lobby: lobby::Lobby,
    /// The quick-match queue's task, started by the first player to queue.
    queue: OnceLock<mpsc::Sender<queue::Command>>,
}

impl Shared {
    #[cfg(test)]
    fn new(options: ServerOptions) -> Arc<Shared> {
        Shared::with_stop(options, watch::channel(false).1, None, None)
    }

    fn with_stop(
        mut options: ServerOptions,
        shutdown: watch::Receiver<bool>,
        ladder: Option<ladder::Ladder>,
        fleet: Option<Arc<fleet::Fleet>>,
    ) -> Arc<Shared> {
        options.max_connections = options.max_connections.min(slot::descriptor_room());
        Arc::new(Shared {
            options,
            tables: Mutex::new(HashMap::new()),
            shutdown,
            next_conn: AtomicU64::new(1),
            counts: slot::Counts::default(),
            ladder,
            registered: Mutex::new(Registrations::default()),
            lobby: fleet.map_or_else(lobby::Lobby::default, lobby::Lobby::of_fleet),
            queue: OnceLock::new(),
        })
    }

    fn table(&self, id: &str) -> Option<mpsc::Sender<table::Command>> {
        self.tables.lock().ok()?.get(id).cloned()
    }

    fn add_table(&self, id: String, sender: mpsc::Sender<table::Command>) {
        if let Ok(mut tables) = self.tables.lock() {
            tables.insert(id, sender);
        }
    }

    /// The table is gone: not to be joined, nor listed.
    fn remove_table(&self, id: &str) {
        if let Ok(mut tables) = self.tables.lock() {
            tables.remove(id);
        }
        self.lobby.remove(id);
    }

    /// Which limit, if any, a registration from `address` now meets.
    fn registrations_full(&self, address: IpAddr) -> Option<Full> {
        let mut registered = self.registered.lock().unwrap_or_else(|e| e.into_inner());
        registered.full(&self.options.registrations, address, Instant::now())
    }

    /// `address` has registered an account.
    fn count_registration(&self, address: IpAddr) {
        let mut registered = self.registered.lock().unwrap_or_else(|e| e.into_inner());
        registered.count(address, Instant::now());
    }

    /// Has the server been asked to stop?
    fn stopping(&self) -> bool {
        *self.shutdown.borrow()
    }
}

/// Why a server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// Without TLS, anyone on the way could read every card.
    #[error("a server without TLS listens only on a loopback address (127.0.0.1 or ::1), not {0}")]
    PlainOffLoopback(std::net::IpAddr),
    /// The address asked for is taken, or not this machine's.
    #[error("cannot listen on {address}: {source}")]
    Listen {
        address: SocketAddr,
        source: std::io::Error,
    },
    /// The machine would not give the server threads.
    #[error("{0}")]
    Setup(String),
    /// The certificate cannot be made, or a file of it cannot be used.
    #[error("{0}")]
    Certificate(#[from] super::certificate::CertificateError),
    /// The ladder's database cannot be opened.
    #[error("the ladder's database: {0}")]
    Store(#[from] crate::ladder::store::StoreError),
}

impl ServerError {
    /// Is the address asked for at fault (rather than this machine)?
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            ServerError::Setup(_)
                | ServerError::Certificate(super::certificate::CertificateError::Make(_))
        )
    }
}

/// How long stopping waits for tables and connections to say goodbye.
const STOP_GRACE: Duration = Duration::from_secs(5);

impl Server {
    /// Binds `options.listen` and starts serving on threads of its own;
    /// returns at once.
    pub fn start(options: ServerOptions) -> Result<Server, ServerError> {
        if options.plain && !options.listen.ip().is_loopback() {
            return Err(ServerError::PlainOffLoopback(options.listen.ip()));
        }
        let tls = if options.plain {
            None
        } else {
            Some(tls::server(&options.certificate)?)
        };
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        builder.enable_all().thread_name("spades-server");
        if let Some(threads) = options.threads {
            builder.worker_threads(threads.max(1));
        }
        let runtime = builder
            .build()
            .map_err(|e| ServerError::Setup(format!("cannot start the server's threads: {e}")))?;
        let cannot_listen = |source| ServerError::Listen {
            address: options.listen,
            source,
        };
        let listener = {
            let _inside = runtime.enter();
            listen(options.listen).map_err(cannot_listen)?
        };
        let address = listener.local_addr().map_err(cannot_listen)?;
        let (shutdown, stop_seen) = watch::channel(false);
        let fingerprint = tls.as_ref().map(|t| t.fingerprint.clone());
        let server_id = super::code::server_id(fingerprint.as_deref());
        let ladder = match &options.db {
            Some(path) => {
                let keeping = ladder::Keeping {
                    outbox: options.outbox.clone(),
                    retry_every: options.ladder_retry,
                };
                Some(ladder::Ladder::open(path, server_id, &keeping)?)
            }
            None => None,
        };
        let fleet = match &options.db {
            Some(crate::ladder::store::Database::Postgres(url)) => {
                let trust = super::code::Trust::of(fingerprint.as_deref());
                let public = options.fleet.public_address.as_ref();
                let reached = fleet::reached_at(public, address, trust);
                let started = fleet::Fleet::start(url, reached, options.fleet.clone());
                Some(Arc::new(started.map_err(ServerError::Setup)?))
            }
            _ => None,
        };
        let shared = Shared::with_stop(options, stop_seen, ladder, fleet.clone());
        let acceptor = tls.map(|t| tokio_rustls::TlsAcceptor::from(t.config));
        let thread = std::thread::Builder::new()
            .name("spades-server-main".into())
            .spawn(move || {
                runtime.block_on(serve(listener, acceptor, shared));
                // Bots still thinking are not waited for long.
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(|e| ServerError::Setup(format!("cannot start the server's threads: {e}")))?;
        Ok(Server {
            address,
            fingerprint,
            shutdown,
            thread: Some(thread),
            fleet,
        })
    }

    /// Where the server listens (with the port it was given, when it asked
    /// for any free one).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The certificate's fingerprint, as table codes carry it; `None`
    /// without TLS.
    pub fn fingerprint(&self) -> Option<&str> {
        self.fingerprint.as_deref()
    }

    /// With a PostgreSQL ladder, whether the fleet's other nodes list this
    /// server's tables, and where they say it is.
    pub fn fleet(&self) -> Option<&Membership> {
        self.fleet.as_deref().map(fleet::Fleet::membership)
    }

    /// Stops the server: every connection is told so (`bye`), every table
    /// ends (a game not over is abandoned, its seed revealed).
    pub fn stop(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        let _ = self.shutdown.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        // Its tables have ended: the node leaves the fleet's lobby.
        if let Some(fleet) = self.fleet.take() {
            fleet.leave();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// A listening socket with room for many connections arriving at once.
fn listen(address: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if address.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(1024)
}

/// Accepts connections until the server stops, then waits a while for
/// every table and connection to end.
async fn serve(
    listener: TcpListener,
    acceptor: Option<tokio_rustls::TlsAcceptor>,
    shared: Arc<Shared>,
) {
    let (alive, mut all_done) = mpsc::channel::<()>(1);
    let mut stop = shared.shutdown.clone();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((socket, peer)) => {
                    let slot = match slot::Slot::take(&shared, peer.ip()) {
                        Ok(slot) => slot,
                        // Full: closed at once, with no word (no room to say one).
                        Err(slot::NoRoom::Full) => continue,
                        Err(slot::NoRoom::Crowded) => {
                            let most = shared.options.per_address;
                            conn::crowded(socket, acceptor.is_none(), most);
                            continue;
                        }
                    };
                    let shared = Arc::clone(&shared);
                    let acceptor = acceptor.clone();
                    let alive = alive.clone();
                    tokio::spawn(conn::accepted(socket, acceptor, shared, alive, slot));
                }
                // Out of file descriptors, or a connection reset before it
                // was accepted: wait a little rather than spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            },
            _ = stopped(&mut stop) => break,
        }
    }
    drop(listener);
    drop(alive);
    // Every table and connection holds a sender: all gone, all said bye.
    let _ = tokio::time::timeout(STOP_GRACE, all_done.recv()).await;
}

/// Resolves once the server is asked to stop (at once if it has been).
pub(crate) async fn stopped(stop: &mut watch::Receiver<bool>) {
    // A guard of the flag must not be held across an await: not `Send`.
    let _ = stop.wait_for(|&s| s).await.map(|_| ());
}

/// Seats get these names when nobody has given one: the compass point a
/// bot's seat is drawn at, `Dummy` for the dummy.
pub(crate) fn seat_name(mode: crate::engine::Mode, seat: crate::engine::Seat) -> String {
    crate::naming::Names::new(mode, "").seat(seat).to_string()
}

/// A name as the table shows it: at most `MAX_NAME` columns, nothing that
/// could move another player's cursor or reorder their line.
pub(crate) fn clean_name(name: &str) -> String {
    crate::outside::clean_name(name, crate::naming::MAX_NAME)
}

/// Text from a client, cleaned by the one rule for text from outside.
pub(crate) fn clean_text(text: &str) -> String {
    crate::outside::clean(text)
}

/// A chat line as the table says it on: cleaned, and one combining mark a
/// letter at most, as in a name (its `MAX_CHAT` characters already bound
/// its bytes).
pub(crate) fn clean_chat(text: &str) -> String {
    crate::outside::thin_marks(&clean_text(text))
}

/// The most of a client's own text (a run quoted in an error) an error
/// repeats back, and the most any such error says.
const EXCERPT: usize = 40;
const MOST_SAID: usize = 200;
/// The most any error says: its own words around such a text (the
/// probe checks every error against it).
#[cfg(any(test, feature = "probe"))]
const MOST_ERROR: usize = MOST_SAID + 100;

/// Why a client's line could not be read, as the client is told: cleaned,
/// each run quoted in `` ` `` or `"` (where the reader repeats the line)
/// cut to `EXCERPT` characters, and the whole cut to `MOST_SAID`, so an
/// error never repeats a long line back to fill the server's memory.
pub(crate) fn shortened(why: &str) -> String {
    let mut said = String::new();
    // The quote open, and how many characters it has held.
    let mut quoted: Option<(char, usize)> = None;
    for c in clean_text(why).chars() {
        quoted = match quoted {
            Some((q, _)) if c == q => None,
            Some((q, held)) if held >= EXCERPT => {
                if held == EXCERPT {
                    said.push('…');
                }
                Some((q, held + 1))
            }
            Some((q, held)) => Some((q, held + 1)),
            None if c == '`' || c == '"' => Some((c, 0)),
            None => None,
        };
        if !matches!(quoted, Some((_, held)) if held > EXCERPT) {
            said.push(c);
        }
    }
    said.chars().take(MOST_SAID).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_repeats_no_more_than_a_short_excerpt_of_the_line() {
        let long = "A".repeat(60_000);
        let why = format!("unknown variant `{long}`, expected one of `hello`, `bye`");
        let said = shortened(&why);
        assert_eq!(
            said,
            format!(
                "unknown variant `{}…`, expected one of `hello`, `bye`",
                "A".repeat(40)
            )
        );
        assert_eq!(
            shortened("invalid type: string \"a\u{1b}b\""),
            "invalid type: string \"a b\""
        );
        // A quote of the client's own ends the run early: the whole is
        // still short.
        let tricky = format!("unknown variant `A`{long}`");
        assert!(shortened(&tricky).chars().count() <= MOST_SAID);
    }

    #[test]
    fn names_and_chat_lose_control_characters() {
        assert_eq!(clean_name("  Ann\u{1b}[2J  "), "Ann [2J");
        assert_eq!(clean_name("Bartholomew the Great"), "Bartholomew");
        assert_eq!(clean_text("a\nb\tc"), "a b c");
        assert_eq!(clean_name("Ann\u{2028}\u{202e}Lee"), "Ann Lee");
        let piled = format!("hi A{}", "\u{301}".repeat(190));
        assert_eq!(clean_chat(&piled), "hi A\u{301}");
    }

    #[test]
    fn a_plain_server_listens_only_on_loopback() {
        let options = ServerOptions {
            listen: "0.0.0.0:0".parse().unwrap(),
            plain: true,
            ..ServerOptions::default()
        };
        let refused = Server::start(options).err().unwrap();
        assert!(refused.to_string().contains("loopback"), "{refused}");
        assert!(refused.is_bad_input());
    }
}
