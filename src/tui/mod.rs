//! The game in a terminal: one client of the table. `app` holds the state
//! and turns input into actions; `view` draws that state; `terminal` owns
//! the real terminal and puts it back however the program ends.

pub mod app;
pub mod input;
pub mod layout;
pub mod link;
pub mod lobby;
pub mod offer;
pub mod replay;
pub mod replay_view;
pub mod seats;
pub mod standing;
pub mod summary;
pub mod terminal;
pub mod theme;
pub mod view;
mod widgets;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use ratatui::crossterm::event;

use crate::bots::{self, UnknownBot};
use crate::engine::Rules;
use crate::save::Saved;
use crate::table::BotError;

pub use app::App;
pub use input::{Input, Key};
pub use theme::Theme;

/// Everything a game in the terminal needs to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayConfig {
    pub rules: Rules,
    /// A seed given openly (`--seed`): the deals are known. `None` deals
    /// from a secret seed, committed to at the start and revealed at the end.
    pub seed: Option<u64>,
    /// The player's name, shown at their seat.
    pub name: String,
    /// The level of every computer player: a name from `bots::LEVELS`.
    pub difficulty: String,
    pub speed: Speed,
    /// Plain letters for suits and borders, whatever the terminal can show.
    pub ascii: bool,
    /// Play a card for the player when it is the only one they may play.
    pub auto_play: bool,
    /// Where the rules came from, for the rules screen.
    pub rules_source: String,
    /// The folder each game's record is written to; `None` writes none.
    pub records: Option<PathBuf>,
    /// The folder each game's save is kept in, to resume it; `None` keeps
    /// none (a game left is then abandoned).
    pub saves: Option<PathBuf>,
    /// A practice game: `u` takes back the player's last move.
    pub practice: bool,
    /// How long a searching bot thinks per decision.
    pub effort: crate::bots::Effort,
}

impl PlayConfig {
    /// The given rules and open seed against the default bots, at normal
    /// speed, unrecorded.
    pub fn new(rules: Rules, seed: u64) -> PlayConfig {
        PlayConfig {
            rules,
            seed: Some(seed),
            name: "You".to_string(),
            difficulty: bots::DEFAULT_LEVEL.to_string(),
            speed: Speed::Normal,
            ascii: false,
            auto_play: true,
            rules_source: "the built-in classic rules".to_string(),
            records: None,
            saves: None,
            practice: false,
            effort: crate::bots::Effort::Usual,
        }
    }
}

/// How fast the computer players' moves appear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Speed {
    Slow,
    #[default]
    Normal,
    Fast,
    /// No pauses at all: for tests and for players who only want the result.
    Instant,
}

/// The pauses a speed makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    /// Before each bot's bid or card.
    pub bot: Duration,
    /// How long a finished trick stays on the table.
    pub trick: Duration,
    /// How long after a pause, or the start of the player's turn, a key
    /// that would act is taken as meant for the pause, not for the turn.
    pub guard: Duration,
}

impl Speed {
    pub const ALL: [Speed; 4] = [Speed::Slow, Speed::Normal, Speed::Fast, Speed::Instant];

    pub fn name(self) -> &'static str {
        match self {
            Speed::Slow => "slow",
            Speed::Normal => "normal",
            Speed::Fast => "fast",
            Speed::Instant => "instant",
        }
    }

    pub fn pace(self) -> Pace {
        let ms = Duration::from_millis;
        match self {
            Speed::Slow => Pace {
                bot: ms(1100),
                trick: ms(2500),
                guard: ms(500),
            },
            Speed::Normal => Pace {
                bot: ms(600),
                trick: ms(1500),
                guard: ms(400),
            },
            Speed::Fast => Pace {
                bot: ms(250),
                trick: ms(700),
                guard: ms(300),
            },
            Speed::Instant => Pace {
                bot: Duration::ZERO,
                trick: Duration::ZERO,
                guard: Duration::ZERO,
            },
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Speed {
    type Err = String;
    fn from_str(s: &str) -> Result<Speed, String> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name() == s)
            .ok_or_else(|| format!("unknown speed `{s}`: use slow, normal, fast or instant"))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    #[error("the terminal failed: {0}")]
    Terminal(#[from] std::io::Error),
    #[error(transparent)]
    UnknownBot(#[from] UnknownBot),
    #[error("the game stopped: {0}")]
    Bot(#[from] BotError),
    #[error("cannot deal: {0}")]
    Dealing(std::io::Error),
    #[error("cannot resume the game: {0}")]
    Resume(crate::table::ResumeError),
}

/// How long the loop sleeps when nothing is due, so a resize or a key is
/// answered at once and a bot's pause ends on time.
const IDLE_WAIT: Duration = Duration::from_millis(50);

/// Plays games in this terminal until the player quits, writing each
/// game's record as it goes. The terminal is restored, and a game left
/// undecided is recorded as abandoned, on quit, Ctrl-C, a stop signal
/// (SIGTERM, SIGHUP), error and panic.
/// How a session at the table begins.
pub enum Start {
    /// A new game.
    New,
    /// The saved game, exactly as it was left.
    Resume(Box<Saved>),
    /// A new game, unless the player takes up the newest saved one (if
    /// any), with word of saves that could not be read.
    Offer {
        saved: Option<Box<Saved>>,
        set_aside: Vec<crate::save::SetAside>,
    },
}

/// The config to play a saved game on: its own rules, names and level,
/// with this session's speed, looks and folders.
pub fn config_for(saved: &Saved, session: &PlayConfig) -> PlayConfig {
    let header = &saved.header;
    PlayConfig {
        rules: header.rules,
        seed: None,
        name: header.name.clone(),
        difficulty: header.difficulty.clone(),
        rules_source: header.rules_source.clone(),
        practice: header.practice,
        ..session.clone()
    }
}

pub fn run(config: PlayConfig, start: Start) -> Result<Outcome, TuiError> {
    let theme = Theme::from_env(config.ascii);
    // Caught before the record is opened, so no stop can leave it open.
    let signals = terminal::StopSignals::watch()?;
    let mut session = terminal::Session::start()?;
    let start = match start {
        Start::Offer { saved, set_aside } => {
            match offer(&mut session, &signals, theme, saved.as_deref(), &set_aside) {
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
        Start::Resume(saved) => App::resume(config_for(&saved, &config), theme, &saved),
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
    signals: &terminal::StopSignals,
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

/// How a session at the table ended, and what it left behind.
#[derive(Debug)]
pub struct Outcome {
    pub played: Played,
    pub ending: Result<Ending, TuiError>,
}

/// Why the player left the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// From the game itself (`q`).
    Quit,
    /// With Ctrl-C.
    Interrupted,
    /// A stop signal from outside: SIGTERM, SIGHUP (the window closed) or
    /// SIGINT.
    Signal(terminal::Signal),
}

impl Ending {
    /// 0 for quitting; otherwise 128 plus the signal's number, as shells
    /// report a program stopped by it (Ctrl-C is SIGINT's 130).
    pub fn exit_code(self) -> i32 {
        match self {
            Ending::Quit => 0,
            Ending::Interrupted => 130,
            Ending::Signal(signal) => signal.exit_code(),
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Quit => f.write_str("left the table"),
            Ending::Interrupted => f.write_str("interrupted (Ctrl-C)"),
            Ending::Signal(signal) => write!(f, "stopped by {signal}"),
        }
    }
}

/// What a session at the table left behind.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Played {
    /// The record files written, one per game.
    pub records: Vec<PathBuf>,
    /// The save of a game left undecided, to resume it.
    pub saved: Option<PathBuf>,
    /// Why records could not be written, when they could not: the games
    /// went on regardless.
    pub record_problem: Option<String>,
}

/// Shows a recorded game in this terminal until the viewer leaves it (`q`,
/// Esc, Ctrl-C or a stop signal). The terminal is restored however it ends.
pub fn run_replay(mut viewer: replay::Viewer, theme: Theme) -> Result<Ending, TuiError> {
    let signals = terminal::StopSignals::watch()?;
    let mut session = terminal::Session::start()?;
    let result = replay::show(&mut viewer, &theme, &mut session, &signals);
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
}

/// Keeps a seat's token (table id, token) to take the seat back later.
pub type KeepToken = Box<dyn FnMut(&str, &str)>;

/// What a player at a table on a server needs besides the connection.
pub struct Joining {
    /// The table to sit at; `None` when opening one (`host`).
    pub table: Option<String>,
    /// A seat token kept from before, to take that seat back.
    pub token: Option<String>,
    /// Where to keep the seat's token: called once the server gives one.
    pub keep_token: KeepToken,
    /// The code a friend types, once the table's id is known.
    pub join_command: Box<dyn Fn(&str) -> String>,
}

/// Sits at a table on a server through `connection` (hello already sent):
/// the lobby until the game starts, then the game in the same terminal.
pub fn run_remote(
    config: PlayConfig,
    mut connection: crate::net::client::Connection,
    mut joining: Joining,
) -> Result<RemoteEnd, TuiError> {
    use crate::net::protocol::ClientMessage;
    let theme = Theme::from_env(config.ascii);
    let signals = terminal::StopSignals::watch()?;
    let mut session = terminal::Session::start()?;
    match (&joining.table, &joining.token) {
        (Some(table), Some(token)) => connection.send(ClientMessage::Reclaim {
            table: table.clone(),
            token: token.clone(),
        }),
        (Some(table), None) => connection.send(ClientMessage::Join {
            table: table.clone(),
        }),
        (None, _) => connection.send(ClientMessage::Host {
            rules: crate::config::commented_toml(&config.rules),
        }),
    }
    let started = match wait_in_lobby(
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
fn wait_in_lobby(
    session: &mut terminal::Session,
    signals: &terminal::StopSignals,
    theme: &Theme,
    connection: &mut crate::net::client::Connection,
    joining: &mut Joining,
) -> Result<Result<lobby::Started, RemoteEnd>, TuiError> {
    let screen = lobby::LobbyScreen::new(crate::engine::Seat::new(0), false, None);
    let mut waiting = lobby::Waiting::new(screen);
    loop {
        if signals.received().is_some() {
            return Ok(Err(RemoteEnd::Closed("stopped".into())));
        }
        while let Some(incoming) = connection.try_recv() {
            if let Some(end) = waiting.take(incoming, joining) {
                return Ok(end.map_err(RemoteEnd::Closed));
            }
        }
        session.terminal().draw(|frame| {
            waiting
                .screen
                .render(frame.area(), frame.buffer_mut(), theme);
        })?;
        match session.wait_for_input(IDLE_WAIT)? {
            terminal::Waited::HungUp => {
                return Ok(Err(RemoteEnd::Closed("the terminal closed".into())));
            }
            terminal::Waited::Nothing => continue,
            terminal::Waited::Input => {}
        }
        if event::poll(Duration::ZERO)?
            && let Some(Input::Key(key)) = Input::from_event(&event::read()?)
        {
            match waiting.screen.key(key) {
                lobby::LobbyKey::Send(message) => connection.send(message),
                lobby::LobbyKey::Leave => return Ok(Err(RemoteEnd::Left)),
                lobby::LobbyKey::Nothing => {}
            }
        }
    }
}

/// Shows the offer until a key chooses.
fn offer(
    session: &mut terminal::Session,
    signals: &terminal::StopSignals,
    theme: Theme,
    saved: Option<&Saved>,
    set_aside: &[crate::save::SetAside],
) -> Result<offer::Choice, TuiError> {
    let offer = offer::Offer {
        saved,
        standing: saved.and_then(|s| s.standing().ok()),
        set_aside,
    };
    loop {
        if signals.received().is_some() {
            return Ok(offer::Choice::Quit);
        }
        session.terminal().draw(|frame| {
            offer.render(frame.area(), frame.buffer_mut(), &theme);
        })?;
        match session.wait_for_input(IDLE_WAIT)? {
            terminal::Waited::HungUp => return Ok(offer::Choice::Quit),
            terminal::Waited::Nothing => continue,
            terminal::Waited::Input => {}
        }
        if event::poll(Duration::ZERO)?
            && let Some(Input::Key(key)) = Input::from_event(&event::read()?)
            && let Some(choice) = offer.choice(key)
        {
            return Ok(choice);
        }
    }
}

fn play(
    app: &mut App,
    session: &mut terminal::Session,
    signals: &terminal::StopSignals,
) -> Result<Ending, TuiError> {
    // Whether the terminal library may hold events it has already read.
    let mut buffered = false;
    loop {
        if let Some(signal) = signals.received() {
            return Ok(Ending::Signal(signal));
        }
        app.update(Input::Tick(Instant::now()));
        if let Some(failure) = app.take_failure() {
            return Err(failure.into());
        }
        if app.should_quit() {
            return Ok(Ending::Quit);
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
        // The terminal library is asked for an event only when one is
        // there: it would not come back from a terminal that has gone.
        let ready = buffered
            || match session.wait_for_input(IDLE_WAIT)? {
                terminal::Waited::HungUp => return Ok(Ending::Signal(terminal::Signal::HANGUP)),
                // With no key waiting the terminal library still takes a
                // resize at once: one left to arrive together with a key
                // is read first and hides that key from it until the next.
                terminal::Waited::Nothing => event::poll(Duration::ZERO)?,
                terminal::Waited::Input => true,
            };
        // One event a turn, each after a fresh draw, so a click lands on
        // what is on screen; the rest are taken before waiting again.
        buffered = ready && event::poll(Duration::ZERO)?;
        if buffered {
            let event = event::read()?;
            // A resize needs nothing more: the next draw lays out anew.
            match Input::from_event(&event) {
                Some(Input::Key(Key::Interrupt)) => return Ok(Ending::Interrupted),
                Some(input) => app.update(input),
                None => {}
            }
        }
    }
}
