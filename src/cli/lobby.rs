//! `spades lobby`: a server's public tables on screen, to join, watch,
//! open one or wait for a quick match. The screen (`tui::lobby`) only
//! turns keys into requests; here they go to the server through a
//! `Lobby`, and a seat found hands over to `join`'s and `host`'s flow.

use std::time::Duration;

use clap::Args;

use crate::config::RulesSource;
use crate::engine::Mode;
use crate::net::client::lobby::{self, News};
use crate::net::client::seating::Seeking;
use crate::net::client::seats_kept;
use crate::net::client::{Connection, Incoming, Target};
use crate::net::code::{ServerAddress, TableCode};
use crate::paths;
use crate::protocol::ClientMessage;
use crate::protocol::account::{ModeRating, Rated, Rung};
use crate::protocol::lobby::{ListedTable, QueueCount};
use crate::session::Played;
use crate::signals::{Signal, StopSignals};
use crate::tui::lobby::{LobbyState, Outcome, Player, render};
use crate::tui::spoken::remote::Voice;
use crate::tui::terminal::{Next, Session};
use crate::tui::{
    Ending, Input, Key, Outcome as GameOutcome, PlayConfig, RemoteEnd, Theme, TuiError,
};

use super::CliError;
use super::account::{ask_ladder, login_name};
use super::args::{LookArgs, RulesFlags};
use super::net::{connect_signed, connect_signed_quietly, host_on, sit_at, voice_for};
use super::play::{look_config, report_played};
use super::watch::watch;

/// How long the loop waits for a key before looking at the signals again.
const IDLE_WAIT: Duration = Duration::from_millis(50);

#[derive(Debug, Clone, Args)]
pub struct LobbyArgs {
    /// The server, as `spades serve` prints it: FINGERPRINT@HOST:PORT
    #[arg(value_name = "CODE")]
    pub code: ServerAddress,
    /// Your name at the tables (default: your login name)
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub look: LookArgs,
}

/// What the lobby hands over to once the player has chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handover {
    Join(String),
    Watch(String),
    Open { mode: Mode, public: bool },
    Queue { mode: Mode, wait: Duration },
}

/// What the lobby asks of a server. Errors are said on the status line,
/// in the player's words.
pub trait Lobby {
    /// The public tables of `mode` (all modes with `None`), and how many
    /// the server has in all.
    fn list(&mut self, mode: Option<Mode>) -> Result<(Vec<ListedTable>, usize), String>;
    /// A mode's ladder, and the player's own rated games in it.
    fn ladder(&mut self, mode: Mode) -> Result<(Vec<Rung>, Option<Vec<Rated>>), String>;
    /// Whether the server can do what `handover` asks; if not, why not.
    fn offers(&self, handover: &Handover) -> Result<(), String>;
    /// What the server has told unasked since last asked (a server that
    /// the lobby follows): nothing by default.
    fn told(&mut self) -> Told {
        Told::default()
    }
}

/// The latest of what a followed server told unasked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Told {
    /// The tables of the mode in view now, and how many in all.
    pub tables: Option<(Vec<ListedTable>, usize)>,
    /// How many wait in each quick-match queue.
    pub queues: Option<Vec<QueueCount>>,
    /// The connection it was told through has closed: asking again
    /// reconnects and follows again.
    pub lost: bool,
}

/// What the server told is put on screen; the list asked for again when
/// the connection was lost.
fn take_told(lobby: &mut impl Lobby, state: &mut LobbyState) -> Option<Outcome> {
    let told = lobby.told();
    if let Some((tables, total)) = told.tables {
        state.set_tables(tables, total);
    }
    if let Some(queues) = told.queues {
        state.set_queues(queues);
    }
    told.lost.then(|| Outcome::Refresh(state.filter()))
}

/// What one of the screen's outcomes comes to: asked of the lobby and
/// its answer shown (`None`), or the lobby left, for a handover or not.
fn answer(
    lobby: &mut impl Lobby,
    state: &mut LobbyState,
    outcome: Outcome,
) -> Option<Result<Handover, Ending>> {
    let handover = match outcome {
        Outcome::Nothing => return None,
        Outcome::Quit => return Some(Err(Ending::Quit)),
        Outcome::Refresh(mode) => {
            match lobby.list(mode) {
                Ok((tables, total)) => {
                    state.set_tables(tables, total);
                    state.clear_status();
                }
                Err(why) => state.set_status(why),
            }
            return None;
        }
        Outcome::AskLadder(mode) => {
            match lobby.ladder(mode) {
                Ok((rows, you)) => state.set_ladder(rows, you),
                Err(why) => state.set_status(why),
            }
            return None;
        }
        Outcome::Join(table) => Handover::Join(table),
        Outcome::Watch(table) => Handover::Watch(table),
        Outcome::Open { mode, public } => Handover::Open { mode, public },
        Outcome::Queue { mode, wait } => Handover::Queue { mode, wait },
    };
    match lobby.offers(&handover) {
        Ok(()) => Some(Ok(handover)),
        Err(why) => {
            state.set_status(why);
            None
        }
    }
}

/// Shows the lobby until the player chooses a table (`Ok(Ok)`) or leaves
/// it (`Ok(Err)`: how). The terminal is given back however it ends.
/// `note`, when given, is said on the status line once the list is in
/// (what became of the table the player comes back from).
pub fn run_lobby(
    lobby: &mut impl Lobby,
    state: &mut LobbyState,
    theme: &Theme,
    note: Option<String>,
) -> Result<Result<Handover, Ending>, TuiError> {
    let signals = StopSignals::watch()?;
    let mut session = Session::start()?;
    let result = drive(lobby, state, theme, &mut session, &signals, note);
    let restored = session.end();
    match signals.received() {
        Some(signal) => Ok(Err(Ending::Signal(signal))),
        None => result.and_then(|end| restored.map(|()| end).map_err(TuiError::from)),
    }
}

fn drive(
    lobby: &mut impl Lobby,
    state: &mut LobbyState,
    theme: &Theme,
    session: &mut Session,
    signals: &StopSignals,
    mut note: Option<String>,
) -> Result<Result<Handover, Ending>, TuiError> {
    let mut pending = Some(Outcome::Refresh(state.filter()));
    loop {
        if let Some(signal) = signals.received() {
            return Ok(Err(Ending::Signal(signal)));
        }
        let asking = matches!(pending, Some(Outcome::Refresh(_) | Outcome::AskLadder(_)));
        if asking {
            // The server's answer may take a moment: say so first.
            state.set_status("Asking the server...");
        }
        session.terminal().draw(|frame| {
            let hits = render(state, frame.area(), frame.buffer_mut(), theme);
            state.set_hits(hits);
        })?;
        if let Some(outcome) = pending.take() {
            if asking {
                state.clear_status();
            }
            if let Some(end) = answer(lobby, state, outcome) {
                return Ok(end);
            }
            // The server's word on the list, if any, comes first.
            if let Some(note) = note.take().filter(|_| state.status().is_none()) {
                state.set_status(note);
            }
            continue;
        }
        pending = match session.next_input(IDLE_WAIT)? {
            Next::HungUp => return Ok(Err(Ending::Signal(Signal::HANGUP))),
            Next::Input(Input::Key(Key::Interrupt)) => return Ok(Err(Ending::Interrupted)),
            Next::Input(input) => Some(state.update(input)),
            Next::Nothing => take_told(lobby, state),
        };
    }
}

/// A server reached by its code, over one connection, reconnected (and
/// signed in again) when the server has closed it or a table took it. The
/// lobby follows it: what it tells unasked is kept for `told`.
struct ServerLobby {
    code: ServerAddress,
    name: String,
    connection: Option<Connection>,
    /// The player's ratings as the last sign-in gave them, not yet shown.
    ratings: Option<Vec<ModeRating>>,
    /// Whether the server follows this connection's lobby: `None` until
    /// asked (on each new connection), `Some(false)` for a server before
    /// `follow` (asked with `tables` then).
    follows: Option<bool>,
    /// The mode followed (`None`: every mode).
    mode: Option<Mode>,
    told: Told,
    /// Whether the server answers `mine`: `None` until asked (on each new
    /// connection), `Some(false)` for a server before it.
    answers_mine: Option<bool>,
    /// The player's own tables as `mine` last answered (private ones
    /// too): listed first, with every list the server gives or tells.
    yours: Vec<ListedTable>,
}

impl ServerLobby {
    fn new(code: ServerAddress, name: String, connection: Connection) -> ServerLobby {
        ServerLobby {
            code,
            name,
            connection: Some(connection),
            ratings: None,
            follows: None,
            mode: None,
            told: Told::default(),
            answers_mine: None,
            yours: Vec::new(),
        }
    }

    /// The connection, open: what arrived while the lobby sat idle is
    /// read (news kept), and a closed one (or one a table took) is opened
    /// again.
    fn connection(&mut self) -> Result<&mut Connection, CliError> {
        self.read_news();
        let connection = match self.connection.take().filter(|c| !c.is_closed()) {
            Some(connection) => connection,
            None => {
                // The lobby is on screen: nothing is said over it.
                let (connection, signed, _) =
                    connect_signed_quietly(&self.code.target(), self.name.clone())?;
                self.ratings = Some(signed.ratings);
                self.follows = None;
                self.answers_mine = None;
                connection
            }
        };
        Ok(self.connection.insert(connection))
    }

    /// Not told anything while the player is elsewhere (watching or at a
    /// table): followed again when the lobby asks for its list.
    fn unfollow(&mut self) {
        if self.follows == Some(true)
            && let Some(connection) = &mut self.connection
        {
            connection.send(ClientMessage::Unfollow {});
        }
        self.follows = None;
        self.told = Told::default();
    }

    /// Reads what has arrived, keeping the latest news of the mode
    /// followed.
    fn read_news(&mut self) {
        let Some(connection) = &mut self.connection else {
            return;
        };
        while let Some(incoming) = connection.try_recv() {
            match incoming {
                Incoming::Message(message) => match News::of(&message) {
                    Some(News::Tables { mode, listing }) if mode == self.mode => {
                        let listing = lobby::yours_first(&self.yours, listing, mode);
                        self.told.tables = Some((listing.tables, listing.total as usize));
                    }
                    Some(News::Queues(queues)) => self.told.queues = Some(queues),
                    _ => {}
                },
                Incoming::Unreadable(_) => {}
                Incoming::Closed(_) => {
                    self.told.lost = self.follows == Some(true);
                    break;
                }
            }
        }
    }

    /// The player's own tables, private ones too, asked again of a
    /// server that answers `mine`, when a seat token is kept here at all.
    /// Refused (asked too often), the last answer stands.
    fn ask_mine(&mut self) -> Result<(), String> {
        let kept = kept_here();
        if kept.is_empty() || self.answers_mine == Some(false) {
            self.yours.clear();
            return Ok(());
        }
        let connection = self
            .connection
            .as_mut()
            .ok_or("the connection to the server was lost")?;
        match lobby::mine(connection, &kept) {
            Ok(Some(yours)) => {
                self.answers_mine = Some(true);
                self.yours = yours;
            }
            Ok(None) => {
                self.answers_mine = Some(false);
                self.yours.clear();
            }
            Err(lobby::LobbyError::Refused { .. }) => {}
            Err(e) => return Err(e.to_string()),
        }
        Ok(())
    }

    /// The connection to sit at a table with; the lobby opens another
    /// when the player comes back.
    fn take_connection(&mut self) -> Result<Connection, CliError> {
        self.connection()?;
        self.unfollow();
        self.connection
            .take()
            .ok_or_else(|| CliError::Failed("the connection to the server was lost".into()))
    }
}

impl Lobby for ServerLobby {
    /// Follows the lobby of `mode` (the list now, and news of it later);
    /// asks for the list alone of a server that cannot be followed.
    fn list(&mut self, mode: Option<Mode>) -> Result<(Vec<ListedTable>, usize), String> {
        let follows = {
            self.connection().map_err(|e| e.to_string())?;
            self.follows
        };
        let connection = self
            .connection
            .as_mut()
            .ok_or("the connection to the server was lost")?;
        let mut listing = None;
        if follows != Some(false) {
            listing = lobby::follow(connection, mode).map_err(|e| e.to_string())?;
            self.follows = Some(listing.is_some());
            self.mode = mode;
            // Older news is of another mode, or older than this list.
            self.told = Told::default();
        }
        let listing = match listing {
            Some(listing) => listing,
            None => lobby::list(connection, mode).map_err(|e| e.to_string())?,
        };
        self.ask_mine()?;
        let listing = lobby::yours_first(&self.yours, listing, mode);
        Ok((listing.tables, listing.total as usize))
    }

    fn ladder(&mut self, mode: Mode) -> Result<(Vec<Rung>, Option<Vec<Rated>>), String> {
        let connection = self.connection().map_err(|e| e.to_string())?;
        ask_ladder(connection, mode).map_err(|e| e.to_string())
    }

    /// The server's lobby offers all of them.
    fn offers(&self, _handover: &Handover) -> Result<(), String> {
        Ok(())
    }

    fn told(&mut self) -> Told {
        self.read_news();
        std::mem::take(&mut self.told)
    }
}

/// `spades lobby`: the server is reached and signed in to before the
/// terminal is touched, so a wrong code or an unreachable server is said
/// plainly on a terminal left as it was. The lobby is where online play
/// starts and ends: watching, a table's game, or a quick match left,
/// the player is back in it, its list asked for again; the program ends
/// only from it.
pub(super) fn lobby(args: &LobbyArgs) -> Result<(), CliError> {
    let mut config = look_config(&args.look)?;
    let voice = voice_for(&config)?;
    let name = args.name.clone().unwrap_or_else(login_name);
    let target: Target = args.code.target();
    let (connection, signed) = connect_signed(&target, name)?;
    config.game.name = signed.name.clone();
    config.from_lobby = true;
    let mut lobby = ServerLobby::new(args.code.clone(), signed.name.clone(), connection);
    let player = Player {
        name: signed.name,
        ratings: signed.ratings,
    };
    let mut state = LobbyState::new(target.address, player);
    if let Some(mut voice) = voice {
        return spoken::lobby(&mut lobby, &mut state, config, &args.code, &mut voice);
    }
    let theme = Theme::for_player(config.ascii, &config.preferences);
    let code = &args.code;
    let mut played = Played::default();
    let mut note = None;
    loop {
        state.set_kept(kept_here());
        let handover = match run_lobby(&mut lobby, &mut state, &theme, note.take())? {
            Ok(handover) => handover,
            Err(ending) => {
                return report_played(GameOutcome {
                    played,
                    ending: Ok(ending),
                });
            }
        };
        let end = match take_seat(&mut lobby, &state, config.clone(), &handover, code, None)? {
            Went::Sat(end) => end,
            Went::Watched => {
                state.clear_status();
                continue;
            }
            Went::Nowhere(why) => {
                note = Some(why);
                continue;
            }
        };
        match back::from_table(end, &handover, &mut played) {
            back::Back::ToLobby(said) => {
                signed_in_again(&mut lobby, &mut state);
                note = Some(said);
            }
            back::Back::Stop(ending) => return report_played(GameOutcome { played, ending }),
        }
    }
}

/// Back from a table, signed in again at once: the ratings the game left
/// are shown (an answer that does not come is the list's to say).
fn signed_in_again(lobby: &mut ServerLobby, state: &mut LobbyState) {
    if lobby.connection().is_ok()
        && let Some(ratings) = lobby.ratings.take()
    {
        state.player.ratings = ratings;
    }
}

/// Where a handover from the lobby went.
enum Went {
    /// A table was watched, and left.
    Watched,
    /// A seat was taken, and it ended so.
    Sat(RemoteEnd),
    /// Nowhere, and why: the server, the table or the rules file said no.
    Nowhere(String),
}

/// Goes where `handover` asks, on the server at `code`: watches a table,
/// or sits down and plays there: at a table by its id (taking back the
/// seat kept for it), at a new one, or at the one quick match finds.
/// What stops it before the table is said back in the lobby. With a
/// `voice`, the table is in lines (the screen-reader mode).
fn take_seat(
    lobby: &mut ServerLobby,
    state: &LobbyState,
    mut config: PlayConfig,
    handover: &Handover,
    code: &ServerAddress,
    voice: Option<&mut Voice>,
) -> Result<Went, CliError> {
    let at = |table: &str| TableCode {
        table: table.to_string(),
        trust: code.trust.clone(),
        host: code.host.clone(),
        port: code.port,
    };
    let nowhere = |e: CliError| match e {
        CliError::BadInput(why) | CliError::Failed(why) => Ok(Went::Nowhere(why)),
        CliError::Rules(e) => Ok(Went::Nowhere(e.to_string())),
        other => Err(other),
    };
    let seeking = match *handover {
        Handover::Watch(ref table) => {
            lobby.unfollow();
            let code = elsewhere(state, table).unwrap_or_else(|| at(table));
            let (ascii, preferences) = (config.ascii, &config.preferences);
            return watch(&code, &lobby.name, ascii, preferences, voice)
                .map(|()| Went::Watched)
                .or_else(nowhere);
        }
        Handover::Join(ref table) => {
            // Another server of the fleet holds it: sat at there.
            if let Some(code) = elsewhere(state, table) {
                let connection = match connect_signed(&Target::from(&code), lobby.name.clone()) {
                    Ok((connection, _)) => connection,
                    Err(e) => return nowhere(e),
                };
                return sit_at(config, connection, &code, voice).map(Went::Sat);
            }
            let connection = match lobby.take_connection() {
                Ok(connection) => connection,
                Err(e) => return nowhere(e),
            };
            return sit_at(config, connection, &at(table), voice).map(Went::Sat);
        }
        Handover::Open { mode, public } => {
            let (rules, source) = match rules_for(mode) {
                Ok(found) => found,
                Err(e) => return nowhere(e),
            };
            config.game.rules = rules;
            config.game.rules_source = source.to_string();
            if public {
                Seeking::Public
            } else {
                Seeking::Private
            }
        }
        Handover::Queue { mode, wait } => {
            // Quick match plays the mode's classic rules, as the server
            // deals them.
            config.game.rules = crate::engine::Rules::classic(mode);
            config.game.rules_source = RulesSource::BuiltIn.to_string();
            let wait = u32::try_from(wait.as_secs()).unwrap_or(u32::MAX);
            Seeking::Quick { mode, wait }
        }
    };
    let connection = match lobby.take_connection() {
        Ok(connection) => connection,
        Err(e) => return nowhere(e),
    };
    let (host, port) = (code.host.clone(), code.port);
    host_on(config, connection, seeking, host, port, voice).map(Went::Sat)
}

/// The tables this machine keeps a seat token for, to find the player's
/// own among those listed.
fn kept_here() -> Vec<String> {
    paths::seat_tokens()
        .map(|dir| seats_kept::tables(&dir))
        .unwrap_or_default()
}

/// The code of a listed table another server of the fleet holds (the
/// server lists it with one), if `table` is such.
fn elsewhere(state: &LobbyState, table: &str) -> Option<TableCode> {
    let listed = state.tables().iter().find(|t| t.table == table)?;
    listed.code.as_deref()?.parse().ok()
}

/// The rules in force (rules.toml, or the classic game) in `mode`.
fn rules_for(mode: Mode) -> Result<(crate::engine::Rules, RulesSource), CliError> {
    RulesFlags {
        mode: Some(mode.into()),
        target: None,
        rules: None,
        preset: None,
        quick: false,
    }
    .rules()
}

mod back;
mod spoken;
#[cfg(test)]
mod tests;
