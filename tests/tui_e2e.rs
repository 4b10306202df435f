//! The real binary in a real pseudo-terminal: bid, play a whole hand, see
//! the summary, quit, and find the terminal restored and the game recorded.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use spades::record::{read_games, replay};

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

#[test]
fn play_a_hand_in_a_real_terminal() {
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
    cmd.args(["--seed", "7", "--speed", "instant", "--ascii"]);
    cmd.env("TERM", "xterm-256color");
    cmd.env("LANG", "C.UTF-8");
    cmd.env("HOME", home.path());
    cmd.env("XDG_DATA_HOME", home.path().join("data"));
    cmd.cwd(home.path());
    let mut child = pty.slave.spawn_command(cmd).unwrap();
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
    let mut keys = pty.master.take_writer().unwrap();
    let mut send = |bytes: &[u8]| {
        keys.write_all(bytes).unwrap();
        keys.flush().unwrap();
    };
    let mut screen = Screen {
        parser: vt100::Parser::new(
            NonZeroU16::new(ROWS).unwrap(),
            NonZeroU16::new(COLS).unwrap(),
            0,
        ),
        output: rx,
        started: Instant::now(),
    };

    screen.wait_for("the bidding", |s| s.contains("Your bid"));
    assert!(screen.parser.screen().alternate_screen());
    assert!(screen.parser.screen().hide_cursor());
    send(b"2\r");

    // Play the card under the cursor (always a legal one) at each turn.
    while !screen.text().contains("scored") {
        screen.wait_for("my turn or the summary", |s| {
            s.contains("Your turn") || s.contains("scored")
        });
        if screen.text().contains("scored") {
            break;
        }
        let before = screen.text();
        send(b"\r");
        // A key that lands while a frame is half drawn may be read before the
        // turn is ours; then the screen stays put and we press again.
        screen.settles(Duration::from_secs(3), |s| s != before);
    }
    let summary = screen.text();
    assert!(summary.contains("Hand 1 scored"), "{summary}");
    assert!(summary.contains("Contract"), "{summary}");
    assert!(summary.contains("Bags"), "{summary}");

    send(b"q");
    screen.wait_for("the question", |s| s.contains("Leave this game?"));
    send(b"y");
    while child.try_wait().unwrap().is_none() {
        assert!(screen.started.elapsed() < DEADLINE, "the game did not exit");
        screen.pump(Duration::from_millis(50));
    }
    // Whatever the program wrote last is in the parser before we judge.
    screen.pump(Duration::from_millis(200));
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(
        !screen.parser.screen().alternate_screen(),
        "alternate screen left"
    );
    assert!(!screen.parser.screen().hide_cursor(), "cursor shown again");

    let records: Vec<_> = std::fs::read_dir(home.path().join("data/spades/records"))
        .expect("a records folder")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let text = std::fs::read_to_string(&records[0]).unwrap();
    let games = read_games(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert!(games[0].abandoned, "left mid-game");
    assert_eq!(games[0].header.seed, Some(7));
    replay(&games[0]).expect("the record replays through the engine");
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
