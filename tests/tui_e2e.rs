//! The real binary in a real pseudo-terminal: bid, play a whole hand, see
//! the summary, quit, and find the terminal restored and the game recorded.

mod support;

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use spades::record::{DealProof, read_games, replay};
use support::checker::check_record;

const ROWS: u16 = 24;
const COLS: u16 = 80;
/// Generous: only a broken game comes near it.
const DEADLINE: Duration = Duration::from_secs(60);

struct Screen {
    parser: vt100::Parser,
    output: Receiver<Vec<u8>>,
    started: Instant,
}

impl Screen {
    fn pump(&mut self, wait: Duration) {
        if let Ok(bytes) = self.output.recv_timeout(wait) {
            self.parser.process(&bytes);
            while let Ok(bytes) = self.output.try_recv() {
                self.parser.process(&bytes);
            }
        }
    }

    fn text(&self) -> String {
        self.parser.screen().contents()
    }

    /// Reads output until `done` holds or `patience` runs out; says which.
    fn settles(&mut self, patience: Duration, done: impl Fn(&str) -> bool) -> bool {
        let until = Instant::now() + patience;
        while !done(&self.text()) {
            if Instant::now() > until || self.started.elapsed() > DEADLINE {
                return false;
            }
            self.pump(Duration::from_millis(50));
        }
        true
    }

    /// Reads output until `done` holds for the screen.
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
}

/// The real binary in a pseudo-terminal, with a home of its own.
struct Pty {
    screen: Screen,
    keys: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    home: tempfile::TempDir,
}

impl Pty {
    fn start(args: &[&str]) -> Pty {
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
        cmd.env("TERM", "xterm-256color");
        cmd.env("LANG", "C.UTF-8");
        cmd.env("HOME", home.path());
        cmd.env("XDG_DATA_HOME", home.path().join("data"));
        cmd.cwd(home.path());
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Pty {
            screen: Screen {
                parser: vt100::Parser::new(
                    NonZeroU16::new(ROWS).unwrap(),
                    NonZeroU16::new(COLS).unwrap(),
                    0,
                ),
                output: rx,
                started: Instant::now(),
            },
            keys: pty.master.take_writer().unwrap(),
            child,
            home,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).unwrap();
        self.keys.flush().unwrap();
    }

    /// Plays the card under the cursor (always a legal one) at each turn
    /// until the hand's summary shows.
    fn play_out_the_hand(&mut self) {
        while !self.screen.text().contains("scored") {
            self.screen.wait_for("my turn or the summary", |s| {
                s.contains("Your turn") || s.contains("scored")
            });
            if self.screen.text().contains("scored") {
                break;
            }
            let before = self.screen.text();
            self.send(b"\r");
            // A key that lands while a frame is half drawn may be read before
            // the turn is ours; then the screen stays put and we press again.
            self.screen.settles(Duration::from_secs(3), |s| s != before);
        }
    }

    /// Quits with `q`, `y` and waits for the process to end with success,
    /// the terminal given back.
    fn quit(&mut self) {
        self.send(b"q");
        self.screen
            .wait_for("the question", |s| s.contains("Leave this game?"));
        self.send(b"y");
        while self.child.try_wait().unwrap().is_none() {
            assert!(
                self.screen.started.elapsed() < DEADLINE,
                "the game did not exit"
            );
            self.screen.pump(Duration::from_millis(50));
        }
        // Whatever the program wrote last is in the parser before we judge.
        self.screen.pump(Duration::from_millis(200));
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status:?}");
        assert!(
            !self.screen.parser.screen().alternate_screen(),
            "alternate screen left"
        );
        assert!(
            !self.screen.parser.screen().hide_cursor(),
            "cursor shown again"
        );
    }

    /// The one record file the game wrote.
    fn record_path(&self) -> std::path::PathBuf {
        let records: Vec<_> = std::fs::read_dir(self.home.path().join("data/spades/records"))
            .expect("a records folder")
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(records.len(), 1, "{records:?}");
        records[0].clone()
    }
}

#[test]
fn play_a_hand_in_a_real_terminal() {
    let mut pty = Pty::start(&["--seed", "7", "--speed", "instant", "--ascii"]);
    pty.screen
        .wait_for("the bidding", |s| s.contains("Your bid"));
    assert!(pty.screen.parser.screen().alternate_screen());
    assert!(pty.screen.parser.screen().hide_cursor());
    assert!(pty.screen.text().contains("Deals known: seed 7"));
    pty.send(b"2\r");
    pty.play_out_the_hand();
    let summary = pty.screen.text();
    assert!(summary.contains("Hand 1 scored"), "{summary}");
    assert!(summary.contains("Contract"), "{summary}");
    assert!(summary.contains("Bags"), "{summary}");
    pty.quit();

    let text = std::fs::read_to_string(pty.record_path()).unwrap();
    let games = read_games(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert!(games[0].abandoned, "left mid-game");
    assert_eq!(games[0].header.seed, Some(7));
    replay(&games[0]).expect("the record replays through the engine");
    let report = check_record(&text);
    assert!(report.is_ok(), "{}", report.describe());
}

/// A game dealt from a secret seed: the screen shows the commitment from
/// the start, the record holds no card until its hand is over and reveals
/// the seed when the game is left, and `spades verify` proves the deals.
#[test]
fn sealed_deals_are_committed_on_screen_and_revealed_when_left() {
    let mut pty = Pty::start(&["--speed", "instant", "--ascii"]);
    pty.screen
        .wait_for("the bidding", |s| s.contains("Your bid"));
    let shown = pty.screen.text();
    let at = shown
        .find("Deals sealed #")
        .expect("the commitment on screen")
        + 14;
    let short = shown[at..at + 8].to_string();

    // Mid-hand, the record holds the game line and nothing else: no card.
    let path = pty.record_path();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let header: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert!(header["seed"].is_null());
    let commitment = header["commitment"].as_str().unwrap().to_string();
    assert!(commitment.starts_with(&short), "{commitment} vs {short}");

    pty.send(b"2\r");
    pty.play_out_the_hand();
    // The hand is over: now its lines are in the file, still no seed.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"score\""));
    assert!(!text.contains("\"salt\""));
    pty.quit();

    let text = std::fs::read_to_string(&path).unwrap();
    let games = read_games(&text).unwrap();
    assert!(games[0].abandoned);
    let replayed = replay(&games[0]).expect("the record replays");
    assert!(
        matches!(replayed.deals, DealProof::Committed { .. }),
        "{:?}",
        replayed.deals
    );
    let report = check_record(&text);
    assert!(report.is_ok(), "{}", report.describe());
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .arg("verify")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::contains("hash to the commitment"));
}

#[test]
fn play_refuses_output_that_is_not_a_terminal() {
    let home = tempfile::tempdir().unwrap();
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .args(["--seed", "1"])
        .current_dir(home.path())
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("spades plays in a terminal"));
}
