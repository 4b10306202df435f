//! Sitting down at a table: the seat a person takes by the join order, a
//! seat taken back by its token, and leaving one.

use super::super::flood::ChatRate;
use super::super::link::{Link, encode};
use super::super::{ConnId, seat_name};
use super::{Holder, Person, Present, Refusal, TableTask, Who};
use crate::code::{self, same_secret};
use crate::engine::{Mode, Seat};
use crate::protocol::{ErrorCode, SeatPlayer, ServerMessage};
use crate::table::Player;

use super::play::server_bot;

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
    pub(super) fn seat_person(&mut self, link: Link, seat: Seat, who: Who, token: String) {
        let rating = who.rating(self.mode());
        let name = if who.name.is_empty() {
            seat_name(self.mode(), seat)
        } else {
            who.name
        };
        self.seats[seat.index()] = Holder::Person(Person {
            name,
            account: who.account,
            rating,
            token: token.clone(),
            conn: Some(link.id),
        });
        let seated = ServerMessage::Seated {
            table: self.id.clone(),
            seat,
            token,
            host: self.host == Some(seat),
        };
        self.conns.push(Present {
            link,
            seat,
            asked: None,
            stale: false,
            timed_out: None,
            chat: ChatRate::default(),
        });
        self.send(self.conns.len() - 1, &seated);
    }

    pub(super) fn join(&mut self, link: Link, who: Who) -> Result<(), Refusal> {
        if self.game.is_some() {
            return Err((
                ErrorCode::TableFull,
                "the game has begun: every seat is taken".into(),
            ));
        }
        if let Some(seat) = self.seat_of_account(&who) {
            let place = seat_name(self.mode(), seat);
            return Err((
                ErrorCode::TableFull,
                format!("your account already holds a seat at this table ({place}): one seat each"),
            ));
        }
        let seat = join_order(self.mode())
            .into_iter()
            .find(|s| matches!(self.seats[s.index()], Holder::Empty))
            .ok_or((ErrorCode::TableFull, "every seat is taken".to_string()))?;
        let token = code::seat_token().map_err(|e| (ErrorCode::TableFull, e))?;
        self.seat_person(link, seat, who, token);
        self.broadcast_seating();
        Ok(())
    }

    /// The seat `who`'s account holds here, if signed in and seated: one
    /// account plays one seat, so nobody is rated against themselves.
    fn seat_of_account(&self, who: &Who) -> Option<Seat> {
        let account = who.account?;
        self.mode()
            .each_seat()
            .find(|&s| self.person(s).is_some_and(|p| p.account == Some(account)))
    }

    /// A seat taken by its token: an away seat back from its bot, or a
    /// seat whose player still looks present taken over (their old link
    /// may be dead without a word, or they moved to another device): the
    /// old link is closed, and the new one gets the seat, its view and
    /// any pending ask. In the lobby too.
    pub(super) fn reclaim(&mut self, link: Link, token: &str) -> Result<(), Refusal> {
        let seat = self
            .mode()
            .each_seat()
            .find(|&s| self.person(s).is_some_and(|p| same_secret(&p.token, token)))
            .ok_or((
                ErrorCode::BadToken,
                "that is not a seat token of this table".to_string(),
            ))?;
        let taken_over = self.let_go_of_seat(seat);
        let Holder::Person(person) = &mut self.seats[seat.index()] else {
            unreachable!("the token was found in a person's seat");
        };
        person.conn = Some(link.id);
        let (name, token) = (person.name.clone(), person.token.clone());
        if !taken_over
            && let Some(game) = &mut self.game
            && game.table.reseat(seat, Player::Human).is_err()
        {
            game.back_after_thought.push(seat);
        }
        // Its view, and the ask if one is due, come with the next flush.
        self.conns.push(Present {
            link,
            seat,
            asked: None,
            stale: true,
            timed_out: None,
            chat: ChatRate::default(),
        });
        let me = self.conns.len() - 1;
        let seated = ServerMessage::Seated {
            table: self.id.clone(),
            seat,
            token,
            host: self.host == Some(seat),
        };
        self.send(me, &seated);
        let Some(game) = &self.game else {
            self.broadcast_seating();
            return Ok(());
        };
        let (start, lines) = (game.start.clone(), game.record_so_far());
        self.send(me, &start);
        // A long game's record is more than one line holds: several
        // lines, in one send.
        let record: String =
            crate::protocol::in_lines(lines, |lines| ServerMessage::Record { lines })
                .iter()
                .map(crate::protocol::line)
                .collect();
        self.send_line(me, &std::sync::Arc::from(record));
        self.relist();
        if !taken_over {
            let back = encode(&ServerMessage::Seat {
                seat,
                name,
                player: SeatPlayer::Person,
                guest: self.guest(seat),
            });
            for i in 0..self.conns.len() {
                if i != me {
                    self.send_line(i, &back);
                }
            }
            self.tell_watchers(&back);
        }
        self.flush();
        Ok(())
    }

    /// Closes the link that holds `seat`, if one does, telling it why:
    /// its seat is being taken by its token over another connection.
    /// Whether there was one.
    fn let_go_of_seat(&mut self, seat: Seat) -> bool {
        let Some(i) = self.conns.iter().position(|c| c.seat == seat) else {
            return false;
        };
        let old = self.conns.remove(i);
        old.link.close_with(encode(&ServerMessage::Bye {
            reason: "your seat was taken over by another connection with its token".into(),
            rating: None,
        }));
        true
    }

    /// A seat's person leaves, the host like anyone: in the lobby their
    /// seat is free again (and the host's part passes on); in the game a
    /// bot of the table's level plays their seat to the end, and their
    /// token brings them back. The table ends only once nobody is left.
    pub(super) fn leave(&mut self, conn: ConnId, said_bye: bool) {
        if self.unwatch(conn) {
            return;
        }
        let Some(i) = self.present(conn) else {
            return;
        };
        let seat = self.conns[i].seat;
        if self.shared.options.host_is_the_server && self.host == Some(seat) {
            return self.host_ends_the_table(conn, said_bye);
        }
        if self.game.is_none() {
            self.conns.remove(i);
            self.seats[seat.index()] = Holder::Empty;
            if self.host == Some(seat) {
                self.pass_the_host_on(seat, said_bye);
            }
            if !self.ended {
                self.broadcast_seating();
            }
            return;
        }
        if let Holder::Person(person) = &mut self.seats[seat.index()] {
            person.conn = None;
        }
        if self.conns.len() == 1 {
            // The last one still among those told, so their own copy of
            // the record gets its closing line too.
            return self.end_as("everyone left the table", said_bye.then_some(conn));
        }
        self.conns.remove(i);
        self.played_on_by_a_bot(seat);
        self.step();
    }

    /// The host leaves a table served from their own program: it ends,
    /// as it would a moment later when their program stops its server.
    /// The host is still among those told, so their own copy of the
    /// record gets its closing line too; a game under way counts them as
    /// leaving.
    fn host_ends_the_table(&mut self, conn: ConnId, said_bye: bool) {
        if self.game.is_some()
            && let Some(seat) = self.host
            && let Holder::Person(host) = &mut self.seats[seat.index()]
        {
            host.conn = None;
        }
        self.end_as(host_gone(said_bye), said_bye.then_some(conn));
    }

    /// The seat of someone gone from the game is played by a bot of the
    /// table's level, and everyone is told they are away.
    fn played_on_by_a_bot(&mut self, seat: Seat) {
        let level = self.level.clone();
        let Some(game) = &mut self.game else {
            return;
        };
        game.back_after_thought.retain(|&s| s != seat);
        if game.table.is_human(seat) {
            let _ = game.table.reseat(seat, Player::Bot(server_bot(&level)));
        }
        let Some(person) = self.person(seat) else {
            return;
        };
        let name = person.name.clone();
        let away = ServerMessage::Seat {
            seat,
            name,
            player: SeatPlayer::Away,
            guest: self.guest(seat),
        };
        self.relist();
        self.broadcast(&away);
    }

    /// The host left the lobby: the next person round the table from
    /// their seat hosts it now, told so by `seated` again; with nobody
    /// left, the table ends.
    fn pass_the_host_on(&mut self, from: Seat, said_bye: bool) {
        let mode = self.mode();
        let next = (1..mode.seats())
            .map(|step| Seat::new((from.index() + step) % mode.seats()))
            .find(|&s| self.conns.iter().any(|c| c.seat == s));
        self.host = next;
        let Some(seat) = next else {
            return self.end(host_gone(said_bye));
        };
        let Some(token) = self.person(seat).map(|p| p.token.clone()) else {
            return;
        };
        let seated = ServerMessage::Seated {
            table: self.id.clone(),
            seat,
            token,
            host: true,
        };
        if let Some(i) = self.conns.iter().position(|c| c.seat == seat) {
            self.send(i, &seated);
        }
    }
}

/// Why a table ends when its host goes: said goodbye, or was lost.
fn host_gone(said_bye: bool) -> &'static str {
    if said_bye {
        "the host left the table"
    } else {
        "the host's connection was lost"
    }
}
