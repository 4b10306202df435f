//! Two real servers on one real PostgreSQL (started as the ladder's tests
//! start it): a public table opened on one is listed by the other with
//! the first's code, brought there by `NOTIFY` (the heartbeat and the
//! whole readings are far slower than the deadline); it is gone from the
//! other's listing when it ends, and all of a node's when it stops or
//! falls silent; rows another node could write that are not a listing,
//! or of a node silent for long, are never listed.
#![cfg(unix)]

use std::time::{Duration, Instant};

use super::{FleetOptions, MAX_LISTING_BYTES};
use crate::client::lobby;
use crate::client::{Connection, Incoming, Target};
use crate::code::{TableCode, Trust};
use crate::engine::{Mode, Rules};
use crate::ladder::store::{Database, PostgresUrl};
use crate::ladder::temp_postgres::TempPostgres;
use crate::protocol::lobby::ListedTable;
use crate::protocol::{ClientMessage, ServerMessage};
use crate::server::{Server, ServerOptions};

/// Far longer than any wait here: what arrives came by `NOTIFY`.
const SLOW: FleetOptions = FleetOptions {
    public_address: None,
    heartbeat: Duration::from_secs(60),
    expiry: Duration::from_secs(180),
};

/// Generous, for a loaded machine: each is met in well under a second.
const DEADLINE: Duration = Duration::from_secs(15);

fn node(url: &PostgresUrl, fleet: FleetOptions) -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        threads: Some(1),
        db: Some(Database::Postgres(url.clone())),
        fleet,
        ..ServerOptions::default()
    })
    .expect("the node starts")
}

fn connect(server: &Server, name: &str) -> Connection {
    let target = Target {
        address: server.address().to_string(),
        trust: Trust::Plain,
    };
    Connection::open(&target, name).expect("connected")
}

/// A public table opened on `server` by its host, whose connection is
/// kept (the table ends when it says bye).
fn open_table(server: &Server, name: &str) -> (Connection, String) {
    let mut host = connect(server, name);
    let rules = Rules::classic(Mode::Partnership);
    let seated = lobby::open(&mut host, &rules, true).expect("a table opened");
    (host, seated.table)
}

/// The other nodes' tables as `server`'s fleet view has them now.
fn fleet_tables(server: &Server) -> Vec<ListedTable> {
    let fleet = server.fleet.as_ref().expect("a node of a fleet");
    fleet.tables().iter().map(|(_, t)| t.clone()).collect()
}

/// Waits until `server`'s view of the fleet satisfies `done`.
fn until(server: &Server, what: &str, done: impl Fn(&[ListedTable]) -> bool) -> Vec<ListedTable> {
    let fleet = server.fleet.as_ref().expect("a node of a fleet");
    let mut changes = fleet.changes();
    let start = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    loop {
        let seen = fleet_tables(server);
        if done(&seen) {
            return seen;
        }
        assert!(start.elapsed() < DEADLINE, "{what}: {seen:?}");
        // The hook says when to look again; the timeout only bounds a
        // change made between the look and the wait.
        let wait = Duration::from_millis(200);
        let _ = runtime.block_on(async { tokio::time::timeout(wait, changes.changed()).await });
    }
}

/// The message of the next error `connection` is sent.
fn refusal(connection: &mut Connection) -> String {
    let start = Instant::now();
    while start.elapsed() < DEADLINE {
        if let Some(Incoming::Message(ServerMessage::Error { message, .. })) =
            connection.recv_timeout(Duration::from_millis(200))
        {
            return message;
        }
    }
    panic!("no error came");
}

fn code_of(server: &Server, table: &str) -> String {
    TableCode {
        table: table.into(),
        trust: Trust::Plain,
        host: "127.0.0.1".into(),
        port: server.address().port(),
    }
    .to_string()
}

#[test]
fn a_table_opened_on_one_node_is_listed_by_the_other_with_its_code() {
    let Some(mut postgres) = TempPostgres::start() else {
        return;
    };
    let url = postgres.fresh_database();
    let a = node(&url, SLOW);
    let b = node(&url, SLOW);
    let (mut ann, table) = open_table(&a, "Ann");
    let seen = until(&b, "A's table listed by B", |t| t.len() == 1);
    assert_eq!(seen[0].table, table);
    assert_eq!(seen[0].seats[0].name.as_deref(), Some("Ann"));
    assert_eq!(seen[0].code, Some(code_of(&a, &table)));

    // B's lobby lists it beside B's own, A's with its code; A's lists
    // its own without one.
    let (bob, own) = open_table(&b, "Bob");
    let mut carol = connect(&b, "Carol");
    let listing = lobby::list(&mut carol, None).expect("listed");
    assert_eq!(listing.total, 2);
    let code = |id: &str| {
        let t = listing.tables.iter().find(|t| t.table == id).unwrap();
        t.code.clone()
    };
    assert_eq!(code(&table), Some(code_of(&a, &table)));
    assert_eq!(code(&own), None);
    // Asked of B, A's table is refused with where it is.
    let mut fay = connect(&b, "Fay");
    fay.send(ClientMessage::Join {
        table: table.clone(),
    });
    let refused = refusal(&mut fay);
    assert!(refused.contains(&code_of(&a, &table)), "{refused}");
    until(&a, "B's table listed by A", |t| {
        t.len() == 1 && t[0].table == own
    });

    // A change of seats reaches B too, and B's lobbies that follow are
    // told of it unasked.
    let mut gus = connect(&b, "Gus");
    lobby::follow(&mut gus, None).expect("followed");
    let mut dee = connect(&a, "Dee");
    dee.send(ClientMessage::Join {
        table: table.clone(),
    });
    until(&b, "Dee seated at A's table", |t| {
        t.iter()
            .any(|t| t.seats.iter().any(|s| s.name.as_deref() == Some("Dee")))
    });
    let deadline = Instant::now() + Duration::from_secs(15);
    let told_of_dee = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Some(Incoming::Message(message)) = gus.recv_timeout(left) else {
            break false;
        };
        if let Some(lobby::News::Tables { listing, .. }) = lobby::News::of(&message)
            && listing
                .tables
                .iter()
                .any(|t| t.seats.iter().any(|s| s.name.as_deref() == Some("Dee")))
        {
            break true;
        }
    };
    assert!(told_of_dee, "B's follower told of the seat taken on A");

    // The table ends (its people leave): gone from B.
    for person in [&mut ann, &mut dee] {
        person.send(ClientMessage::Bye {});
    }
    until(&b, "A's table gone from B", <[ListedTable]>::is_empty);

    // A stops cleanly: A's tables go from B at once, not at the expiry.
    let (_eve, _) = open_table(&a, "Eve");
    until(&b, "Eve's table listed by B", |t| t.len() == 1);
    a.stop();
    until(
        &b,
        "A's tables gone when A stopped",
        <[ListedTable]>::is_empty,
    );
    bob.send(ClientMessage::Bye {});
}

#[test]
fn a_silent_node_is_dropped_after_the_expiry_and_swept() {
    let Some(mut postgres) = TempPostgres::start() else {
        return;
    };
    let url = postgres.fresh_database();
    let quick = FleetOptions {
        public_address: None,
        heartbeat: Duration::from_millis(200),
        expiry: Duration::from_millis(1500),
    };
    let a = node(&url, quick.clone());
    let b = node(&url, quick);
    let (_ann, table) = open_table(&a, "Ann");
    until(&b, "A's table listed by B", |t| {
        t.len() == 1 && t[0].table == table
    });
    // Still listed past several expiries while A's heart beats.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(fleet_tables(&b).len(), 1, "a live node's table stays");
    let fleet = a.fleet.as_ref().unwrap();
    let a_node = fleet.shared.node.clone();
    let a_tables = |client: &mut postgres::Client| -> i64 {
        client
            .query_one(
                "SELECT COUNT(*) FROM fleet_tables WHERE node = $1",
                &[&a_node],
            )
            .unwrap()
            .get(0)
    };
    let written_again = |client: &mut postgres::Client, what: &str| {
        let start = Instant::now();
        while a_tables(client) != 1 {
            assert!(start.elapsed() < DEADLINE, "{what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };

    // Swept by mistake: A finds its row gone at its next beat, and writes
    // it again with its table.
    let mut client = url.config().connect(postgres::NoTls).unwrap();
    client
        .execute("DELETE FROM fleet_nodes WHERE node = $1", &[&a_node])
        .unwrap();
    written_again(&mut client, "A wrote itself again after a sweep");

    // The database crashes and restarts, its unlogged tables emptied: A
    // writes itself again, and B lists A's table again.
    postgres.stop();
    postgres.resume();
    let mut client = url.config().connect(postgres::NoTls).unwrap();
    written_again(&mut client, "A wrote itself again after a crash");
    until(&b, "A's table listed again after the crash", |t| {
        t.len() == 1 && t[0].table == table
    });

    // As if A's process were killed: its rows stay, its heart stops.
    fleet.fall_silent();
    let silent = Instant::now();
    until(
        &b,
        "A's tables dropped once A is silent",
        <[ListedTable]>::is_empty,
    );
    assert!(
        silent.elapsed() >= Duration::from_millis(1000),
        "not before the expiry: {:?}",
        silent.elapsed()
    );
    assert_eq!(
        a_tables(&mut client),
        0,
        "the silent node's rows were swept"
    );
}

#[test]
fn rows_that_are_not_a_tables_listing_are_never_listed() {
    let Some(mut postgres) = TempPostgres::start() else {
        return;
    };
    let url = postgres.fresh_database();
    let b = node(&url, SLOW);
    // A table as an honest node would write it, to copy.
    let (_ann, honest) = {
        let a = node(&url, SLOW);
        let (ann, table) = open_table(&a, "Ann");
        let seen = until(&b, "A's table listed by B", |t| t.len() == 1);
        a.stop();
        until(&b, "A gone", <[ListedTable]>::is_empty);
        let mut copy = seen[0].clone();
        copy.code = None;
        assert_eq!(copy.table, table);
        (ann, copy)
    };
    let json = |t: &ListedTable| serde_json::to_string(t).unwrap();
    let with = |id: &str, change: &dyn Fn(&mut ListedTable)| {
        let mut t = honest.clone();
        t.table = id.into();
        change(&mut t);
        (id.to_string(), json(&t))
    };
    let rows = [
        with("GOODAAAAAAAAAAAA", &|_| {}),
        with("DIRTYAAAAAAAAAAA", &|t| {
            t.seats[0].name = Some("Mal\u{1b}[2J\u{202e}lory the Great".into());
        }),
        ("NOTJSONAAAAAAAAA".into(), "{\"table\":".into()),
        with("OTHERIDAAAAAAAAA", &|t| t.table = "GOODAAAAAAAAAAAA".into()),
        with("FEWSEATSAAAAAAAA", &|t| {
            t.seats.pop();
        }),
        with("HUGEAAAAAAAAAAAA", &|t| {
            t.rules = "x".repeat(MAX_LISTING_BYTES)
        }),
        with("bad id", &|_| {}),
    ];
    let mut client = url.config().connect(postgres::NoTls).unwrap();
    let mut tx = client.transaction().unwrap();
    tx.execute(
        "INSERT INTO fleet_nodes VALUES ('EVIL', 'plain@127.0.0.1:9', now(), now()),
            ('FAR', 'plain@203.0.113.7:9', now(), now()),
            ('OLD', 'plain@127.0.0.1:9', now(), now() - interval '1 hour')",
        &[],
    )
    .unwrap();
    for node in ["EVIL", "FAR", "OLD"] {
        for (id, listing) in &rows {
            tx.execute(
                "INSERT INTO fleet_tables VALUES ($1, $2, 1, $3)",
                &[&node, id, listing],
            )
            .unwrap();
        }
    }
    for payload in [
        "EVIL",
        "FAR",
        "OLD",
        "",
        "evil!",
        "EVIL GOOD BAD",
        &"A".repeat(7000),
    ] {
        tx.execute("SELECT pg_notify('spades_fleet', $1)", &[&payload])
            .unwrap();
    }
    tx.commit().unwrap();
    let seen = until(&b, "EVIL's good rows listed", |t| t.len() == 2);
    let mut ids: Vec<&str> = seen.iter().map(|t| t.table.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["DIRTYAAAAAAAAAAA", "GOODAAAAAAAAAAAA"]);
    let dirty = seen.iter().find(|t| t.table.starts_with("DIRTY")).unwrap();
    assert_eq!(dirty.seats[0].name.as_deref(), Some("Mal [2Jlory"));
    assert!(dirty.code.as_deref().unwrap().ends_with("@127.0.0.1:9"));
    // B's lobby still answers, with them.
    let mut carol = connect(&b, "Carol");
    assert_eq!(lobby::list(&mut carol, None).unwrap().total, 2);
}
