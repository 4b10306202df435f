//! The signals that ask the program to stop (SIGTERM, SIGHUP, SIGINT),
//! caught so that whatever is running (a game at the table, a server)
//! ends as quitting does: records closed, the terminal given back.

use std::fmt;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A signal asking the program to stop, by its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signal(pub i32);

impl Signal {
    /// SIGHUP, the same number on every Unix: the terminal went away.
    pub const HANGUP: Signal = Signal(1);

    /// The exit code that says a program stopped for this signal: 128 plus
    /// its number, as shells report it (143 for SIGTERM, 129 for SIGHUP).
    pub fn exit_code(self) -> i32 {
        128 + self.0
    }
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(unix)]
        if let Some(name) = signal_hook::low_level::signal_name(self.0) {
            return f.write_str(name);
        }
        write!(f, "signal {}", self.0)
    }
}

/// Catches the signals that ask a game to stop: SIGTERM (`kill`), SIGHUP
/// (the window closed) and SIGINT (an interrupt sent from outside; Ctrl-C
/// at the table arrives as a key). Uncaught, any of them kills the program
/// with the terminal still in the game's modes and the record left open;
/// caught, the loop that polls `received` ends the game as quitting does.
pub struct StopSignals {
    /// The number of the last stop signal received, 0 for none.
    received: Arc<AtomicUsize>,
}

impl StopSignals {
    /// Starts catching the stop signals, for the rest of the process.
    #[cfg(unix)]
    pub fn watch() -> io::Result<StopSignals> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        use signal_hook::flag;
        use std::sync::atomic::AtomicBool;
        use std::sync::{Mutex, PoisonError};

        // Once per process: handlers registered again would only stack up.
        static WATCHING: Mutex<Option<Arc<AtomicUsize>>> = Mutex::new(None);
        let mut watching = WATCHING.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(received) = &*watching {
            return Ok(StopSignals {
                received: Arc::clone(received),
            });
        }
        let received = Arc::new(AtomicUsize::new(0));
        let asked = Arc::new(AtomicBool::new(false));
        for signal in [SIGTERM, SIGINT] {
            // Asked twice, the program stops at once: the way out should the
            // game ever hang. (Not for SIGHUP: a closing window may send it
            // twice, and the record must still be closed.) The shutdown
            // goes first, so the first signal only arms it.
            flag::register_conditional_shutdown(signal, 128 + signal, Arc::clone(&asked))?;
            flag::register(signal, Arc::clone(&asked))?;
        }
        for signal in [SIGTERM, SIGHUP, SIGINT] {
            flag::register_usize(signal, Arc::clone(&received), signal as usize)?;
        }
        *watching = Some(Arc::clone(&received));
        Ok(StopSignals { received })
    }

    /// Without Unix signals there is nothing to catch.
    #[cfg(not(unix))]
    pub fn watch() -> io::Result<StopSignals> {
        Ok(StopSignals {
            received: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// The stop signal received since watching began, if any.
    pub fn received(&self) -> Option<Signal> {
        match self.received.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok().map(Signal),
        }
    }
}
