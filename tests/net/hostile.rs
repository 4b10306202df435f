//! Clients that break the protocol, on purpose or not: each is refused
//! with the error the protocol names (or disconnected), one test a kind of
//! client; and none of them stops a table elsewhere on the server from
//! playing its game to the end, which one test checks with every kind of
//! client coming and going on one server. Hundreds of connections at once
//! are served.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use spades::engine::{Action, Bid, Decision, Seat};
use spades::net::server::{Server, ServerOptions};
use spades::protocol::{ClientMessage, ErrorCode, Legal, MAX_LINE, SeatPlayer, ServerMessage};
use support::checker::check_record;
use support::net::{Answerer, Client, Seated, Seen, play_out};
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
        // Hundreds of clients at once, all from loopback.
        per_address: 1000,
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

/// A server of its own for one kind of hostile client.
struct Place {
    server: Server,
}

impl Place {
    fn new() -> Place {
        Place {
            server: server(HELLO_TIMEOUT),
        }
    }

    fn address(&self) -> SocketAddr {
        self.server.address()
    }

    fn fp(&self) -> Option<&str> {
        self.server.fingerprint()
    }
}

// ------------------------------------------------------------------ garbled lines

/// A line the protocol cannot read is refused as a bad message, and the
/// connection stays open: the next message is answered as usual.
async fn garbled_line(address: SocketAddr, fp: Option<&str>, bad: &[u8]) {
    let mut garbled = connect(address, fp, "Mallory").await;
    garbled.send_raw(bad).await.unwrap();
    assert_eq!(garbled.error().await.0, ErrorCode::BadMessage, "{bad:?}");
    garbled
        .send(&ClientMessage::Chat { text: "hi".into() })
        .await;
    assert_eq!(garbled.error().await.0, ErrorCode::NoTable, "still open");
}

const NOT_JSON: &[u8] = b"{not json\n";
const NOT_UTF8: &[u8] = b"\xff\xfe\xfd\n";
const UNKNOWN_TYPE: &[u8] = b"{\"type\":\"shout\"}\n";
const UNKNOWN_KEY: &[u8] = b"{\"type\":\"start\",\"extra\":1}\n";
const UNKNOWN_CARD: &[u8] = b"{\"type\":\"act\",\"action\":{\"play\":\"ZZ\"}}\n";
const EMPTY_LINE: &[u8] = b"\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_that_is_not_json_is_refused_and_the_connection_stays_open() {
    let place = Place::new();
    garbled_line(place.address(), place.fp(), NOT_JSON).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_that_is_not_utf8_is_refused_and_the_connection_stays_open() {
    let place = Place::new();
    garbled_line(place.address(), place.fp(), NOT_UTF8).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_message_type_is_refused_and_the_connection_stays_open() {
    let place = Place::new();
    garbled_line(place.address(), place.fp(), UNKNOWN_TYPE).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_key_is_refused_and_the_connection_stays_open() {
    let place = Place::new();
    garbled_line(place.address(), place.fp(), UNKNOWN_KEY).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_that_is_not_one_is_refused_and_the_connection_stays_open() {
    let place = Place::new();
    garbled_line(place.address(), place.fp(), UNKNOWN_CARD).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_line_is_refused_and_the_connection_stays_open() {
    let place = Place::new();
    garbled_line(place.address(), place.fp(), EMPTY_LINE).await;
}

// ------------------------------------------------------------------ no table yet

/// An act from a player at no table is not its turn.
async fn act_at_no_table(address: SocketAddr, fp: Option<&str>) {
    let mut client = connect(address, fp, "Mallory").await;
    client
        .send(&ClientMessage::Act {
            action: Action::Look,
        })
        .await;
    assert_eq!(client.error().await.0, ErrorCode::NotYourTurn);
}

/// `start` from a player at no table: not the host.
async fn start_at_no_table(address: SocketAddr, fp: Option<&str>) {
    let mut client = connect(address, fp, "Mallory").await;
    client.send(&ClientMessage::Start {}).await;
    assert_eq!(client.error().await.0, ErrorCode::NotHost);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_act_at_no_table_is_not_your_turn() {
    let place = Place::new();
    act_at_no_table(place.address(), place.fp()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_at_no_table_is_not_the_hosts() {
    let place = Place::new();
    start_at_no_table(place.address(), place.fp()).await;
}

// ------------------------------------------------------------------ closed at once

/// A line over the limit: refused before it is all read, and closed.
async fn over_long_line(address: SocketAddr, fp: Option<&str>) {
    let mut long = connect(address, fp, "Long").await;
    let mut line = vec![b'x'; MAX_LINE + 100];
    line.push(b'\n');
    let _ = long.send_raw(&line).await;
    assert_eq!(refused_and_closed(&mut long).await, ErrorCode::TooLong);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_over_the_limit_is_refused_and_closed() {
    let place = Place::new();
    over_long_line(place.address(), place.fp()).await;
}

/// Anything but a hello of this version first: closed.
async fn before_hello(address: SocketAddr, fp: Option<&str>, first: &[u8]) {
    let mut early = Client::connect(address, fp).await;
    early.send_raw(first).await.unwrap();
    assert_eq!(refused_and_closed(&mut early).await, ErrorCode::Version);
}

const JOIN_FIRST: &[u8] = b"{\"type\":\"join\",\"table\":\"AAAAAAAAAAAAAAAA\"}\n";
const ANOTHER_VERSION: &[u8] = b"{\"type\":\"hello\",\"protocol\":2,\"name\":\"Future\"}\n";
const HTTP: &[u8] = b"GET / HTTP/1.1\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_before_hello_is_refused_and_closed() {
    let place = Place::new();
    before_hello(place.address(), place.fp(), JOIN_FIRST).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_of_another_version_is_refused_and_closed() {
    let place = Place::new();
    before_hello(place.address(), place.fp(), ANOTHER_VERSION).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_instead_of_hello_is_refused_and_closed() {
    let place = Place::new();
    before_hello(place.address(), place.fp(), HTTP).await;
}

/// Silence after connecting: a timeout, then closed.
async fn silent(address: SocketAddr, fp: Option<&str>) {
    let began = Instant::now();
    let mut silent = Client::connect(address, fp).await;
    assert_eq!(refused_and_closed(&mut silent).await, ErrorCode::Timeout);
    assert!(began.elapsed() >= HELLO_TIMEOUT);
}

/// Not even a TLS handshake: closed at the same deadline.
async fn no_handshake(address: SocketAddr) {
    let mut raw = TcpStream::connect(address).await.unwrap();
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(10), raw.read(&mut buf)).await;
    assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "closed: {read:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_client_times_out_and_is_closed() {
    let place = Place::new();
    silent(place.address(), place.fp()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_starts_tls_is_closed() {
    let place = Place::new();
    assert!(place.fp().is_some(), "the server speaks TLS");
    no_handshake(place.address()).await;
}

/// A flood: the 51st message within a second closes the connection.
async fn flood(address: SocketAddr, fp: Option<&str>) {
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_messages_is_refused_and_closed() {
    let place = Place::new();
    flood(place.address(), place.fp()).await;
}

// ------------------------------------------------------------------ tables

/// Rules that cannot be played: refused, each.
async fn bad_rules(address: SocketAddr, fp: Option<&str>) {
    let mut host = connect(address, fp, "Rulesy").await;
    for bad in [
        "mode = \"chess\"",
        "target_score = \"lots\"",
        "[nil]\nvalue = 1e99",
    ] {
        host.send(&ClientMessage::Host {
            rules: bad.into(),
            public: false,
        })
        .await;
        let (code, why) = host.error().await;
        assert_eq!(code, ErrorCode::BadRules, "{bad}: {why}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_that_cannot_be_played_are_refused() {
    let place = Place::new();
    bad_rules(place.address(), place.fp()).await;
}

/// A table hosted (to 150) with a guest joined, in its lobby.
async fn a_table_with_a_guest(address: SocketAddr, fp: Option<&str>) -> (Client, Seated, Client) {
    let mut host = connect(address, fp, "Rulesy").await;
    let table = host.host(&rules("partnership", 150)).await;
    let mut guest = connect(address, fp, "Guest").await;
    guest.join(&table.table).await.unwrap();
    (host, table, guest)
}

/// Another's seat asked for with a token that is not its own.
async fn wrong_token(address: SocketAddr, fp: Option<&str>) {
    let (_host, table, _guest) = a_table_with_a_guest(address, fp).await;
    let mut thief = connect(address, fp, "Thief").await;
    let wrong = "A".repeat(26);
    assert_eq!(
        thief.reclaim(&table.table, &wrong).await.unwrap_err().0,
        ErrorCode::BadToken
    );
}

/// The host's own token, used over another connection while the host is
/// there: whoever holds a token holds the seat, so it is taken over (the
/// old connection may be dead without a word), and the old connection is
/// told and closed.
async fn reused_token(address: SocketAddr, fp: Option<&str>) {
    let (mut host, table, _guest) = a_table_with_a_guest(address, fp).await;
    let mut other = connect(address, fp, "Other").await;
    let seated = other.reclaim(&table.table, &table.token).await.unwrap();
    assert_eq!((seated.seat, seated.host), (Seat::new(0), true));
    let said = host.closed().await;
    assert!(
        matches!(said.last(), Some(ServerMessage::Bye { .. })),
        "the old connection ends with {said:?}"
    );
}

/// A seat asked for at a table that is not there.
async fn no_such_table(address: SocketAddr, fp: Option<&str>) {
    let mut thief = connect(address, fp, "Thief").await;
    let wrong = "A".repeat(26);
    assert_eq!(
        thief
            .reclaim("BBBBBBBBBBBBBBBB", &wrong)
            .await
            .unwrap_err()
            .0,
        ErrorCode::NoTable
    );
}

/// A chat line longer than a chat may be.
async fn over_long_chat(address: SocketAddr, fp: Option<&str>) {
    let (_host, _table, mut guest) = a_table_with_a_guest(address, fp).await;
    guest
        .send(&ClientMessage::Chat {
            text: "x".repeat(201),
        })
        .await;
    assert_eq!(guest.error().await.0, ErrorCode::BadMessage);
}

/// An act in the lobby, before the game has started.
async fn act_in_the_lobby(address: SocketAddr, fp: Option<&str>) {
    let (_host, _table, mut guest) = a_table_with_a_guest(address, fp).await;
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_is_refused() {
    let place = Place::new();
    wrong_token(place.address(), place.fp()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hosts_token_takes_the_seat_over_from_the_host_still_there() {
    let place = Place::new();
    reused_token(place.address(), place.fp()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_at_a_table_that_is_not_there_is_refused() {
    let place = Place::new();
    no_such_table(place.address(), place.fp()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_over_long_chat_is_refused() {
    let place = Place::new();
    over_long_chat(place.address(), place.fp()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_act_in_the_lobby_is_not_your_turn() {
    let place = Place::new();
    act_in_the_lobby(place.address(), place.fp()).await;
}

// ------------------------------------------------------------------ in the game

/// What the host tries, in the game, besides answering its asks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Try {
    /// The guest acts at each of the host's asks (but in an exchange, when
    /// both may owe cards); the host leaves once it has played a card.
    OutOfTurn,
    /// The host makes illegal bids at its first bid and plays illegal
    /// cards at its first play that has a card it may not play; it leaves
    /// once both are refused.
    Illegal,
}

/// The game at a table of a host and a guest who never answers (the turn
/// timer answers for it): each refusal that `what` tries is the one the
/// protocol names, and the ask stands. When the host leaves, the guest is
/// told.
async fn in_the_game(address: SocketAddr, fp: Option<&str>, what: Try) {
    let (mut host, _table, mut guest) = a_table_with_a_guest(address, fp).await;
    host.start().await;
    let mut answerer = Answerer::new("normal", 3);
    let (mut bids_refused, mut cards_refused) = (false, false);
    let (mut out_of_turn, mut played) = (0, false);
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
        if what == Try::OutOfTurn && decision != Decision::Exchange {
            guest
                .send(&ClientMessage::Act {
                    action: Action::Bid(Bid::Tricks(3)),
                })
                .await;
            assert_eq!(guest.error().await.0, ErrorCode::NotYourTurn);
            out_of_turn += 1;
        }
        if what == Try::OutOfTurn && played {
            host.send(&ClientMessage::Bye {}).await;
            break;
        }
        let wrong = match (&legal, decision) {
            _ if what != Try::Illegal => Vec::new(),
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
        played |= decision == Decision::Play;
        host.send(&ClientMessage::Act { action }).await;
    }
    match what {
        Try::Illegal => assert!(bids_refused && cards_refused, "both kinds were tried"),
        Try::OutOfTurn => assert!(played && out_of_turn > 1, "{out_of_turn} tried"),
    }
    // The host's leaving does not end the table: the guest is told a bot
    // plays the host's seat.
    guest
        .until(|m| {
            matches!(m, ServerMessage::Seat { seat, player: SeatPlayer::Away, .. }
                if *seat == Seat::new(0))
            .then_some(())
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acts_out_of_turn_are_refused_and_the_ask_stands() {
    let place = Place::new();
    in_the_game(place.address(), place.fp(), Try::OutOfTurn).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_bids_and_cards_are_refused_and_the_ask_stands() {
    let place = Place::new();
    in_the_game(place.address(), place.fp(), Try::Illegal).await;
}

// ------------------------------------------------------------------ a table plays on

/// Every kind of hostile client above, one after another on one server,
/// while a table of two people and two bots plays its whole game there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_plays_to_its_end_while_hostile_clients_come_and_go() {
    let server = server(HELLO_TIMEOUT);
    let address = server.address();
    let fp = server.fingerprint().map(str::to_string);
    let fp = fp.as_deref();
    let normal = a_normal_table(address, fp.map(str::to_string));

    for bad in [
        NOT_JSON,
        NOT_UTF8,
        UNKNOWN_TYPE,
        UNKNOWN_KEY,
        UNKNOWN_CARD,
        EMPTY_LINE,
    ] {
        garbled_line(address, fp, bad).await;
    }
    act_at_no_table(address, fp).await;
    start_at_no_table(address, fp).await;
    over_long_line(address, fp).await;
    for first in [JOIN_FIRST, ANOTHER_VERSION, HTTP] {
        before_hello(address, fp, first).await;
    }
    silent(address, fp).await;
    no_handshake(address).await;
    flood(address, fp).await;
    bad_rules(address, fp).await;
    wrong_token(address, fp).await;
    reused_token(address, fp).await;
    no_such_table(address, fp).await;
    over_long_chat(address, fp).await;
    act_in_the_lobby(address, fp).await;
    in_the_game(address, fp, Try::OutOfTurn).await;
    in_the_game(address, fp, Try::Illegal).await;

    let seen = tokio::time::timeout(Duration::from_secs(60), normal)
        .await
        .expect("the normal table finished")
        .unwrap();
    assert_played_to_the_end(&seen);
    server.stop();
}

// ------------------------------------------------------------------ many at once

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
