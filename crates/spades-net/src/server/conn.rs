//! One connection: the TLS handshake, `hello`, sitting down, and passing
//! what the client says to its table. Its lines are read here, at most
//! `MAX_LINE` bytes each; a task of its own writes what it is sent.

mod account;
mod follow;
mod lobby;
mod watch;
mod writer;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::{Instant, sleep_until, timeout, timeout_at};

use super::flood::{Flood, ListingRate};
use super::link::{Link, OUTBOX, Out, encode};
use super::slot::Slot;
use super::table::{self, Command, How, Opening, Refusal, Who};
use super::{Shared, clean_name, clean_text, shortened};
use crate::code;
use crate::config;
use crate::ladder::keys::Nonce;
use crate::ladder::store::Account;
use crate::protocol::account::{LadderState, ModeRating};
use crate::protocol::lines::{LineReader, Read};
use crate::protocol::{self, ClientMessage, ErrorCode, MAX_CHAT, PROTOCOL_VERSION, ServerMessage};

/// How long a connection's last words may take to write.
const LAST_WORDS: Duration = Duration::from_secs(5);

/// What the kernel may hold of a connection's replies not yet read
/// (`SO_SNDBUF`; Linux books twice this for its own accounting): with the
/// connection's own queue (`link::OUTBOX_BYTES`), all a client that never
/// reads can make the server hold.
pub(super) const SEND_BUFFER: usize = 64 * 1024;

/// A connection just accepted: its handshake and `hello` must come within
/// the hello timeout.
pub(super) async fn accepted(
    socket: TcpStream,
    acceptor: Option<tokio_rustls::TlsAcceptor>,
    shared: Arc<Shared>,
    alive: mpsc::Sender<()>,
    slot: Slot,
) {
    let _ = socket.set_nodelay(true);
    crate::keep_alive(&socket);
    let _ = socket2::SockRef::from(&socket).set_send_buffer_size(SEND_BUFFER);
    let hello_by = Instant::now() + shared.options.hello_timeout;
    match acceptor {
        None => run(socket, hello_by, shared, alive, slot).await,
        Some(acceptor) => {
            let mut stop = shared.shutdown.clone();
            tokio::select! {
                handshake = timeout_at(hello_by, acceptor.accept(socket)) => {
                    if let Ok(Ok(stream)) = handshake {
                        run(stream, hello_by, shared, alive, slot).await;
                    }
                }
                _ = super::stopped(&mut stop) => {}
            }
        }
    }
}

/// A connection from an address that holds as many as one address may:
/// closed at once, holding no place. Over plain TCP it is told why in the
/// one write its empty send buffer takes; over TLS a word would cost a
/// handshake, so it is closed without one.
pub(super) fn crowded(socket: TcpStream, plain: bool, most: usize) {
    if plain {
        let why = ServerMessage::Error {
            code: ErrorCode::Flood,
            message: format!("more than {most} connections at once from one address"),
        };
        let _ = socket.try_write(protocol::line(&why).as_bytes());
    }
}

/// Where a connection stands.
enum State {
    /// Nothing said yet.
    Hello,
    /// Welcomed, not seated.
    Ready { name: String },
    /// In the quick-match queue, waiting for a table.
    Queued { name: String },
    /// At a table.
    Seated { table: mpsc::Sender<Command> },
    /// Watching a table, holding no seat.
    Watching { table: mpsc::Sender<Command> },
}

/// Why a connection ends.
enum End {
    /// The client went away (or its connection broke).
    Gone,
    /// Its table ended it, having said why.
    Ended,
    /// Goodbye, and why.
    Bye(String),
    /// The client broke a rule that closes the connection.
    Error(ErrorCode, String),
}

struct Conn<R> {
    link: Link,
    shared: Arc<Shared>,
    alive: mpsc::Sender<()>,
    reader: LineReader<R>,
    state: State,
    flood: Flood,
    /// `act`s taken as answers to asks.
    answers: u64,
    /// A reply could not be queued (the client reads too slowly, or is
    /// gone): the connection is let go.
    cut: bool,
    /// When a welcomed connection must have sat down by.
    sit_by: Instant,
    /// Its place in the server's counts, given back when it ends.
    slot: Slot,
    /// When the client last sent a line, and whether it has been sent a
    /// `ping` since.
    heard: Instant,
    pinged: bool,
    /// `ping`s sent and `pong`s taken as answers to them.
    pings: u64,
    pongs: u64,
    /// The challenge it was last given to sign (a server with a ladder).
    challenge: Option<Nonce>,
    /// The account it signed in as: it plays under the account's name.
    account: Option<Account>,
    /// The account's ratings in every mode, as the ladder gave them at
    /// sign-in: shown in the lobby and used for matching without asking
    /// the store again.
    ratings: Vec<ModeRating>,
    /// Its `tables` requests of late, to hold back a flood of them.
    listing: ListingRate,
    /// Queued: where the quick-match queue hands it its table.
    matched: Option<oneshot::Receiver<mpsc::Sender<Command>>>,
    /// In the lobby, following it (`follow`): what it has been sent.
    following: Option<follow::Following>,
}

pub(super) async fn run<S>(
    stream: S,
    hello_by: Instant,
    shared: Arc<Shared>,
    alive: mpsc::Sender<()>,
    slot: Slot,
) where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let (read, write) = tokio::io::split(stream);
    let (tx, rx) = mpsc::channel(OUTBOX);
    let queued = Arc::new(AtomicUsize::new(0));
    let mut writer = tokio::spawn(writer::write_lines(write, rx, Arc::clone(&queued)));
    let link = Link {
        id: shared.next_conn.fetch_add(1, Ordering::Relaxed),
        tx,
        kill: Arc::new(Notify::new()),
        asks: Arc::new(AtomicU64::new(0)),
        queued,
    };
    let mut conn = Conn {
        link,
        shared,
        alive,
        reader: LineReader::new(read),
        state: State::Hello,
        flood: Flood::default(),
        answers: 0,
        cut: false,
        sit_by: hello_by,
        slot,
        heard: Instant::now(),
        pinged: false,
        pings: 0,
        pongs: 0,
        challenge: None,
        account: None,
        ratings: Vec::new(),
        listing: ListingRate::default(),
        matched: None,
        following: None,
    };
    let end = conn.talk(hello_by).await;
    let refused = matches!(end, End::Error(..));
    match end {
        End::Gone => conn.leave(false).await,
        End::Ended => {}
        End::Bye(reason) => {
            conn.leave(true).await;
            conn.say(&ServerMessage::Bye {
                reason,
                rating: None,
            });
        }
        End::Error(code, message) => {
            conn.leave(false).await;
            conn.say(&ServerMessage::Error { code, message });
        }
    }
    let _ = conn.link.tx.try_send(Out::Close);
    let written = async {
        if timeout(LAST_WORDS, &mut writer).await.is_err() {
            writer.abort();
        }
    };
    if refused {
        // Whatever the client is still sending is read and dropped while
        // the error goes out: closing on unread input would reset the
        // connection and lose the error.
        tokio::join!(conn.reader.drain(Duration::from_secs(1), 1 << 20), written);
    } else {
        written.await;
    }
}

impl<R: AsyncRead + Unpin> Conn<R> {
    /// Reads and answers messages until the connection ends.
    async fn talk(&mut self, hello_by: Instant) -> End {
        let mut stop = self.shared.shutdown.clone();
        // Seated when the server stops: the table says goodbye (with the
        // game's record); this is how long it is given to.
        let mut stop_by: Option<Instant> = None;
        let far = Instant::now() + Duration::from_secs(86_400 * 365);
        loop {
            if self.cut {
                return End::Gone;
            }
            let hello = matches!(self.state, State::Hello);
            if !matches!(self.state, State::Ready { .. } | State::Queued { .. }) {
                // Seated or watching: out of the lobby, following nothing.
                self.following = None;
            }
            // Following the lobby is not idling: the lobby is where it is.
            let standing = matches!(self.state, State::Ready { .. }) && self.following.is_none();
            let quiet_by = self.liveness_due();
            let matched = self.matched.as_mut();
            let following = self.following.as_mut();
            let read = tokio::select! {
                read = self.reader.next() => read,
                found = lobby::table_found(matched) => {
                    self.found(found);
                    continue;
                }
                () = follow::update_due(following) => {
                    self.send_update();
                    continue;
                }
                _ = self.link.kill.notified() => return End::Ended,
                _ = sleep_until(self.sit_by), if standing => {
                    let time = self.shared.options.sit_timeout.as_secs_f32();
                    return End::Error(
                        ErrorCode::Timeout,
                        format!("no table opened or joined within {time} seconds of hello"),
                    );
                }
                // Before hello, its own deadline stands.
                _ = sleep_until(quiet_by), if !hello => {
                    if let Some(end) = self.liveness() {
                        return end;
                    }
                    continue;
                }
                _ = sleep_until(hello_by), if hello => {
                    return End::Error(
                        ErrorCode::Timeout,
                        format!("no hello within {} seconds", self.shared.options.hello_timeout.as_secs_f32()),
                    );
                }
                _ = super::stopped(&mut stop), if stop_by.is_none() => {
                    if matches!(self.state, State::Seated { .. } | State::Watching { .. }) {
                        stop_by = Some(Instant::now() + Duration::from_secs(2));
                        continue;
                    }
                    return End::Bye("the server is shutting down".into());
                }
                _ = sleep_until(stop_by.unwrap_or(far)), if stop_by.is_some() => {
                    return End::Bye("the server is shutting down".into());
                }
            };
            let line = match read {
                Ok(Read::Line(line)) => {
                    self.heard = Instant::now();
                    self.pinged = false;
                    line
                }
                Ok(Read::TooLong) => {
                    return End::Error(
                        ErrorCode::TooLong,
                        format!("a line may be at most {} bytes", protocol::MAX_LINE),
                    );
                }
                Ok(Read::End) | Err(_) => return End::Gone,
            };
            if let Some(end) = self.line(line).await {
                return end;
            }
        }
    }

    /// One line from the client.
    async fn line(&mut self, line: Vec<u8>) -> Option<End> {
        let hello = matches!(self.state, State::Hello);
        let message = match String::from_utf8(line) {
            Err(_) => Err("a message is UTF-8 text".to_string()),
            Ok(text) if text.trim().is_empty() => Err("an empty line is not a message".into()),
            Ok(text) => protocol::parse::<ClientMessage>(&text),
        };
        if !self.answered(&message) && !self.flood.allows(std::time::Instant::now()) {
            return Some(End::Error(
                ErrorCode::Flood,
                format!(
                    "more than {} messages in a second",
                    super::flood::FLOOD_LIMIT
                ),
            ));
        }
        let message = match message {
            Ok(message) => message,
            Err(why) if hello => {
                return Some(End::Error(
                    ErrorCode::Version,
                    format!(
                        "the first message must be hello with protocol {PROTOCOL_VERSION} ({})",
                        shortened(&why)
                    ),
                ));
            }
            Err(why) => {
                self.refuse(ErrorCode::BadMessage, shortened(&why));
                return None;
            }
        };
        // A table found while this line came in is taken first: the line
        // may answer its first ask.
        if let Some(found) = self.matched.as_mut().and_then(|m| m.try_recv().ok()) {
            self.found(Ok(found));
        }
        match std::mem::replace(&mut self.state, State::Hello) {
            State::Hello => self.hello(message).await,
            State::Ready { name } => self.ready(name, message).await,
            State::Queued { name } => self.queued(name, message).await,
            State::Seated { table } => self.seated(table, message).await,
            State::Watching { table } => self.watching(table, message).await,
        }
    }

    /// Is `message` the answer to an ask or a `ping`? Those are paced by
    /// the server, so they do not count toward the flood limit; any more
    /// than were asked for do.
    fn answered(&mut self, message: &Result<ClientMessage, String>) -> bool {
        match message {
            Ok(ClientMessage::Act { .. })
                if self.answers < self.link.asks.load(Ordering::Relaxed) =>
            {
                self.answers += 1;
                true
            }
            Ok(ClientMessage::Pong {}) if self.pongs < self.pings => {
                self.pongs += 1;
                true
            }
            _ => false,
        }
    }

    /// When the client has next been silent too long: for a `ping`, or
    /// (pinged already) for the read deadline.
    fn liveness_due(&self) -> Instant {
        let options = &self.shared.options;
        let deadline = self.heard + options.read_timeout;
        if self.pinged {
            deadline
        } else {
            deadline.min(self.heard + options.ping_after)
        }
    }

    /// The client has been silent a while: it is pinged, or, silent past
    /// the read deadline, taken for gone (its seat goes away, as on a lost
    /// connection).
    fn liveness(&mut self) -> Option<End> {
        let silent = self.shared.options.read_timeout;
        if Instant::now() >= self.heard + silent {
            return Some(End::Error(
                ErrorCode::Timeout,
                format!(
                    "nothing heard for {} seconds: the connection is taken for lost",
                    silent.as_secs_f32()
                ),
            ));
        }
        self.pinged = true;
        self.pings += 1;
        self.say(&ServerMessage::Ping {});
        None
    }

    async fn hello(&mut self, message: ClientMessage) -> Option<End> {
        match message {
            ClientMessage::Hello { protocol, name } if protocol == PROTOCOL_VERSION => {
                let challenge = self.fresh_challenge().await;
                // A ladder kept, and no challenge: its store is down.
                let ladder = (self.shared.ladder.is_some() && challenge.is_none())
                    .then_some(LadderState::Unavailable);
                self.say(&ServerMessage::Welcome {
                    protocol: PROTOCOL_VERSION,
                    server: format!("spades {}", env!("CARGO_PKG_VERSION")),
                    challenge,
                    ladder,
                });
                self.state = State::Ready {
                    name: clean_name(&name),
                };
                self.sit_by = Instant::now() + self.shared.options.sit_timeout;
                None
            }
            ClientMessage::Hello { protocol, .. } => Some(End::Error(
                ErrorCode::Version,
                format!("this server speaks protocol {PROTOCOL_VERSION}, not {protocol}"),
            )),
            _ => Some(End::Error(
                ErrorCode::Version,
                format!("the first message must be hello with protocol {PROTOCOL_VERSION}"),
            )),
        }
    }

    /// Welcomed, not seated: the client may open a table or sit at one.
    async fn ready(&mut self, name: String, message: ClientMessage) -> Option<End> {
        let sits = matches!(
            message,
            ClientMessage::Host { .. } | ClientMessage::Join { .. } | ClientMessage::Reclaim { .. }
        );
        if sits && let Err((code, why)) = self.may_sit_as(&name).await {
            self.refuse(code, why);
            self.state = State::Ready { name };
            return None;
        }
        // Where the client goes: to a table, or nowhere (None: still ready).
        let moved = match message {
            ClientMessage::Host { rules, public } => {
                let who = self.who(&name);
                Some(
                    self.open(who, &rules, public)
                        .map(|table| State::Seated { table }),
                )
            }
            ClientMessage::Join { table } => Some(self.sit_at(&name, &table, How::Join).await),
            ClientMessage::Reclaim { table, token } => {
                Some(self.sit_at(&name, &table, How::Reclaim(token)).await)
            }
            ClientMessage::Watch { table } => {
                let watched = self.watch(&table.trim().to_ascii_uppercase()).await;
                Some(watched.map(|table| State::Watching { table }))
            }
            ClientMessage::Bye {} => return Some(End::Bye("you left".into())),
            ClientMessage::Queue { mode, wait } => {
                self.queue(name, mode, wait).await;
                return None;
            }
            other => {
                self.asked_unseated(other).await;
                None
            }
        };
        self.state = match moved {
            Some(Ok(state)) => state,
            Some(Err((code, why))) => {
                self.refuse(code, why);
                State::Ready { name }
            }
            None => State::Ready { name },
        };
        None
    }

    /// Sits the client at the table `table` (its id as typed), joining
    /// anew or by a seat token.
    async fn sit_at(
        &mut self,
        name: &str,
        table: &str,
        how: How,
    ) -> Result<State, (ErrorCode, String)> {
        let id = table.trim().to_ascii_uppercase();
        let who = self.who(name);
        self.sit(&id, who, how)
            .await
            .map(|table| State::Seated { table })
    }

    /// What a client seated nowhere may ask and stay so: its account, the
    /// lobby's lists, a pong; anything meant for a table is refused.
    async fn asked_unseated(&mut self, message: ClientMessage) {
        match message {
            ClientMessage::Register { .. }
            | ClientMessage::SignIn { .. }
            | ClientMessage::Rotate { .. }
            | ClientMessage::Ladder { .. } => self.account(message).await,
            ClientMessage::Tables { mode } => self.tables(mode),
            ClientMessage::Follow { mode } => self.follow(mode),
            ClientMessage::Mine { tables } => self.mine(tables),
            ClientMessage::Unfollow {} => self.unfollow(),
            // Not queued: out of the queue already.
            ClientMessage::Unqueue {} => self.say(&ServerMessage::Unqueued {}),
            // Heard: that is all a pong says.
            ClientMessage::Pong {} => {}
            ClientMessage::Hello { .. } => {
                self.refuse(ErrorCode::BadMessage, "hello was said already".into());
            }
            other => {
                let code = match other {
                    ClientMessage::Fill { .. } | ClientMessage::Start {} => ErrorCode::NotHost,
                    ClientMessage::Act { .. } => ErrorCode::NotYourTurn,
                    _ => ErrorCode::NoTable,
                };
                self.refuse(code, "you sit at no table".into());
            }
        }
    }

    /// Opens a table with these rules, its host seated; listed in the
    /// lobby when `public`.
    fn open(
        &mut self,
        who: Who,
        rules: &str,
        public: bool,
    ) -> Result<mpsc::Sender<Command>, (ErrorCode, String)> {
        let rules = config::parse_rules(rules, "rules")
            // The rules are the client's text: an unknown key of 60 KB is named
            // by an excerpt, not said back whole.
            .map_err(|e| (ErrorCode::BadRules, shortened(&e.to_string())))?;
        if self.shared.stopping() {
            return Err((ErrorCode::NoTable, "the server is shutting down".into()));
        }
        let id = code::table_id().map_err(|e| (ErrorCode::NoTable, e))?;
        let token = code::seat_token().map_err(|e| (ErrorCode::NoTable, e))?;
        Ok(table::open(
            Opening { id, rules, public },
            self.link.clone(),
            who,
            token,
            Arc::clone(&self.shared),
            self.alive.clone(),
        ))
    }

    async fn sit(
        &mut self,
        id: &str,
        who: Who,
        how: How,
    ) -> Result<mpsc::Sender<Command>, (ErrorCode, String)> {
        let link = self.link.clone();
        let sit = |reply| Command::Sit {
            link,
            who,
            how,
            reply,
        };
        self.reach_table(id, sit).await
    }

    /// Asks the table `id` to take this connection (`request`: to sit at
    /// it, or to watch it), and waits for its answer.
    async fn reach_table(
        // `&mut`: the connection is Send, not Sync, across the wait.
        &mut self,
        id: &str,
        request: impl FnOnce(oneshot::Sender<Result<(), Refusal>>) -> Command,
    ) -> Result<mpsc::Sender<Command>, (ErrorCode, String)> {
        // The id is the client's text: said back cleaned and cut short.
        let shown: String = clean_text(id).chars().take(20).collect();
        let gone = || (ErrorCode::NoTable, format!("no table has the id {shown}"));
        let missing = || {
            (
                ErrorCode::NoTable,
                self.shared.lobby.why_missing(id, &shown),
            )
        };
        let table = self.shared.table(id).ok_or_else(missing)?;
        let (reply, answer) = oneshot::channel();
        table.send(request(reply)).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())??;
        Ok(table)
    }

    /// At a table: everything goes to it.
    async fn seated(
        &mut self,
        table: mpsc::Sender<Command>,
        message: ClientMessage,
    ) -> Option<End> {
        let conn = self.link.id;
        let command = match message {
            ClientMessage::Hello { .. } => Err("hello was said already"),
            ClientMessage::Host { .. }
            | ClientMessage::Join { .. }
            | ClientMessage::Reclaim { .. }
            | ClientMessage::Watch { .. } => Err("you sit at a table already (bye leaves it)"),
            ClientMessage::StopWatching {} => Err("you watch no table: bye leaves your seat"),
            ClientMessage::Register { .. }
            | ClientMessage::SignIn { .. }
            | ClientMessage::Rotate { .. }
            | ClientMessage::Ladder { .. } => {
                Err("accounts and the ladder are for before sitting at a table")
            }
            ClientMessage::Tables { .. }
            | ClientMessage::Mine { .. }
            | ClientMessage::Follow { .. }
            | ClientMessage::Unfollow {}
            | ClientMessage::Queue { .. }
            | ClientMessage::Unqueue {} => {
                Err("the lobby and quick match are for before sitting at a table")
            }
            ClientMessage::Fill { bots, level } => Ok(Command::Fill { conn, bots, level }),
            ClientMessage::Start {} => Ok(Command::Start { conn }),
            ClientMessage::Act { action } => Ok(Command::Act { conn, action }),
            ClientMessage::Chat { text } if text.chars().count() > MAX_CHAT => {
                Err("a chat line is at most 200 characters")
            }
            ClientMessage::Chat { text } => Ok(Command::Chat { conn, text }),
            ClientMessage::Bye {} => {
                self.state = State::Seated { table };
                return Some(End::Bye("you left the table".into()));
            }
            ClientMessage::Pong {} => {
                self.state = State::Seated { table };
                return None;
            }
        };
        match command {
            Ok(command) => {
                if table.send(command).await.is_err() {
                    return Some(End::Bye("the table has ended".into()));
                }
            }
            Err(why) => self.refuse(ErrorCode::BadMessage, why.to_string()),
        }
        self.state = State::Seated { table };
        None
    }

    /// Tells the table this connection has left it, if it sat at one (or
    /// the queue, if it was waiting in it).
    async fn leave(&mut self, said_bye: bool) {
        if let State::Queued { name } = &self.state {
            let name = name.clone();
            self.unqueue(name).await;
        }
        if let State::Seated { table } | State::Watching { table } = &self.state {
            let (done, sent) = oneshot::channel();
            let leave = Command::Leave {
                conn: self.link.id,
                said_bye,
                done,
            };
            if table.send(leave).await.is_ok() {
                let _ = timeout(LAST_WORDS, sent).await;
            }
        }
    }

    fn say(&mut self, message: &ServerMessage) {
        if !self.link.send(encode(message)) {
            self.cut = true;
        }
    }

    fn refuse(&mut self, code: ErrorCode, message: String) {
        self.say(&ServerMessage::Error { code, message });
    }
}
