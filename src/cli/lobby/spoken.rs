//! `spades lobby --screen-reader`: the server's lobby in lines. The same
//! server, state and handovers as the full-screen lobby (`Lobby`,
//! `LobbyState`, `take_seat`, `back`), said as a numbered list and
//! driven by typed words (`tui::spoken::lobby`); what the server tells
//! while the player listens is said as a few short lines, rate-limited.
//! After a game, a quick match left or a table watched, the player is
//! back here, as on the full screen.

use std::time::Instant;

use crate::engine::Mode;
use crate::net::code::ServerAddress;
use crate::session::Played;
use crate::signals::Signal;
use crate::tui::lobby::{LobbyState, Outcome, QuickMatch, Window};
use crate::tui::spoken::Heard as Typed;
use crate::tui::spoken::lobby::{Command, HELP, Heard, ladder_lines, list_lines};
use crate::tui::spoken::remote::Voice;
use crate::tui::{Ending, Key, Outcome as GameOutcome, PlayConfig};

use super::super::CliError;
use super::super::play::report_played;
use super::{
    Handover, IDLE_WAIT, Lobby, ServerLobby, Went, answer, back, kept_here, signed_in_again,
    take_seat, take_told,
};

/// The lobby in lines until the player quits it (or the input ends, or a
/// stop comes); the games' records are named as the program ends.
pub(super) fn lobby(
    lobby: &mut ServerLobby,
    state: &mut LobbyState,
    config: PlayConfig,
    code: &ServerAddress,
    voice: &mut Voice,
) -> Result<(), CliError> {
    let mut played = Played::default();
    let mut heard = Heard::default();
    voice.say(&format!(
        "Spades lobby at {}, as {}. Type ? for the commands.",
        state.server, state.player.name
    ));
    let mut note = None;
    loop {
        state.set_kept(kept_here());
        let handover = match listen(lobby, state, voice, &mut heard, note.take()) {
            Ok(handover) => handover,
            Err(ending) => {
                return report_played(GameOutcome {
                    played,
                    ending: Ok(ending),
                });
            }
        };
        let seat = take_seat(lobby, state, config.clone(), &handover, code, Some(voice))?;
        let end = match seat {
            Went::Sat(end) => end,
            Went::Watched => {
                note = Some("You stopped watching.".to_string());
                continue;
            }
            Went::Nowhere(why) => {
                note = Some(why);
                continue;
            }
        };
        match back::from_table(end, &handover, &mut played) {
            back::Back::ToLobby(said) => {
                signed_in_again(lobby, state);
                note = Some(said);
            }
            back::Back::Stop(ending) => return report_played(GameOutcome { played, ending }),
        }
    }
}

/// Says the list (after `note`, what became of the last table), then
/// hears commands until one goes somewhere (`Ok`) or the player leaves
/// (`Err`, how).
fn listen(
    lobby: &mut ServerLobby,
    state: &mut LobbyState,
    voice: &mut Voice,
    heard: &mut Heard,
    note: Option<String>,
) -> Result<Handover, Ending> {
    if let Some(note) = note {
        voice.say(&note);
    }
    let mut pending = Some(Outcome::Refresh(state.filter()));
    loop {
        if let Some(signal) = voice.signals.received() {
            return Err(Ending::Signal(signal));
        }
        if voice.unheard() {
            return Err(Ending::Signal(Signal::HANGUP));
        }
        if let Some(outcome) = pending.take() {
            let listing = matches!(outcome, Outcome::Refresh(_));
            state.clear_status();
            if let Some(end) = answer(lobby, state, outcome) {
                return end;
            }
            if let Some(why) = state.status() {
                let why = why.to_string();
                voice.say(&why);
            } else if listing {
                for line in list_lines(state) {
                    voice.say(&line);
                }
                heard.said_all(state, Instant::now());
            }
            continue;
        }
        for line in heard.changes(state, Instant::now()) {
            voice.say(&line);
        }
        pending = match voice.lines.hear(IDLE_WAIT) {
            Typed::Nothing => take_told(lobby, state),
            // Nobody is left to choose: the lobby ends as `quit` would.
            Typed::Closed => return Err(Ending::Quit),
            Typed::Line(line) => command(&line, lobby, state, voice),
        };
    }
}

/// What a typed line asks: an outcome for the lobby to act on, or
/// nothing (it was answered here).
fn command(
    line: &str,
    lobby: &mut ServerLobby,
    state: &mut LobbyState,
    voice: &mut Voice,
) -> Option<Outcome> {
    let asked = Command::from_line(line);
    if *state.window() == Window::ConfirmQuit {
        let key = match asked {
            Command::Yes | Command::Quit => Key::Char('y'),
            _ => Key::Char('n'),
        };
        let outcome = state.key(key);
        if outcome == Outcome::Nothing {
            voice.say("You stay in the lobby.");
        }
        return Some(outcome);
    }
    let table = |n: usize| state.tables().get(n - 1);
    match asked {
        Command::List => return Some(Outcome::Refresh(state.filter())),
        Command::Join(n) => match table(n) {
            None => voice.say(&no_table(n, state)),
            Some(t) if t.free_seats() > 0 || state.is_yours(t) => {
                return Some(Outcome::Join(t.table.clone()));
            }
            Some(t) if t.started => voice.say(&format!(
                "Table {n}'s game has started: watch {n} watches it."
            )),
            Some(_) => voice.say(&format!(
                "Table {n} is full: watch {n} watches it, open opens another."
            )),
        },
        Command::Watch(n) => match table(n) {
            None => voice.say(&no_table(n, state)),
            Some(t) => return Some(Outcome::Watch(t.table.clone())),
        },
        Command::Yours => match state.yours().next() {
            Some(t) => return Some(Outcome::Join(t.table.clone())),
            None => voice.say("You hold no seat at a table here."),
        },
        Command::Quick(mode) => {
            voice.say(&format!("Looking for a quick match, {mode}..."));
            let wait = QuickMatch::new(mode).wait.duration();
            return Some(Outcome::Queue { mode, wait });
        }
        Command::Open { mode, public } => {
            let mode = mode.unwrap_or_else(|| state.usual_mode());
            return Some(Outcome::Open { mode, public });
        }
        Command::Ladder(mode) => {
            let mode = mode.unwrap_or_else(|| state.usual_mode());
            match lobby.ladder(mode) {
                Ok((rungs, _)) => {
                    for line in ladder_lines(mode, &rungs) {
                        voice.say(&line);
                    }
                }
                Err(why) => voice.say(&why),
            }
        }
        Command::Filter(mode) => return Some(filtered(state, mode)),
        Command::Help => {
            for line in HELP {
                voice.say(line);
            }
        }
        Command::Quit => {
            let outcome = state.key(Key::Char('Q'));
            if *state.window() == Window::ConfirmQuit {
                voice.say(&confirm_quit(state));
            }
            return Some(outcome);
        }
        Command::Yes | Command::No => voice.say("Nothing is asked now: ? says the commands."),
        Command::Unknown(why) => voice.say(&why),
    }
    None
}

fn no_table(n: usize, state: &LobbyState) -> String {
    match state.tables().len() {
        0 => "There are no tables: open opens one, quick partnership finds a match.".to_string(),
        k => format!("There is no table {n}: the list has {k}."),
    }
}

/// The list of one mode (`None`: every mode), as the full screen's `m`
/// steps through them.
fn filtered(state: &mut LobbyState, mode: Option<Mode>) -> Outcome {
    for _ in 0..=Mode::ALL.len() {
        if state.filter() == mode {
            break;
        }
        state.key(Key::Char('m'));
    }
    Outcome::Refresh(state.filter())
}

/// The question before quitting with a seat still held, and its cost.
fn confirm_quit(state: &LobbyState) -> String {
    let rated = if state.yours().any(|t| t.rated) {
        " This rated game counts as your loss unless you are back in your seat when it ends."
    } else {
        ""
    };
    format!(
        "You hold a seat at a table that plays on: a bot plays it until you take it back.{rated} Quit? Type yes or no."
    )
}
