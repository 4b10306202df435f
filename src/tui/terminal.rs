//! The real terminal: raw mode, the alternate screen, mouse reporting and a
//! hidden cursor while playing, and all of it undone however the game ends.

use std::io::{self, Stdout, stdout};
use std::sync::Once;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// The terminal while a game owns it. Dropping it restores the terminal,
/// so an early return cannot leave it broken.
pub struct Session {
    terminal: Terminal<CrosstermBackend<Stdout>>,
    restored: bool,
}

impl Session {
    pub fn start() -> io::Result<Session> {
        // The hook goes in first: a panic while entering must restore too.
        install_panic_hook();
        enable_raw_mode()?;
        let session = Session {
            terminal: Terminal::new(CrosstermBackend::new(stdout()))?,
            restored: false,
        };
        // Clearing through crossterm rather than `Terminal::clear`, which
        // first asks the terminal where its cursor is and fails on one
        // that does not answer.
        execute!(
            stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            Hide,
            Clear(ClearType::All)
        )?;
        Ok(session)
    }

    pub fn terminal(&mut self) -> &mut Terminal<CrosstermBackend<Stdout>> {
        &mut self.terminal
    }

    /// Gives the terminal back, reporting any failure to do so.
    pub fn end(mut self) -> io::Result<()> {
        self.restored = true;
        restore()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if !self.restored {
            let _ = restore();
        }
    }
}

/// Undoes everything `Session::start` did; safe to call more than once.
pub fn restore() -> io::Result<()> {
    let raw = disable_raw_mode();
    execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen, Show)?;
    raw
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Restore before the message prints, or it lands on the
            // alternate screen and vanishes.
            let _ = restore();
            previous(info);
        }));
    });
}
