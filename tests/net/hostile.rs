//! Clients that break the protocol, on purpose or not: each is refused
//! with the error the protocol names (or disconnected), and none of them
//! stops a table elsewhere on the server from playing its game to the end.
//! Hundreds of connections at once are served.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use spades::engine::{Action, Bid, Decision, Seat};
use spades::net::protocol::{ClientMessage, ErrorCode, Legal, MAX_LINE, ServerMessage};
use spades::net::server::{Server, ServerOptions};
use support::checker::check_record;
use support::net::{Answerer, Client, Seen, play_out};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

const HELLO_TIMEOUT: Duration = Duration::from_millis(400);

/// A server whose turn timer stands in for a person who never answers.
fn server(hello_timeout: Duration) -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        hello_timeout,
        turn_timer: Some(Duration::from_secs(1)),
        threads: Some(2),
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

fn rules(mode: &str, points: i32) -> String {
    format!("mode = \"{mode}\"\ntarget_score = {points}\nlosing_score = -{points}\n")
}

async fn connect(address: SocketAddr, fp: Option<&str>, name: &str) -> Client {
    let mut client = Client::connect(address, fp).await;
    client.hello(name).await;
    client
}

/// A table of two people and two bots playing a whole game, in a task of
/// its own: what both people saw.
fn a_normal_table(address: SocketAddr, fp: Option<String>) -> tokio::task::JoinHandle<[Seen; 2]> {
    tokio::spawn(async move {
        let fp = fp.as_deref();
        let mut host = connect(address, fp, "Alice").await;
        let table = host.host(&rules("partnership", 200)).await;
        let mut partner = connect(address, fp, "Bob").await;
        partner.join(&table.table).await.unwrap();
        host.start().await;
        let (mut a, mut b) = (Answerer::new("normal", 7), Answerer::new("normal", 8));
        let (alice, bob) =
            tokio::join!(play_out(&mut host, &mut a), play_out(&mut partner, &mut b));
        [alice, bob]
    })
}

fn assert_played_to_the_end(seen: &[Seen; 2]) {
    for s in seen {
        assert_eq!(s.bye.as_deref(), Some("the game is over"));
        let report = check_record(&s.record_text());
        assert!(report.is_ok() && report.games == 1, "{}", report.describe());
    }
}

/// The error that ends a connection, and that it does end.
async fn refused_and_closed(client: &mut Client) -> ErrorCode {
    let seen = client.closed().await;
    match seen.last() {
        Some(ServerMessage::Error { code, .. }) => *code,
        other => panic!("the connection ended with {other:?}, not an error"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_clients_are_refused_and_a_table_plays_on() {
    let server = server(HELLO_TIMEOUT);
    let address = server.address();
    let fp = server.fingerprint().map(str::to_string);
    let fp = fp.as_deref();
    let normal = a_normal_table(address, fp.map(str::to_string));

    // Not JSON, not UTF-8, unknown types and keys: refused, still open.
    let mut garbled = connect(address, fp, "Mallory").await;
    for bad in [
        &b"{not json\n"[..],
        b"\xff\xfe\xfd\n",
        b"{\"type\":\"shout\"}\n",
        b"{\"type\":\"start\",\"extra\":1}\n",
        b"{\"type\":\"act\",\"action\":{\"play\":\"ZZ\"}}\n",
        b"\n",
    ] {
        garbled.send_raw(bad).await.unwrap();
        assert_eq!(garbled.error().await.0, ErrorCode::BadMessage, "{bad:?}");
    }
    garbled
        .send(&ClientMessage::Chat { text: "hi".into() })
        .await;
    assert_eq!(garbled.error().await.0, ErrorCode::NoTable, "still open");
    garbled
        .send(&ClientMessage::Act {
            action: Action::Look,
        })
        .await;
    assert_eq!(garbled.error().await.0, ErrorCode::NotYourTurn);
    garbled.send(&ClientMessage::Start {}).await;
    assert_eq!(garbled.error().await.0, ErrorCode::NotHost);

    // A line over the limit: refused before it is all read, and closed.
    let mut long = connect(address, fp, "Long").await;
    let mut line = vec![b'x'; MAX_LINE + 100];
    line.push(b'\n');
    let _ = long.send_raw(&line).await;
    assert_eq!(refused_and_closed(&mut long).await, ErrorCode::TooLong);

    // Anything but hello first, or another version: closed.
    for first in [
        &b"{\"type\":\"join\",\"table\":\"AAAAAAAAAAAAAAAA\"}\n"[..],
        b"{\"type\":\"hello\",\"protocol\":2,\"name\":\"Future\"}\n",
        b"GET / HTTP/1.1\n",
    ] {
        let mut early = Client::connect(address, fp).await;
        early.send_raw(first).await.unwrap();
        assert_eq!(refused_and_closed(&mut early).await, ErrorCode::Version);
    }

    // Silence after connecting: a timeout, then closed.
    let began = Instant::now();
    let mut silent = Client::connect(address, fp).await;
    assert_eq!(refused_and_closed(&mut silent).await, ErrorCode::Timeout);
    assert!(began.elapsed() >= HELLO_TIMEOUT);
    // Not even a TLS handshake: closed at the same deadline.
    let mut raw = TcpStream::connect(address).await.unwrap();
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(10), raw.read(&mut buf)).await;
    assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "closed: {read:?}");

    // A flood: the 51st message within a second closes the connection.
    let mut flood = connect(address, fp, "Flood").await;
    let burst: Vec<u8> = (0..80)
        .flat_map(|_| b"{\"type\":\"chat\",\"text\":\"x\"}\n".to_vec())
        .collect();
    let _ = flood.send_raw(&burst).await;
    let seen = flood.closed().await;
    let refusals: Vec<ErrorCode> = seen
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .collect();
    // Hello counts too, when it came within the same second.
    let (last, before) = refusals.split_last().unwrap();
    assert_eq!(*last, ErrorCode::Flood);
    assert!(before.iter().all(|&c| c == ErrorCode::NoTable));
    assert!((49..=50).contains(&before.len()), "{refusals:?}");

    // Rules that cannot be played.
    let mut host = connect(address, fp, "Rulesy").await;
    for bad in [
        "mode = \"chess\"",
        "target_score = \"lots\"",
        "[nil]\nvalue = 1e99",
    ] {
        host.send(&ClientMessage::Host { rules: bad.into() }).await;
        let (code, why) = host.error().await;
        assert_eq!(code, ErrorCode::BadRules, "{bad}: {why}");
    }

    // Tokens and tables that are not there.
    let table = host.host(&rules("partnership", 150)).await;
    let mut guest = connect(address, fp, "Guest").await;
    guest.join(&table.table).await.unwrap();
    let mut thief = connect(address, fp, "Thief").await;
    let wrong = "A".repeat(26);
    assert_eq!(
        thief.reclaim(&table.table, &wrong).await.unwrap_err().0,
        ErrorCode::BadToken
    );
    assert_eq!(
        thief
            .reclaim(&table.table, &table.token)
            .await
            .unwrap_err()
            .0,
        ErrorCode::BadToken,
        "the host's token, the host being there"
    );
    assert_eq!(
        thief
            .reclaim("BBBBBBBBBBBBBBBB", &wrong)
            .await
            .unwrap_err()
            .0,
        ErrorCode::NoTable
    );
    guest
        .send(&ClientMessage::Chat {
            text: "x".repeat(201),
        })
        .await;
    assert_eq!(guest.error().await.0, ErrorCode::BadMessage);
    guest
        .send(&ClientMessage::Act {
            action: Action::Look,
        })
        .await;
    assert_eq!(
        guest.error().await.0,
        ErrorCode::NotYourTurn,
        "in the lobby"
    );

    // In the game: acts out of turn, illegal bids and cards. Each is
    // refused and the ask stands. The guest never answers: the turn timer
    // answers for it.
    host.start().await;
    let mut answerer = Answerer::new("normal", 3);
    let (mut bids_refused, mut cards_refused) = (false, false);
    loop {
        let Some(message) = host.next().await else {
            panic!("the host's connection closed");
        };
        let ServerMessage::Ask {
            decision,
            legal,
            view,
            ..
        } = message
        else {
            if matches!(message, ServerMessage::Bye { .. }) {
                break;
            }
            continue;
        };
        // The guest has nothing asked of it while the host does (but in an
        // exchange, when both may owe cards).
        if decision != Decision::Exchange {
            guest
                .send(&ClientMessage::Act {
                    action: Action::Bid(Bid::Tricks(3)),
                })
                .await;
            assert_eq!(guest.error().await.0, ErrorCode::NotYourTurn);
        }
        let wrong = match (&legal, decision) {
            (Legal::Bids { .. }, Decision::Bid) if !bids_refused => {
                bids_refused = true;
                vec![
                    Action::Bid(Bid::Tricks(14)),
                    Action::Bid(Bid::BlindNil),
                    Action::Look,
                    Action::Play("AS".parse().unwrap()),
                ]
            }
            (Legal::Cards { cards }, Decision::Play) if !cards_refused => {
                let hand = view.cards();
                let outside = hand.iter().find(|c| !cards.contains(*c));
                let not_held = spades::engine::CardSet::from_iter(
                    "AS KS QS AH KH AD KD AC KC 2C 2D 2H 2S"
                        .split(' ')
                        .map(|c| c.parse().unwrap()),
                )
                .iter()
                .find(|c| !hand.contains(*c));
                if outside.is_none() {
                    Vec::new()
                } else {
                    cards_refused = true;
                    [outside, not_held]
                        .into_iter()
                        .flatten()
                        .map(Action::Play)
                        .collect()
                }
            }
            _ => Vec::new(),
        };
        for action in wrong {
            host.send(&ClientMessage::Act { action }).await;
            let (code, why) = host.error().await;
            assert_eq!(code, ErrorCode::Illegal, "{action:?}: {why}");
        }
        if bids_refused && cards_refused {
            host.send(&ClientMessage::Bye {}).await;
            break;
        }
        let action = answerer.answer(decision, &legal, &view);
        host.send(&ClientMessage::Act { action }).await;
    }
    assert!(bids_refused && cards_refused, "both kinds were tried");
    assert!(guest.closed().await.iter().any(
        |m| matches!(m, ServerMessage::Bye { reason } if reason == "the host left the table")
    ));

    let seen = tokio::time::timeout(Duration::from_secs(60), normal)
        .await
        .expect("the normal table finished")
        .unwrap();
    assert_played_to_the_end(&seen);
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_hundred_connections_at_once() {
    // Three hundred TLS handshakes at once take a while on two cores.
    let server = server(Duration::from_secs(20));
    let address = server.address();
    let fp = server.fingerprint().map(str::to_string);
    let normal = a_normal_table(address, fp.clone());
    let mut connecting = tokio::task::JoinSet::new();
    for i in 0..300 {
        let fp = fp.clone();
        connecting.spawn(async move {
            let mut client = connect(address, fp.as_deref(), &format!("C{i}")).await;
            let seated = if i % 3 == 0 {
                Some(client.host(&rules("partnership", 100)).await)
            } else {
                None
            };
            (i, client, seated)
        });
    }
    let mut clients = Vec::new();
    while let Some(done) = connecting.join_next().await {
        clients.push(done.unwrap());
    }
    clients.sort_by_key(|(i, _, _)| *i);
    assert_eq!(clients.len(), 300);
    // A hundred tables; a hundred others join them, all at once.
    let tables: Vec<String> = clients
        .iter()
        .filter_map(|(_, _, s)| s.as_ref().map(|s| s.table.clone()))
        .collect();
    let mut joining = tokio::task::JoinSet::new();
    let mut idle = Vec::new();
    let mut hosts = Vec::new();
    for (i, client, seated) in clients {
        match (i % 3, seated) {
            (0, Some(_)) => hosts.push(client),
            (1, _) => {
                let table = tables[i / 3].clone();
                let mut client = client;
                joining.spawn(async move {
                    let sat = client.join(&table).await.unwrap();
                    assert_eq!(sat.seat, Seat::new(2));
                    client
                });
            }
            _ => idle.push(client),
        }
    }
    let mut guests = Vec::new();
    while let Some(done) = joining.join_next().await {
        guests.push(done.unwrap());
    }
    assert_eq!((hosts.len(), guests.len(), idle.len()), (100, 100, 100));
    // Everyone is still served: the idle ones answer, a table plays.
    for client in idle.iter_mut().step_by(10) {
        client.send(&ClientMessage::Chat { text: "?".into() }).await;
        assert_eq!(client.error().await.0, ErrorCode::NoTable);
    }
    let seen = tokio::time::timeout(Duration::from_secs(60), normal)
        .await
        .expect("the normal table finished")
        .unwrap();
    assert_played_to_the_end(&seen);
    drop((hosts, guests, idle));
    server.stop();
}
