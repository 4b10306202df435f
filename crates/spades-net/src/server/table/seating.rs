//! A table's seating, before its game: who sits where, the host's bots and their
//! level, chat, and the start.

use super::super::flood::{CHAT_LIMIT, CHAT_SPAN, TABLE_CHAT_LIMIT, try_again};
use super::super::{ConnId, clean_chat, seat_name, shortened};
use super::rated::Counts;
use super::{Holder, Playing, TableTask};
use crate::bots::{BotSpec, Level};
use crate::fairness::Dealing;
use crate::protocol::{ErrorCode, SeatPlayer, Seating, ServerMessage, TableSeat};
use crate::record::{GameInfo, MemoryRecord, now_secs};
use crate::table::{Player, Table};

use super::play::server_bot;

impl TableTask {
    pub(super) fn seating(&self) -> Seating {
        let mode = self.mode();
        let counts = self.counts();
        let seats = mode
            .each_seat()
            .map(|seat| match &self.seats[seat.index()] {
                Holder::Empty => TableSeat {
                    name: None,
                    player: SeatPlayer::Empty,
                    rating: None,
                    guest: false,
                },
                Holder::Person(p) => TableSeat {
                    name: Some(p.name.clone()),
                    player: if p.conn.is_some() {
                        SeatPlayer::Person
                    } else {
                        SeatPlayer::Away
                    },
                    rating: p.rating,
                    guest: self.guest(seat),
                },
                Holder::Bot => TableSeat {
                    name: Some(seat_name(mode, seat)),
                    player: SeatPlayer::Bot,
                    rating: None,
                    guest: false,
                },
                Holder::Dummy => TableSeat {
                    name: Some(seat_name(mode, seat)),
                    player: SeatPlayer::Dummy,
                    rating: None,
                    guest: false,
                },
            })
            .collect();
        Seating {
            table: self.id.clone(),
            rules: self.rules_text.clone(),
            seats,
            bots: self.bots,
            level: self.level.clone(),
            levels: self.levels(),
            can_start: self.cannot_start().is_none(),
            rated: counts == Counts::Rated,
            unrated: counts.why_not(),
        }
    }

    /// Why the host may not start yet, if they may not.
    pub(super) fn cannot_start(&self) -> Option<String> {
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

    /// Everyone at the table, and the server's lobby, learn of a change.
    pub(super) fn broadcast_seating(&mut self) {
        self.relist();
        let seating = ServerMessage::Seating(self.seating());
        self.broadcast(&seating);
    }

    /// The bot levels a host may choose here: the built-in ones, and the
    /// server's own program if it has one.
    pub(super) fn levels(&self) -> Vec<BotSpec> {
        Level::playing()
            .map(BotSpec::from)
            .chain(self.shared.options.own_bot.clone())
            .collect()
    }

    pub(super) fn fill(&mut self, conn: ConnId, bots: bool, level: BotSpec) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host fills the seats");
        }
        if self.game.is_some() {
            return self.refuse(conn, ErrorCode::BadMessage, "the game has begun");
        }
        if !self.levels().contains(&level) {
            let levels: Vec<String> = self.levels().iter().map(BotSpec::to_string).collect();
            // The level is the client's text: said back as an excerpt.
            let why = shortened(&format!("no bot level `{level}`: {}", levels.join(", ")));
            return self.refuse(conn, ErrorCode::BadMessage, &why);
        }
        self.bots = bots;
        self.level = level;
        self.broadcast_seating();
    }

    pub(super) fn start(&mut self, conn: ConnId) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host starts the game");
        }
        if self.game.is_some() {
            return self.refuse(conn, ErrorCode::BadMessage, "the game has begun");
        }
        if let Some(why) = self.cannot_start() {
            return self.refuse(conn, ErrorCode::CannotStart, &why);
        }
        self.begin();
    }

    /// The game starts: bots in the empty seats, the deals committed to.
    pub(super) fn begin(&mut self) {
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
        table.keep_public_events();
        let record = MemoryRecord::default();
        let counts = self.counts();
        // A table with no host as its game begins is a quick match's.
        let rules_source = match self.host {
            Some(_) => crate::record::RULES_OF_THE_HOST,
            None => crate::record::RULES_OF_QUICK_MATCH,
        };
        let info = GameInfo {
            rated: counts == Counts::Rated,
            unrated: counts.why_not(),
            rules_source: Some(rules_source.into()),
            ..GameInfo::shared_table(now_secs(), bots_seated.then(|| self.level.clone()))
        };
        if let Err(e) = table.record_to(Box::new(record.clone()), names.clone(), info) {
            return self.end(&format!("cannot write the game's record: {e}"));
        }
        let guests = mode.each_seat().filter(|&s| self.guest(s)).collect();
        let start = ServerMessage::Start {
            commitment: table.commitment().map(|c| c.to_string()),
            seats: names,
            players: kinds,
            guests,
        };
        self.game = Some(Playing {
            table,
            record,
            thinking: false,
            back_after_thought: Vec::new(),
            start: start.clone(),
            record_text: Vec::new(),
        });
        // Listed as started before anyone is told: whoever hears `start`
        // and asks for the list finds it so.
        self.relist();
        self.broadcast(&start);
        self.send_record();
        self.step();
    }

    pub(super) fn chat(&mut self, conn: ConnId, text: &str) {
        let Some(i) = self.present(conn) else {
            return;
        };
        let now = std::time::Instant::now();
        let span = CHAT_SPAN.as_secs();
        // Both limits are checked before either counts the line: a line
        // refused by one is not held against the other.
        if self.conns[i].chat.full(now) {
            let again = try_again(self.conns[i].chat.again_in(now));
            let why =
                format!("too many chat lines: at most {CHAT_LIMIT} in {span} seconds; {again}");
            return self.refuse(conn, ErrorCode::Flood, &why);
        }
        if self.chat.full(now) {
            let again = try_again(self.chat.again_in(now));
            let why = format!(
                "too many chat lines at this table: at most {TABLE_CHAT_LIMIT} in {span} seconds; {again}"
            );
            return self.refuse(conn, ErrorCode::Flood, &why);
        }
        self.conns[i].chat.count(now);
        self.chat.count(now);
        let seat = self.conns[i].seat;
        let from = self
            .person(seat)
            .map_or_else(|| seat_name(self.mode(), seat), |p| p.name.clone());
        self.broadcast(&ServerMessage::Chat {
            from,
            text: clean_chat(text),
            guest: self.guest(seat),
        });
    }
}
