//! The real terminal: raw mode, the alternate screen, mouse reporting and a
//! hidden cursor while playing, and all of it undone however the game ends,
//! including by a signal from outside (see `crate::signals`).

use std::io::{self, BufWriter, Stdout, stdout};
use std::sync::Once;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use super::input::Input;

/// Where frames are drawn: each frame goes out in one write, so the
/// terminal never shows half of one (standard output alone would send it
/// in pieces of 1 KiB).
type Backend = CrosstermBackend<BufWriter<Stdout>>;

/// Room for a whole frame of a large terminal, colours and all; a bigger
/// one still goes out, in pieces.
const FRAME_BYTES: usize = 1 << 18;

/// The terminal while a game owns it. Dropping it restores the terminal,
/// so an early return cannot leave it broken.
pub struct Session {
    /// Always `Some` until the session is dropped.
    terminal: Option<Terminal<Backend>>,
    restored: bool,
    /// The terminal the keys come from, watched for input and for hanging
    /// up; `None` where it cannot be watched.
    keys: Option<Keys>,
    /// Whether the terminal library may hold events it has already read.
    buffered: bool,
}

/// What one turn of a screen's loop got from the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// A key, a click or a resize.
    Input(Input),
    /// Nothing yet (or an event that means nothing here).
    Nothing,
    /// The terminal has gone away: nothing more can be read or shown.
    HungUp,
}

/// What waiting on the terminal found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waited {
    /// Input to read: the terminal library's reads will not block.
    Input,
    /// Time passed, or a signal came.
    Nothing,
    /// The terminal has gone away (its window closed): nothing more can be
    /// read from it or shown on it.
    HungUp,
}

impl Session {
    pub fn start() -> io::Result<Session> {
        // The hook goes in first: a panic while entering must restore too.
        install_panic_hook();
        enable_raw_mode()?;
        let session = Session {
            terminal: Some(Terminal::new(CrosstermBackend::new(
                BufWriter::with_capacity(FRAME_BYTES, stdout()),
            ))?),
            restored: false,
            keys: Keys::open(),
            buffered: false,
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

    pub fn terminal(&mut self) -> &mut Terminal<Backend> {
        self.terminal
            .as_mut()
            .expect("the terminal lasts as long as the session")
    }

    /// Waits up to `wait` for input, without reading it.
    ///
    /// The terminal library is only asked for events once this says there
    /// is input: asked after the terminal has hung up, its read loop spins
    /// forever on the end of input (crossterm 0.29), and the game would
    /// never close its record or exit.
    fn wait_for_input(&mut self, wait: Duration) -> io::Result<Waited> {
        if let Some(keys) = &self.keys {
            match keys.wait(wait)? {
                Some(waited) => return Ok(waited),
                // This terminal cannot be watched: let the library wait.
                None => self.keys = None,
            }
        }
        Ok(if event::poll(wait)? {
            Waited::Input
        } else {
            Waited::Nothing
        })
    }

    /// The next input, waiting up to `wait` for one: one event a turn, so
    /// each is taken after a fresh draw (a click lands on what is on
    /// screen); events already read are taken before waiting again.
    pub fn next_input(&mut self, wait: Duration) -> io::Result<Next> {
        // The terminal library is asked for an event only when one is
        // there: it would not come back from a terminal that has gone.
        let ready = self.buffered
            || match self.wait_for_input(wait)? {
                Waited::HungUp => return Ok(Next::HungUp),
                // With no key waiting the terminal library still takes a
                // resize at once: one left to arrive together with a key
                // is read first and hides that key from it until the next.
                Waited::Nothing => event::poll(Duration::ZERO)?,
                Waited::Input => true,
            };
        self.buffered = ready && event::poll(Duration::ZERO)?;
        if !self.buffered {
            return Ok(Next::Nothing);
        }
        Ok(Input::from_event(&event::read()?).map_or(Next::Nothing, Next::Input))
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
        // Dropped, ratatui's terminal shows the cursor once more, and says
        // so with `eprintln!` when it cannot, which panics when standard
        // error is gone too: a window that has closed would turn a clean
        // exit into a crash. So the cursor is shown here, and a terminal
        // that cannot show it is let go without dropping it.
        if let Some(mut terminal) = self.terminal.take()
            && terminal.show_cursor().is_err()
        {
            std::mem::forget(terminal);
        }
    }
}

/// The terminal the game reads keys from, as the terminal library picks
/// it: standard input when that is a terminal, else `/dev/tty`.
struct Keys {
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

impl Keys {
    #[cfg(unix)]
    fn open() -> Option<Keys> {
        use std::io::IsTerminal;
        use std::os::fd::AsFd;
        let stdin = std::io::stdin();
        let fd = if stdin.is_terminal() {
            stdin.as_fd().try_clone_to_owned().ok()?
        } else {
            std::fs::File::open("/dev/tty").ok()?.into()
        };
        Some(Keys { fd })
    }

    #[cfg(not(unix))]
    fn open() -> Option<Keys> {
        None
    }

    /// What `poll` finds within `wait`; `None` when poll cannot watch
    /// this terminal (as on macOS).
    #[cfg(unix)]
    fn wait(&self, wait: Duration) -> io::Result<Option<Waited>> {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
        let timeout = Timespec::try_from(wait).map_err(io::Error::other)?;
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) => {}
            // A signal: the caller looks at what it was.
            Err(rustix::io::Errno::INTR) => return Ok(Some(Waited::Nothing)),
            Err(e) => return Err(e.into()),
        }
        let found = fds[0].revents();
        Ok(if found.contains(PollFlags::NVAL) {
            None
        } else if found.intersects(PollFlags::HUP | PollFlags::ERR) {
            Some(Waited::HungUp)
        } else if found.contains(PollFlags::IN) {
            Some(Waited::Input)
        } else {
            Some(Waited::Nothing)
        })
    }

    #[cfg(not(unix))]
    fn wait(&self, _wait: Duration) -> io::Result<Option<Waited>> {
        Ok(None)
    }
}

/// Undoes everything `Session::start` did; safe to call more than once.
fn restore() -> io::Result<()> {
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
