//! `spades watch CODE`: a table on a server watched from no seat, live,
//! seeing only what anyone may see. `watch` is the entry other screens
//! call too (the list of a server's tables).

use crate::config::preferences::Preferences;
use clap::Args;

use crate::net::client::watch::{NotWatching, start_watching};
use crate::net::client::{Connection, Target};
use crate::net::code::TableCode;
use crate::tui::Theme;
use crate::tui::spoken::{self, remote::Voice};
use crate::tui::watch::{WatchEnd, run_watch};

use super::account::login_name;
use super::{CliError, check_terminal};

#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    /// The table's code, as its players' screens show it:
    /// TABLE.FINGERPRINT@HOST:PORT
    #[arg(value_name = "CODE")]
    pub code: TableCode,
    /// The name you say hello with (default: your login name); you hold
    /// no seat, so nobody at the table sees it
    #[arg(long)]
    pub name: Option<String>,
    /// Draw suits as S H D C instead of symbols (a spectator plays no
    /// card and runs no bot: the table's other looks are not theirs)
    #[arg(long)]
    pub ascii: bool,
    #[command(flatten)]
    pub access: super::args::AccessArgs,
}

pub(super) fn run(args: &WatchArgs) -> Result<(), CliError> {
    let name = args.name.clone().unwrap_or_else(login_name);
    let preferences = args.access.preferences()?;
    let mut voice = match preferences.screen_reader {
        true => Some(Voice::stdio(&preferences)?),
        false => None,
    };
    watch(&args.code, &name, args.ascii, &preferences, voice.as_mut())
}

/// Watches the table `code` names until the spectator leaves. The table
/// is reached before the terminal is touched, so a table the server does
/// not have is said plainly, as bad input (exit 2). With a `voice`, the
/// table is said in lines (the screen-reader mode) instead of drawn.
pub fn watch(
    code: &TableCode,
    name: &str,
    ascii: bool,
    preferences: &Preferences,
    voice: Option<&mut Voice>,
) -> Result<(), CliError> {
    let mut connection = Connection::open(&Target::from(code), name).map_err(CliError::Failed)?;
    match start_watching(&mut connection, &code.table) {
        Ok(()) => {}
        Err(NotWatching::NoTable) => {
            return Err(CliError::BadInput(format!(
                "no such table {} at {} (the code is mistyped, or the table has closed)",
                super::net::shown_id(&code.table),
                code.address()
            )));
        }
        Err(NotWatching::Refused(why)) => {
            return Err(CliError::Failed(format!("cannot watch the table: {why}")));
        }
    }
    let end = match voice {
        Some(voice) => spoken::watch::run_watch(&mut connection, voice)?,
        None => {
            check_terminal()?;
            let theme = Theme::for_player(ascii, preferences);
            run_watch(&mut connection, &theme)?
        }
    };
    match end {
        WatchEnd::Left => Ok(()),
        WatchEnd::Stopped(ending) => Err(CliError::Stopped {
            why: ending.to_string(),
            code: ending.exit_code(),
        }),
    }
}
