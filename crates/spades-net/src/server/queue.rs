//! The quick-match queue: a task of its own holds the signed-in players
//! waiting for a table, and a few times a second sees which tables form
//! (`matching::groups`). A table that forms is opened with the classic
//! rules of its mode, its players seated, bots of a fixed level (`normal`,
//! so the game is rated) in the other seats, and its game started; each
//! player's connection is handed the table. Those left waiting are told
//! who waits with them (`queue_told`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use super::link::{Link, encode};
use super::lobby;
use super::matching::{self, Waiting};
use super::queue_told::{Tellings, Waiter};
use super::table::{self, Opening, Who};
use super::{ConnId, Shared};
use crate::code;
use crate::engine::Mode;
use crate::protocol::ServerMessage;

/// How often the queue looks for tables to form.
const TICK: Duration = Duration::from_millis(200);

/// A player joining the queue.
pub(crate) struct Entry {
    pub link: Link,
    pub who: Who,
    pub mode: Mode,
    pub rating: i32,
    pub since: Instant,
    pub wait: Duration,
    /// Keeps the server waiting for the table this player is seated at.
    pub alive: mpsc::Sender<()>,
    /// Where the connection is handed its table.
    pub seated: oneshot::Sender<mpsc::Sender<table::Command>>,
}

/// What connections tell the queue.
pub(crate) enum Command {
    Join(Box<Entry>),
    /// Out of the queue: answered whether the player was still in it (if
    /// not, a table has been found for them).
    Leave {
        conn: ConnId,
        left: oneshot::Sender<bool>,
    },
}

/// The queue's task, started with its first player: where to send it
/// what connections say.
pub(super) fn sender(shared: &Arc<Shared>) -> mpsc::Sender<Command> {
    shared
        .queue
        .get_or_init(|| {
            let (commands, inbox) = mpsc::channel(256);
            tokio::spawn(run(inbox, Arc::clone(shared)));
            commands
        })
        .clone()
}

async fn run(mut commands: mpsc::Receiver<Command>, shared: Arc<Shared>) {
    let mut waiting: Vec<Entry> = Vec::new();
    let mut told = Tellings::default();
    let mut stop = shared.shutdown.clone();
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                Some(Command::Join(entry)) => waiting.push(*entry),
                Some(Command::Leave { conn, left }) => {
                    let before = waiting.len();
                    waiting.retain(|e| e.link.id != conn);
                    let _ = left.send(waiting.len() < before);
                }
                None => return,
            },
            () = tokio::time::sleep(TICK), if !waiting.is_empty() => {}
            () = super::stopped(&mut stop) => return,
        }
        // A connection gone without a word is no longer waiting.
        waiting.retain(|e| !e.seated.is_closed());
        // Everyone waiting hears who waits with them, and how long, before
        // a table takes them: a newcomer always hears `queued` first.
        told.tell(&waiters(&waiting), Instant::now());
        match_now(&mut waiting, &shared);
        // Told to every lobby that follows (unless unchanged).
        let counts = lobby::quick_modes(|m| waiting.iter().filter(|e| e.mode == m).count());
        shared.lobby.set_waiting(counts);
    }
}

/// The players waiting, as `queue_told` tells them.
fn waiters(waiting: &[Entry]) -> Vec<Waiter<'_>> {
    waiting
        .iter()
        .map(|e| Waiter {
            link: &e.link,
            mode: e.mode,
            name: &e.who.name,
            since: e.since,
            wait: e.wait,
        })
        .collect()
}

/// Opens a table for each group that forms now, taking its players out of
/// the queue.
fn match_now(waiting: &mut Vec<Entry>, shared: &Arc<Shared>) {
    let now = Instant::now();
    let mut formed: Vec<(Mode, Vec<usize>)> = Vec::new();
    for mode in Mode::ALL {
        let of_mode: Vec<usize> = (0..waiting.len())
            .filter(|&i| waiting[i].mode == mode)
            .collect();
        let queue: Vec<Waiting> = of_mode
            .iter()
            .map(|&i| Waiting {
                rating: waiting[i].rating,
                since: waiting[i].since,
                wait: waiting[i].wait,
                account: waiting[i].who.account,
            })
            .collect();
        let groups = matching::groups(&queue, mode.players(), now);
        formed.extend(
            groups
                .into_iter()
                .map(|group| (mode, group.into_iter().map(|g| of_mode[g]).collect())),
        );
    }
    if formed.is_empty() {
        return;
    }
    let mut slots: Vec<Option<Entry>> = waiting.drain(..).map(Some).collect();
    for (mode, group) in formed {
        let players = group.iter().filter_map(|&i| slots[i].take()).collect();
        seat(mode, players, shared);
    }
    waiting.extend(slots.into_iter().flatten());
}

/// Opens a table of `mode` for `players` (the longest waiter first) and
/// hands each connection the table.
fn seat(mode: Mode, mut players: Vec<Entry>, shared: &Arc<Shared>) {
    let Some(alive) = players.first().map(|p| p.alive.clone()) else {
        return;
    };
    let tokens: Result<Vec<String>, String> = players.iter().map(|_| code::seat_token()).collect();
    let (Ok(id), Ok(tokens)) = (code::table_id(), tokens) else {
        // The system's randomness failed: nobody can be seated safely.
        let bye = encode(&ServerMessage::Bye {
            reason: "the server cannot open a table now".into(),
            rating: None,
        });
        for player in players {
            player.link.close_with(Arc::clone(&bye));
        }
        return;
    };
    players.sort_by_key(|p| std::cmp::Reverse(p.rating));
    let mut handed = Vec::new();
    let seated = matching::seats_for(mode)
        .into_iter()
        .zip(players)
        .zip(tokens)
        .map(|((seat, player), token)| {
            handed.push((player.link.id, player.seated));
            (seat, player.link, player.who, token)
        })
        .collect();
    let opening = Opening {
        id,
        rules: shared.options.ranked.of(mode),
        public: true,
    };
    let commands = table::open_matched(opening, seated, Arc::clone(shared), alive);
    for (conn, seated) in handed {
        if seated.send(commands.clone()).is_err() {
            // Gone as the table formed: its seat goes to a bot, as when a
            // player's connection is lost.
            let (done, _) = oneshot::channel();
            let leave = table::Command::Leave {
                conn,
                said_bye: false,
                done,
            };
            let _ = commands.try_send(leave);
        }
    }
}
