//! How the table ends when it is not quit from its own menu: stopped by a
//! signal (SIGTERM, or SIGHUP when the window closes) or by Ctrl-C. The
//! real binary runs in a pseudo-terminal; each way out must give the
//! terminal back, keep the game to resume (its seed secret), exit with
//! the conventional code and say how to take it up again. And a terminal that
//! cannot draw the table is refused before anything is drawn.

use std::path::Path;

use support::pty::Pty;

/// Starts a sealed game, waits for the bidding, stops it with `stop` and
/// checks everything a stopped game must leave behind.
fn stopping_keeps_the_game(stop: impl FnOnce(&mut Pty), code: u32) {
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

    // Once the table is gone, the program says the game is kept.
    let after = pty.text();
    assert!(after.contains("spades resume"), "{after}");
    assert_kept_then_given_up(&pty);
}

/// A game left however it was is kept to resume: its save waits and its
/// record stays open, the seed secret. Given up, the record is closed and
/// reveals the seed it committed to, and it verifies.
fn assert_kept_then_given_up(pty: &Pty) {
    let records = pty.records();
    assert_eq!(records.len(), 1, "{records:?}");
    let path = &records[0];
    let text = std::fs::read_to_string(path).unwrap();
    assert!(!text.contains("\"salt\""), "the seed stays secret: {text}");
    assert_eq!(pty.saves().len(), 1, "the game is kept");
    let home = pty.home();
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .args(["resume", "--abandon"])
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .assert()
        .success()
        .stdout(predicates::str::contains("spades verify"));
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
    assert!(pty.saves().is_empty());
}

#[test]
fn sigterm_keeps_the_game_like_quitting() {
    stopping_keeps_the_game(|pty| pty.signal("TERM"), 143);
}

#[test]
fn a_closed_window_sighup_keeps_the_game_like_quitting() {
    stopping_keeps_the_game(|pty| pty.signal("HUP"), 129);
}

/// The window closes for real: the terminal hangs up under the program,
/// which is sent SIGHUP and can no longer read or write it.
#[test]
fn a_terminal_that_hangs_up_keeps_the_game() {
    let mut pty = Pty::start(&["--speed", "instant", "--ascii"], Some("xterm-256color"));
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    pty.hang_up();
    let status = pty.exit_status();
    assert_eq!(status.signal(), None, "killed, not stopped: {status:?}");
    assert_eq!(status.exit_code(), 129, "{status:?}");
    assert_kept_then_given_up(&pty);
}

#[test]
fn ctrl_c_keeps_the_game_and_exits_130() {
    stopping_keeps_the_game(|pty| pty.send(&[0x03]), 130);
}

#[test]
fn quitting_says_the_game_is_kept() {
    stopping_keeps_the_game(
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
