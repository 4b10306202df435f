//! How the table ends when it is not quit from its own menu: stopped by a
//! signal (SIGTERM, or SIGHUP when the window closes) or by Ctrl-C. The
//! real binary runs in a pseudo-terminal; each way out must give the
//! terminal back, close the game's record with its seed revealed, exit with
//! the conventional code and say where the record is. And a terminal that
//! cannot draw the table is refused before anything is drawn.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::os::fd::BorrowedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, ExitStatus, MasterPty, PtySize, native_pty_system};
use rustix::event::{PollFd, PollFlags, Timespec, poll};

const ROWS: u16 = 24;
const COLS: u16 = 80;
/// Generous: only a hung game comes near it.
const DEADLINE: Duration = Duration::from_secs(60);

/// The real binary in a pseudo-terminal, with a home of its own.
struct Pty {
    parser: vt100::Parser,
    /// Every byte the program wrote, to look for sequences it must not send.
    raw: Vec<u8>,
    output: Receiver<Vec<u8>>,
    /// Tells the reading thread to stop and let go of the terminal.
    let_go: Arc<AtomicBool>,
    /// Where keys are typed: a descriptor of its own, as portable-pty's
    /// writer types a newline and an end of file when it is dropped.
    keys: Option<std::fs::File>,
    master: Option<Box<dyn MasterPty + Send>>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    started: Instant,
    home: tempfile::TempDir,
}

impl Pty {
    /// Starts `spades ARGS` with `TERM` set to `term`, or unset for `None`.
    fn start(args: &[&str], term: Option<&str>) -> Pty {
        let home = tempfile::tempdir().unwrap();
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_spades"));
        cmd.args(args);
        match term {
            Some(term) => cmd.env("TERM", term),
            None => cmd.env_remove("TERM"),
        }
        cmd.env("LANG", "C.UTF-8");
        cmd.env("HOME", home.path());
        cmd.env("XDG_DATA_HOME", home.path().join("data"));
        cmd.env("XDG_CONFIG_HOME", home.path().join("config"));
        cmd.cwd(home.path());
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        // The output is read from a descriptor of its own, polled so that
        // the reading thread can let go of the terminal when told to.
        let master = pty.master.as_raw_fd().expect("a Unix terminal");
        // SAFETY: `pty.master` owns this descriptor and is alive here.
        let master = unsafe { BorrowedFd::borrow_raw(master) };
        let mut output = std::fs::File::from(rustix::io::dup(master).unwrap());
        let keys = std::fs::File::from(rustix::io::dup(master).unwrap());
        let (tx, rx) = channel();
        let let_go = Arc::new(AtomicBool::new(false));
        let letting_go = Arc::clone(&let_go);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            let tick = Timespec {
                tv_sec: 0,
                tv_nsec: 20_000_000,
            };
            while !letting_go.load(Ordering::SeqCst) {
                let mut fds = [PollFd::new(&output, PollFlags::IN)];
                match poll(&mut fds, Some(&tick)) {
                    Ok(0) | Err(rustix::io::Errno::INTR) => continue,
                    Ok(_) => {}
                    Err(_) => break,
                }
                match output.read(&mut buf) {
                    Ok(n) if n > 0 && tx.send(buf[..n].to_vec()).is_ok() => {}
                    // The program has closed its side.
                    _ => break,
                }
            }
        });
        Pty {
            parser: vt100::Parser::new(
                NonZeroU16::new(ROWS).unwrap(),
                NonZeroU16::new(COLS).unwrap(),
                0,
            ),
            raw: Vec::new(),
            output: rx,
            let_go,
            keys: Some(keys),
            master: Some(pty.master),
            child,
            started: Instant::now(),
            home,
        }
    }

    fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    fn text(&self) -> String {
        self.screen().contents()
    }

    /// Reads what the program wrote for up to `wait`; false once the
    /// program has closed the terminal and everything is read.
    fn pump(&mut self, wait: Duration) -> bool {
        match self.output.recv_timeout(wait) {
            Ok(bytes) => {
                self.take(&bytes);
                while let Ok(bytes) = self.output.try_recv() {
                    self.take(&bytes);
                }
                true
            }
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => {
                // Nothing more will come: wait as a read would have.
                std::thread::sleep(wait);
                false
            }
        }
    }

    fn take(&mut self, bytes: &[u8]) {
        self.parser.process(bytes);
        self.raw.extend_from_slice(bytes);
    }

    fn wait_for(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        while !done(&self.text()) {
            assert!(
                self.started.elapsed() < DEADLINE,
                "waited too long for {what}; the screen:\n{}",
                self.text()
            );
            self.pump(Duration::from_millis(50));
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let keys = self.keys.as_mut().expect("the terminal is open");
        keys.write_all(bytes).unwrap();
        keys.flush().unwrap();
    }

    /// Closes the terminal as a closing window does: every handle on its
    /// master side is let go while the program waits for a key, and the
    /// program's side hangs up under it.
    fn hang_up(&mut self) {
        self.let_go.store(true, Ordering::SeqCst);
        while self.pump(Duration::from_millis(50)) {
            assert!(self.started.elapsed() < DEADLINE, "the reader held on");
        }
        self.keys = None;
        // The last handle: closing it hangs the terminal up.
        self.master = None;
    }

    /// Sends `signal` (a name `kill` knows, e.g. TERM) to the program.
    fn signal(&self, signal: &str) {
        let pid = self.child.process_id().expect("the program's pid");
        let status = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(pid.to_string())
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} {pid}: {status}");
    }

    /// Waits for the program to exit and reads everything it wrote.
    fn exit_status(&mut self) -> ExitStatus {
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                self.started.elapsed() < DEADLINE,
                "the program did not exit; the screen:\n{}",
                self.text()
            );
            self.pump(Duration::from_millis(50));
        };
        // The terminal reports its end once the program's last byte is read.
        while self.pump(Duration::from_millis(50)) {
            assert!(self.started.elapsed() < DEADLINE, "output never ended");
        }
        status
    }

    /// The record files the session wrote.
    fn records(&self) -> Vec<PathBuf> {
        match std::fs::read_dir(self.home.path().join("data/spades/records")) {
            Ok(dir) => dir.map(|e| e.unwrap().path()).collect(),
            Err(_) => Vec::new(),
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        // A failed test must not leave its game running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
    }
}

/// Starts a sealed game, waits for the bidding, stops it with `stop` and
/// checks everything a stopped game must leave behind.
fn stopping_closes_the_game(stop: impl FnOnce(&mut Pty), code: u32) {
    let mut pty = Pty::start(&["--speed", "instant", "--ascii"], Some("xterm-256color"));
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    assert!(pty.screen().alternate_screen());
    assert!(pty.screen().hide_cursor());
    assert_ne!(
        pty.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "the table reads the mouse"
    );

    stop(&mut pty);
    let status = pty.exit_status();
    assert_eq!(status.signal(), None, "killed, not stopped: {status:?}");
    assert_eq!(status.exit_code(), code, "{status:?}");

    // The terminal is as it was.
    let screen = pty.screen();
    assert!(!screen.alternate_screen(), "the alternate screen is left");
    assert!(!screen.hide_cursor(), "the cursor is shown again");
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse reporting is off"
    );

    // The record is closed and reveals the seed it committed to.
    let records = pty.records();
    assert_eq!(records.len(), 1, "{records:?}");
    let path = &records[0];
    let text = std::fs::read_to_string(path).unwrap();
    let last: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("a line")).unwrap();
    assert_eq!(last["event"], "abandoned", "{text}");
    assert!(last["seed"].is_u64(), "{last}");
    assert!(last["salt"].is_string(), "{last}");
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .arg("verify")
        .arg(path)
        .assert()
        .success();

    // And once the table is gone, the program says where the record is
    // and how to check it.
    let after = pty.text();
    let check = format!("spades verify {}", path.display());
    assert!(after.contains(&check), "no `{check}` in:\n{after}");
}

#[test]
fn sigterm_closes_the_game_like_quitting() {
    stopping_closes_the_game(|pty| pty.signal("TERM"), 143);
}

#[test]
fn a_closed_window_sighup_closes_the_game_like_quitting() {
    stopping_closes_the_game(|pty| pty.signal("HUP"), 129);
}

/// The window closes for real: the terminal hangs up under the program,
/// which is sent SIGHUP and can no longer read or write it.
#[test]
fn a_terminal_that_hangs_up_closes_the_game() {
    let mut pty = Pty::start(&["--speed", "instant", "--ascii"], Some("xterm-256color"));
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    pty.hang_up();
    let status = pty.exit_status();
    assert_eq!(status.signal(), None, "killed, not stopped: {status:?}");
    assert_eq!(status.exit_code(), 129, "{status:?}");
    let records = pty.records();
    assert_eq!(records.len(), 1, "{records:?}");
    let text = std::fs::read_to_string(&records[0]).unwrap();
    let last: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("a line")).unwrap();
    assert_eq!(last["event"], "abandoned", "{text}");
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .arg("verify")
        .arg(&records[0])
        .assert()
        .success();
}

#[test]
fn ctrl_c_closes_the_game_and_exits_130() {
    stopping_closes_the_game(|pty| pty.send(&[0x03]), 130);
}

#[test]
fn quitting_says_where_the_record_is() {
    stopping_closes_the_game(
        |pty| {
            pty.send(b"q");
            pty.wait_for("the question", |s| s.contains("Leave this game?"));
            pty.send(b"y");
        },
        0,
    );
}

/// A terminal that cannot move the cursor gets a message, not a table.
fn refused_in_a_pty(term: Option<&str>) {
    let mut pty = Pty::start(&["--speed", "instant"], term);
    let status = pty.exit_status();
    assert_eq!(status.exit_code(), 2, "{status:?}");
    let text = pty.text();
    assert!(text.contains("spades sim"), "{text}");
    assert!(!text.contains("Your bid"), "{text}");
    for (sequence, what) in [
        (&b"\x1b[?1049h"[..], "the alternate screen"),
        (b"\x1b[?1000h", "mouse reporting"),
        (b"\x1b[?25l", "a hidden cursor"),
    ] {
        assert!(
            !pty.raw.windows(sequence.len()).any(|w| w == sequence),
            "{what} was asked for: {:?}",
            String::from_utf8_lossy(&pty.raw)
        );
    }
    assert!(pty.records().is_empty(), "no game was started");
}

#[test]
fn a_dumb_terminal_is_refused_before_anything_is_drawn() {
    refused_in_a_pty(Some("dumb"));
}

#[test]
fn a_terminal_of_unknown_type_is_refused_before_anything_is_drawn() {
    refused_in_a_pty(None);
}

fn refused_by_term(term: Option<&str>, says: &str) {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"));
    cmd.args(["--speed", "instant"])
        .current_dir(home.path())
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_CONFIG_HOME", home.path().join("config"));
    match term {
        Some(term) => cmd.env("TERM", term),
        None => cmd.env_remove("TERM"),
    };
    cmd.assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(says))
        .stderr(predicates::str::contains("spades sim"));
    assert!(!Path::new(&home.path().join("data/spades/records")).exists());
}

#[test]
fn term_dumb_is_refused_with_what_to_do() {
    refused_by_term(Some("dumb"), "TERM=dumb");
}

#[test]
fn unset_term_is_refused_with_what_to_do() {
    refused_by_term(None, "TERM is not set");
}
