//! A quick match's table as each of its two players reads it: the rules
//! panel says who really sits there (the other player, and the bots at
//! the level the server seats), that the rules are the server's quick
//! match's (the table has no host), and the code a friend watches it by;
//! each player's copy of the record, and so their history, names the
//! bots by their seats, the same for both, so each partner has its own
//! name.

use std::path::Path;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use spades::engine::Mode;
use spades::history::History;
use spades::ladder::keys::Identity;
use spades::net::client::Connection;
use spades::net::client::account::{Credentials, sign_in};
use spades::protocol::ClientMessage;
use spades::tui::{App, Key};
use support::tui::press;

use super::ladder::server as ladder_server;
use super::play::{Sitting, target};

/// `name`, signed in (registered) on a connection of their own, queued
/// for a partnership quick match that fills with bots after a second.
fn queued(target: &spades::net::client::Target, name: &str) -> Sitting {
    let mut connection = Connection::open(target, name).unwrap();
    let identity = Identity::generate().unwrap();
    let credentials = Credentials {
        identity: &identity,
        register_as: Some(name),
        retired: &[],
    };
    let signed = sign_in(&mut connection, &credentials);
    assert!(matches!(signed, Ok(Some(_))), "{name} signs in: {signed:?}");
    let queue = ClientMessage::Queue {
        mode: Mode::Partnership,
        wait: 1,
    };
    Sitting::on(connection, queue)
}

/// The rules panel as `app` draws it at 80x24: the window's rows alone
/// (the table under it is dealt at random), its commitment and the
/// table's id put by.
fn rules_panel(app: &mut App, table: &str) -> String {
    press(app, &[Key::Char('r')]);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| {
            spades::tui::view::render(app, frame.area(), frame.buffer_mut());
        })
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let row = |y: u16| -> String { (0..80).map(|x| buffer[(x, y)].symbol()).collect() };
    let rows: Vec<String> = (0..24).map(row).collect();
    let top = rows
        .iter()
        .position(|r| r.contains("Rules in force"))
        .expect("the rules panel is open");
    let left = rows[top].find('+').unwrap();
    let bottom = (top + 1..24)
        .find(|&y| rows[y][left..].starts_with("+-"))
        .unwrap();
    let commitment = app.commitment().unwrap().to_string();
    rows[top..=bottom]
        .iter()
        .map(|r| r[left..left + 74].to_string())
        .collect::<Vec<_>>()
        .join("\n")
        .replace(&commitment, &"c".repeat(commitment.len()))
        .replace(table, &"X".repeat(table.len()))
}

/// The `game` line of each record in `dir`, by the player's seat.
fn headers(dir: &Path) -> Vec<serde_json::Value> {
    let mut headers: Vec<serde_json::Value> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            serde_json::from_str(text.lines().next().unwrap()).unwrap()
        })
        .collect();
    headers.sort_by_key(|h| h["player_seat"].as_u64());
    headers
}

#[test]
fn a_quick_match_says_who_sits_whose_rules_and_where_to_watch() {
    let db = tempfile::tempdir().unwrap();
    let server = ladder_server(&db.path().join("ladder.sqlite"));
    let target = target(&server);
    let records = tempfile::tempdir().unwrap();
    let ann = queued(&target, "Ann");
    let bob = queued(&target, "Bob");
    let mut ann = ann.started(records.path());
    let mut bob = bob.started(records.path());
    let (ann_seat, bob_seat) = (ann.you(), bob.you());
    assert_ne!(
        Mode::Partnership.side_of(ann_seat),
        Mode::Partnership.side_of(bob_seat),
        "two players of a like rating play each other"
    );
    // The record's header has come once the first view is shown.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while ann.table_facts().unwrap().rules_source.is_none() {
        assert!(std::time::Instant::now() < until, "no record header came");
        support::tui::tick(&mut ann);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let table = ann.table_facts().unwrap().code.clone().unwrap();
    let panel = rules_panel(&mut ann, &table);
    assert!(panel.contains("From the server's quick match."), "{panel}");
    assert!(
        panel.contains("Players    you, Bob and 2 normal computer players"),
        "{panel}"
    );
    assert!(
        panel.contains(&format!("spades watch {}", "X".repeat(table.len()))),
        "{panel}"
    );
    insta::assert_snapshot!("quick_match_rules_panel_80x24", panel);

    // Each copy of the record: the server's quick match's rules, its
    // bots' level, and each bot named by its seat, alike in both.
    drop((ann.close(), bob.close()));
    let headers = headers(records.path());
    assert_eq!(headers.len(), 2, "Ann's record and Bob's");
    for header in &headers {
        assert_eq!(header["rules_source"], "the server's quick match");
        assert_eq!(header["difficulty"], "normal");
        assert_eq!(header["names"], headers[0]["names"], "one name a seat");
    }
    let history = History::read(records.path()).unwrap();
    let partners: Vec<String> = history
        .games
        .iter()
        .map(|game| {
            let partner = Mode::Partnership.partner(game.seat).unwrap();
            let names = &headers[game.seat.index()]["names"];
            names[partner.index()].as_str().unwrap().to_string()
        })
        .collect();
    let mut partners = partners;
    partners.sort();
    // Seat 0's partner sits in seat 2 (North), seat 1's in seat 3 (East).
    assert_eq!(partners, ["East", "North"]);
    assert_eq!(
        history.games[0].info.rules_source.as_deref(),
        Some("the server's quick match")
    );
}
