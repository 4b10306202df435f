//! Spectators: a connection that watches a table holds no seat and is
//! sent only what anyone may know. Its whole stream, parsed message by
//! message, never names a card before that card's `play` event (not a
//! blind-nil exchange's cards, not cutthroat's card out); it tells the
//! same bids, plays and scores as a seated player's stream; and the
//! table's limits hold against hostile spectators: at most
//! `MAX_WATCHERS`, one that never reads is let go while the game goes on,
//! and one that acts, starts or chats is refused.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;
use spades::engine::{Card, CardSet, Event, SeatEvent};
use spades::net::server::{Server, ServerOptions};
use spades::protocol::{ClientMessage, ErrorCode, MAX_WATCHERS, ServerMessage};
use spades::record::read_games;
use support::checker::check_record;
use support::net::{Answerer, Client, Seen, play_out};
use tokio::io::AsyncWriteExt;

use super::secrets::cards_in;

fn server() -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        hello_timeout: Duration::from_secs(5),
        // Many spectators from loopback.
        per_address: 200,
        threads: Some(2),
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

/// A spectator of `table`, told `watching`.
async fn spectator(server: &Server, table: &str) -> Client {
    let mut client = Client::connect(server.address(), None).await;
    client.hello("Eve").await;
    client
        .send(&ClientMessage::Watch {
            table: table.to_string(),
        })
        .await;
    let first = client.next().await;
    assert!(
        matches!(first, Some(ServerMessage::Watching { .. })),
        "watch was answered with {first:?}"
    );
    client
}

/// Reads (answering pings) until the server says goodbye.
async fn watch_to_the_end(client: &mut Client) -> Seen {
    let mut seen = Seen::default();
    while let Some(message) = client.next().await {
        match message {
            ServerMessage::Event { event } => seen.events.push(event),
            ServerMessage::Ping {} => client.send(&ClientMessage::Pong {}).await,
            ServerMessage::Bye { reason, .. } => {
                seen.bye = Some(reason);
                break;
            }
            _ => {}
        }
    }
    seen
}

/// The cards played in each hand, in order, as the record has them.
fn plays_of(record: &str) -> HashMap<u32, Vec<Card>> {
    let games = read_games(record).unwrap();
    let mut plays: HashMap<u32, Vec<Card>> = HashMap::new();
    for (_, event) in &games[0].events {
        if let Event::Play { hand, card, .. } = event {
            plays.entry(*hand).or_default().push(*card);
        }
    }
    plays
}

/// Checks a spectator's whole stream: no message it may not have (a
/// seat's, an ask, the record), and no card in any message before that
/// card's `play` event of the same hand came earlier in the stream (or in
/// that very message). A spectator that came in mid-hand is told the
/// cards played before it came by its first view: those must be the
/// hand's first plays, as the game's `record` has them. Returns how many
/// exchanges it was told of.
fn check_public(received: &[String], record: &str) -> usize {
    let record = plays_of(record);
    let mut played: HashMap<u32, CardSet> = HashMap::new();
    let mut exchanges = 0;
    for (n, line) in received.iter().enumerate() {
        let at = || format!("message {n}: {line}");
        let message: ServerMessage = serde_json::from_str(line).unwrap();
        let hand = match &message {
            ServerMessage::Event { event } => {
                if let SeatEvent::Play { hand, card, .. } = event {
                    played.entry(*hand).or_default().insert(*card);
                }
                if let SeatEvent::Exchange { cards, .. } = event {
                    assert_eq!(*cards, None, "an exchange's cards: {}", at());
                    exchanges += 1;
                }
                event_hand(event)
            }
            ServerMessage::Public { view } => {
                let told = played.entry(view.hand_no).or_default();
                if told.is_empty() {
                    // The first view of a hand come in late: the cards
                    // played so far, and not one more.
                    let so_far = view.play.played;
                    let first: CardSet = record[&view.hand_no]
                        .iter()
                        .take(so_far.len() as usize)
                        .copied()
                        .collect();
                    assert_eq!(so_far, first, "{}", at());
                    *told = so_far;
                }
                Some(view.hand_no)
            }
            ServerMessage::Welcome { .. }
            | ServerMessage::Watching { .. }
            | ServerMessage::Seating(_)
            | ServerMessage::Start { .. }
            | ServerMessage::Seat { .. }
            | ServerMessage::Chat { .. }
            | ServerMessage::Error { .. }
            | ServerMessage::Ping {}
            | ServerMessage::Bye { .. } => None,
            other => panic!("a spectator was sent {other:?}: {}", at()),
        };
        let value: Value = serde_json::from_str(line).unwrap();
        let mut cards = Vec::new();
        if let ServerMessage::Watching { .. } | ServerMessage::Seating(_) = &message {
            // The rules' text is one string, whatever it holds.
            cards_in(&value["seats"], &mut cards);
        } else {
            cards_in(&value, &mut cards);
        }
        let allowed = hand
            .and_then(|h| played.get(&h).copied())
            .unwrap_or(CardSet::EMPTY);
        for card in cards {
            assert!(
                allowed.contains(card),
                "the {card} was sent to a spectator before it was played: {}",
                at()
            );
        }
    }
    exchanges
}

fn event_hand(event: &SeatEvent) -> Option<u32> {
    match event {
        SeatEvent::Dealt { hand, .. }
        | SeatEvent::Bid { hand, .. }
        | SeatEvent::Exchange { hand, .. }
        | SeatEvent::Play { hand, .. }
        | SeatEvent::Trick { hand, .. }
        | SeatEvent::Score { hand, .. } => Some(*hand),
        SeatEvent::End { .. } => None,
    }
}

/// A seat's events as the public hears them: the exchange's cards hidden.
fn as_public(events: &[SeatEvent]) -> Vec<SeatEvent> {
    events
        .iter()
        .map(|event| match event {
            SeatEvent::Exchange { hand, from, to, .. } => SeatEvent::Exchange {
                hand: *hand,
                from: *from,
                to: *to,
                cards: None,
            },
            other => other.clone(),
        })
        .collect()
}

/// Two people (one bidding blind nil whenever it may, so cards are
/// passed) and two bots play a whole game while a spectator watches from
/// the lobby on: the spectator's stream holds no card before its play,
/// and tells the same events as a player's, the exchange's cards aside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_sees_no_card_before_it_is_played_and_what_the_players_see() {
    let server = server();
    let rules = "mode = \"partnership\"\ntarget_score = 300\nlosing_score = -300\n\
                 [blind_nil]\nmin_deficit = 0\n";
    let mut host = Client::connect(server.address(), None).await;
    host.hello("Alice").await;
    let table = host.host(rules).await;
    let mut eve = spectator(&server, &table.table).await;
    let mut partner = Client::connect(server.address(), None).await;
    partner.hello("Bob").await;
    partner.join(&table.table).await.unwrap();
    host.start().await;
    let mut a = Answerer::new("normal", 21);
    a.always_blind_nil = true;
    let mut b = Answerer::new("normal", 22);
    let (alice, _bob, watched) = tokio::join!(
        play_out(&mut host, &mut a),
        play_out(&mut partner, &mut b),
        watch_to_the_end(&mut eve)
    );
    let report = check_record(&alice.record_text());
    assert!(report.is_ok(), "{}", report.describe());
    assert!(eve.received.len() > 100, "the spectator was told the game");
    let exchanges = check_public(&eve.received, &alice.record_text());
    assert!(exchanges > 0, "cards were passed in a blind-nil exchange");
    assert_eq!(watched.events, as_public(&alice.events));
    assert!(
        matches!(watched.events.last(), Some(SeatEvent::End { .. })),
        "the spectator was told the end"
    );
    assert_eq!(watched.bye, alice.bye);
    server.stop();
}

/// Cutthroat, one person and two bots: the card out is never sent to a
/// spectator who comes in once the game is under way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cutthroat_spectator_never_sees_the_card_out() {
    let server = server();
    let rules = "mode = \"cutthroat\"\ntarget_score = 200\nlosing_score = -200\n";
    let mut host = Client::connect(server.address(), None).await;
    host.hello("Alice").await;
    let table = host.host(rules).await;
    host.start().await;
    let mut a = Answerer::new("normal", 31);
    let mut seen = Seen::default();
    // A few of the person's decisions first: the spectator comes in late.
    let mut asks = 0;
    let ask = support::net::play_on(&mut host, &mut a, &mut seen, |m| {
        asks += usize::from(matches!(m, ServerMessage::Ask { .. }));
        asks == 5
    })
    .await
    .expect("asked five times");
    let mut eve = spectator(&server, &table.table).await;
    support::net::answer(&mut host, &mut a, &mut seen, &ask).await;
    let (_, watched) = tokio::join!(
        support::net::play_on(&mut host, &mut a, &mut seen, |_| false),
        watch_to_the_end(&mut eve)
    );
    assert!(watched.events.len() > 50, "the spectator was told the game");
    assert!(
        eve.received
            .iter()
            .any(|l| l.contains("\"type\":\"start\"")),
        "a late spectator is told the start"
    );
    check_public(&eve.received, &seen.record_text());
    server.stop();
}

/// A table takes `MAX_WATCHERS` spectators; the next is refused, and one
/// leaving makes room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_takes_at_most_its_spectators() {
    let server = server();
    let mut host = Client::connect(server.address(), None).await;
    host.hello("Alice").await;
    let table = host.host("mode = \"partnership\"\n").await;
    let mut watchers = Vec::new();
    for _ in 0..MAX_WATCHERS {
        watchers.push(spectator(&server, &table.table).await);
    }
    let mut one_more = Client::connect(server.address(), None).await;
    one_more.hello("Mallory").await;
    let watch = ClientMessage::Watch {
        table: table.table.clone(),
    };
    one_more.send(&watch).await;
    assert_eq!(one_more.error().await.0, ErrorCode::TooManyWatchers);
    let mut leaving = watchers.pop().unwrap();
    leaving.send(&ClientMessage::StopWatching {}).await;
    let said = leaving.closed().await;
    assert!(
        matches!(said.last(), Some(ServerMessage::Bye { .. })),
        "{said:?}"
    );
    // The leaver's place is free once the table has heard it left.
    tokio::time::sleep(Duration::from_millis(200)).await;
    one_more.send(&watch).await;
    let answer = one_more.next().await;
    assert!(
        matches!(answer, Some(ServerMessage::Watching { .. })),
        "{answer:?}"
    );
    // No such table: said so.
    let mut lost = Client::connect(server.address(), None).await;
    lost.hello("Lost").await;
    lost.send(&ClientMessage::Watch {
        table: "NOSUCH".into(),
    })
    .await;
    assert_eq!(lost.error().await.0, ErrorCode::NoTable);
    server.stop();
}

/// A spectator may not act, start, fill the seats nor chat: each is
/// refused, and the players' game is not touched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_that_acts_starts_or_chats_is_refused() {
    let server = server();
    let mut host = Client::connect(server.address(), None).await;
    host.hello("Alice").await;
    let table = host
        .host("mode = \"partnership\"\ntarget_score = 100\n")
        .await;
    let mut eve = spectator(&server, &table.table).await;
    let lobby = eve.seating().await;
    assert_eq!(lobby.table, table.table);
    for message in [
        ClientMessage::Start {},
        ClientMessage::Fill {
            bots: false,
            level: "easy".parse().unwrap(),
        },
        ClientMessage::Act {
            action: spades::engine::Action::Look,
        },
        ClientMessage::Chat {
            text: "psst".into(),
        },
    ] {
        eve.send(&message).await;
        assert_eq!(eve.error().await.0, ErrorCode::Watching, "{message:?}");
    }
    // Still in the lobby: the host starts, and plays on.
    host.send(&ClientMessage::Chat { text: "hi".into() }).await;
    let heard = eve
        .until(|m| match m {
            ServerMessage::Chat { from, text, .. } => Some((from.clone(), text.clone())),
            _ => None,
        })
        .await;
    assert_eq!(heard, ("Alice".to_string(), "hi".to_string()));
    host.start().await;
    let mut a = Answerer::new("easy", 41);
    let (alice, watched) = tokio::join!(play_out(&mut host, &mut a), watch_to_the_end(&mut eve));
    assert!(alice.asks.len() > 10);
    assert_eq!(watched.events, as_public(&alice.events));
    server.stop();
}

/// A spectator that never reads (with a small receive buffer, so what
/// it is sent piles up on the server) is let go; the game goes on at its
/// pace and ends, and the spectator never got its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_that_never_reads_is_let_go_and_the_game_goes_on() {
    let server = server();
    let mut host = Client::connect(server.address(), None).await;
    host.hello("Alice").await;
    // A long game: more than the kernel's buffers hold (4 MiB to send on
    // Linux) is sent to the spectator.
    let table = host
        .host("mode = \"partnership\"\ntarget_score = 4000\n")
        .await;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut mallory = socket.connect(server.address()).await.unwrap();
    let said = format!(
        "{{\"type\":\"hello\",\"protocol\":1,\"name\":\"Mallory\"}}\n\
         {{\"type\":\"watch\",\"table\":\"{}\"}}\n",
        table.table
    );
    mallory.write_all(said.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    host.start().await;
    let mut a = Answerer::new("easy", 51);
    let started = tokio::time::Instant::now();
    let alice = play_out(&mut host, &mut a).await;
    assert_eq!(alice.bye.as_deref(), Some("the game is over"));
    let slowest = alice
        .response_times
        .iter()
        .max()
        .copied()
        .unwrap_or_default();
    assert!(
        slowest < Duration::from_secs(5),
        "the table waited {slowest:?} for a move, {:?} in all",
        started.elapsed()
    );
    // Now read what Mallory was sent: it stops short of the game's end.
    let mut got = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), async {
        use tokio::io::AsyncReadExt;
        let _ = mallory.read_to_end(&mut got).await;
    })
    .await;
    assert!(read.is_ok(), "the server closed the spectator's connection");
    let text = String::from_utf8_lossy(&got);
    assert!(text.contains("\"type\":\"watching\""), "it was a spectator");
    assert!(
        !text.contains("the game is over"),
        "the spectator was kept to the end ({} bytes)",
        got.len()
    );
    server.stop();
}
