//! The rough edges of online play with the real programs: a server
//! killed under a game is told in one plain sentence that promises
//! nothing false, its seat tokens are let go, and a refused sign-in gives
//! the advice that helps, once.

use std::path::Path;

use support::pty::Pty;

use crate::ending::two_programs_at_a_table;

/// The seat tokens a player's program keeps in its home.
fn tokens(home: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(home.join("data/spades/tables")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".token"))
        .collect()
}

/// `spades serve` killed with SIGKILL mid-game: no TLS library's text (nor
/// its link) reaches the screen, the player is told the server stopped
/// and its tables with it (not that joining again takes the seat back),
/// and the token that named the seat is removed.
#[test]
fn a_killed_server_is_told_plainly_and_its_seats_let_go() {
    let mut served = support::process::serve(&[]);
    let (_host, mut guest) = two_programs_at_a_table(&["--server", &served.server]);
    let home = guest.home();
    assert_eq!(tokens(home.path()).len(), 1, "Bob's seat is kept");
    let pid = served.process.0.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let _ = served.process.0.wait();
    guest.wait_for("the table gone", |s| s.contains("q leaves"));
    let screen = guest.text();
    let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("has stopped"), "{screen}");
    assert!(flat.contains("tables ended with it"), "{screen}");
    assert!(!flat.contains("seat back"), "{screen}");
    let everything = String::from_utf8_lossy(&guest.raw).into_owned();
    for foreign in ["docs.rs", "http", "close_notify", "os error"] {
        assert!(!everything.contains(foreign), "{foreign} shown:\n{screen}");
    }
    assert_eq!(tokens(home.path()), Vec::<String>::new(), "the token stays");
    guest.send(b"q");
    assert!(guest.exit_status().success(), "{}", guest.text());
}

/// `spades join CODE --name NAME` refused at sign-in: what it prints.
fn refused_sign_in(served: &support::process::Served, name: &str) -> String {
    let code = format!("ZZZZ7TNFDUAX4XS6.{}", served.server);
    let mut joiner = Pty::start(&["join", &code, "--name", name], Some("xterm-256color"));
    let status = joiner.exit_status();
    assert_eq!(status.exit_code(), 2, "{}", joiner.text());
    joiner
        .text()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A refused name is told to choose another once, with how; a limit on
/// new accounts says when to try again, and advises no other name (which
/// would be refused the same).
#[test]
fn a_refused_sign_in_advises_what_helps_once() {
    let served = support::process::serve(&["--registrations-per-hour", "1"]);
    let said = refused_sign_in(&served, "North");
    assert!(
        said.contains("choose another name with --name NAME"),
        "{said}"
    );
    assert_eq!(said.matches("choose another").count(), 1, "{said}");
    // The hour's one account, then no table by that code.
    let said = refused_sign_in(&served, "Ann");
    assert!(said.contains("no such table"), "{said}");
    let said = refused_sign_in(&served, "Bob");
    assert!(said.contains("at most 1 account an hour"), "{said}");
    assert!(
        said.contains("try again in ") && said.contains(" minutes"),
        "{said}"
    );
    assert!(!said.contains("--name"), "{said}");
}
