//! Online play by ear: `spades lobby`, `host`, `join` and `watch` with
//! `--screen-reader`, the real binary through pipes against a real
//! `spades serve` (and one hostile server of the test's own). The lobby
//! lists tables as numbered lines, `watch 1` says the game as it is
//! played, a quick match's wait is said and `back` returns to the list;
//! names a server sends come out cleaned and within a line; a table
//! hosted by ear is joined from a full screen.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::by_ear::{ByEar, cards_named, typed};
use support::process::serve;
use support::pty::Pty;

/// Generous: only a hung program comes near it.
const DEADLINE: Duration = Duration::from_secs(60);

/// The code in "A friend joins with: spades join CODE".
fn code_in(line: &str) -> String {
    line.rsplit(' ').next().unwrap().to_string()
}

#[test]
fn the_lobby_lists_a_table_as_a_numbered_line_and_watching_it_says_the_game() {
    let served = serve(&[]);
    let mut ann = ByEar::start(&["lobby", &served.server, "--name", "Ann"]);
    ann.until("the empty list", |l| l.starts_with("No tables"));
    ann.send("open");
    let code = code_in(&ann.until("the code", |l| l.starts_with("A friend joins with:")));
    ann.until("the host's choice", |l| l.starts_with("Type start"));

    let mut bob = ByEar::start(&["lobby", &served.server, "--name", "Bob"]);
    bob.until("Ann's table, numbered", |l| {
        l == "1. Ann's table, partnership to 500, 1 of 4 seated, rated."
    });
    // A table that changes while Bob listens is said in a short line: Cy
    // sits down at the full-screen table.
    let mut cy = Pty::start(
        &["join", &code, "--name", "Cy", "--speed", "instant"],
        Some("xterm-256color"),
    );
    cy.wait_for("the lobby", |s| s.contains("Waiting for the host"));
    bob.until("the change", |l| {
        l == "Now 1. Ann's table, partnership to 500, 2 of 4 seated, rated."
    });

    bob.send("watch 1");
    bob.until("watching", |l| l.starts_with("Watching table"));
    bob.until("the seats", |l| l.starts_with("Seats: Ann; "));
    let mut dee = ByEar::start(&["watch", &code, "--name", "Dee"]);
    dee.until("watching", |l| l.starts_with("Watching table"));

    // Ann starts, then leaves her seat (her input ends): a bot plays it.
    // Cy bids and plays what his cursor shows.
    ann.send("start");
    ann.until("the game", |l| l == "The game begins.");
    ann.close_input();
    let by = Instant::now() + DEADLINE;
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains(" plays the ")) {
        assert!(
            Instant::now() < by,
            "no card said; heard:\n{}",
            seen.join("\n")
        );
        cy.send(b"\r");
        cy.pump(Duration::from_millis(100));
        seen.extend(bob.next_within(Duration::from_millis(100)));
    }
    assert!(
        seen.iter().any(|l| l.starts_with("The game begins: Ann")),
        "{seen:?}"
    );
    assert!(seen.iter().any(|l| l.contains(" bids ")), "{seen:?}");
    dee.until("a bid", |l| l.contains(" bids "));
    dee.until("a card", |l| l.contains(" plays the "));
    dee.send("quit");
    dee.finish();
    bob.send("quit");
    bob.until("the lobby again", |l| l == "You stopped watching.");
    bob.until("the list again", |l| l.starts_with("Tables, 1"));
    bob.send("quit");
    bob.finish();
}

#[test]
fn a_quick_match_wait_is_said_and_back_returns_to_the_list() {
    let served = serve(&[]);
    let mut ann = ByEar::start(&["lobby", &served.server, "--name", "Ann"]);
    ann.until("the empty list", |l| l.starts_with("No tables"));
    ann.send("quick cutthroat");
    ann.until("the wait", |l| {
        l.starts_with("Waiting for a quick match, cutthroat: 1, you included")
    });
    ann.send("back");
    ann.until("back", |l| l == "You left the quick match.");
    ann.until("the list again", |l| l.starts_with("No tables"));
    ann.send("join 3");
    ann.until("the refusal", |l| l.starts_with("There are no tables"));
    ann.send("ladder");
    ann.until("the ladder", |l| l.contains("partnership ladder"));
    ann.close_input();
    ann.finish();
}

/// A server of the test's own that lists tables whose names hold
/// escapes, zero-width characters and 10 kB: the lobby's lines come out
/// cleaned, each within a line.
#[test]
fn hostile_table_names_come_out_cleaned_and_bounded() {
    use spades::engine::Mode;
    use spades::protocol::lobby::{ListedSeat, ListedTable};
    use spades::protocol::{SeatPlayer, ServerMessage};

    let evil = format!(
        "\u{1b}]0;owned\u{7}\u{200b}Eve\u{202e}{}\u{1b}[2J",
        "x".repeat(10_000)
    );
    let seat = |name: Option<&str>, player| ListedSeat {
        name: name.map(String::from),
        player,
        rating: None,
        guest: false,
    };
    let table = ListedTable {
        table: "AAAABBBBCCCCDDDD".into(),
        mode: Mode::Partnership,
        rules: "to 500".into(),
        seats: vec![
            seat(Some(&evil), SeatPlayer::Person),
            seat(None, SeatPlayer::Empty),
            seat(None, SeatPlayer::Empty),
            seat(None, SeatPlayer::Empty),
        ],
        started: false,
        rated: false,
        unrated: None,
        watchers: 0,
        code: None,
    };
    // The second table's rules are the hostile text, its host plain.
    let mut second = table.clone();
    second.rules = evil.clone();
    second.seats[0] = seat(Some("Bo"), SeatPlayer::Person);
    let tables = serde_json::to_string(&ServerMessage::Tables {
        tables: vec![table, second],
        total: 2,
        mode: None,
    })
    .unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        let mut out = stream.try_clone().unwrap();
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            let kind = serde_json::from_str::<serde_json::Value>(&line).unwrap()["type"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let answer = match kind.as_str() {
                "hello" => r#"{"type":"welcome","protocol":1,"server":"spades 0.0.9"}"#,
                "tables" => tables.as_str(),
                _ => r#"{"type":"error","code":"bad_message","message":"unknown variant"}"#,
            };
            if out.write_all(format!("{answer}\n").as_bytes()).is_err() {
                break;
            }
        }
    });
    let server = format!("plain@{address}");
    let mut ann = ByEar::start(&["lobby", &server, "--name", "Ann"]);
    ann.until("the list", |l| l.starts_with("Tables, 2"));
    let first = ann.until("the first table", |l| l.starts_with("1. "));
    assert!(first.contains("Eve"), "{first}");
    assert!(first.ends_with("1 of 4 seated."), "{first}");
    for hidden in ['\u{200b}', '\u{202e}', '\u{1b}', '\u{7}'] {
        assert!(!first.contains(hidden), "{first:?}");
    }
    // Taken out, not read aloud as escapes.
    assert!(!first.contains("\\u{"), "{first}");
    let second = ann.until("the second table", |l| l.starts_with("2. "));
    assert!(
        second.starts_with("2. Bo's table, partnership "),
        "{second}"
    );
    assert!(second.ends_with("1 of 4 seated."), "{second}");
    assert!(!second.contains('\u{202e}'), "{second:?}");
    ann.send("quit");
    ann.finish();
}

/// Ann hosts by ear, Bob joins at the full-screen table; each hears or
/// sees the other in the table's lobby, and the game starts for both.
fn hosted_by_ear_joined_on_screen(through_the_first_cards: bool) {
    let served = serve(&[]);
    let mut ann = ByEar::start(&[
        "host",
        "--server",
        &served.server,
        "--name",
        "Ann",
        "--speed",
        "instant",
    ]);
    let code = code_in(&ann.until("the code", |l| l.starts_with("A friend joins with:")));
    ann.until("the watch line", |l| {
        l.starts_with("Or watches with: spades watch ")
    });
    let mut bob = Pty::start(
        &["join", &code, "--name", "Bob", "--speed", "instant"],
        Some("xterm-256color"),
    );
    bob.wait_for("the lobby", |s| s.contains("Waiting for the host"));
    ann.until("Bob seated", |l| l.contains("; across Bob, rated "));
    ann.send("start");
    ann.until("the game", |l| l == "The game begins.");
    bob.wait_for("the game", |s| s.contains(" \u{b7} Dealer "));
    if !through_the_first_cards {
        return;
    }
    // The spoken table's sentences (`spoken::table`): Ann hears her deal,
    // then answers each turn as asked, Bob pressing Enter at his, until a
    // card is played and Bob's screen shows Ann's bid.
    ann.until("the deal", |l| l.contains("You hold 13 cards"));
    let by = Instant::now() + DEADLINE;
    loop {
        assert!(
            Instant::now() < by,
            "no card played; heard:\n{}",
            ann.heard().join("\n")
        );
        bob.send(b"\r");
        bob.pump(Duration::from_millis(100));
        let Some(said) = ann.next_within(Duration::from_millis(100)) else {
            continue;
        };
        if said.contains(" plays ") || said.starts_with("You play") {
            break;
        }
        if said.starts_with("Your turn to bid") {
            ann.send("bid 3");
        } else if let Some(cards) = said.strip_prefix("Your turn. You may play: ") {
            // A long list is said by suit ("hearts: queen, nine; ..."): its
            // first card is not the text before the first comma.
            let card = cards_named(cards).iter().next().expect("a card offered");
            ann.send(&format!("play {}", typed(card)));
        }
    }
    bob.wait_for("Ann's bid on screen", |s| {
        s.contains("Ann") && s.contains("bid")
    });
}

#[test]
fn a_table_hosted_by_ear_is_joined_from_the_full_screen_and_both_see_it_start() {
    hosted_by_ear_joined_on_screen(false);
}

#[test]
fn a_table_hosted_by_ear_and_one_on_screen_both_see_the_first_cards() {
    hosted_by_ear_joined_on_screen(true);
}

/// A code naming no table ends `join` by ear with exit code 2, even when
/// the script's input has already ended: the server's answer decides.
#[test]
fn a_code_naming_no_table_exits_2_by_ear() {
    let served = serve(&[]);
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(support::spades_bin())
        .args([
            "join",
            &format!("ZZZZZZZZ.{}", served.server),
            "--name",
            "Ann",
        ])
        .arg("--screen-reader")
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("no such table ZZZZZZZZ"), "{said}");
}

/// A player whose program ended while their game plays on finds their
/// table first in the lobby by ear, and `quit` asks before leaving it.
#[test]
fn quitting_the_lobby_by_ear_with_a_seat_still_held_asks_first() {
    let served = serve(&[]);
    let mut ann = ByEar::start(&["lobby", &served.server, "--name", "Ann"]);
    ann.until("the empty list", |l| l.starts_with("No tables"));
    ann.send("open");
    let code = code_in(&ann.until("the code", |l| l.starts_with("A friend joins with:")));
    // Cy stays at the table, so it plays on without Ann.
    let mut cy = Pty::start(
        &["join", &code, "--name", "Cy", "--speed", "instant"],
        Some("xterm-256color"),
    );
    cy.wait_for("the lobby", |s| s.contains("Waiting for the host"));
    ann.until("Cy seated", |l| l.contains("across Cy"));
    ann.send("start");
    ann.until("the game", |l| l == "The game begins.");
    cy.wait_for("the game", |s| s.contains(" \u{b7} Dealer "));
    // Ann's program ends (killed): a bot plays her seat, kept for her.
    let home = ann.home();
    drop(ann);
    let mut ann = ByEar::start_at(home, &["lobby", &served.server, "--name", "Ann"]);
    ann.until("her table first", |l| {
        l.starts_with("1. your table,") && l.ends_with("your seat: yours takes it back.")
    });
    ann.send("quit");
    ann.until("the question", |l| {
        l.starts_with("You hold a seat at a table that plays on") && l.ends_with("Type yes or no.")
    });
    ann.send("no");
    ann.until("staying", |l| l == "You stay in the lobby.");
    ann.send("quit");
    ann.until("the question again", |l| l.ends_with("Type yes or no."));
    ann.send("yes");
    ann.finish();
}

#[test]
fn the_turn_timer_and_chat_are_said_as_lines_at_a_table_by_ear() {
    // A server whose turn timer is short: the countdown is said at once.
    let served = serve(&["--turn-timer", "2"]);
    let mut ann = ByEar::start(&["lobby", &served.server, "--name", "Ann"]);
    ann.until("the empty list", |l| l.starts_with("No tables"));
    ann.send("open");
    ann.until("the host's choice", |l| l.starts_with("Type start"));
    ann.send("start");
    ann.until("the game", |l| l == "The game begins.");
    ann.send("chat good luck");
    ann.until("her chat, said back", |l| l == "Ann: good luck");
    // Nothing typed at her turn: the warning, then what the bot did.
    ann.until("the countdown", |l| {
        l.ends_with(" seconds left, then a bot acts for you.")
    });
    let bot = ann.until("the bot's bid", |l| l.starts_with("Time ran out: a bot "));
    assert!(bot.contains(" for you."), "{bot}");
    ann.send("quit");
    ann.until("the question", |l| l.ends_with("Type yes or no."));
    ann.send("yes");
    ann.until("back in the lobby", |l| {
        l.starts_with("1. your table") || l.starts_with("No tables")
    });
}
