//! A client of the table protocol for the tests (and `examples/net_load`):
//! it connects as `spades join` would (TLS trusting only the server's
//! fingerprint, or plain on loopback), keeps every line it receives exactly
//! as it came, and plays whole games with a local bot answering each ask
//! from the ask's view alone.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use spades::bots::{Bot, BotRng, Effort, Level, bot_rng, decide};
use spades::engine::{Action, Bid, Decision, PlayerView, Seat, SeatEvent};
use spades::net::tls;
use spades::protocol::{self, ClientMessage, ErrorCode, Legal, ServerMessage};
use spades::record::RecordLine;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::io::{ReadHalf, WriteHalf};
use tokio::net::{TcpSocket, TcpStream};

/// How long a test waits for any one message before it calls the server
/// stuck.
const PATIENCE: Duration = Duration::from_secs(30);

trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Stream for T {}

pub struct Client {
    reader: BufReader<ReadHalf<Box<dyn Stream>>>,
    writer: WriteHalf<Box<dyn Stream>>,
    /// Every line received, in order, exactly as it came (newline cut).
    pub received: Vec<String>,
}

/// What `seated` said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seated {
    pub table: String,
    pub seat: Seat,
    pub token: String,
    pub host: bool,
}

impl Client {
    /// Connects, over TLS when a fingerprint is given.
    pub async fn connect(address: SocketAddr, fingerprint: Option<&str>) -> Client {
        Client::try_connect(address, fingerprint)
            .await
            .unwrap_or_else(|e| panic!("cannot connect to {address}: {e}"))
    }

    pub async fn try_connect(
        address: SocketAddr,
        fingerprint: Option<&str>,
    ) -> std::io::Result<Client> {
        Client::over(TcpStream::connect(address).await?, fingerprint).await
    }

    /// Connects from `from`, an address of this machine's (all of 127/8 is
    /// loopback on Linux), over TLS when a fingerprint is given: many
    /// connections from many addresses stay under a server's limit for one.
    pub async fn connect_from(
        address: SocketAddr,
        from: IpAddr,
        fingerprint: Option<&str>,
    ) -> std::io::Result<Client> {
        let socket = match from {
            IpAddr::V4(_) => TcpSocket::new_v4()?,
            IpAddr::V6(_) => TcpSocket::new_v6()?,
        };
        socket.bind(SocketAddr::new(from, 0))?;
        Client::over(socket.connect(address).await?, fingerprint).await
    }

    /// A client over a connection made, over TLS when a fingerprint is
    /// given.
    async fn over(socket: TcpStream, fingerprint: Option<&str>) -> std::io::Result<Client> {
        socket.set_nodelay(true)?;
        let stream: Box<dyn Stream> = match fingerprint {
            None => Box::new(socket),
            Some(fp) => {
                let config = tls::client(fp).map_err(std::io::Error::other)?;
                let connector = tokio_rustls::TlsConnector::from(config);
                Box::new(connector.connect(tls::server_name(), socket).await?)
            }
        };
        let (read, write) = tokio::io::split(stream);
        Ok(Client {
            reader: BufReader::new(read),
            writer: write,
            received: Vec::new(),
        })
    }

    pub async fn send(&mut self, message: &ClientMessage) {
        let line = protocol::line(message);
        self.send_raw(line.as_bytes())
            .await
            .unwrap_or_else(|e| panic!("cannot send {line}: {e}"));
    }

    pub async fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.writer.write_all(bytes).await?;
        self.writer.flush().await
    }

    /// The next message, or `None` when the server has closed the
    /// connection. Panics when nothing comes for `PATIENCE`.
    pub async fn next(&mut self) -> Option<ServerMessage> {
        match self.next_within(PATIENCE).await {
            Ok(message) => message,
            Err(()) => panic!(
                "nothing from the server for {PATIENCE:?}; last lines: {:?}",
                self.received.iter().rev().take(3).collect::<Vec<_>>()
            ),
        }
    }

    /// The next message if one comes within `time`; `Ok(None)` when the
    /// connection is closed (or reset).
    pub async fn next_within(&mut self, time: Duration) -> Result<Option<ServerMessage>, ()> {
        let mut line = String::new();
        match tokio::time::timeout(time, self.reader.read_line(&mut line)).await {
            Err(_) => Err(()),
            Ok(Err(_)) | Ok(Ok(0)) => Ok(None),
            Ok(Ok(_)) => {
                let text = line.trim_end_matches('\n').to_string();
                let message = protocol::parse(&text)
                    .unwrap_or_else(|e| panic!("the server sent {text}: {e}"));
                self.received.push(text);
                Ok(Some(message))
            }
        }
    }

    /// Reads until `wanted` picks a message out; panics if the connection
    /// closes first.
    pub async fn until<T>(&mut self, mut wanted: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let Some(message) = self.next().await else {
                panic!(
                    "the connection closed; last lines: {:?}",
                    self.received.iter().rev().take(3).collect::<Vec<_>>()
                );
            };
            if let Some(found) = wanted(&message) {
                return found;
            }
        }
    }

    /// The next error, skipping everything else.
    pub async fn error(&mut self) -> (ErrorCode, String) {
        self.until(|m| match m {
            ServerMessage::Error { code, message } => Some((*code, message.clone())),
            _ => None,
        })
        .await
    }

    /// Reads everything until the server closes the connection; the
    /// messages read on the way.
    pub async fn closed(&mut self) -> Vec<ServerMessage> {
        let mut seen = Vec::new();
        while let Some(message) = self.next().await {
            seen.push(message);
        }
        seen
    }

    pub async fn hello(&mut self, name: &str) {
        self.send(&ClientMessage::Hello {
            protocol: protocol::PROTOCOL_VERSION,
            name: name.to_string(),
        })
        .await;
        match self.next().await {
            Some(ServerMessage::Welcome { protocol: 1, .. }) => {}
            other => panic!("hello was answered with {other:?}"),
        }
    }

    /// Opens a table with `rules` (a rules.toml text).
    pub async fn host(&mut self, rules: &str) -> Seated {
        self.open(rules, false).await
    }

    /// Opens a table with `rules`, listed in the server's lobby when
    /// `public`.
    pub async fn open(&mut self, rules: &str, public: bool) -> Seated {
        self.send(&ClientMessage::Host {
            rules: rules.to_string(),
            public,
        })
        .await;
        self.seated().await.expect("a table opens")
    }

    pub async fn join(&mut self, table: &str) -> Result<Seated, (ErrorCode, String)> {
        self.send(&ClientMessage::Join {
            table: table.to_string(),
        })
        .await;
        self.seated().await
    }

    pub async fn reclaim(
        &mut self,
        table: &str,
        token: &str,
    ) -> Result<Seated, (ErrorCode, String)> {
        self.send(&ClientMessage::Reclaim {
            table: table.to_string(),
            token: token.to_string(),
        })
        .await;
        self.seated().await
    }

    /// `seated`, or the error that came instead.
    pub async fn seated(&mut self) -> Result<Seated, (ErrorCode, String)> {
        self.until(|m| match m {
            ServerMessage::Seated {
                table,
                seat,
                token,
                host,
            } => Some(Ok(Seated {
                table: table.clone(),
                seat: *seat,
                token: token.clone(),
                host: *host,
            })),
            ServerMessage::Error { code, message } => Some(Err((*code, message.clone()))),
            _ => None,
        })
        .await
    }

    /// The next lobby message.
    pub async fn seating(&mut self) -> protocol::Seating {
        self.until(|m| match m {
            ServerMessage::Seating(lobby) => Some(lobby.clone()),
            _ => None,
        })
        .await
    }

    /// Asks for bots of `level`, as a client may write any level (one
    /// the server does not offer included).
    pub async fn fill(&mut self, bots: bool, level: &str) {
        let line = serde_json::json!({ "type": "fill", "bots": bots, "level": level });
        self.send_raw(format!("{line}\n").as_bytes())
            .await
            .expect("the line is sent");
    }

    pub async fn start(&mut self) {
        self.send(&ClientMessage::Start {}).await;
    }
}

/// The local bot that answers asks: a level from `bots`, and whether it
/// bids blind nil whenever one is on offer (to make exchanges happen).
pub struct Answerer {
    bot: Box<dyn Bot>,
    rng: BotRng,
    pub always_blind_nil: bool,
}

impl Answerer {
    pub fn new(level: &str, seed: u64) -> Answerer {
        Answerer {
            bot: level
                .parse::<Level>()
                .expect("a bot level")
                .bot(Effort::Usual),
            rng: bot_rng(seed, Seat::new(0)),
            always_blind_nil: false,
        }
    }

    pub fn answer(&mut self, decision: Decision, legal: &Legal, view: &PlayerView) -> Action {
        if self.always_blind_nil
            && let Legal::Bids { bids, .. } = legal
            && bids.contains(&Bid::BlindNil)
        {
            return Action::Bid(Bid::BlindNil);
        }
        let action = decide(self.bot.as_mut(), decision, view, &mut self.rng);
        assert!(
            legal.allows(&action, view.cards()),
            "the local bot chose {action:?}, which the ask does not list: {legal:?}"
        );
        action
    }
}

/// What one connection saw of a game.
#[derive(Debug, Default)]
pub struct Seen {
    pub seat: Option<Seat>,
    pub commitment: Option<String>,
    pub names: Vec<String>,
    /// The record's lines, as they came.
    pub record: Vec<RecordLine>,
    /// Every ask: the seat asked for, the decision and the hand.
    pub asks: Vec<(Seat, Decision, u32)>,
    pub events: Vec<SeatEvent>,
    /// `seat` messages: who sits where now.
    pub seats: Vec<ServerMessage>,
    pub bye: Option<String>,
    /// What the goodbye said of the game's rating, after a rated game.
    pub rating: Option<spades::protocol::account::GameRating>,
    /// When each answer was sent, and when the next message came after it.
    pub response_times: Vec<Duration>,
}

impl Seen {
    /// The record as a file would hold it.
    pub fn record_text(&self) -> String {
        self.record
            .iter()
            .map(|l| format!("{}\n", l.json()))
            .collect()
    }
}

/// Plays on until the server says `bye` (returning `None`), or until
/// `stop` picks out a message (returned, and unanswered if an ask); `stop`
/// sees every message before it is handled.
pub async fn play_on(
    client: &mut Client,
    answerer: &mut Answerer,
    seen: &mut Seen,
    mut stop: impl FnMut(&ServerMessage) -> bool,
) -> Option<ServerMessage> {
    let mut answered_at: Option<tokio::time::Instant> = None;
    loop {
        let Some(message) = client.next().await else {
            panic!(
                "the connection closed before bye; last lines: {:?}",
                client.received.iter().rev().take(3).collect::<Vec<_>>()
            );
        };
        if let Some(at) = answered_at.take() {
            seen.response_times.push(at.elapsed());
        }
        if stop(&message) {
            return Some(message);
        }
        match &message {
            ServerMessage::Seated { seat, .. } => seen.seat = Some(*seat),
            ServerMessage::Start {
                commitment, seats, ..
            } => {
                seen.commitment = commitment.clone();
                seen.names = seats.clone();
            }
            ServerMessage::Record { lines } => seen.record.extend(lines.iter().cloned()),
            ServerMessage::Event { event } => seen.events.push(event.clone()),
            ServerMessage::Seat { .. } => seen.seats.push(message.clone()),
            ServerMessage::Bye { reason, rating } => {
                seen.bye = Some(reason.clone());
                seen.rating = rating.clone();
                return None;
            }
            ServerMessage::Error { code, message } => {
                panic!("the server refused an answer: {code:?}: {message}")
            }
            ServerMessage::Ask {
                seat,
                decision,
                legal,
                view,
                ..
            } => {
                seen.asks.push((*seat, *decision, view.hand_no));
                let action = answerer.answer(*decision, legal, view);
                client.send(&ClientMessage::Act { action }).await;
                answered_at = Some(tokio::time::Instant::now());
            }
            // Still here, as every client must say.
            ServerMessage::Ping {} => client.send(&ClientMessage::Pong {}).await,
            _ => {}
        }
    }
}

/// Plays a whole game from here to its `bye`.
pub async fn play_out(client: &mut Client, answerer: &mut Answerer) -> Seen {
    let mut seen = Seen::default();
    play_on(client, answerer, &mut seen, |_| false).await;
    seen
}

/// Answers an ask held back by `play_on`'s `stop`.
pub async fn answer(
    client: &mut Client,
    answerer: &mut Answerer,
    seen: &mut Seen,
    ask: &ServerMessage,
) {
    let ServerMessage::Ask {
        seat,
        decision,
        legal,
        view,
        ..
    } = ask
    else {
        panic!("{ask:?} is not an ask");
    };
    seen.asks.push((*seat, *decision, view.hand_no));
    let action = answerer.answer(*decision, legal, view);
    client.send(&ClientMessage::Act { action }).await;
}
