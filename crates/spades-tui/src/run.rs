//! The loops that hold the terminal: a game at the table, the offer of a
//! game left undecided, a replay, and a shared table's lobby then game.
//! Each gives the terminal back, and closes the game's record, however it
//! ends: quitting, Ctrl-C, a stop signal, an error or a panic.

use std::time::{Duration, Instant};

use crate::net::client::Connection;
use crate::net::client::seating::{Joining, NotSeated, SeatingState, Started, Waiting};
use crate::save::{Saved, SetAside};
use crate::session::Played;
use crate::signals::{Signal, StopSignals};

use super::app::App;
use super::input::{Input, Key};
use super::seating::{SeatingKey, SeatingScreen};
use super::terminal::Next;
use super::theme::Theme;
use super::{Ending, Outcome, PlayConfig, TuiError, offer, replay, replay_view, terminal, view};

/// How long the loop sleeps when nothing is due, so a resize or a key is
/// answered at once and a bot's pause ends on time.
pub(super) const IDLE_WAIT: Duration = Duration::from_millis(50);

/// How a session at the table begins.
pub enum Start {
    /// A new game.
    New,
    /// The saved game, exactly as it was left.
    Resume(Box<Saved>),
    /// A new game, unless the player takes up the newest saved one (if
    /// any), with word of saves open in another window (`busy`, not to be
    /// taken up) and of saves that could not be read.
    Offer {
        saved: Option<Box<Saved>>,
        busy: Vec<Saved>,
        set_aside: Vec<SetAside>,
    },
}

/// Plays games in this terminal until the player quits, writing each
/// game's record as it goes. The terminal is restored, and a game left
/// undecided is saved or recorded as abandoned, on quit, Ctrl-C, a stop
/// signal (SIGTERM, SIGHUP), error and panic.
pub fn run(config: PlayConfig, start: Start) -> Result<Outcome, TuiError> {
    let theme = Theme::for_player(config.ascii, &config.preferences);
    // Caught before the record is opened, so no stop can leave it open.
    let signals = StopSignals::watch()?;
    let mut session = terminal::Session::start()?;
    let start = match start {
        Start::Offer {
            saved,
            busy,
            set_aside,
        } => {
            let waiting = offer::Offer::new(saved.as_deref(), &busy, &set_aside, &theme);
            match offer(&mut session, &signals, theme, &waiting) {
                Ok(offer::Choice::Resume) => saved.map_or(Start::New, Start::Resume),
                Ok(offer::Choice::NewGame) => Start::New,
                Ok(offer::Choice::Quit) | Err(_) => {
                    let restored = session.end();
                    return Ok(Outcome {
                        played: Played::default(),
                        ending: restored.map(|()| Ending::Quit).map_err(TuiError::from),
                    });
                }
            }
        }
        start => start,
    };
    let app = match start {
        Start::Resume(saved) => {
            let config = config.resuming(&saved);
            let theme = Theme::for_player(config.ascii, &config.preferences);
            App::resume(config, theme, &saved)
        }
        _ => App::new(config, theme),
    };
    let mut app = match app {
        Ok(app) => app,
        Err(e) => {
            let _ = session.end();
            return Err(e);
        }
    };
    Ok(play_to_the_end(&mut app, session, &signals))
}

/// Plays at the table until the player leaves or a stop comes, then gives
/// the terminal back and says how it went.
fn play_to_the_end(
    app: &mut App,
    mut session: terminal::Session,
    signals: &StopSignals,
) -> Outcome {
    let result = play(app, &mut session, signals);
    // A game left undecided is kept to resume, or, when it cannot be kept,
    // marked abandoned and its seed revealed (a shared table's seat is given
    // up with a goodbye).
    let played = app.close();
    let restored = session.end();
    // A signal is why the game ended even when the terminal failed with it:
    // once a window closes, every write to it fails.
    let ending = match signals.received() {
        Some(signal) => Ok(Ending::Signal(signal)),
        None => result.and_then(|ending| restored.map(|()| ending).map_err(TuiError::from)),
    };
    Outcome { played, ending }
}

/// Shows a recorded game in this terminal until the viewer leaves it (`q`,
/// Esc, Ctrl-C or a stop signal). The terminal is restored however it ends.
pub fn run_replay(mut viewer: replay::Viewer, theme: Theme) -> Result<Ending, TuiError> {
    let signals = StopSignals::watch()?;
    let mut session = terminal::Session::start()?;
    let result = show_replay(&mut viewer, &theme, &mut session, &signals);
    let restored = session.end();
    match signals.received() {
        Some(signal) => Ok(Ending::Signal(signal)),
        None => result.and_then(|ending| restored.map(|()| ending).map_err(TuiError::from)),
    }
}

/// How a seat at a table on a server ended.
#[derive(Debug)]
pub enum RemoteEnd {
    /// The game was played (or left) at the table.
    Played(Outcome),
    /// The player left the lobby before the game.
    Left,
    /// The table went away before its game, or a stop came: why.
    Closed(String),
    /// The server has no table by the id the player asked for.
    NoTable,
    /// Before the game, a stop came: Ctrl-C, a signal, the terminal gone.
    Stopped(Ending),
}

/// Sits at a table on a server through `connection` (hello already sent):
/// the lobby until the game starts, then the game in the same terminal.
pub fn run_remote(
    config: PlayConfig,
    mut connection: Connection,
    mut joining: Joining,
) -> Result<RemoteEnd, TuiError> {
    use crate::protocol::ClientMessage;
    let theme = Theme::for_player(config.ascii, &config.preferences);
    let signals = StopSignals::watch()?;
    let mut session = terminal::Session::start()?;
    connection.send(joining.request(&config.game.rules));
    let started = match wait_for_start(
        &mut session,
        &signals,
        &theme,
        &mut connection,
        &mut joining,
    ) {
        Ok(Ok(started)) => started,
        Ok(Err(end)) => {
            connection.send(ClientMessage::Bye {});
            session.end()?;
            return Ok(end);
        }
        Err(e) => {
            connection.send(ClientMessage::Bye {});
            let _ = session.end();
            return Err(e);
        }
    };
    let mut app = App::joined(config, theme, connection, started);
    Ok(RemoteEnd::Played(play_to_the_end(
        &mut app, session, &signals,
    )))
}

/// Shows the lobby until the game starts (`Ok(Ok)`), or the player or the
/// table ends it (`Ok(Err(how))`).
fn wait_for_start(
    session: &mut terminal::Session,
    signals: &StopSignals,
    theme: &Theme,
    connection: &mut Connection,
    joining: &mut Joining,
) -> Result<Result<Started, RemoteEnd>, TuiError> {
    let state = SeatingState::new(crate::engine::Seat::new(0), false, None);
    let mut waiting = Waiting::new(state);
    loop {
        if let Some(signal) = signals.received() {
            return Ok(Err(RemoteEnd::Stopped(Ending::Signal(signal))));
        }
        while let Some(incoming) = connection.try_recv() {
            if let Some(end) = waiting.take(incoming, joining) {
                return Ok(end.map_err(|not| match not {
                    NotSeated::NoTable => RemoteEnd::NoTable,
                    NotSeated::Closed(why) => RemoteEnd::Closed(why),
                }));
            }
        }
        session.terminal().draw(|frame| {
            SeatingScreen(&waiting.state).render(frame.area(), frame.buffer_mut(), theme);
        })?;
        match session.next_input(IDLE_WAIT)? {
            Next::HungUp => return Ok(Err(RemoteEnd::Stopped(Ending::Signal(Signal::HANGUP)))),
            Next::Input(Input::Key(Key::Interrupt)) => {
                return Ok(Err(RemoteEnd::Stopped(Ending::Interrupted)));
            }
            Next::Input(Input::Key(key)) => match SeatingScreen(&waiting.state).key(key) {
                SeatingKey::Send(message) => connection.send(message),
                SeatingKey::Leave => return Ok(Err(RemoteEnd::Left)),
                SeatingKey::Nothing => {}
            },
            Next::Input(_) | Next::Nothing => {}
        }
    }
}

/// Shows the offer until a key chooses.
fn offer(
    session: &mut terminal::Session,
    signals: &StopSignals,
    theme: Theme,
    offer: &offer::Offer,
) -> Result<offer::Choice, TuiError> {
    loop {
        if signals.received().is_some() {
            return Ok(offer::Choice::Quit);
        }
        session.terminal().draw(|frame| {
            offer.render(frame.area(), frame.buffer_mut(), &theme);
        })?;
        match session.next_input(IDLE_WAIT)? {
            Next::HungUp => return Ok(offer::Choice::Quit),
            Next::Input(Input::Key(key)) => {
                if let Some(choice) = offer.choice(key) {
                    return Ok(choice);
                }
            }
            Next::Input(_) | Next::Nothing => {}
        }
    }
}

fn play(
    app: &mut App,
    session: &mut terminal::Session,
    signals: &StopSignals,
) -> Result<Ending, TuiError> {
    loop {
        if let Some(end) = let_time_pass(app, signals) {
            return end;
        }
        // Drawing every turn of the loop is cheap: ratatui sends only the
        // cells that changed.
        let mut hits = None;
        session.terminal().draw(|frame| {
            hits = Some(view::render(app, frame.area(), frame.buffer_mut()));
        })?;
        if let Some(hits) = hits {
            app.set_hits(hits);
        }
        match session.next_input(IDLE_WAIT)? {
            Next::HungUp => return Ok(Ending::Signal(Signal::HANGUP)),
            Next::Input(Input::Key(Key::Interrupt)) => return Ok(Ending::Interrupted),
            // A resize needs nothing more: the next draw lays out anew.
            Next::Input(input) => app.update(input),
            Next::Nothing => {}
        }
    }
}

/// Lets time pass at the table, and says how the session ends if it now
/// does: a stop signal, a bot's failure, or the player leaving. Every view
/// of the table turns its loop on this.
pub(super) fn let_time_pass(
    app: &mut App,
    signals: &StopSignals,
) -> Option<Result<Ending, TuiError>> {
    if let Some(signal) = signals.received() {
        return Some(Ok(Ending::Signal(signal)));
    }
    app.update(Input::Tick(Instant::now()));
    if let Some(failure) = app.take_failure() {
        return Some(Err(failure.into()));
    }
    app.should_quit().then_some(Ok(Ending::Quit))
}

/// Shows the viewer until it is left, by a key, Ctrl-C or a stop signal.
fn show_replay(
    viewer: &mut replay::Viewer,
    theme: &Theme,
    session: &mut terminal::Session,
    signals: &StopSignals,
) -> Result<Ending, TuiError> {
    loop {
        if let Some(signal) = signals.received() {
            return Ok(Ending::Signal(signal));
        }
        viewer.poll();
        // Drawing every turn is cheap: ratatui sends only changed cells,
        // and a resize is laid out anew.
        session
            .terminal()
            .draw(|frame| replay_view::render(viewer, theme, frame.area(), frame.buffer_mut()))?;
        match session.next_input(IDLE_WAIT)? {
            Next::HungUp => return Ok(Ending::Signal(Signal::HANGUP)),
            Next::Input(Input::Key(Key::Interrupt)) => return Ok(Ending::Interrupted),
            Next::Input(Input::Key(key)) if viewer.key(key) == replay::Outcome::Leave => {
                return Ok(Ending::Quit);
            }
            Next::Input(_) | Next::Nothing => {}
        }
    }
}
