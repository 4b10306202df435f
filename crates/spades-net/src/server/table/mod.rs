//! One table: its seating (its lobby), then its game. A task of its own owns both and is
//! the only one to touch them; connections send it what their clients
//! say (`Command`), and it sends each connection only what its seat may
//! see.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

mod listing;
mod play;
mod rated;
mod seating;
mod seats;
mod watchers;

use super::flood::{ChatRate, TableChatRate};
use super::link::{Link, encode};
use super::{ConnId, Shared};
use crate::bots::{BotSpec, Level};
use crate::config;
use crate::engine::{Action, Decision, Mode, Phase, Rules, Seat};
use crate::ladder::store::AccountId;
use crate::protocol::account::ModeRating;
use crate::protocol::lobby::ShownRating;
use crate::protocol::timer::TimedOut;
use crate::protocol::{ErrorCode, ServerMessage};
use crate::record::{MemoryRecord, RecordLine};
use crate::table::{Table, Thought};

/// A refusal: the error a client is sent.
pub(crate) type Refusal = (ErrorCode, String);

/// Who sits down: the name they sit under and, signed in, their account
/// and its ratings as the ladder gave them at sign-in (kept by the
/// connection, so listing the table never asks the store).
#[derive(Debug, Clone, Default)]
pub(crate) struct Who {
    pub name: String,
    pub account: Option<AccountId>,
    pub ratings: Vec<ModeRating>,
}

impl Who {
    /// Their rating in `mode` as the lobby shows it, when signed in.
    fn rating(&self, mode: Mode) -> Option<ShownRating> {
        self.account?;
        let rated = self.ratings.iter().find(|r| r.mode == mode)?;
        Some(ShownRating {
            rating: rated.rating,
            deviation: rated.deviation,
            provisional: rated.provisional,
        })
    }
}

/// A new table: its id, its rules, and whether the lobby lists it.
pub(crate) struct Opening {
    pub id: String,
    pub rules: Rules,
    pub public: bool,
}

/// How a connection asks for a seat.
pub(crate) enum How {
    Join,
    /// Back in a seat held before, by its token.
    Reclaim(String),
}

/// What a connection tells its table.
pub(crate) enum Command {
    Sit {
        link: Link,
        /// Signed in, its games are rated.
        who: Who,
        how: How,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Watch the table, holding no seat.
    Watch {
        link: Link,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Fill {
        conn: ConnId,
        bots: bool,
        level: BotSpec,
    },
    Start {
        conn: ConnId,
    },
    Act {
        conn: ConnId,
        action: Action,
    },
    Chat {
        conn: ConnId,
        text: String,
    },
    Leave {
        conn: ConnId,
        said_bye: bool,
        /// Answered once the table has sent the leaver its last lines, so
        /// the connection's own goodbye comes after them.
        done: oneshot::Sender<()>,
    },
}

/// What the table's own helpers tell it.
enum Inner {
    /// A bot has decided.
    Thought(Box<Thought>),
    /// A bot failed to decide (it panicked).
    BotFailed,
    /// The turn timer ran out on ask `serial`.
    TimeUp { serial: u64 },
    /// A bot's decision for the person asked `serial`.
    StoodIn { serial: u64, action: Action },
}

/// The level of a shared table's bots unless its host chooses: `normal`,
/// not the local table's `hard`, which thinks on every core of the machine
/// and so cannot be given to every table of a server at once.
const LOBBY_LEVEL: Level = Level::Normal;

/// Who holds a seat.
enum Holder {
    Empty,
    Person(Person),
    Bot,
    Dummy,
}

struct Person {
    name: String,
    /// Signed in: the account its games are rated for.
    account: Option<AccountId>,
    /// Signed in: the rating the lobby shows beside the name.
    rating: Option<ShownRating>,
    token: String,
    /// `None` while away: a bot plays for them.
    conn: Option<ConnId>,
}

/// A connection at the table.
struct Present {
    link: Link,
    seat: Seat,
    /// The decision asked of it and not yet answered.
    asked: Option<Asked>,
    /// Its view must be sent again (it came back while its stand-in was
    /// thinking, and the stand-in acted).
    stale: bool,
    /// The turn timer ran out on its ask and a bot answered it: its next
    /// view says what the bot did.
    timed_out: Option<TimedOut>,
    /// Its chat lines of late, to hold back a flood of them.
    chat: ChatRate,
}

struct Asked {
    seat: Seat,
    decision: Decision,
    serial: u64,
    /// The turn timer's task.
    timer: Option<JoinHandle<()>>,
}

impl Drop for Asked {
    fn drop(&mut self) {
        if let Some(timer) = &self.timer {
            timer.abort();
        }
    }
}

/// A game under way.
struct Playing {
    table: Table,
    record: MemoryRecord,
    /// A bot's decision is being thought about.
    thinking: bool,
    /// People who came back while their stand-in was thinking: they take
    /// their seats once it has acted.
    back_after_thought: Vec<Seat>,
    /// The game's `start`, and every record line sent so far: someone who
    /// takes a seat back is sent both, as at the start, to keep their own
    /// copy of the record whole.
    start: ServerMessage,
    /// Kept as the text the record wrote, read again only for someone
    /// who comes back: read into `RecordLine`s, a whole game's lines took
    /// several times the memory, the most a playing table held.
    record_text: Vec<u8>,
}

impl Playing {
    /// Every record line written so far.
    fn record_so_far(&self) -> Vec<RecordLine> {
        record_lines(&self.record_text)
    }
}

/// The lines of record text the table's own record wrote.
fn record_lines(text: &[u8]) -> Vec<RecordLine> {
    text.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .filter_map(|l| serde_json::from_slice(l).ok())
        .collect()
}

struct TableTask {
    id: String,
    rules: Rules,
    rules_text: String,
    seats: Vec<Holder>,
    conns: Vec<Present>,
    /// Spectators: connections that hold no seat.
    watchers: Vec<Link>,
    bots: bool,
    level: BotSpec,
    game: Option<Playing>,
    /// Numbers the asks, so a turn timer knows whether its ask still stands.
    serial: u64,
    shared: Arc<Shared>,
    inner: mpsc::UnboundedSender<Inner>,
    /// Connections that could not take what they were sent: they leave.
    dropped: Vec<ConnId>,
    ended: bool,
    /// Everyone's chat lines of late, to hold back a flood of them.
    chat: TableChatRate,
    /// Listed in the server's lobby.
    public: bool,
    /// The seat of its host, who fills the seats and starts the game:
    /// seat 0 at first, the next person seated when the host leaves the
    /// lobby. A quick match's table has none, nor needs one once started.
    host: Option<Seat>,
}

/// Opens a table with its host in seat 0 and starts its task; returns
/// where to send its commands. The host is told `seated` and `lobby`.
pub(super) fn open(
    opening: Opening,
    host: Link,
    who: Who,
    token: String,
    shared: Arc<Shared>,
    alive: mpsc::Sender<()>,
) -> mpsc::Sender<Command> {
    let id = opening.id.clone();
    let (commands, command_rx, mut task) = TableTask::new(opening, &shared);
    let host_seat = Seat::new(0);
    task.seat_person(host, host_seat, who, token);
    task.broadcast_seating();
    shared.add_table(id, commands.clone());
    tokio::spawn(task.run(command_rx, alive));
    commands
}

/// A quick match's table: `players` seated in their seats, bots of the
/// lobby's level in the rest, and the game started at once. No one is its
/// host. Returns where to send its commands.
pub(super) fn open_matched(
    opening: Opening,
    players: Vec<(Seat, Link, Who, String)>,
    shared: Arc<Shared>,
    alive: mpsc::Sender<()>,
) -> mpsc::Sender<Command> {
    let id = opening.id.clone();
    let (commands, command_rx, mut task) = TableTask::new(opening, &shared);
    task.host = None;
    for (seat, link, who, token) in players {
        task.seat_person(link, seat, who, token);
    }
    shared.add_table(id, commands.clone());
    // Who sits where, as every table tells it before its game.
    task.broadcast_seating();
    task.begin();
    tokio::spawn(task.run(command_rx, alive));
    commands
}

/// What a table's task reads: its connections' commands and its helpers'
/// news.
type Inbox = (mpsc::Receiver<Command>, mpsc::UnboundedReceiver<Inner>);

impl TableTask {
    fn new(opening: Opening, shared: &Arc<Shared>) -> (mpsc::Sender<Command>, Inbox, TableTask) {
        let Opening { id, rules, public } = opening;
        let mode = rules.mode;
        let (commands, command_rx) = mpsc::channel(64);
        let (inner, inner_rx) = mpsc::unbounded_channel();
        let seats = mode
            .each_seat()
            .map(|s| {
                if mode.is_player(s) {
                    Holder::Empty
                } else {
                    Holder::Dummy
                }
            })
            .collect();
        let task = TableTask {
            id,
            rules,
            rules_text: config::commented_toml(&rules),
            seats,
            conns: Vec::new(),
            watchers: Vec::new(),
            bots: true,
            level: LOBBY_LEVEL.into(),
            game: None,
            serial: 0,
            shared: Arc::clone(shared),
            inner,
            dropped: Vec::new(),
            ended: false,
            chat: TableChatRate::default(),
            public,
            host: Some(Seat::new(0)),
        };
        (commands, (command_rx, inner_rx), task)
    }
}

/// A table's place in the server's list, given up when dropped.
struct Listed {
    shared: Arc<Shared>,
    id: String,
}

impl Drop for Listed {
    fn drop(&mut self) {
        self.shared.remove_table(&self.id);
    }
}

impl TableTask {
    async fn run(mut self, (mut commands, mut inner): Inbox, _alive: mpsc::Sender<()>) {
        // However this task ends, a panic included, the table is no
        // longer offered.
        let _listed = Listed {
            shared: Arc::clone(&self.shared),
            id: self.id.clone(),
        };
        let mut stop = self.shared.shutdown.clone();
        let seating_timeout = self.shared.options.seating_timeout;
        let seating_by = seating_timeout.map(|t| tokio::time::Instant::now() + t);
        let far = tokio::time::Instant::now() + std::time::Duration::from_secs(86_400 * 365);
        while !self.ended {
            let seating = self.game.is_none() && seating_by.is_some();
            tokio::select! {
                Some(command) = commands.recv() => self.command(command),
                Some(message) = inner.recv() => self.inner(message),
                _ = super::stopped(&mut stop) => self.end("the server is shutting down"),
                _ = tokio::time::sleep_until(seating_by.unwrap_or(far)), if seating => {
                    let minutes = seating_timeout.unwrap_or_default().as_secs_f64() / 60.0;
                    self.end(&format!("the game did not start within {minutes} minutes of the table opening"));
                }
            }
            self.let_go_of_slow();
        }
    }

    fn mode(&self) -> Mode {
        self.rules.mode
    }

    fn command(&mut self, command: Command) {
        match command {
            Command::Sit {
                link,
                who,
                how,
                reply,
            } => {
                let sat = match how {
                    How::Join => self.join(link, who),
                    How::Reclaim(token) => self.reclaim(link, &token),
                };
                let _ = reply.send(sat);
            }
            Command::Watch { link, reply } => {
                let _ = reply.send(self.watch(link));
            }
            Command::Fill { conn, bots, level } => self.fill(conn, bots, level),
            Command::Start { conn } => self.start(conn),
            Command::Act { conn, action } => self.act(conn, action),
            Command::Chat { conn, text } => self.chat(conn, &text),
            Command::Leave {
                conn,
                said_bye,
                done,
            } => {
                self.leave(conn, said_bye);
                let _ = done.send(());
            }
        }
    }

    fn inner(&mut self, message: Inner) {
        match message {
            Inner::Thought(thought) => self.thought(*thought),
            Inner::BotFailed => self.end("a computer player failed: the table cannot go on"),
            Inner::TimeUp { serial } => self.time_up(serial),
            Inner::StoodIn { serial, action } => self.stood_in(serial, action),
        }
    }

    // ------------------------------------------------------------ seats

    fn person(&self, seat: Seat) -> Option<&Person> {
        match &self.seats[seat.index()] {
            Holder::Person(p) => Some(p),
            _ => None,
        }
    }

    /// Whether a seat's person is a guest: not signed in, on a server
    /// that keeps a ladder (where everyone else could be).
    fn guest(&self, seat: Seat) -> bool {
        self.shared.ladder.is_some() && self.person(seat).is_some_and(|p| p.account.is_none())
    }

    fn present(&self, conn: ConnId) -> Option<usize> {
        self.conns.iter().position(|c| c.link.id == conn)
    }

    fn is_host(&self, conn: ConnId) -> bool {
        self.present(conn)
            .is_some_and(|i| Some(self.conns[i].seat) == self.host)
    }

    // ------------------------------------------------------------ lobby

    // ------------------------------------------------------------ the game

    /// The table ends: a game not over is abandoned (its record closed, its
    /// seed revealed, and sent), and everyone is told why.
    fn end(&mut self, reason: &str) {
        self.end_as(reason, None);
    }

    /// `end`, with `leaver` (who said goodbye, and whose leaving ends the
    /// table) sent the record's last lines but not the table's goodbye:
    /// their own connection answers theirs.
    fn end_as(&mut self, reason: &str, leaver: Option<ConnId>) {
        if self.ended {
            return;
        }
        self.ended = true;
        let mut told_by_ladder = Vec::new();
        if let Some(game) = &mut self.game {
            let over = game.table.phase() == Phase::Over;
            if !over {
                game.table.abandon();
            }
            self.send_record();
            // Rated before anyone is told the table ended: whoever asks
            // for the ladder after that finds the game in it. The players
            // rated hear the goodbye from the ladder, with their rating.
            told_by_ladder = self.rate(over, reason, leaver);
        }
        let bye = encode(&ServerMessage::Bye {
            reason: reason.to_string(),
            rating: None,
        });
        for present in self.conns.drain(..) {
            if Some(present.link.id) != leaver && !told_by_ladder.contains(&present.link.id) {
                present.link.close_with(Arc::clone(&bye));
            }
        }
        self.close_watchers(&bye);
        self.shared.remove_table(&self.id);
    }

    // ------------------------------------------------------------ sending

    fn send(&mut self, i: usize, message: &ServerMessage) {
        self.send_line(i, &encode(message));
    }

    fn send_line(&mut self, i: usize, line: &Arc<str>) {
        let link = &self.conns[i].link;
        if !link.send(Arc::clone(line)) {
            self.dropped.push(link.id);
        }
    }

    /// To everyone at the table, spectators included.
    fn broadcast(&mut self, message: &ServerMessage) {
        let line = encode(message);
        self.tell_seats(&line);
        self.tell_watchers(&line);
    }

    /// To the seats only (the record holds whole deals).
    fn tell_seats(&mut self, line: &Arc<str>) {
        for i in 0..self.conns.len() {
            self.send_line(i, line);
        }
    }

    fn refuse(&mut self, conn: ConnId, code: ErrorCode, message: &str) {
        if let Some(i) = self.present(conn) {
            let error = ServerMessage::Error {
                code,
                message: message.to_string(),
            };
            self.send(i, &error);
        }
    }

    /// Connections that fell too far behind are let go, as if they had
    /// left.
    fn let_go_of_slow(&mut self) {
        while !self.dropped.is_empty() && !self.ended {
            for conn in std::mem::take(&mut self.dropped) {
                if let Some(i) = self.present(conn) {
                    self.conns[i].link.kill();
                }
                self.kill_watcher(conn);
                self.leave(conn, false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::ServerOptions;

    #[test]
    fn a_table_task_that_panics_is_no_longer_offered() {
        let shared = Shared::new(ServerOptions::default());
        let (commands, _rx) = mpsc::channel(1);
        shared.add_table("ABC".into(), commands);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let listed = Listed {
            shared: Arc::clone(&shared),
            id: "ABC".into(),
        };
        let task = runtime.spawn(async move {
            let _listed = listed;
            panic!("a table's task fails");
        });
        assert!(runtime.block_on(task).is_err());
        assert!(shared.table("ABC").is_none());
    }
}
