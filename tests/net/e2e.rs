//! Two people at one table, as they really meet: `spades host` in one
//! pseudo-terminal, `spades join CODE` (the code read off the host's
//! screen) in another, over TLS on this machine, played to the game's end
//! with bots in the other seats; both leave cleanly and the joiner's own
//! record verifies.

use std::time::Duration;

use support::pty::Pty;

/// The table code on a screen: TABLE.FINGERPRINT@HOST:PORT.
pub(crate) fn code_on(screen: &str) -> Option<String> {
    let start = screen.find(|c: char| c.is_ascii_uppercase())?;
    screen[start..]
        .split_whitespace()
        .chain(screen.split_whitespace())
        .map(|w| w.trim_matches(|c: char| c == '│' || c == '|'))
        .find(|w| {
            w.split_once('.').is_some_and(|(table, rest)| {
                table.len() == 16 && rest.contains('@') && rest.len() > 27
            })
        })
        .map(str::to_string)
}

#[test]
fn a_friend_joins_by_code_and_both_play_a_whole_game() {
    let mut host = Pty::start(
        &[
            "host",
            "--name",
            "Ann",
            "--port",
            "0",
            "--address",
            "127.0.0.1",
            "--target",
            "120",
            "--speed",
            "instant",
        ],
        Some("xterm-256color"),
    );
    host.wait_for("the lobby with its code", |s| code_on(s).is_some());
    let code = code_on(&host.text()).unwrap();
    let mut guest = Pty::start(
        &["join", &code, "--name", "Bob", "--speed", "instant"],
        Some("xterm-256color"),
    );
    guest.wait_for("the lobby", |s| s.contains("Waiting for the host"));
    host.wait_for("Bob seated", |s| {
        s.contains("Bob") && s.contains("Enter  start")
    });
    assert!(
        guest.text().contains("Ann  (your partner)"),
        "the first to join sits opposite the host:\n{}",
        guest.text()
    );
    host.send(b"\r");
    host.wait_for("the game", |s| s.contains("Deals sealed"));
    guest.wait_for("the game", |s| s.contains("Deals sealed"));
    // Both see the same sealed deals.
    let sealed = |s: &str| s.split("Deals sealed ").nth(1).map(|r| r[..9].to_string());
    assert_eq!(sealed(&host.text()), sealed(&guest.text()));

    // Each bids what the cursor shows and plays the card under it.
    let over = |s: &str| s.contains("Game over");
    while !(over(&host.text()) && over(&guest.text())) {
        for pty in [&mut host, &mut guest] {
            if !over(&pty.text()) {
                pty.send(b"\r");
            }
            pty.pump(Duration::from_millis(30));
        }
        host.wait_for("the game to go on", |_| true);
    }
    // The game-over window may still be on its way when its title shows.
    guest.wait_for("the game-over window, which only offers to leave", |s| {
        s.contains("Leave")
    });
    for pty in [&mut host, &mut guest] {
        pty.send(b"q");
        let status = pty.exit_status();
        assert!(status.success(), "{status:?}\n{}", pty.text());
        assert!(!pty.screen().alternate_screen(), "alternate screen left");
    }
    let record = guest.record_path();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_spades"))
        .arg("verify")
        .arg(&record)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
