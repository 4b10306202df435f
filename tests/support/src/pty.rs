//! The real binary in a pseudo-terminal (portable-pty), its screen read
//! through a terminal emulator (vt100): keys in, screens out, signals and a
//! hang-up on a real process.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::os::fd::BorrowedFd;
use std::path::PathBuf;
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
pub struct Pty {
    parser: vt100::Parser,
    /// Every byte the program wrote, to look for sequences it must not send.
    pub raw: Vec<u8>,
    output: Receiver<Vec<u8>>,
    /// Tells the reading thread to stop and let go of the terminal.
    let_go: Arc<AtomicBool>,
    /// Where keys are typed: a thread writing to a descriptor of its own
    /// (portable-pty's writer types a newline and an end of file when it is
    /// dropped), so that a program that stops reading makes the test fail
    /// at its deadline rather than block for ever.
    keys: Option<(
        std::sync::mpsc::Sender<Vec<u8>>,
        std::thread::JoinHandle<()>,
    )>,
    master: Option<Box<dyn MasterPty + Send>>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    started: Instant,
    /// The program's home; shared by the next program a test starts there
    /// (`start_at`), as a player's saves and records are.
    home: std::sync::Arc<tempfile::TempDir>,
}

impl Pty {
    /// Starts `spades ARGS` with `TERM` set to `term`, or unset for `None`.
    pub fn start(args: &[&str], term: Option<&str>) -> Pty {
        Pty::start_with(args, term, &[])
    }

    /// `start`, with `files` (name, text) written in the program's working
    /// directory first.
    pub fn start_with(args: &[&str], term: Option<&str>, files: &[(&str, &str)]) -> Pty {
        let home = std::sync::Arc::new(tempfile::tempdir().unwrap());
        for (name, text) in files {
            std::fs::write(home.path().join(name), text).unwrap();
        }
        Pty::start_at(home, args, term)
    }

    /// Starts the program in the home of one started before.
    pub fn start_at(
        home: std::sync::Arc<tempfile::TempDir>,
        args: &[&str],
        term: Option<&str>,
    ) -> Pty {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(crate::spades_bin());
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
        let mut typed = std::fs::File::from(rustix::io::dup(master).unwrap());
        let (key_tx, key_rx) = channel::<Vec<u8>>();
        let typist = std::thread::spawn(move || {
            for bytes in key_rx {
                if typed
                    .write_all(&bytes)
                    .and_then(|()| typed.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        let keys = (key_tx, typist);
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

    pub fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    pub fn text(&self) -> String {
        self.screen().contents()
    }

    /// Reads what the program wrote for up to `wait`; false once the
    /// program has closed the terminal and everything is read.
    pub fn pump(&mut self, wait: Duration) -> bool {
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

    pub fn wait_for(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        while !done(&self.text()) {
            self.within_deadline(what);
            self.pump(Duration::from_millis(50));
        }
    }

    /// Fails the test, showing the screen, once the program has had
    /// `DEADLINE` to do `what`.
    fn within_deadline(&mut self, what: &str) {
        if self.started.elapsed() >= DEADLINE {
            let exited = self.child.try_wait();
            panic!(
                "waited too long for {what} ({} bytes written, program exited: {exited:?}); the screen:\n{}",
                self.raw.len(),
                self.text()
            );
        }
    }

    pub fn send(&mut self, bytes: &[u8]) {
        let (keys, _) = self.keys.as_ref().expect("the terminal is open");
        keys.send(bytes.to_vec()).expect("the typing thread runs");
    }

    /// Closes the terminal as a closing window does: every handle on its
    /// master side is let go while the program waits for a key, and the
    /// program's side hangs up under it.
    pub fn hang_up(&mut self) {
        self.let_go.store(true, Ordering::SeqCst);
        while self.pump(Duration::from_millis(50)) {
            assert!(self.started.elapsed() < DEADLINE, "the reader held on");
        }
        if let Some((keys, typist)) = self.keys.take() {
            drop(keys);
            typist.join().expect("the typing thread ends");
        }
        // The last handle: closing it hangs the terminal up.
        self.master = None;
    }

    /// Sends `signal` (a name `kill` knows, e.g. TERM) to the program.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.process_id().expect("the program's pid");
        let status = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(pid.to_string())
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} {pid}: {status}");
    }

    /// Kills the program as `kill -9` does, with no chance to tidy up, and
    /// waits for it to be gone.
    pub fn kill(&mut self) {
        self.signal("KILL");
        self.exit_status();
    }

    /// Waits for the program to exit and reads everything it wrote.
    pub fn exit_status(&mut self) -> ExitStatus {
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

    /// Waits until the screen changes from `before`, or `patience` runs
    /// out; says which.
    pub fn settles(&mut self, patience: Duration, before: &str) -> bool {
        let until = Instant::now() + patience;
        while self.text() == before {
            if Instant::now() > until || self.started.elapsed() > DEADLINE {
                return false;
            }
            self.pump(Duration::from_millis(20));
        }
        true
    }

    /// The key shown over the card under the cursor (`[3]`), on a turn to
    /// play.
    pub fn cursor_key(&self) -> Option<u8> {
        let text = self.text();
        let at = text.find('[')?;
        let bytes = text.as_bytes();
        (bytes.get(at + 2) == Some(&b']')).then(|| bytes[at + 1])
    }

    /// After a card the rules refused, the key of a card they allow: one
    /// of the suit to follow, or one that is not a spade when spades may
    /// not be led. A key read from a frame just before the screen caught up
    /// can move the cursor off the playable cards; pressing the card under
    /// it again would be refused for ever.
    pub fn key_after_refusal(&self) -> Option<u8> {
        let text = self.text();
        // The suit to follow, or none: spades may not be led yet.
        let follow = match text.find("You must follow ") {
            Some(at) => Some(text[at + "You must follow ".len()..].chars().next()?),
            None if text.contains("Spades have not been broken") => None,
            None => return None,
        }
        .map(|suit| suit.to_ascii_uppercase());
        let allowed = |card: &str| match follow {
            Some(letter) => card.ends_with(letter),
            None => !card.ends_with('S'),
        };
        // The hand is the last row of boxed cards above the prompt.
        let prompt = text.find("Your turn")?;
        let row = text[..prompt]
            .lines()
            .rev()
            .find(|line| line.trim_start().starts_with('|'))?;
        let cards: Vec<&str> = row
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        let place = cards.iter().position(|card| allowed(card))?;
        spades::tui::CARD_KEYS.get(place).copied()
    }

    /// Plays the card under the cursor (always a legal one, unless a key
    /// read a frame late moved it: then `key_after_refusal`) at each turn,
    /// by its key, until the hand's summary shows. A card's key does nothing
    /// on the summary, so a frame not yet redrawn cannot close it; a key
    /// read before the turn is ours changes nothing, and is pressed again.
    pub fn play_out_the_hand(&mut self) {
        loop {
            // A program that stops taking keys shows its turn for ever:
            // that fails here rather than pressing keys until CI's limit.
            self.within_deadline("the hand to be played out");
            self.wait_for("my turn or the summary", |s| {
                s.contains("Your turn") || s.contains("scored")
            });
            if self.text().contains("scored") {
                return;
            }
            let Some(key) = self.key_after_refusal().or_else(|| self.cursor_key()) else {
                self.pump(Duration::from_millis(20));
                continue;
            };
            let before = self.text();
            self.send(&[key]);
            self.settles(Duration::from_secs(3), &before);
        }
    }

    /// Quits with `q`, `y`, and checks the program ended well and gave the
    /// terminal back.
    pub fn quit(&mut self) {
        self.send(b"q");
        self.wait_for("the question", |s| s.contains("Leave this game?"));
        self.send(b"y");
        let status = self.exit_status();
        assert!(status.success(), "{status:?}");
        assert!(!self.screen().alternate_screen(), "alternate screen left");
        assert!(!self.screen().hide_cursor(), "cursor shown again");
    }

    /// The one record file the session wrote.
    pub fn record_path(&self) -> PathBuf {
        let records = self.records();
        assert_eq!(records.len(), 1, "{records:?}");
        records[0].clone()
    }

    /// The home the program ran in, to start another there.
    pub fn home(&self) -> std::sync::Arc<tempfile::TempDir> {
        std::sync::Arc::clone(&self.home)
    }

    /// The saves waiting in the program's data folder.
    pub fn saves(&self) -> Vec<PathBuf> {
        match std::fs::read_dir(self.home.path().join("data/spades/saves")) {
            Ok(dir) => dir
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "save"))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The record files the session wrote.
    pub fn records(&self) -> Vec<PathBuf> {
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
