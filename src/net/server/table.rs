//! One table: its lobby, then its game. A task of its own owns both and is
//! the only one to touch them; connections send it what their clients
//! say (`Command`), and it sends each connection only what its seat may
//! see.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::link::{Link, encode};
use super::{ConnId, Shared, clean_text, seat_name};
use crate::bots::{Bot, BotSpec, Effort, Level, bot_rng, decide};
use crate::config;
use crate::engine::{Action, Decision, Mode, Phase, Rules, Seat};
use crate::fairness::Dealing;
use crate::net::code::{self, same_secret};
use crate::protocol::{ErrorCode, Legal, Lobby, LobbySeat, SeatPlayer, ServerMessage};
use crate::record::{GameInfo, MemoryRecord, RecordLine, now_secs};
use crate::table::{Player, Table, Thinking, Thought, exec, seat_bot};

/// A refusal: the error a client is sent.
pub(crate) type Refusal = (ErrorCode, String);

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
        name: String,
        how: How,
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
    record_lines: Vec<RecordLine>,
}

struct TableTask {
    id: String,
    rules: Rules,
    rules_text: String,
    seats: Vec<Holder>,
    conns: Vec<Present>,
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
}

/// Opens a table with its host in seat 0 and starts its task; returns
/// where to send its commands. The host is told `seated` and `lobby`.
pub(super) fn open(
    id: String,
    rules: Rules,
    host: Link,
    name: String,
    token: String,
    shared: Arc<Shared>,
    alive: mpsc::Sender<()>,
) -> mpsc::Sender<Command> {
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
    let mut task = TableTask {
        id: id.clone(),
        rules,
        rules_text: config::commented_toml(&rules),
        seats,
        conns: Vec::new(),
        bots: true,
        level: LOBBY_LEVEL.into(),
        game: None,
        serial: 0,
        shared: Arc::clone(&shared),
        inner,
        dropped: Vec::new(),
        ended: false,
    };
    let host_seat = Seat::new(0);
    task.seat_person(host, host_seat, name, token);
    task.broadcast_lobby();
    shared.add_table(id, commands.clone());
    tokio::spawn(task.run(command_rx, inner_rx, alive));
    commands
}

/// The seats joiners take, in order: the partner's first in partnership.
fn join_order(mode: Mode) -> Vec<Seat> {
    match mode {
        Mode::Partnership => vec![Seat::new(2), Seat::new(1), Seat::new(3)],
        _ => mode
            .each_seat()
            .skip(1)
            .filter(|&s| mode.is_player(s))
            .collect(),
    }
}

impl TableTask {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut inner: mpsc::UnboundedReceiver<Inner>,
        _alive: mpsc::Sender<()>,
    ) {
        let mut stop = self.shared.shutdown.clone();
        while !self.ended {
            tokio::select! {
                Some(command) = commands.recv() => self.command(command),
                Some(message) = inner.recv() => self.inner(message),
                _ = super::stopped(&mut stop) => self.end("the server is shutting down"),
            }
            self.let_go_of_slow();
        }
        self.shared.remove_table(&self.id);
    }

    fn mode(&self) -> Mode {
        self.rules.mode
    }

    fn command(&mut self, command: Command) {
        match command {
            Command::Sit {
                link,
                name,
                how,
                reply,
            } => {
                let sat = match how {
                    How::Join => self.join(link, name),
                    How::Reclaim(token) => self.reclaim(link, &token),
                };
                let _ = reply.send(sat);
            }
            Command::Fill { conn, bots, level } => self.fill(conn, bots, level),
            Command::Start { conn } => self.start(conn),
            Command::Act { conn, action } => self.act(conn, action),
            Command::Chat { conn, text } => self.chat(conn, &text),
            Command::Leave { conn, said_bye } => self.leave(conn, said_bye),
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

    fn present(&self, conn: ConnId) -> Option<usize> {
        self.conns.iter().position(|c| c.link.id == conn)
    }

    fn is_host(&self, conn: ConnId) -> bool {
        self.present(conn)
            .is_some_and(|i| self.conns[i].seat == Seat::new(0))
    }

    fn seat_person(&mut self, link: Link, seat: Seat, name: String, token: String) {
        let name = if name.is_empty() {
            seat_name(self.mode(), seat)
        } else {
            name
        };
        self.seats[seat.index()] = Holder::Person(Person {
            name,
            token: token.clone(),
            conn: Some(link.id),
        });
        let seated = ServerMessage::Seated {
            table: self.id.clone(),
            seat,
            token,
            host: seat == Seat::new(0),
        };
        self.conns.push(Present {
            link,
            seat,
            asked: None,
            stale: false,
        });
        self.send(self.conns.len() - 1, &seated);
    }

    fn join(&mut self, link: Link, name: String) -> Result<(), Refusal> {
        if self.game.is_some() {
            return Err((
                ErrorCode::TableFull,
                "the game has begun: every seat is taken".into(),
            ));
        }
        let seat = join_order(self.mode())
            .into_iter()
            .find(|s| matches!(self.seats[s.index()], Holder::Empty))
            .ok_or((ErrorCode::TableFull, "every seat is taken".to_string()))?;
        let token = code::seat_token().map_err(|e| (ErrorCode::TableFull, e))?;
        self.seat_person(link, seat, name, token);
        self.broadcast_lobby();
        Ok(())
    }

    fn reclaim(&mut self, link: Link, token: &str) -> Result<(), Refusal> {
        let seat = self
            .mode()
            .each_seat()
            .find(|&s| self.person(s).is_some_and(|p| same_secret(&p.token, token)))
            .ok_or((
                ErrorCode::BadToken,
                "that is not a seat token of this table".to_string(),
            ))?;
        let Some(game) = &mut self.game else {
            return Err((ErrorCode::BadToken, "that seat is not away".into()));
        };
        let Holder::Person(person) = &mut self.seats[seat.index()] else {
            unreachable!("the token was found in a person's seat");
        };
        if person.conn.is_some() {
            return Err((
                ErrorCode::BadToken,
                "that seat is not away: its player is at the table".into(),
            ));
        }
        person.conn = Some(link.id);
        let name = person.name.clone();
        let token = person.token.clone();
        if game.table.reseat(seat, Player::Human).is_err() {
            game.back_after_thought.push(seat);
        }
        // Its view, and the ask if one is due, come with the next flush.
        self.conns.push(Present {
            link,
            seat,
            asked: None,
            stale: true,
        });
        let me = self.conns.len() - 1;
        self.send(
            me,
            &ServerMessage::Seated {
                table: self.id.clone(),
                seat,
                token,
                host: false,
            },
        );
        if let Some(game) = &self.game {
            let (start, lines) = (game.start.clone(), game.record_lines.clone());
            self.send(me, &start);
            self.send(me, &ServerMessage::Record { lines });
        }
        let back = encode(&ServerMessage::Seat {
            seat,
            name,
            player: SeatPlayer::Person,
        });
        for i in 0..self.conns.len() {
            if i != me {
                self.send_line(i, &back);
            }
        }
        self.flush();
        Ok(())
    }

    fn leave(&mut self, conn: ConnId, said_bye: bool) {
        let Some(i) = self.present(conn) else {
            return;
        };
        let gone = self.conns.remove(i);
        let seat = gone.seat;
        if seat == Seat::new(0) {
            self.end(if said_bye {
                "the host left the table"
            } else {
                "the host's connection was lost"
            });
            return;
        }
        let level = self.level.clone();
        let Some(game) = &mut self.game else {
            self.seats[seat.index()] = Holder::Empty;
            self.broadcast_lobby();
            return;
        };
        game.back_after_thought.retain(|&s| s != seat);
        if game.table.is_human(seat) {
            let _ = game.table.reseat(seat, Player::Bot(server_bot(&level)));
        }
        let Holder::Person(person) = &mut self.seats[seat.index()] else {
            return;
        };
        person.conn = None;
        let away = ServerMessage::Seat {
            seat,
            name: person.name.clone(),
            player: SeatPlayer::Away,
        };
        self.broadcast(&away);
        self.step();
    }

    // ------------------------------------------------------------ lobby

    fn lobby(&self) -> Lobby {
        let mode = self.mode();
        let seats = mode
            .each_seat()
            .map(|seat| match &self.seats[seat.index()] {
                Holder::Empty => LobbySeat {
                    name: None,
                    player: SeatPlayer::Empty,
                },
                Holder::Person(p) => LobbySeat {
                    name: Some(p.name.clone()),
                    player: if p.conn.is_some() {
                        SeatPlayer::Person
                    } else {
                        SeatPlayer::Away
                    },
                },
                Holder::Bot => LobbySeat {
                    name: Some(seat_name(mode, seat)),
                    player: SeatPlayer::Bot,
                },
                Holder::Dummy => LobbySeat {
                    name: Some(seat_name(mode, seat)),
                    player: SeatPlayer::Dummy,
                },
            })
            .collect();
        Lobby {
            table: self.id.clone(),
            rules: self.rules_text.clone(),
            seats,
            bots: self.bots,
            level: self.level.clone(),
            levels: self.levels(),
            can_start: self.cannot_start().is_none(),
        }
    }

    /// Why the host may not start yet, if they may not.
    fn cannot_start(&self) -> Option<String> {
        let people = self
            .seats
            .iter()
            .filter(|h| matches!(h, Holder::Person(_)))
            .count();
        let players = self.mode().players();
        if people == players || (self.bots && people >= 1) {
            return None;
        }
        let empty = players - people;
        Some(format!(
            "{empty} of the {players} seats {} empty: wait for players, or fill them with bots",
            if empty == 1 { "is" } else { "are" }
        ))
    }

    fn broadcast_lobby(&mut self) {
        let lobby = ServerMessage::Lobby(self.lobby());
        self.broadcast(&lobby);
    }

    /// The bot levels a host may choose here: the built-in ones, and the
    /// server's own program if it has one.
    fn levels(&self) -> Vec<BotSpec> {
        Level::playing()
            .map(BotSpec::from)
            .chain(self.shared.options.own_bot.clone())
            .collect()
    }

    fn fill(&mut self, conn: ConnId, bots: bool, level: BotSpec) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host fills the seats");
        }
        if self.game.is_some() {
            return self.refuse(conn, ErrorCode::BadMessage, "the game has begun");
        }
        if !self.levels().contains(&level) {
            let levels: Vec<String> = self.levels().iter().map(BotSpec::to_string).collect();
            let why = format!("no bot level `{level}`: {}", levels.join(", "));
            return self.refuse(conn, ErrorCode::BadMessage, &why);
        }
        self.bots = bots;
        self.level = level;
        self.broadcast_lobby();
    }

    fn start(&mut self, conn: ConnId) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host starts the game");
        }
        if self.game.is_some() {
            return self.refuse(conn, ErrorCode::BadMessage, "the game has begun");
        }
        if let Some(why) = self.cannot_start() {
            return self.refuse(conn, ErrorCode::CannotStart, &why);
        }
        let dealing = match Dealing::secret() {
            Ok(dealing) => dealing,
            Err(e) => return self.end(&format!("cannot deal: {e}")),
        };
        let mode = self.mode();
        for holder in &mut self.seats {
            if matches!(holder, Holder::Empty) {
                *holder = Holder::Bot;
            }
        }
        let (mut players, mut names, mut kinds) = (Vec::new(), Vec::new(), Vec::new());
        for (seat, holder) in mode.each_seat().zip(&self.seats) {
            let (player, name, kind) = match holder {
                Holder::Person(p) => (Player::Human, p.name.clone(), SeatPlayer::Person),
                Holder::Dummy => (Player::Dummy, seat_name(mode, seat), SeatPlayer::Dummy),
                Holder::Empty | Holder::Bot => (
                    Player::Bot(server_bot(&self.level)),
                    seat_name(mode, seat),
                    SeatPlayer::Bot,
                ),
            };
            players.push(player);
            names.push(name);
            kinds.push(kind);
        }
        let bots_seated = kinds.contains(&SeatPlayer::Bot);
        let mut table = Table::new(self.rules, dealing, players);
        let record = MemoryRecord::default();
        let info = GameInfo::shared_table(now_secs(), bots_seated.then(|| self.level.clone()));
        if let Err(e) = table.record_to(Box::new(record.clone()), names.clone(), info) {
            return self.end(&format!("cannot write the game's record: {e}"));
        }
        let start = ServerMessage::Start {
            commitment: table.commitment().map(|c| c.to_string()),
            seats: names,
            players: kinds,
        };
        self.game = Some(Playing {
            table,
            record,
            thinking: false,
            back_after_thought: Vec::new(),
            start: start.clone(),
            record_lines: Vec::new(),
        });
        self.broadcast(&start);
        self.send_record();
        self.step();
    }

    fn chat(&mut self, conn: ConnId, text: &str) {
        let Some(i) = self.present(conn) else {
            return;
        };
        let seat = self.conns[i].seat;
        let from = self
            .person(seat)
            .map_or_else(|| seat_name(self.mode(), seat), |p| p.name.clone());
        self.broadcast(&ServerMessage::Chat {
            from,
            text: clean_text(text),
        });
    }

    // ------------------------------------------------------------ the game

    /// A person's action, checked against the ask and by the engine.
    fn act(&mut self, conn: ConnId, action: Action) {
        let Some(i) = self.present(conn) else {
            return;
        };
        let Some(game) = &mut self.game else {
            return self.refuse(conn, ErrorCode::NotYourTurn, "the game has not begun");
        };
        let Some(asked) = &self.conns[i].asked else {
            return self.refuse(conn, ErrorCode::NotYourTurn, "nothing is asked of you now");
        };
        let (seat, decision) = (asked.seat, asked.decision);
        let view = game.table.view(seat);
        let legal = Legal::of(&view, decision);
        if !legal.allows(&action, view.cards()) {
            let why = why_illegal(&view, decision, &action);
            return self.refuse(conn, ErrorCode::Illegal, &why);
        }
        if let Err(e) = game.table.act(seat, action) {
            return self.refuse(conn, ErrorCode::Illegal, &e.to_string());
        }
        self.conns[i].asked = None;
        self.step();
    }

    /// Lets the game run on as far as it can without a person: deals the
    /// next hand, hands the next bot its decision; then tells everyone.
    fn step(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        if game.table.phase() == Phase::AwaitingDeal {
            game.table.deal_next_hand();
        }
        if !game.thinking
            && game.table.phase() != Phase::Over
            && let Some(thinking) = game.table.think()
        {
            game.thinking = true;
            self.think(thinking);
        }
        self.flush();
        if self
            .game
            .as_ref()
            .is_some_and(|g| g.table.phase() == Phase::Over)
        {
            self.end("the game is over");
        }
    }

    /// A bot thinks on the blocking pool; its answer comes back here.
    fn think(&self, thinking: Thinking) {
        let inner = self.inner.clone();
        tokio::spawn(async move {
            let thought = tokio::task::spawn_blocking(move || thinking.think()).await;
            let _ = inner.send(match thought {
                Ok(thought) => Inner::Thought(Box::new(thought)),
                Err(_) => Inner::BotFailed,
            });
        });
    }

    fn thought(&mut self, thought: Thought) {
        let Some(game) = &mut self.game else {
            return;
        };
        game.thinking = false;
        if let Err(e) = game.table.answer(thought) {
            return self.end(&format!("a computer player broke the rules: {e}"));
        }
        for seat in std::mem::take(&mut game.back_after_thought) {
            if game.table.reseat(seat, Player::Human).is_ok()
                && let Some(present) = self.conns.iter_mut().find(|c| c.seat == seat)
            {
                present.stale = true;
            }
        }
        self.step();
    }

    /// A person has not answered in time: a bot of the table's level
    /// decides for them.
    fn time_up(&mut self, serial: u64) {
        let Some(game) = &self.game else {
            return;
        };
        let Some(asked) = self
            .conns
            .iter()
            .filter_map(|c| c.asked.as_ref())
            .find(|a| a.serial == serial)
        else {
            return;
        };
        let view = game.table.view(asked.seat);
        let (seat, decision) = (asked.seat, asked.decision);
        let level = self.level.clone();
        let inner = self.inner.clone();
        tokio::spawn(async move {
            let decided = tokio::task::spawn_blocking(move || {
                let mut bot = server_bot(&level);
                let mut rng = bot_rng(serial ^ now_secs(), seat);
                Some(decide(bot.as_mut(), decision, &view, &mut rng))
            })
            .await;
            let _ = inner.send(match decided {
                Ok(Some(action)) => Inner::StoodIn { serial, action },
                _ => Inner::BotFailed,
            });
        });
    }

    fn stood_in(&mut self, serial: u64, action: Action) {
        let Some(game) = &mut self.game else {
            return;
        };
        let Some(i) = self
            .conns
            .iter()
            .position(|c| c.asked.as_ref().is_some_and(|a| a.serial == serial))
        else {
            return;
        };
        let Some(asked) = &self.conns[i].asked else {
            return;
        };
        let (seat, decision) = (asked.seat, asked.decision);
        let view = game.table.view(seat);
        let legal = Legal::of(&view, decision);
        let action = if legal.allows(&action, view.cards()) {
            Some(action)
        } else {
            legal.first(view.cards())
        };
        let Some(action) = action else {
            return;
        };
        if game.table.act(seat, action).is_ok() {
            self.conns[i].asked = None;
            self.step();
        }
    }

    /// The decision due from the person in `seat` now: their own, or the
    /// dummy's when they declare.
    fn due(table: &Table, seat: Seat) -> Option<(Seat, Decision)> {
        if !table.is_human(seat) {
            return None;
        }
        if table.phase() == Phase::Exchange {
            return table
                .owes_exchange(seat)
                .then_some((seat, Decision::Exchange));
        }
        let turn = table.human_turn()?;
        (table.player_for(turn.seat) == seat).then_some((turn.seat, turn.decision))
    }

    /// Tells each person what happened since they were last told: the
    /// events as their seat sees them, then their view, and the ask when a
    /// decision is due from them; then everyone the record's new lines.
    fn flush(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        let mut out: Vec<(usize, ServerMessage)> = Vec::new();
        let mut asks = Vec::new();
        for seat in self.rules.mode.each_seat() {
            let events = if game.table.is_human(seat) {
                game.table.take_events(seat)
            } else {
                Vec::new()
            };
            let Some(i) = self.conns.iter().position(|c| c.seat == seat) else {
                continue;
            };
            let present = &mut self.conns[i];
            let due = TableTask::due(&game.table, seat);
            let was = present.asked.as_ref().map(|a| (a.seat, a.decision));
            if events.is_empty() && due == was && !present.stale {
                continue;
            }
            present.stale = false;
            out.extend(
                events
                    .into_iter()
                    .map(|event| (i, ServerMessage::Event { event })),
            );
            out.push((
                i,
                ServerMessage::View {
                    view: Box::new(game.table.view(seat)),
                },
            ));
            match due {
                // The ask stands, unanswered: it is not asked again.
                Some(_) if due == was => {}
                Some((asked, decision)) => {
                    let view = game.table.view(asked);
                    let legal = Legal::of(&view, decision);
                    out.push((
                        i,
                        ServerMessage::Ask {
                            seat: asked,
                            decision,
                            legal,
                            view: Box::new(view),
                        },
                    ));
                    asks.push((i, asked, decision));
                }
                None => present.asked = None,
            }
        }
        for (i, seat, decision) in asks {
            self.conns[i].link.asked();
            self.serial += 1;
            let serial = self.serial;
            let timer = self.shared.options.turn_timer.map(|after| {
                let inner = self.inner.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(after).await;
                    let _ = inner.send(Inner::TimeUp { serial });
                })
            });
            self.conns[i].asked = Some(Asked {
                seat,
                decision,
                serial,
                timer,
            });
        }
        // Each connection's messages go as one write (one TLS record).
        let mut batches: Vec<String> = vec![String::new(); self.conns.len()];
        for (i, message) in out {
            batches[i].push_str(&crate::protocol::line(&message));
        }
        for (i, batch) in batches.into_iter().enumerate() {
            if !batch.is_empty() {
                self.send_line(i, &Arc::from(batch));
            }
        }
        self.send_record();
    }

    /// The record's lines written since last time, to everyone.
    fn send_record(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        let written = game.record.take();
        if written.is_empty() {
            return;
        }
        let lines: Vec<RecordLine> = written
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .filter_map(|l| serde_json::from_slice(l).ok())
            .collect();
        game.record_lines.extend(lines.iter().cloned());
        self.broadcast(&ServerMessage::Record { lines });
    }

    /// The table ends: a game not over is abandoned (its record closed, its
    /// seed revealed, and sent), and everyone is told why.
    fn end(&mut self, reason: &str) {
        if self.ended {
            return;
        }
        self.ended = true;
        if let Some(game) = &mut self.game {
            if game.table.phase() != Phase::Over {
                game.table.abandon();
            }
            self.send_record();
        }
        let bye = encode(&ServerMessage::Bye {
            reason: reason.to_string(),
        });
        for present in self.conns.drain(..) {
            present.link.close_with(Arc::clone(&bye));
        }
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

    fn broadcast(&mut self, message: &ServerMessage) {
        let line = encode(message);
        for i in 0..self.conns.len() {
            self.send_line(i, &line);
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
                self.leave(conn, false);
            }
        }
    }
}

/// Why an action is not among those asked for, in the engine's words
/// where it has them.
/// A bot of `level`, as the server seats them: thinking at its usual
/// budget, a program given the usual time to answer.
fn server_bot(level: &BotSpec) -> Box<dyn Bot> {
    seat_bot(level, Effort::Usual, exec::DEFAULT_TIMEOUT)
}

fn why_illegal(view: &crate::engine::PlayerView, decision: Decision, action: &Action) -> String {
    let asked_for = match action {
        Action::Play(_) => decision == Decision::Play,
        Action::Bid(_) => matches!(decision, Decision::Bid | Decision::BlindNil),
        Action::Exchange(_) => decision == Decision::Exchange,
        Action::Look => decision == Decision::BlindNil,
    };
    let engine = asked_for
        .then(|| view.refusal(*action))
        .flatten()
        .map(|e| e.to_string());
    engine.unwrap_or_else(|| match (decision, Legal::of(view, decision)) {
        (_, Legal::Exchange { count }) => {
            format!("pass exactly {count} cards of your hand")
        }
        (Decision::BlindNil, _) => "bid blind or look at your cards".to_string(),
        (Decision::Bid, _) => "a bid is asked for".to_string(),
        (Decision::Play, Legal::Cards { cards }) => {
            let cards: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
            format!("play one of {}", cards.join(" "))
        }
        _ => "that is not one of the actions asked for".to_string(),
    })
}
