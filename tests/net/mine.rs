//! `mine`: a signed-in player finds the tables where they hold a seat,
//! private ones too, by the ids their machine keeps a token for; nobody
//! else learns anything of those tables by naming the same ids; more ids
//! than the bound, hostile ids, and a flood are refused.

use spades::ladder::keys::Identity;
use spades::net::server::Server;
use spades::protocol::lobby::{ListedTable, MAX_MINE};
use spades::protocol::{ClientMessage, ErrorCode, SeatPlayer, ServerMessage};
use support::net::Client;

use super::ladder::{arrive, key, registered, server as ladder_server, sign_in_with, signed};
use super::lobby::{connect, plain_server};

const PARTNERSHIP: &str = "mode = \"partnership\"\n";

/// A connection signed in as the account of `identity`.
async fn signed_in_as(server: &Server, identity: &Identity, name: &str) -> Client {
    let (mut client, nonce) = arrive(server, name).await;
    let signature = signed(server, identity, &nonce);
    let got = sign_in_with(&mut client, key(identity), signature).await;
    assert_eq!(got, Ok(name.to_string()));
    client
}

/// The server's answer to `mine` naming `ids`, or the error that came
/// instead.
async fn mine(client: &mut Client, ids: Vec<String>) -> Result<Vec<ListedTable>, ErrorCode> {
    client.send(&ClientMessage::Mine { tables: ids }).await;
    client
        .until(|m| match m {
            ServerMessage::Yours { tables } => Some(Ok(tables.clone())),
            ServerMessage::Error { code, .. } => Some(Err(*code)),
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_left_at_a_private_table_is_found_by_its_holder_only() {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let ann_key = registered(&server, "Ann").await;
    let bob_key = registered(&server, "Bob").await;
    let carol_key = registered(&server, "Carol").await;

    let mut ann = signed_in_as(&server, &ann_key, "Ann").await;
    let table = ann.host(PARTNERSHIP).await.table;
    let mut bob = signed_in_as(&server, &bob_key, "Bob").await;
    let seated = bob.join(&table).await.unwrap();
    ann.start().await;
    for client in [&mut ann, &mut bob] {
        client
            .until(|m| matches!(m, ServerMessage::Start { .. }).then_some(()))
            .await;
    }

    // At the table, `mine` is not for now.
    assert_eq!(
        mine(&mut bob, vec![table.clone()]).await,
        Err(ErrorCode::BadMessage)
    );
    bob.send(&ClientMessage::Bye {}).await;
    bob.closed().await;
    // The table is brought up to date before its players hear of it.
    ann.until(|m| match m {
        ServerMessage::Seat { seat, player, .. } => {
            (*seat == seated.seat && *player == SeatPlayer::Away).then_some(())
        }
        _ => None,
    })
    .await;

    let unknown = "K7QXM2PD4T9RWA3B".to_string();
    let ids = vec![unknown.clone(), table.clone(), table.clone()];
    let mut bob = signed_in_as(&server, &bob_key, "Bob").await;
    let yours = mine(&mut bob, ids.clone()).await.unwrap();
    let [found] = yours.as_slice() else {
        panic!("Bob's one table, once: {yours:?}");
    };
    assert_eq!(found.table, table);
    assert!(found.started);
    let his = &found.seats[seated.seat.index()];
    assert_eq!(his.name.as_deref(), Some("Bob"));
    assert_eq!(his.player, SeatPlayer::Away);
    // Never the seat's token.
    assert!(bob.received.iter().all(|l| !l.contains(&seated.token)));
    // And the seat is his to take back, as ever.
    assert!(bob.reclaim(&table, &seated.token).await.is_ok());

    // Another account naming the same ids learns nothing; nor a guest
    // under Bob's name.
    let mut carol = signed_in_as(&server, &carol_key, "Carol").await;
    assert_eq!(mine(&mut carol, ids.clone()).await, Ok(Vec::new()));
    let (mut guest, _) = arrive(&server, "Bob").await;
    assert_eq!(mine(&mut guest, ids).await, Ok(Vec::new()));
    for client in [&carol, &guest] {
        assert!(client.received.iter().all(|l| !l.contains(&table)));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_or_hostile_ids_and_a_flood_are_refused_and_the_connection_kept() {
    let server = plain_server();
    let mut dan = connect(&server, "Dan").await;
    let id = |i: usize| format!("K7QXM2PD4T9R{i:04}");
    let most: Vec<String> = (0..MAX_MINE).map(id).collect();
    let over: Vec<String> = (0..=MAX_MINE).map(id).collect();
    assert_eq!(mine(&mut dan, over).await, Err(ErrorCode::BadMessage));
    for hostile in [
        "",
        "../../etc/passwd",
        "K7QX M2PD",
        "\u{202e}K7QX",
        &"A".repeat(33),
    ] {
        let ids = vec![id(0), hostile.to_string()];
        assert_eq!(mine(&mut dan, ids).await, Err(ErrorCode::BadMessage));
    }
    // Refused ones cost nothing; answered ones count with `tables`.
    for _ in 0..10 {
        assert_eq!(mine(&mut dan, most.clone()).await, Ok(Vec::new()));
    }
    assert_eq!(mine(&mut dan, vec![id(0)]).await, Err(ErrorCode::Flood));
    dan.send(&ClientMessage::Tables { mode: None }).await;
    assert_eq!(dan.error().await.0, ErrorCode::Flood);
    // Still connected: a table opens.
    dan.host(PARTNERSHIP).await;
}

/// The client's `mine` cleans what it names (a token folder may hold any
/// file name, and more tables than the bound): the server answers it.
#[test]
fn the_client_names_only_table_ids_and_at_most_the_bound() {
    use spades::net::client::Connection;
    use spades::net::client::lobby;

    let server = plain_server();
    let target = super::play::target(&server);
    let mut connection = Connection::open(&target, "Ann").unwrap();
    let mut kept: Vec<String> = (0..MAX_MINE + 10)
        .map(|i| format!("K7QXM2PD4T9R{i:04}"))
        .collect();
    kept.insert(3, "../x".into());
    kept.insert(5, String::new());
    assert_eq!(lobby::mine(&mut connection, &kept), Ok(Some(Vec::new())));
}

/// A server before `mine` (it refuses the type as unknown): the client's
/// `mine` says so, and the connection goes on as before.
#[test]
fn a_server_before_mine_is_told_apart() {
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
    let kept = vec!["K7QXM2PD4T9RWA3B".to_string()];
    assert_eq!(lobby::mine(&mut connection, &kept), Ok(None));
    assert_eq!(lobby::list(&mut connection, None).unwrap().total, 0);
    drop(connection);
    assert_eq!(old.join().unwrap()[..3], ["hello", "mine", "tables"]);
}
