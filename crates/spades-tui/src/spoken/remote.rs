//! A seat at a table on a server, in lines: the table's seating said as it
//! changes (who sits where, the code to share, chat), the host's words
//! (`start`, `bots`, `level`) turned into the same requests the
//! full-screen seating's keys make, then the game at the spoken table. The
//! seating's state is the full screen's (`Waiting`, `SeatingState`); the
//! endings are its `RemoteEnd`.

use crate::config::preferences::Preferences;
use crate::engine::{Mode, Seat};
use crate::naming::{Place, place};
use crate::net::client::Connection;
use crate::net::client::seating::{Joining, NotSeated, SeatingState, Started, Waiting};
use crate::protocol::{ClientMessage, SeatPlayer, Seating};
use crate::signals::{Signal, StopSignals};

use super::super::input::Key;
use super::super::run::{IDLE_WAIT, RemoteEnd};
use super::super::seating::{SeatingKey, SeatingScreen};
use super::super::waiting::who_waits;
use super::super::{App, Ending, PlayConfig, TuiError};
use super::lobby::bounded;
use super::{Heard, Lines, Speech};

/// The terminal in lines, kept for the whole program: the lines typed are
/// read on one thread, so the lobby, the tables and the spectator's
/// lines all hear through this one.
pub struct Voice {
    pub lines: Lines,
    pub signals: StopSignals,
    pub speech: Speech,
    /// A line could not be said: the output is gone (a closed pipe, a
    /// terminal hung up), and with it the player.
    unheard: bool,
}

impl Voice {
    /// Standard input and output, the player's preferences.
    pub fn stdio(preferences: &Preferences) -> Result<Voice, TuiError> {
        Ok(Voice {
            signals: StopSignals::watch()?,
            lines: Lines::stdio(),
            speech: Speech::from_preferences(preferences),
            unheard: false,
        })
    }

    /// Says `line`, cleaned and cut to a line.
    pub fn say(&mut self, line: &str) {
        if self.lines.say(&bounded(line)).is_err() {
            self.unheard = true;
        }
    }

    /// Whether nobody hears any more: the output is gone.
    pub fn unheard(&self) -> bool {
        self.unheard
    }
}

/// Sits at a table on a server through `connection` (hello already sent),
/// as `tui::run_remote` does, in lines: the lobby until the game starts,
/// then the game at the spoken table.
pub fn run_remote(
    config: PlayConfig,
    mut connection: Connection,
    mut joining: Joining,
    voice: &mut Voice,
) -> Result<RemoteEnd, TuiError> {
    connection.send(joining.request(&config.game.rules));
    let started = match wait_for_start(voice, &mut connection, &mut joining) {
        Ok(started) => started,
        Err(end) => {
            connection.send(ClientMessage::Bye {});
            return Ok(*end);
        }
    };
    voice.say("The game begins.");
    let theme = voice.speech.theme();
    let mut app = App::joined(config, theme, connection, started);
    let outcome = super::table::play_to_the_end(&mut app, &mut voice.lines, &voice.signals);
    Ok(RemoteEnd::Played(outcome))
}

/// The sentence for a seat's end before its game, as the lobby's status
/// line says it; `None` for a game played (the table has said how it went).
pub fn ending_line(end: &RemoteEnd) -> Option<String> {
    Some(match end {
        RemoteEnd::Played(_) => return None,
        RemoteEnd::Left => "You left the table before its game.".to_string(),
        RemoteEnd::Closed(why) => format!("The table ended before its game: {why}."),
        RemoteEnd::NoTable => {
            "There is no such table: the code is mistyped, or the table has closed.".to_string()
        }
        RemoteEnd::Stopped(ending) => format!("Stopped: {ending}."),
    })
}

/// The keys of the table's lobby, for `?`.
const HELP_HOST: &str = "Commands: start begins the game; bots turns bots for the open seats on or off; level changes their level; chat hello; leave; Enter says the table again.";
const HELP_GUEST: &str =
    "Commands: chat hello; leave; Enter says the table again. The host starts the game.";

/// Follows the lobby until the game starts (`Ok`), or the player, the
/// table or a stop ends it (`Err`, how).
fn wait_for_start(
    voice: &mut Voice,
    connection: &mut Connection,
    joining: &mut Joining,
) -> Result<Started, Box<RemoteEnd>> {
    let mut waiting = Waiting::new(SeatingState::new(Seat::new(0), false, None));
    let mut said = Said::default();
    voice.say("Asking the server for a seat...");
    loop {
        if let Some(signal) = voice.signals.received() {
            return Err(Box::new(RemoteEnd::Stopped(Ending::Signal(signal))));
        }
        if voice.unheard() {
            return Err(Box::new(RemoteEnd::Stopped(Ending::Signal(Signal::HANGUP))));
        }
        while let Some(incoming) = connection.try_recv() {
            let news = waiting.state.news.clone();
            if let Some(end) = waiting.take(incoming, joining) {
                return end.map_err(|not| {
                    Box::new(match not {
                        NotSeated::NoTable => RemoteEnd::NoTable,
                        NotSeated::Closed(why) => RemoteEnd::Closed(why),
                    })
                });
            }
            // A message adds one line of news at most: the last.
            if waiting.state.news != news
                && let Some(line) = waiting.state.news.last()
            {
                voice.say(line);
            }
        }
        for line in said.changes(&waiting.state) {
            voice.say(&line);
        }
        let line = match voice.lines.hear(IDLE_WAIT) {
            Heard::Nothing => continue,
            // A script's input may end before the server has answered:
            // its answer (no such table, say) is still what ends the seat.
            Heard::Closed if !answered(&waiting.state) => {
                std::thread::sleep(IDLE_WAIT);
                continue;
            }
            // The input is gone: nobody is left to start or play.
            Heard::Closed => return Err(Box::new(RemoteEnd::Left)),
            Heard::Line(line) => line,
        };
        if typed(&line, &waiting.state, connection, voice, &mut said) == Typed::Leave {
            return Err(Box::new(RemoteEnd::Left));
        }
    }
}

/// What a typed line in the table's lobby came to.
#[derive(Debug, PartialEq, Eq)]
enum Typed {
    Stay,
    Leave,
}

/// Answers a typed line in the table's lobby: the host's words become the
/// requests the full-screen lobby's keys make (`SeatingScreen::key`).
fn typed(
    line: &str,
    state: &SeatingState,
    connection: &mut Connection,
    voice: &mut Voice,
    said: &mut Said,
) -> Typed {
    let key = match line.to_ascii_lowercase().as_str() {
        "" | "look" | "w" => {
            // Everything is said again.
            *said = Said::default();
            return Typed::Stay;
        }
        "?" | "help" => {
            voice.say(if state.host { HELP_HOST } else { HELP_GUEST });
            return Typed::Stay;
        }
        "start" | "s" => Key::Char('s'),
        "bots" | "b" => Key::Char('b'),
        "level" | "l" => Key::Char('l'),
        "leave" | "back" | "quit" | "q" => Key::Esc,
        _ => {
            // "Chat" or "chat": the text after it as typed.
            let chat = line
                .get(..5)
                .is_some_and(|w| w.eq_ignore_ascii_case("chat "));
            if let Some(text) = line.get(5..).filter(|_| chat).map(str::trim) {
                connection.send(ClientMessage::Chat {
                    text: text.to_string(),
                });
            } else {
                voice.say("Type start, bots, level, chat hello or leave; ? says them.");
            }
            return Typed::Stay;
        }
    };
    match SeatingScreen(state).key(key) {
        SeatingKey::Send(message) => connection.send(message),
        SeatingKey::Leave => return Typed::Leave,
        SeatingKey::Nothing if state.seating.is_none() => {
            voice.say("The table is not ready yet: wait a moment, or type leave.");
        }
        SeatingKey::Nothing => voice.say("Only the host starts the game and chooses the bots."),
    }
    Typed::Stay
}

/// Has the server answered the request for a seat: a lobby, or a place
/// in a quick match's queue?
fn answered(state: &SeatingState) -> bool {
    state.seating.is_some() || state.queued.is_some()
}

/// What the player has heard of the table's lobby, so each thing is said
/// once and again only when it changes.
#[derive(Debug, Default)]
struct Said {
    lines: Vec<(Topic, String)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Topic {
    Join,
    Watch,
    Seats,
    Rules,
    Ladder,
    Keys,
    Queue,
}

impl Said {
    /// The lines that changed since they were last said.
    fn changes(&mut self, state: &SeatingState) -> Vec<String> {
        let mut now = Vec::new();
        if let Some(command) = &state.join_command {
            now.push((Topic::Join, format!("A friend joins with: {command}")));
        }
        if let Some(command) = &state.watch_command {
            now.push((Topic::Watch, format!("Or watches with: {command}")));
        }
        if let Some(queue) = &state.queued
            && state.seating.is_none()
        {
            now.push((
                Topic::Queue,
                format!(
                    "Waiting for a quick match, {}: {}. Bots fill the seats left once the wait is over. Type back to leave.",
                    queue.mode,
                    who_waits(queue)
                ),
            ));
        }
        if let Some(seating) = &state.seating {
            let mode = state.rules.map_or(Mode::Partnership, |r| r.mode);
            now.push((Topic::Seats, seats_line(state, seating, mode)));
            if let Some(rules) = &state.rules {
                now.push((
                    Topic::Rules,
                    format!("Rules: {}, {}.", rules.mode, crate::config::course(rules)),
                ));
            }
            let ladder = match (&seating.unrated, seating.rated) {
                (Some(why), _) => Some(format!("Unrated: {why}.")),
                (None, true) => Some("Rated: the game counts for the ladder.".to_string()),
                (None, false) => None,
            };
            now.extend(ladder.map(|l| (Topic::Ladder, l)));
            now.push((Topic::Keys, keys_line(state, seating)));
        }
        let mut changed = Vec::new();
        for (topic, line) in now {
            let line = bounded(&line);
            match self.lines.iter_mut().find(|(t, _)| *t == topic) {
                Some((_, old)) if *old == line => {}
                Some((_, old)) => {
                    old.clone_from(&line);
                    changed.push(line);
                }
                None => {
                    self.lines.push((topic, line.clone()));
                    changed.push(line);
                }
            }
        }
        changed
    }
}

/// "Table ABCD. Seats: you; on your left Ann; across open; on your right
/// open."
fn seats_line(state: &SeatingState, seating: &Seating, mode: Mode) -> String {
    let mut order: Vec<usize> = (0..seating.seats.len()).collect();
    let n = seating.seats.len().max(1);
    order.sort_by_key(|&i| (i + n - state.seat.index()) % n);
    let mut parts = Vec::new();
    let mut open = 0;
    for i in order {
        let seat = &seating.seats[i];
        let at = Seat::new(i);
        let who = match (seat.player, seat.name.as_deref().filter(|n| !n.is_empty())) {
            _ if at == state.seat => "you".to_string(),
            (SeatPlayer::Dummy, _) => "the dummy".to_string(),
            (SeatPlayer::Empty, _) => {
                open += 1;
                "open".to_string()
            }
            (SeatPlayer::Bot, _) => format!("a bot, {}", seating.level),
            (_, Some(name)) => crate::naming::shown_name(
                &crate::outside::clean_name(name, crate::naming::MAX_NAME),
                seat.guest,
            ),
            (_, None) => "someone".to_string(),
        };
        // Another's rating, not the player's own (the lobby said it).
        let rating = seat.rating.filter(|_| at != state.seat);
        let who = match rating {
            Some(r) if r.provisional => format!("{who}, rated {} provisional", r.rating),
            Some(r) => format!("{who}, rated {}", r.rating),
            None => who,
        };
        let partner = if mode.partner(state.seat) == Some(at) {
            ", your partner"
        } else {
            ""
        };
        let side = match place(mode, at, state.seat) {
            Place::Bottom => String::new(),
            Place::Left => "on your left ".to_string(),
            Place::Top => "across ".to_string(),
            Place::Right => "on your right ".to_string(),
        };
        parts.push(format!("{side}{who}{partner}"));
    }
    let open = match open {
        0 => String::new(),
        n => format!(" {} open.", super::words::count(n, "seat")),
    };
    format!(
        "Table {}. Seats: {}.{open}",
        crate::outside::clean_name(&seating.table, 24),
        parts.join("; ")
    )
}

/// What the player may do now, for the host or a guest.
fn keys_line(state: &SeatingState, seating: &Seating) -> String {
    if !state.host {
        return "Waiting for the host to start. Type leave to go.".to_string();
    }
    let open = seating.seats.iter().any(|s| s.player == SeatPlayer::Empty);
    let now = match (seating.can_start, seating.bots && open) {
        (true, true) => format!(
            "Type start to fill them with bots, level {}, and begin.",
            seating.level
        ),
        (true, false) => "Type start to begin.".to_string(),
        (false, true) => "Waiting for players to begin.".to_string(),
        (false, false) => {
            "Bots are off: waiting for players, or type bots to fill the open seats.".to_string()
        }
    };
    format!("{now} Also: bots, level, leave; ? for all.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{BotSpec, Level};
    use crate::protocol::TableSeat;

    fn seating(bots: bool, can_start: bool) -> Seating {
        let seat = |name: Option<&str>, player| TableSeat {
            name: name.map(String::from),
            player,
            rating: None,
            guest: false,
        };
        Seating {
            table: "ABCD1234".into(),
            rules: String::new(),
            seats: vec![
                seat(Some("me"), SeatPlayer::Person),
                seat(Some("Ann\u{1b}[2J"), SeatPlayer::Person),
                seat(None, SeatPlayer::Empty),
                seat(None, SeatPlayer::Empty),
            ],
            bots,
            level: BotSpec::from(Level::playing().next().unwrap()),
            levels: Vec::new(),
            can_start,
            rated: false,
            unrated: None,
        }
    }

    #[test]
    fn the_hosts_lobby_is_said_once_and_again_only_as_it_changes() {
        let mut state = SeatingState::new(Seat::new(0), true, None);
        state.join_command = Some("spades join ABCD1234.plain@127.0.0.1:4466".into());
        state.update(seating(false, false));
        let mut said = Said::default();
        let first = said.changes(&state);
        assert_eq!(
            first[0],
            "A friend joins with: spades join ABCD1234.plain@127.0.0.1:4466"
        );
        assert_eq!(
            first[1],
            "Table ABCD1234. Seats: you; on your left Ann [2J; across open, your partner; on your right open. 2 seats open."
        );
        assert!(
            first.iter().any(|l| l.starts_with("Bots are off")),
            "{first:?}"
        );
        assert!(said.changes(&state).is_empty(), "nothing new");
        state.update(seating(true, true));
        let next = said.changes(&state);
        assert_eq!(next.len(), 1, "{next:?}");
        assert!(
            next[0].starts_with("Type start to fill them with bots"),
            "{next:?}"
        );
    }

    #[test]
    fn a_guest_is_told_to_wait_for_the_host() {
        let mut state = SeatingState::new(Seat::new(1), false, None);
        state.update(seating(false, false));
        let said = Said::default().changes(&state);
        assert!(
            said.iter().any(|l| l.starts_with("Waiting for the host")),
            "{said:?}"
        );
        assert!(
            said.iter().any(|l| l.contains("on your right me")),
            "{said:?}"
        );
    }
}
