//! The lobby as a home, in real terminals: two `spades lobby` programs
//! against a real `spades serve` (with its ladder) on loopback. Leaving a
//! quick match, a table, or a finished game goes back to the lobby; a
//! player who left, or whose program was killed, finds their table first
//! in the lobby and takes the seat back with Enter; the program quits only
//! from the lobby, asking first while a seat is still held.

use std::time::Duration;

use support::process::{Served, serve};
use support::pty::Pty;

const TERM: Option<&str> = Some("xterm-256color");

/// A short partnership game, so a whole one plays out in seconds.
const SHORT: &str = "mode = \"partnership\"\ntarget_score = 100\nlosing_score = -100\n";

/// `spades lobby` as `name`, in a home of its own, with `rules.toml` (the
/// rules a table it opens is dealt) when given.
fn lobby(served: &Served, name: &str, rules: Option<&str>) -> Pty {
    let args = [
        "lobby",
        &served.server,
        "--name",
        name,
        "--speed",
        "instant",
    ];
    let files: Vec<(&str, &str)> = rules.map(|r| ("rules.toml", r)).into_iter().collect();
    let mut pty = Pty::start_with(&args, TERM, &files);
    pty.wait_for("the lobby", in_the_lobby);
    pty
}

fn in_the_lobby(screen: &str) -> bool {
    screen.contains("Spades lobby") && screen.contains("Tables (")
}

/// Asks for the list (`r`) until `done` holds: the list is the server's
/// as of the last time it was asked.
fn refresh_until(pty: &mut Pty, what: &str, done: impl Fn(&str) -> bool) {
    while !done(&pty.text()) {
        pty.send(b"r");
        pty.pump(Duration::from_millis(300));
        pty.wait_for(what, |s| done(s) || s.contains("Tables ("));
    }
}

/// Ann opens a public table from her lobby, Bob sits at it from his, and
/// Ann starts the game (bots in the other seats).
fn at_one_table(ann: &mut Pty, bob: &mut Pty) {
    ann.send(b"n");
    ann.wait_for("the new table form", |s| s.contains("Enter open"));
    ann.send(b"\r");
    ann.wait_for("her table's lobby", |s| s.contains("Enter  start"));
    refresh_until(bob, "Ann's table listed", |s| s.contains("3 free"));
    bob.send(b"\r");
    bob.wait_for("the table's lobby", |s| s.contains("Waiting for the host"));
    ann.wait_for("Bob seated", |s| s.contains("Bob"));
    ann.send(b"\r");
    ann.wait_for("the game", at_the_table);
    bob.wait_for("the game", at_the_table);
}

#[test]
fn leaving_a_quick_match_or_a_table_goes_back_to_the_lobby_and_the_seat_is_taken_back() {
    let served = serve(&[]);
    let mut ann = lobby(&served, "Ann", None);

    // Esc on the quick match's waiting screen: back to the lobby.
    ann.send(b"q");
    ann.wait_for("the quick match form", |s| s.contains("Enter wait for"));
    ann.send(b"\r");
    ann.wait_for("the wait", |s| s.contains("you included"));
    ann.send(b"\x1b");
    ann.wait_for("the lobby again", |s| {
        in_the_lobby(s) && s.contains("You left the quick match.")
    });

    let mut bob = lobby(&served, "Bob", None);
    at_one_table(&mut ann, &mut bob);

    // Bob leaves the table: the box says what the server will do, and he
    // is back in the lobby, his table first with his seat to take back.
    bob.send(b"q");
    bob.wait_for("the quit box", |s| s.contains("Leave this game?"));
    let said = bob.text();
    assert!(
        said.contains("The game plays on: a bot plays your seat,"),
        "{said}"
    );
    assert!(
        said.contains("This rated game counts as your loss,"),
        "{said}"
    );
    assert!(!said.contains("cannot be saved"), "{said}");
    bob.send(b"y");
    bob.wait_for("the lobby, his table first", |s| {
        in_the_lobby(s) && s.contains("your seat: Enter takes it back")
    });
    let listed = bob.text();
    assert!(listed.contains("Back from the table."), "{listed}");
    bob.send(b"\r");
    bob.wait_for("his seat again", at_the_table);
    ann.wait_for("Bob back", |s| s.contains("Bob is back"));

    // Killed, Bob's program leaves the seat to a bot; opened again, his
    // lobby lists the table first, and Enter takes the seat back.
    let home = bob.home();
    bob.kill();
    let mut bob = Pty::start_at(
        home,
        &[
            "lobby",
            &served.server,
            "--name",
            "Bob",
            "--speed",
            "instant",
        ],
        TERM,
    );
    refresh_until(&mut bob, "his table, first", |s| {
        s.contains("your seat: Enter takes it back")
    });
    bob.send(b"\r");
    bob.wait_for("his seat again", at_the_table);

    // Ann leaves while Bob plays on: quitting the program from the lobby
    // is asked first, since her seat is still hers.
    ann.send(b"q");
    ann.wait_for("the quit box", |s| s.contains("Leave this game?"));
    ann.send(b"y");
    ann.wait_for("the lobby", |s| in_the_lobby(s) && s.contains("your seat"));
    ann.send(b"Q");
    ann.wait_for("the question", |s| s.contains("You hold a seat at a table"));
    ann.send(b"n");
    ann.wait_for("the lobby", |s| !s.contains("You hold a seat"));
    ann.send(b"Q");
    ann.wait_for("the question", |s| s.contains("You hold a seat at a table"));
    ann.send(b"y");
    let status = ann.exit_status();
    assert!(status.success(), "{status:?}\n{}", ann.text());
    assert!(!ann.screen().alternate_screen(), "alternate screen left");
}

/// A whole game played from the lobby: at its end, `q` takes each player
/// back to the lobby (the table gone from its list), not out of the
/// program.
#[test]
fn a_finished_game_returns_both_players_to_the_lobby() {
    let served = serve(&[]);
    let mut ann = lobby(&served, "Ann", Some(SHORT));
    let mut bob = lobby(&served, "Bob", None);
    at_one_table(&mut ann, &mut bob);
    let over = |s: &str| s.contains("Game over");
    while !(over(&ann.text()) && over(&bob.text())) {
        for pty in [&mut ann, &mut bob] {
            if !over(&pty.text()) {
                pty.send(b"\r");
            }
            pty.pump(Duration::from_millis(30));
        }
        ann.wait_for("the game to go on", |_| true);
    }
    for pty in [&mut ann, &mut bob] {
        pty.wait_for("the way back", |s| s.contains("q  Back to the lobby"));
        pty.send(b"q");
        pty.wait_for("the lobby", |s| {
            in_the_lobby(s) && s.contains("Back from the table.")
        });
        assert!(pty.text().contains("Tables (0)"), "{}", pty.text());
        // Nothing held: Q quits at once.
        pty.send(b"Q");
        let status = pty.exit_status();
        assert!(status.success(), "{status:?}\n{}", pty.text());
    }
    assert!(
        ann.text().contains("Game recorded in"),
        "the record is named as the program ends:\n{}",
        ann.text()
    );
}

/// A seat left at a private table (never in the public list) is found
/// by the lobby all the same: listed first, and Enter takes it back.
#[test]
fn a_seat_left_at_a_private_table_is_listed_first_and_taken_back() {
    let served = serve(&[]);
    let mut ann = lobby(&served, "Ann", None);
    ann.send(b"n");
    ann.wait_for("the new table form", |s| s.contains("Enter open"));
    ann.send(b"j");
    ann.send(b"l");
    ann.wait_for("a private table", |s| {
        s.contains("not listed: joined by its code")
    });
    ann.send(b"\r");
    ann.wait_for("her table's lobby, with its code", |s| {
        s.contains("Enter  start") && super::e2e::code_on(s).is_some()
    });
    let code = super::e2e::code_on(&ann.text()).unwrap();
    let mut bob = Pty::start(
        &["join", &code, "--name", "Bob", "--speed", "instant"],
        TERM,
    );
    bob.wait_for("the table's lobby", |s| s.contains("Waiting for the host"));
    ann.wait_for("Bob seated", |s| s.contains("Bob"));
    ann.send(b"\r");
    ann.wait_for("the game", at_the_table);
    bob.wait_for("the game", at_the_table);

    ann.send(b"q");
    ann.wait_for("the quit box", |s| s.contains("Leave this game?"));
    ann.send(b"y");
    ann.wait_for("the lobby, her private table first", |s| {
        in_the_lobby(s) && s.contains("your seat: Enter takes it back")
    });
    ann.send(b"\r");
    ann.wait_for("her seat again", at_the_table);
    bob.wait_for("Ann back", |s| s.contains("Ann is back"));
    for pty in [&mut ann, &mut bob] {
        pty.kill();
    }
}

/// A table's screen: its top bar.
fn at_the_table(screen: &str) -> bool {
    screen.contains(" · Dealer ")
}
