//! A lobby that keeps itself current (`follow`): a table opened by one
//! player is told to every lobby following without its asking; players
//! waiting for a quick match, and lobbies watching, are told the same
//! count; a flood of `follow` is paced, and past the flood limit closed; a
//! follower is not let go for not sitting down, and follows nothing once
//! seated; a server before `follow` is asked with `tables`. Then the same
//! through real `spades lobby` screens.

use std::time::{Duration, Instant};

use spades::engine::Mode;
use spades::net::server::{Server, ServerOptions};
use spades::protocol::lobby::ListedTable;
use spades::protocol::{ClientMessage, ErrorCode, ServerMessage};
use support::net::Client;
use support::pty::Pty;

use super::ladder::server as ladder_server;
use super::lobby::{connect, plain_server, signed_in};

/// Generous, for a loaded machine: the server tells within half a second.
const DEADLINE: Duration = Duration::from_secs(10);

const PARTNERSHIP: &str = "mode = \"partnership\"\n";

/// Follows the lobby of `mode`: the tables it is told first.
async fn follow(client: &mut Client, mode: Option<Mode>) -> Vec<ListedTable> {
    client.send(&ClientMessage::Follow { mode }).await;
    told(client, |m| match m {
        ServerMessage::Tables {
            tables, mode: told, ..
        } if *told == mode => Some(tables.clone()),
        _ => None,
    })
    .await
}

/// The first message told that `wanted` picks out, within the deadline.
async fn told<T>(client: &mut Client, wanted: impl FnMut(&ServerMessage) -> Option<T>) -> T {
    tokio::time::timeout(DEADLINE, client.until(wanted))
        .await
        .unwrap_or_else(|_| panic!("not told within {DEADLINE:?}"))
}

/// The first listing told that `wanted` holds of.
async fn told_tables(
    client: &mut Client,
    wanted: impl Fn(&[ListedTable]) -> bool,
) -> Vec<ListedTable> {
    told(client, |m| match m {
        ServerMessage::Tables { tables, .. } if wanted(tables) => Some(tables.clone()),
        _ => None,
    })
    .await
}

/// The first count of the partnership queue told that is `count`.
async fn told_waiting(client: &mut Client, count: u32) {
    told(client, |m| match m {
        ServerMessage::Queues { queues } => queues
            .iter()
            .any(|q| q.mode == Mode::Partnership && q.waiting == count)
            .then_some(()),
        _ => None,
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_opened_is_told_to_every_follower_without_asking() {
    let server = plain_server();
    let mut ann = connect(&server, "Ann").await;
    let mut bob = connect(&server, "Bob").await;
    assert!(follow(&mut ann, None).await.is_empty());
    assert!(follow(&mut bob, Some(Mode::Partnership)).await.is_empty());
    let mut carol = connect(&server, "Carol").await;
    let opened = Instant::now();
    let table = carol.open(PARTNERSHIP, true).await.table;
    for follower in [&mut ann, &mut bob] {
        let listed = told_tables(follower, |t| t.iter().any(|t| t.table == table)).await;
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].seats[0].name.as_deref(), Some("Carol"));
    }
    let took = opened.elapsed();
    eprintln!("told both followers in {took:?}");
    assert!(took < DEADLINE, "{took:?}");
    // Someone sits down: told again, a seat fewer free.
    let mut dee = connect(&server, "Dee").await;
    dee.join(&table).await.unwrap();
    for follower in [&mut ann, &mut bob] {
        told_tables(follower, |t| t.first().is_some_and(|t| t.free_seats() == 2)).await;
    }
    // A table of another mode is told to the lobby of every mode, not to
    // the partnership lobby.
    let mut eve = connect(&server, "Eve").await;
    let cut = eve.open("mode = \"cutthroat\"\n", true).await.table;
    told_tables(&mut ann, |t| t.iter().any(|t| t.table == cut)).await;
    // Everyone leaves: the table is gone from every list.
    for player in [&mut carol, &mut dee] {
        player.send(&ClientMessage::Bye {}).await;
    }
    told_tables(&mut bob, |t| t.is_empty()).await;
    told_tables(&mut ann, |t| t.iter().all(|t| t.table != table)).await;
    assert!(
        bob.received.iter().all(|line| !line.contains(&cut)),
        "the partnership lobby was told of a cutthroat table"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_waiting_for_a_quick_match_and_a_lobby_see_the_same_count() {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let (mut ann, _) = signed_in(&server, "Ann").await;
    let (mut bob, _) = signed_in(&server, "Bob").await;
    let mut carol = connect(&server, "Carol").await;
    for client in [&mut ann, &mut bob, &mut carol] {
        follow(client, None).await;
    }
    let queue = ClientMessage::Queue {
        mode: Mode::Partnership,
        wait: 300,
    };
    ann.send(&queue).await;
    told_waiting(&mut carol, 1).await;
    bob.send(&queue).await;
    // Ann was told one waited when she queued; now all three are told two.
    for client in [&mut ann, &mut bob, &mut carol] {
        told_waiting(client, 2).await;
    }
    ann.send(&ClientMessage::Unqueue {}).await;
    for client in [&mut bob, &mut carol] {
        told_waiting(client, 1).await;
    }
}

/// How many listings come within `time`.
async fn listings_within(client: &mut Client, time: Duration) -> usize {
    let until = Instant::now() + time;
    let mut listings = 0;
    while let Ok(Ok(Some(message))) = tokio::time::timeout(
        until.saturating_duration_since(Instant::now()),
        client.next_within(DEADLINE),
    )
    .await
    {
        listings += usize::from(matches!(message, ServerMessage::Tables { .. }));
    }
    listings
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_follows_is_paced_and_past_the_flood_limit_closed() {
    let server = plain_server();
    let mut mallory = connect(&server, "Mallory").await;
    let follows = (0..40)
        .map(|_| spades::protocol::line(&ClientMessage::Follow { mode: None }))
        .collect::<String>();
    // The first ten are answered at once, as `tables` would be; the rest
    // come at most twice a second: not one a follow.
    mallory.send_raw(follows.as_bytes()).await.unwrap();
    let listings = listings_within(&mut mallory, Duration::from_millis(1500)).await;
    eprintln!("40 follows at once: {listings} listings told");
    assert!((1..=13).contains(&listings), "{listings} listings told");
    mallory.send_raw(follows.as_bytes()).await.unwrap();
    let listings = listings_within(&mut mallory, Duration::from_millis(1500)).await;
    eprintln!("40 more: {listings} listings told");
    assert!((1..=4).contains(&listings), "{listings} listings told");
    // Past 50 messages a second: refused and closed, as any flood.
    let flood = (0..60)
        .map(|_| spades::protocol::line(&ClientMessage::Follow { mode: None }))
        .collect::<String>();
    mallory.send_raw(flood.as_bytes()).await.unwrap();
    let said = mallory.closed().await;
    assert!(
        said.iter().any(|m| matches!(
            m,
            ServerMessage::Error {
                code: ErrorCode::Flood,
                ..
            }
        )),
        "{said:?}"
    );
    // The server still answers everyone else.
    let mut ann = connect(&server, "Ann").await;
    assert!(follow(&mut ann, None).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_is_not_let_go_for_not_sitting_down_and_follows_nothing_seated() {
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        sit_timeout: Duration::from_secs(1),
        threads: Some(2),
        ..ServerOptions::default()
    })
    .unwrap();
    let mut idle = connect(&server, "Idle").await;
    let mut ann = connect(&server, "Ann").await;
    follow(&mut ann, None).await;
    let said = idle.closed().await;
    assert!(
        matches!(
            said.last(),
            Some(ServerMessage::Error {
                code: ErrorCode::Timeout,
                ..
            })
        ),
        "{said:?}"
    );
    // Ann, following, is still here well past the time to sit down.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut bob = connect(&server, "Bob").await;
    let table = bob.open(PARTNERSHIP, true).await.table;
    told_tables(&mut ann, |t| t.iter().any(|t| t.table == table)).await;
    // Seated, she follows nothing: `follow` is refused, and nothing of
    // the lobby is told her.
    ann.join(&table).await.unwrap();
    ann.send(&ClientMessage::Follow { mode: None }).await;
    assert_eq!(ann.error().await.0, ErrorCode::BadMessage);
    let told_before = ann.received.len();
    let mut carol = connect(&server, "Carol").await;
    carol.open(PARTNERSHIP, true).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    bob.send(&ClientMessage::Chat { text: "hi".into() }).await;
    told(&mut ann, |m| {
        matches!(m, ServerMessage::Chat { .. }).then_some(())
    })
    .await;
    let lobby_news = ann.received[told_before..]
        .iter()
        .filter(|l| l.contains("\"type\":\"tables\"") || l.contains("\"type\":\"queues\""))
        .count();
    assert_eq!(lobby_news, 0, "{:?}", &ann.received[told_before..]);
}

/// `spades lobby` as a player has it, against a real `spades serve`.
fn lobby_screen(server: &str, name: &str) -> Pty {
    let mut pty = Pty::start(&["lobby", server, "--name", name], Some("xterm-256color"));
    pty.wait_for("the lobby", |s| s.contains("Tables (0)"));
    pty
}

/// Two lobby screens on one server: a table a third player opens shows on
/// both with no key pressed, and two players waiting for a quick match
/// see the same count.
#[test]
fn two_lobby_screens_keep_themselves_current() {
    let served = support::process::serve(&[]);
    let mut ann = lobby_screen(&served.server, "Ann");
    let mut bob = lobby_screen(&served.server, "Bob");
    let mut carol = Pty::start(
        &[
            "host",
            "--server",
            &served.server,
            "--public",
            "--name",
            "Carol",
        ],
        Some("xterm-256color"),
    );
    carol.wait_for("her table's lobby", |s| s.contains("A friend joins with"));
    let shown = Instant::now();
    for lobby in [&mut ann, &mut bob] {
        lobby.wait_for("the table, with no key pressed", |s| {
            s.contains("Tables (1)") && s.contains("Carol")
        });
    }
    let took = shown.elapsed();
    eprintln!("both screens showed the table {took:?} after it opened");
    assert!(took < DEADLINE, "{took:?}");
    // Both ask for a quick match (partnership, a minute): each waiting
    // screen says two wait.
    for lobby in [&mut ann, &mut bob] {
        lobby.send(b"q");
        lobby.wait_for("the quick-match form", |s| s.contains("wait for players"));
        lobby.send(b"\r");
    }
    for lobby in [&mut ann, &mut bob] {
        lobby.wait_for("the same count", |s| s.contains("Waiting  2, you included"));
    }
    for pty in [&mut ann, &mut bob, &mut carol] {
        pty.kill();
    }
}

/// A server before `follow` (it refuses the type as unknown): the
/// client's `follow` says so, and the lobby asks with `tables` as before.
#[test]
fn a_server_before_follow_is_asked_with_tables() {
    use spades::net::client::lobby;
    use spades::net::client::{Connection, Target};
    use spades::net::code::Trust;
    use std::io::{BufRead, BufReader, Write};

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let old = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut out = stream.try_clone().unwrap();
        let mut said = Vec::new();
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            let kind = serde_json::from_str::<serde_json::Value>(&line).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string();
            let answer = match kind.as_str() {
                "hello" => r#"{"type":"welcome","protocol":1,"server":"spades 0.0.9"}"#,
                "tables" => r#"{"type":"tables","tables":[],"total":0}"#,
                _ => r#"{"type":"error","code":"bad_message","message":"unknown variant"}"#,
            };
            said.push(kind);
            if out.write_all(format!("{answer}\n").as_bytes()).is_err() {
                break;
            }
        }
        said
    });
    let target = Target {
        address: address.to_string(),
        trust: Trust::Plain,
    };
    let mut connection = Connection::open(&target, "Ann").unwrap();
    assert_eq!(lobby::follow(&mut connection, None), Ok(None));
    let listing = lobby::list(&mut connection, None).unwrap();
    assert_eq!(listing.total, 0);
    drop(connection);
    assert_eq!(old.join().unwrap()[..3], ["hello", "follow", "tables"]);
}
