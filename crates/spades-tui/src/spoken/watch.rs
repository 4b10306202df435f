//! A table watched from no seat, in lines: each bid, card, trick and
//! score said as the server tells it, chat and who came and went, the
//! table's end. The state is the full-screen spectator's (`WatchState`);
//! this only says what it takes in. `quit` (or `q`, or the input's end)
//! leaves; no key ever does anything else, and nothing escapes a line.

use crate::config::preferences::Verbosity;
use crate::engine::{Mode, SeatEvent, Side};
use crate::naming::Names;
use crate::net::client::watch::WatchState;
use crate::net::client::{Connection, Incoming};
use crate::protocol::{ClientMessage, SeatPlayer, ServerMessage};
use crate::signals::Signal;

use super::super::run::IDLE_WAIT;
use super::super::watch::{WatchEnd, WatchScreen};
use super::super::{Ending, TuiError};
use super::remote::Voice;
use super::say::Teller;
use super::{Heard, Speech, words};

const HELP: &str =
    "You are watching: quit leaves; Enter says the hand and the score. A spectator plays nothing.";

/// Says the table `connection` watches (the server has said `watching`)
/// until the spectator leaves, the input ends or a stop comes.
pub fn run_watch(connection: &mut Connection, voice: &mut Voice) -> Result<WatchEnd, TuiError> {
    let end = follow(connection, voice);
    connection.send(ClientMessage::StopWatching {});
    Ok(end)
}

fn follow(connection: &mut Connection, voice: &mut Voice) -> WatchEnd {
    let mut state = WatchState::default();
    let mut closed_said = false;
    let mut seats_said = String::new();
    let mut tally = Tally::default();
    loop {
        if let Some(signal) = voice.signals.received() {
            return WatchEnd::Stopped(Ending::Signal(signal));
        }
        if voice.unheard() {
            return WatchEnd::Stopped(Ending::Signal(Signal::HANGUP));
        }
        while let Some(incoming) = connection.try_recv() {
            let news = state.news.clone();
            let said = said_of(&incoming, &state, &mut tally, &voice.speech);
            state.take(incoming);
            for line in said.into_iter().chain(new_news(&news, &state)) {
                voice.say(&line);
            }
        }
        // Before the game, who sits where, as it changes.
        if state.view.is_none() && !state.seats.is_empty() {
            let seats = seats_line(&state);
            if seats != seats_said {
                voice.say(&seats);
                seats_said = seats;
            }
        }
        if let Some(why) = state.closed.as_ref().filter(|_| !closed_said) {
            closed_said = true;
            let why = why.clone();
            voice.say(&format!("The table closed: {why}. Type quit to leave."));
        }
        match voice.lines.hear(IDLE_WAIT) {
            Heard::Nothing => {}
            Heard::Closed => return WatchEnd::Left,
            Heard::Line(line) => match line.to_ascii_lowercase().as_str() {
                "q" | "quit" | "leave" | "back" => return WatchEnd::Left,
                "" | "w" | "s" | "look" => voice.say(&summary(&state)),
                _ => voice.say(HELP),
            },
        }
    }
}

/// The news lines `state` holds that it did not hold `before` (chat, who
/// left, the server's refusals): one at most a message.
fn new_news(before: &std::collections::VecDeque<String>, state: &WatchState) -> Option<String> {
    (state.news != *before)
        .then(|| state.news.back().cloned())
        .flatten()
}

/// The table's sentences for a spectator, once the server has said the
/// game's mode: the same teller the player's seat uses, seated nowhere.
#[derive(Default)]
pub struct Tally {
    teller: Option<Teller>,
}

impl Tally {
    fn teller(&mut self, state: &WatchState, speech: &Speech) -> &mut Teller {
        let teller = self
            .teller
            .get_or_insert_with(|| Teller::spectator(*speech, names(state), mode(state)));
        // Names come with the game's start, and `v` changes the speech:
        // the latest of each is used.
        teller.rename(names(state));
        teller.speech = *speech;
        teller
    }
}

/// Who sits where before the game: "Seats: Ann; open; a bot; open."
fn seats_line(state: &WatchState) -> String {
    let who: Vec<String> = (0..state.seats.len())
        .map(|i| match state.seats[i].player {
            SeatPlayer::Empty => "open".to_string(),
            SeatPlayer::Dummy => "the dummy".to_string(),
            SeatPlayer::Bot => "a bot".to_string(),
            _ => crate::outside::clean_name(&state.name(i), crate::naming::MAX_NAME),
        })
        .collect();
    format!("Seats: {}.", who.join("; "))
}

/// The names the server gave the seats, as the spectator's screen shows
/// them.
fn names(state: &WatchState) -> Names {
    WatchScreen(state).names(mode(state))
}

fn mode(state: &WatchState) -> Mode {
    state
        .view
        .as_ref()
        .map(|v| v.mode())
        .or(state.rules.map(|r| r.mode))
        .unwrap_or(Mode::Partnership)
}

/// What a message from the server is said as, before the state takes it
/// (so the names are those it was told under).
fn said_of(
    incoming: &Incoming,
    state: &WatchState,
    tally: &mut Tally,
    speech: &Speech,
) -> Vec<String> {
    let Incoming::Message(message) = incoming else {
        return Vec::new();
    };
    match message {
        ServerMessage::Watching { table, .. } => vec![format!(
            "Watching table {}. Type quit to leave.",
            crate::outside::clean_name(table, 24)
        )],
        ServerMessage::Start { seats, players, .. } => {
            let who: Vec<String> = seats
                .iter()
                .zip(players.iter().chain(std::iter::repeat(&SeatPlayer::Person)))
                .map(|(name, player)| {
                    let name = crate::outside::clean_name(name, crate::naming::MAX_NAME);
                    match player {
                        SeatPlayer::Bot => format!("{name}, a bot"),
                        _ => name,
                    }
                })
                .collect();
            vec![format!("The game begins: {}.", who.join("; "))]
        }
        ServerMessage::Public { view } => {
            // A spectator may come in mid-hand: the trick and the tricks
            // taken so far are the view's.
            tally.teller(state, speech).start_from(&view.play);
            Vec::new()
        }
        ServerMessage::Event { event } => event_line(event, state, tally, speech)
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// One thing that happened at the table, in a sentence ("West plays the
/// queen of hearts."), or short when the verbosity is brief ("West: queen
/// of hearts."): the teller's, but for the deal and the score, which the
/// player's seat says from what only it holds.
pub fn event_line(
    event: &SeatEvent,
    state: &WatchState,
    tally: &mut Tally,
    speech: &Speech,
) -> Option<String> {
    let brief = speech.verbosity == Verbosity::Brief;
    let (mode, names) = (mode(state), names(state));
    let told = tally.teller(state, speech).event(event);
    match event {
        SeatEvent::Dealt { hand, dealer } => {
            Some(format!("Hand {hand}. {} deals.", names.seat(*dealer)))
        }
        SeatEvent::Score { hand, sides, .. } => {
            let scores: Vec<String> = sides
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let bags = if brief {
                        String::new()
                    } else {
                        format!(", {}", words::count(s.bags.max(0) as usize, "bag"))
                    };
                    format!(
                        "{} {}{bags}",
                        side_name(mode, &names, Side::new(i)),
                        s.score
                    )
                })
                .collect();
            Some(format!("Hand {hand} scored: {}.", scores.join("; ")))
        }
        _ => told,
    }
}

/// A side by its seats' names: "North and South".
fn side_name(mode: Mode, names: &Names, side: Side) -> String {
    let seats: Vec<&str> = mode.side_seats(side).map(|s| names.seat(s)).collect();
    seats.join(" and ")
}

/// The hand and the score, for an empty line.
fn summary(state: &WatchState) -> String {
    let Some(view) = &state.view else {
        return match &state.closed {
            Some(why) => format!("The table closed: {why}."),
            None => "The game has not started yet.".to_string(),
        };
    };
    let names = names(state);
    let mode = view.mode();
    let scores: Vec<String> = mode
        .each_side()
        .map(|side| {
            format!(
                "{} {}",
                side_name(mode, &names, side),
                view.totals.get(side).map_or(0, |t| t.score)
            )
        })
        .collect();
    format!(
        "Hand {}, {}. Score: {}.",
        view.hand_no,
        crate::config::course(&view.rules),
        scores.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Bid, Card, Seat};

    const NORMAL: Speech = Speech::NORMAL;
    const BRIEF: Speech = Speech::BRIEF;

    /// A table being watched, its seats named, its game begun.
    fn watched() -> WatchState {
        let mut state = WatchState::default();
        state.take(Incoming::Message(ServerMessage::Start {
            commitment: None,
            seats: ["Ann", "Bo", "Cy", "Di"].map(String::from).to_vec(),
            players: vec![SeatPlayer::Person; 4],
            guests: Vec::new(),
        }));
        state
    }

    #[test]
    fn each_event_is_one_sentence() {
        let state = watched();
        let play = SeatEvent::Play {
            hand: 1,
            seat: Seat::new(1),
            card: "QH".parse::<Card>().unwrap(),
        };
        let said = |event: &SeatEvent, speech: &Speech| {
            event_line(event, &state, &mut Tally::default(), speech).unwrap()
        };
        assert_eq!(said(&play, &NORMAL), "Bo plays the queen of hearts.");
        assert_eq!(said(&play, &BRIEF), "Bo: QH.");
        let bid = SeatEvent::Bid {
            hand: 1,
            seat: Seat::new(3),
            bid: Bid::Tricks(4),
        };
        assert_eq!(said(&bid, &NORMAL), "Di bids 4.");
        let end = SeatEvent::End {
            winner: Side::new(0),
            scores: vec![520, 310],
        };
        assert_eq!(
            said(&end, &NORMAL),
            "Game over. Ann and Cy win, 520 to 310."
        );
    }

    #[test]
    fn a_trick_is_said_with_its_winning_card_and_the_tricks_so_far() {
        let state = watched();
        let mut tally = Tally::default();
        let mut said =
            |event: SeatEvent, speech: &Speech| event_line(&event, &state, &mut tally, speech);
        for (seat, card) in [(0, "2S"), (1, "AS"), (2, "3S"), (3, "4S")] {
            said(
                SeatEvent::Play {
                    hand: 1,
                    seat: Seat::new(seat),
                    card: card.parse::<Card>().unwrap(),
                },
                &NORMAL,
            );
        }
        let trick = |winner| SeatEvent::Trick {
            hand: 1,
            trick: 1,
            winner: Seat::new(winner),
        };
        assert_eq!(
            said(trick(1), &NORMAL).unwrap(),
            "Bo wins the trick with the ace of spades. Tricks: Ann and Cy 0, Bo and Di 1."
        );
        assert_eq!(said(trick(2), &BRIEF).unwrap(), "Cy wins. Tricks 1 to 1.");
    }
}
