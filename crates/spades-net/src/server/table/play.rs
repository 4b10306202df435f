//! A table's game: a person's actions checked by the engine, bots and
//! stand-ins thinking off the table's task, the turn timer, and what each
//! seat is sent as the game moves on.

use std::sync::Arc;
use std::time::Duration;

use super::super::ConnId;
use super::{Asked, Inner, Present, TableTask};
use crate::bots::{Bot, BotSpec, Effort, bot_rng, decide};
use crate::engine::{Action, Decision, Phase, Seat, SeatEvent};
use crate::protocol::timer::{TimeLeft, TimedOut};
use crate::protocol::{ErrorCode, Legal, ServerMessage};
use crate::record::now_secs;
use crate::table::{Player, Table, Thinking, Thought, exec, seat_bot};

impl TableTask {
    /// A person's action, checked against the ask and by the engine.
    pub(super) fn act(&mut self, conn: ConnId, action: Action) {
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
            let why = Legal::refusal(&view, decision, &action);
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
    pub(super) fn step(&mut self) {
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
    pub(super) fn think(&self, thinking: Thinking) {
        let inner = self.inner.clone();
        tokio::spawn(async move {
            let thought = tokio::task::spawn_blocking(move || thinking.think()).await;
            let _ = inner.send(match thought {
                Ok(thought) => Inner::Thought(Box::new(thought)),
                Err(_) => Inner::BotFailed,
            });
        });
    }

    pub(super) fn thought(&mut self, thought: Thought) {
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
    pub(super) fn time_up(&mut self, serial: u64) {
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

    pub(super) fn stood_in(&mut self, serial: u64, action: Action) {
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
            let present = &mut self.conns[i];
            present.asked = None;
            // Said on the view that follows, sent even when the action
            // brings this seat no event (a look at the cards).
            present.timed_out = Some(TimedOut {
                seat,
                decision,
                action,
            });
            present.stale = true;
            self.step();
        }
    }

    /// The decision due from the person in `seat` now: their own, or the
    /// dummy's when they declare.
    pub(super) fn due(table: &Table, seat: Seat) -> Option<(Seat, Decision)> {
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
    pub(super) fn flush(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        let mut out: Vec<(usize, ServerMessage)> = Vec::new();
        let mut asks = Vec::new();
        let timer = self.shared.options.turn_timer;
        for seat in self.rules.mode.each_seat() {
            let events = if game.table.is_human(seat) {
                game.table.take_events(seat)
            } else {
                Vec::new()
            };
            let Some(i) = self.conns.iter().position(|c| c.seat == seat) else {
                continue;
            };
            let news = news_for(&game.table, &mut self.conns[i], seat, events, timer);
            out.extend(news.messages.into_iter().map(|message| (i, message)));
            if let Some((asked, decision)) = news.ask {
                asks.push((i, asked, decision));
            }
        }
        for (i, seat, decision) in asks {
            self.ask(i, seat, decision);
        }
        self.send_batches(out);
        self.flush_watchers();
        self.send_record();
    }

    /// Notes that connection `i` is asked for `decision` in `seat`, under a
    /// new serial, and starts the turn timer when the table has one.
    fn ask(&mut self, i: usize, seat: Seat, decision: Decision) {
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

    /// Sends each connection its messages in order.
    fn send_batches(&mut self, out: Vec<(usize, ServerMessage)>) {
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
    }

    /// The record's lines written since last time, to everyone.
    pub(super) fn send_record(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        let written = game.record.take();
        if written.is_empty() {
            return;
        }
        let lines = super::record_lines(&written);
        game.record_text.extend_from_slice(&written);
        let record = super::encode(&ServerMessage::Record { lines });
        self.tell_seats(&record);
    }
}

/// What one person is to be told, and the decision to ask of them.
struct News {
    messages: Vec<ServerMessage>,
    /// A decision newly due from them (not one that still stands).
    ask: Option<(Seat, Decision)>,
}

/// What the person `present` in `seat` is told: nothing when nothing is
/// new for them; else the seat's `events`, their view, and the ask when a
/// decision is newly due, with the `timer` it has. An ask no longer due is
/// forgotten.
fn news_for(
    table: &Table,
    present: &mut Present,
    seat: Seat,
    events: Vec<SeatEvent>,
    timer: Option<Duration>,
) -> News {
    let mut news = News {
        messages: Vec::new(),
        ask: None,
    };
    let due = TableTask::due(table, seat);
    let was = present.asked.as_ref().map(|a| (a.seat, a.decision));
    if events.is_empty() && due == was && !present.stale {
        return news;
    }
    present.stale = false;
    news.messages.extend(
        events
            .into_iter()
            .map(|event| ServerMessage::Event { event }),
    );
    news.messages.push(ServerMessage::View {
        timed_out: present.timed_out.take(),
        view: Box::new(table.view(seat)),
    });
    match due {
        // The ask stands, unanswered: it is not asked again.
        Some(_) if due == was => {}
        Some((asked, decision)) => {
            let view = table.view(asked);
            let legal = Legal::of(&view, decision);
            news.messages.push(ServerMessage::Ask {
                seat: asked,
                decision,
                legal,
                // A new ask's timer starts as it is sent (`TableTask::ask`).
                time_left: timer.map(TimeLeft::new),
                view: Box::new(view),
            });
            news.ask = Some((asked, decision));
        }
        None => present.asked = None,
    }
    news
}

/// A bot of `level`, as the server seats them: thinking at its usual
/// budget, a program given the usual time to answer.
pub(super) fn server_bot(level: &BotSpec) -> Box<dyn Bot> {
    seat_bot(level, Effort::Usual, exec::DEFAULT_TIMEOUT)
}
