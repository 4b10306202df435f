//! The real binary in its screen-reader mode through pipes, as a script or
//! a screen reader meets it: lines typed in, lines read out, and every line
//! it says checked to be plain (no escape, no control character, within
//! the mode's line).

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use spades::engine::{Card, CardSet};
use spades::tui::spoken::LINE_MAX;
use spades::tui::spoken::commands;
use tempfile::TempDir;

use crate::process::Reaped;

/// Generous, for a test build on a loaded machine: only a hung program
/// comes near it.
const DEADLINE: Duration = Duration::from_secs(90);

/// How many of the last lines heard a failure shows.
const TAIL: usize = 30;

/// `spades ARGS --screen-reader` in a home of its own, read on a thread of
/// its own so that a silent program fails at a deadline, not for ever.
pub struct ByEar {
    /// Killed when the test ends, if it has not ended.
    process: Reaped,
    input: Option<ChildStdin>,
    /// The lines as bytes: an escape or bad UTF-8 must be seen, not lost.
    lines: Receiver<Vec<u8>>,
    heard: Vec<String>,
    home: Arc<TempDir>,
}

impl ByEar {
    /// Starts the program in a new home.
    pub fn start(args: &[&str]) -> ByEar {
        ByEar::start_at(Arc::new(tempfile::tempdir().expect("a home")), args)
    }

    /// Starts the program in `home` (its working directory too), as a
    /// player's saves, records, seat tokens and keys stay there for the
    /// next program.
    pub fn start_at(home: Arc<TempDir>, args: &[&str]) -> ByEar {
        let mut child = Command::new(crate::spades_bin())
            .args(args)
            .arg("--screen-reader")
            .current_dir(home.path())
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("TERM", "dumb")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spades starts");
        let input = child.stdin.take();
        let out = child.stdout.take().expect("its output is piped");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).split(b'\n') {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        ByEar {
            process: Reaped(child),
            input,
            lines,
            heard: Vec::new(),
            home,
        }
    }

    /// Its home, for the next program to start in (`start_at`).
    pub fn home(&self) -> Arc<TempDir> {
        self.home.clone()
    }

    /// Every line heard so far.
    pub fn heard(&self) -> &[String] {
        &self.heard
    }

    /// Types `line` and Enter.
    pub fn send(&mut self, line: &str) {
        let input = self.input.as_mut().expect("input still open");
        writeln!(input, "{line}")
            .and_then(|()| input.flush())
            .expect("the line is typed");
    }

    /// Ends the input, as a script that has said all it has to.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Sends SIGTERM, as a stop from outside.
    pub fn terminate(&self) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.process.0.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill: {sent}");
    }

    /// The next line, checked, if one comes within `wait`.
    pub fn next_within(&mut self, wait: Duration) -> Option<String> {
        let bytes = self.lines.recv_timeout(wait).ok()?;
        Some(self.hear(bytes))
    }

    /// Reads up to the first line `done` picks, and returns it. Fails at
    /// the deadline or when the output ends first, naming `what`.
    pub fn until(&mut self, what: &str, done: impl FnMut(&str) -> bool) -> String {
        let mut through = self.through(what, done);
        through.pop().expect("at least the line picked")
    }

    /// `until`, returning every line read, the one picked last.
    pub fn through(&mut self, what: &str, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let by = Instant::now() + DEADLINE;
        let mut got = Vec::new();
        loop {
            match self.next_by(by, what) {
                Some(line) => {
                    let last = done(&line);
                    got.push(line);
                    if last {
                        return got;
                    }
                }
                None => panic!("the output ended before {what}; heard:\n{}", self.tail()),
            }
        }
    }

    /// Reads every line left, then closes the input and waits for the
    /// program's exit: the input stays open until the output ends, so
    /// what ends the program is the test's doing. Fails at the deadline.
    pub fn finish(mut self) -> (ExitStatus, Vec<String>) {
        let by = Instant::now() + DEADLINE;
        while self.next_by(by, "the end of the output").is_some() {}
        self.close_input();
        loop {
            if let Some(status) = self
                .process
                .0
                .try_wait()
                .expect("the program is waited for")
            {
                return (status, std::mem::take(&mut self.heard));
            }
            assert!(
                Instant::now() < by,
                "the output ended, the program did not; heard:\n{}",
                self.tail()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn next_by(&mut self, by: Instant, what: &str) -> Option<String> {
        let left = by.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(bytes) => Some(self.hear(bytes)),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                panic!("no {what} in time; heard:\n{}", self.tail())
            }
        }
    }

    fn hear(&mut self, bytes: Vec<u8>) -> String {
        let line =
            String::from_utf8(bytes).unwrap_or_else(|e| panic!("not UTF-8: {:?}", e.as_bytes()));
        assert_spoken(&line);
        self.heard.push(line.clone());
        line
    }

    fn tail(&self) -> String {
        self.heard[self.heard.len().saturating_sub(TAIL)..].join("\n")
    }
}

/// The lines said, checked, one by one; the end of the output ends them.
impl Iterator for ByEar {
    type Item = String;

    /// Fails at the deadline.
    fn next(&mut self) -> Option<String> {
        self.next_by(Instant::now() + DEADLINE, "a line")
    }
}

/// What every line the mode says must be: no escape nor other control
/// character, and within `LINE_MAX`.
pub fn assert_spoken(line: &str) {
    assert!(
        !line.chars().any(char::is_control),
        "a control character in {line:?}"
    );
    assert!(
        line.chars().count() <= LINE_MAX,
        "{} characters: {line}",
        line.chars().count()
    );
}

/// The cards a list names: "queen of hearts, seven of hearts", or by suit
/// "spades: ace, ten; hearts: queen" (as a long list is said).
pub fn cards_named(list: &str) -> CardSet {
    let mut cards = CardSet::EMPTY;
    for part in list.trim_end_matches('.').split("; ") {
        match part.split_once(": ") {
            Some((suit, ranks)) => {
                for rank in ranks.split(", ") {
                    cards.insert(commands::card(&format!("{rank} of {suit}")).unwrap());
                }
            }
            None => {
                for card in part.split(", ") {
                    cards.insert(commands::card(card).unwrap());
                }
            }
        }
    }
    cards
}

/// A card as a script types it: "qh", "10h".
pub fn typed(card: Card) -> String {
    card.to_string().replace('T', "10").to_lowercase()
}
