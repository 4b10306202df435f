//! The rough edges of online play with the real programs: a server
//! killed under a game is told in one plain sentence that promises
//! nothing false, its seat tokens are let go, and a refused sign-in gives
//! the advice that helps, once.

use std::path::Path;

use spades::protocol::SeatPlayer;
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

/// What the server says to `joining`'s first request, followed until
/// `done` (or the lobby ends, which is returned).
fn follow_lobby(
    connection: &mut spades::net::client::Connection,
    joining: &mut spades::net::client::seating::Joining,
    done: impl Fn(&spades::net::client::seating::Waiting) -> bool,
) -> Option<spades::net::client::seating::NotSeated> {
    use spades::engine::Seat;
    use spades::net::client::seating::{SeatingState, Waiting};
    let rules = spades::engine::Rules::classic(spades::engine::Mode::Partnership);
    connection.send(joining.request(&rules));
    let mut waiting = Waiting::new(SeatingState::new(Seat::new(0), false, None));
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !done(&waiting) {
        assert!(
            std::time::Instant::now() < until,
            "{:?}",
            waiting.state.news
        );
        if let Some(incoming) = connection.recv_timeout(std::time::Duration::from_millis(50)) {
            match waiting.take(incoming, joining) {
                Some(Err(not)) => return Some(not),
                Some(Ok(_)) => panic!("seated at a game"),
                None => {}
            }
        }
    }
    None
}

/// A kept token the server refuses is forgotten: one for a table it does
/// not have, and one for a seat freed since (its player left the lobby),
/// after which the program asks to join anew rather than send it again.
#[test]
fn a_token_the_server_refuses_is_forgotten() {
    use spades::net::client::Connection;
    use spades::net::client::seating::{Joining, NotSeated, Seeking};
    use std::sync::Arc;

    let server = crate::play::server();
    let target = crate::play::target(&server);
    let joining = |table: &str, token: &str, tokens: &Arc<crate::play::Tokens>| Joining {
        table: Some(table.to_string()),
        seeking: Seeking::Private,
        token: Some(token.to_string()),
        keep_token: tokens.clone(),
        code: Box::new(|table| table.to_string()),
    };

    let tokens = Arc::new(crate::play::Tokens::default());
    let mut gone = joining("ZZZZ7TNFDUAX4XS6", "TOKEN234", &tokens);
    let mut connection = Connection::open(&target, "Bob").unwrap();
    let ended = follow_lobby(&mut connection, &mut gone, |_| false);
    assert_eq!(ended, Some(NotSeated::NoTable));
    assert_eq!(*tokens.forgotten.lock().unwrap(), ["ZZZZ7TNFDUAX4XS6"]);

    let mut ann = crate::play::host(&target, "mode = \"partnership\"\n");
    let table = ann.seat_token().0;
    let bob = crate::play::join(&target, "Bob", &table);
    let token = bob.seat_token().1;
    let people = |n: usize| {
        move |w: &spades::net::client::seating::Waiting| {
            w.state.seating.as_ref().is_some_and(|l| {
                let seated = l.seats.iter().filter(|s| s.player == SeatPlayer::Person);
                seated.count() == n
            })
        }
    };
    ann.until(people(2));
    // Bob leaves the lobby: his seat is free again, his token no one's.
    drop(bob);
    ann.until(people(1));
    let tokens = Arc::new(crate::play::Tokens::default());
    let mut freed = joining(&table, &token, &tokens);
    let mut connection = Connection::open(&target, "Bob").unwrap();
    let told = |w: &spades::net::client::seating::Waiting| {
        w.state.news.iter().any(|n| n.contains("no longer yours"))
    };
    assert_eq!(follow_lobby(&mut connection, &mut freed, told), None);
    assert_eq!(
        *tokens.forgotten.lock().unwrap(),
        std::slice::from_ref(&table)
    );
    let rules = spades::engine::Rules::classic(spades::engine::Mode::Partnership);
    assert_eq!(
        freed.request(&rules),
        spades::protocol::ClientMessage::Join { table }
    );
}
