//! Liveness: a connection the server hears nothing from is sent `ping`,
//! and one silent past the read deadline is closed as lost, so a seat
//! whose connection died without a word (no FIN: a laptop shut, a NAT
//! that forgot it) becomes away and its token takes it back. A token also
//! takes its seat over from a connection that still looks present. Each
//! test runs a server of its own on loopback with short intervals.

use std::cell::Cell;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use spades::engine::Decision;
use spades::net::client::{Connection, Incoming};
use spades::net::server::{Server, ServerOptions};
use spades::protocol::{ClientMessage, ErrorCode, Legal, SeatPlayer, ServerMessage};
use support::net::{Answerer, Client, Seen, play_on, play_out};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A plain server on loopback that pings after `ping_after` of silence
/// and closes a connection silent for `read_timeout`.
fn server(ping_after: Duration, read_timeout: Duration) -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        ping_after,
        read_timeout,
        threads: Some(2),
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

const RULES: &str = "mode = \"partnership\"\ntarget_score = 100\nlosing_score = -100\n";

async fn connect(address: SocketAddr, name: &str) -> Client {
    let mut client = Client::connect(address, None).await;
    client.hello(name).await;
    client
}

/// Reads until the server closes the connection; what it sent on the way.
async fn read_to_close(client: &mut Client, within: Duration) -> Vec<ServerMessage> {
    let mut said = Vec::new();
    let until = tokio::time::Instant::now() + within;
    loop {
        let left = until.saturating_duration_since(tokio::time::Instant::now());
        match client.next_within(left).await {
            Ok(Some(message)) => said.push(message),
            Ok(None) => return said,
            Err(()) => panic!("still open after {within:?}; it said {said:?}"),
        }
    }
}

/// A connection that never answers is pinged, then closed with `timeout`
/// at the read deadline; one that answers every ping stays well past
/// several deadlines, and can still sit down.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_answers_pings_is_closed_and_one_that_answers_stays() {
    let deadline = Duration::from_millis(1200);
    let server = server(Duration::from_millis(300), deadline);
    let mut mute = connect(server.address(), "Mute").await;
    let mut alive = connect(server.address(), "Alive").await;
    let began = Instant::now();
    let answering = async {
        let mut pings = 0;
        while began.elapsed() < 5 * deadline {
            match alive.next_within(Duration::from_millis(100)).await {
                Ok(Some(ServerMessage::Ping {})) => {
                    pings += 1;
                    alive.send(&ClientMessage::Pong {}).await;
                }
                Ok(other) => panic!("the server said {other:?} to a client that answers"),
                Err(()) => {}
            }
        }
        pings
    };
    let silent = async {
        let said = read_to_close(&mut mute, Duration::from_secs(10)).await;
        (said, began.elapsed())
    };
    let (pings, (said, took)) = tokio::join!(answering, silent);
    assert_eq!(said.first(), Some(&ServerMessage::Ping {}), "{said:?}");
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
    assert!(
        took < deadline + Duration::from_secs(2),
        "closed after {took:?}"
    );
    assert!(pings >= 3, "pinged {pings} times");
    assert!(alive.host(RULES).await.host, "still served");
}

/// A pong that answers a ping is not one more message toward the flood
/// limit: a client that has just sent as many messages as a second allows
/// and is then pinged may answer at once, and is still served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pong_that_answers_a_ping_never_floods() {
    let server = server(Duration::from_millis(100), Duration::from_secs(45));
    let mut burst = connect(server.address(), "Burst").await;
    let began = Instant::now();
    // 49 more after hello: 50, the most a second allows.
    let starts = "{\"type\":\"start\"}\n".repeat(49);
    burst.send_raw(starts.as_bytes()).await.unwrap();
    for _ in 0..49 {
        assert_eq!(burst.error().await.0, ErrorCode::NotHost);
    }
    burst
        .until(|m| matches!(m, ServerMessage::Ping {}).then_some(()))
        .await;
    burst.send(&ClientMessage::Pong {}).await;
    assert!(
        began.elapsed() < Duration::from_millis(900),
        "the pong came within the second"
    );
    // Once that second is over, the client is still there to be served.
    tokio::time::sleep(Duration::from_millis(1200).saturating_sub(began.elapsed())).await;
    assert!(burst.host(RULES).await.host, "still served after its pong");
}

/// What a test proxy forwards, until told to stop: then it forwards
/// nothing either way and closes neither socket, as a connection lost
/// without a FIN looks to both ends.
struct Proxy {
    address: SocketAddr,
    stopped: Arc<AtomicBool>,
}

impl Proxy {
    async fn to(server: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let stopped = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&stopped);
        tokio::spawn(async move {
            let (client, _) = listener.accept().await.unwrap();
            let upstream = TcpStream::connect(server).await.unwrap();
            let (client_read, client_write) = client.into_split();
            let (server_read, server_write) = upstream.into_split();
            tokio::spawn(pump(client_read, server_write, Arc::clone(&stop)));
            pump(server_read, client_write, stop).await;
        });
        Proxy { address, stopped }
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
    }
}

/// Copies `from` to `to` until stopped; then holds both open, silent.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    stopped: Arc<AtomicBool>,
) {
    let mut buffer = vec![0; 16 * 1024];
    while !stopped.load(Ordering::SeqCst) {
        let read = tokio::time::timeout(Duration::from_millis(20), from.read(&mut buffer)).await;
        match read {
            Err(_) => continue,
            Ok(Ok(0)) | Ok(Err(_)) => return,
            Ok(Ok(n)) if !stopped.load(Ordering::SeqCst) => {
                if to.write_all(&buffer[..n]).await.is_err() {
                    return;
                }
            }
            Ok(Ok(_)) => break,
        }
    }
    std::future::pending::<()>().await;
    drop((from, to));
}

/// Is this an ask for a card?
fn asks_a_card(message: &ServerMessage) -> bool {
    matches!(
        message,
        ServerMessage::Ask {
            decision: Decision::Play,
            ..
        }
    )
}

/// Bob plays through a proxy that, when he is first asked for a card,
/// stops forwarding without closing anything. Within the read deadline his
/// seat is away (Alice is told, and a bot plays for him), and his token
/// takes it back over a fresh connection; the game ends as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_lost_without_a_word_makes_the_seat_away_and_its_token_takes_it_back() {
    let deadline = Duration::from_millis(1500);
    let server = server(Duration::from_millis(500), deadline);
    let mut alice = connect(server.address(), "Alice").await;
    let table = alice.host(RULES).await;
    let proxy = Proxy::to(server.address()).await;
    let mut partner = connect(proxy.address, "Bob").await;
    let bob = partner.join(&table.table).await.unwrap();
    alice.start().await;
    let (mut a, mut b) = (Answerer::new("normal", 1), Answerer::new("normal", 2));
    let mut alice_seen = Seen::default();
    let dropped_at = Cell::new(None);
    let mut away_after = None;
    let bob_goes_quiet = async {
        let mut seen = Seen::default();
        play_on(&mut partner, &mut b, &mut seen, asks_a_card)
            .await
            .expect("Bob is asked for a card");
        proxy.stop();
        dropped_at.set(Some(Instant::now()));
    };
    // Alice plays on until Bob's seat is away and a bot has played for
    // him, then holds her next ask.
    let mut stood_in = false;
    let alice_waits = |m: &ServerMessage| {
        match m {
            ServerMessage::Seat { seat, player, .. } if *seat == bob.seat => {
                assert_eq!(*player, SeatPlayer::Away);
                away_after = dropped_at.get().map(|t: Instant| t.elapsed());
            }
            ServerMessage::Event {
                event: spades::engine::SeatEvent::Play { seat, .. },
            } if *seat == bob.seat && away_after.is_some() => stood_in = true,
            ServerMessage::Ask { .. } => return stood_in,
            _ => {}
        }
        false
    };
    let alice_plays = tokio::time::timeout(
        Duration::from_secs(20),
        play_on(&mut alice, &mut a, &mut alice_seen, alice_waits),
    );
    let (held, ()) = tokio::join!(alice_plays, bob_goes_quiet);
    let held = held
        .expect("Bob's seat is away within the bound")
        .expect("Alice holds an ask");
    let away_after = away_after.expect("the seat went away after the drop");
    assert!(
        away_after < deadline + Duration::from_secs(2),
        "away {away_after:?} after the drop"
    );
    let mut back = connect(server.address(), "Bob").await;
    let seated = back.reclaim(&table.table, &bob.token).await.unwrap();
    assert_eq!(seated.seat, bob.seat);
    support::net::answer(&mut alice, &mut a, &mut alice_seen, &held).await;
    let mut bob_seen = Seen::default();
    tokio::join!(
        play_on(&mut alice, &mut a, &mut alice_seen, |_| false),
        play_on(&mut back, &mut b, &mut bob_seen, |_| false)
    );
    assert!(!bob_seen.asks.is_empty(), "Bob is asked again once back");
    for seen in [&alice_seen, &bob_seen] {
        assert_eq!(seen.bye.as_deref(), Some("the game is over"));
    }
    drop(partner);
}

/// Bob's token, over a second connection while his first is open and
/// healthy, takes his seat mid-game: the first connection is told and
/// closed, the second is sent the game so far and the ask that was
/// pending, and plays on to the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_token_takes_its_seat_over_from_a_connection_still_present() {
    let server = server(Duration::from_secs(20), Duration::from_secs(45));
    let mut alice = connect(server.address(), "Alice").await;
    let table = alice.host(RULES).await;
    let mut first = connect(server.address(), "Bob").await;
    let bob = first.join(&table.table).await.unwrap();
    alice.start().await;
    let (mut a, mut b) = (Answerer::new("normal", 1), Answerer::new("normal", 2));
    let bob_moves = async {
        let mut seen = Seen::default();
        let pending = play_on(&mut first, &mut b, &mut seen, asks_a_card)
            .await
            .expect("Bob is asked for a card");
        let mut second = connect(server.address(), "Bob").await;
        let seated = second.reclaim(&table.table, &bob.token).await.unwrap();
        assert_eq!((seated.seat, seated.host), (bob.seat, false));
        let said = read_to_close(&mut first, Duration::from_secs(10)).await;
        assert!(
            matches!(said.last(), Some(ServerMessage::Bye { reason, .. }) if reason.contains("taken over")),
            "the first connection ends with {said:?}"
        );
        // The game so far, then the ask he had not answered.
        assert!(matches!(
            second.next().await,
            Some(ServerMessage::Start { .. })
        ));
        assert!(matches!(
            second.next().await,
            Some(ServerMessage::Record { .. })
        ));
        let ask = second
            .until(|m| matches!(m, ServerMessage::Ask { .. }).then(|| m.clone()))
            .await;
        let (ServerMessage::Ask { seat, decision, .. }, ServerMessage::Ask { seat: was, .. }) =
            (&ask, &pending)
        else {
            unreachable!("both are asks");
        };
        assert_eq!((*seat, *decision), (*was, Decision::Play));
        let mut seen = Seen::default();
        support::net::answer(&mut second, &mut b, &mut seen, &ask).await;
        play_on(&mut second, &mut b, &mut seen, |_| false).await;
        seen
    };
    let (alice_seen, bob_seen) = tokio::join!(play_out(&mut alice, &mut a), bob_moves);
    for seen in [&alice_seen, &bob_seen] {
        assert_eq!(seen.bye.as_deref(), Some("the game is over"));
    }
    assert!(
        alice_seen.seats.iter().all(|s| !matches!(
            s,
            ServerMessage::Seat {
                player: SeatPlayer::Away,
                ..
            }
        )),
        "the seat was never away: {:?}",
        alice_seen.seats
    );
}

/// In the lobby a token takes its seat over too, the host's included: the
/// old connection is closed, the new one is seated (as host for seat 0)
/// and may start the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_token_takes_its_lobby_seat_over_the_hosts_too() {
    let server = server(Duration::from_secs(20), Duration::from_secs(45));
    let mut alice = connect(server.address(), "Alice").await;
    let table = alice.host(RULES).await;
    let mut bob = connect(server.address(), "Bob").await;
    let bob_seat = bob.join(&table.table).await.unwrap();
    let mut bob_again = connect(server.address(), "Bob").await;
    let seated = bob_again
        .reclaim(&table.table, &bob_seat.token)
        .await
        .unwrap();
    assert_eq!((seated.seat, seated.host), (bob_seat.seat, false));
    let said = read_to_close(&mut bob, Duration::from_secs(10)).await;
    assert!(
        matches!(said.last(), Some(ServerMessage::Bye { .. })),
        "{said:?}"
    );
    let mut alice_again = connect(server.address(), "Alice").await;
    let host = alice_again
        .reclaim(&table.table, &table.token)
        .await
        .unwrap();
    assert!(host.host, "seat 0 is the host's");
    read_to_close(&mut alice, Duration::from_secs(10)).await;
    let lobby = alice_again.seating().await;
    let people: Vec<SeatPlayer> = lobby.seats.iter().map(|s| s.player).collect();
    assert_eq!(
        people.iter().filter(|&&p| p == SeatPlayer::Person).count(),
        2
    );
    alice_again.start().await;
    bob_again
        .until(|m| matches!(m, ServerMessage::Start { .. }).then_some(()))
        .await;
}

/// The next thing the server says, kept in `told`.
fn next(connection: &mut Connection, told: &mut Vec<Incoming>) -> Incoming {
    let incoming = connection
        .recv_timeout(Duration::from_secs(30))
        .expect("the server says something");
    told.push(incoming.clone());
    incoming
}

/// Our own client answers pings by itself: a game played over it with
/// short intervals, with pauses longer than the read deadline before the
/// start and before each of its first answers, ends as usual, and the
/// program is never shown a ping.
#[test]
fn our_client_answers_pings_so_a_slow_player_is_kept() {
    let deadline = Duration::from_secs(1);
    let server = server(Duration::from_millis(200), deadline);
    let target = spades::net::client::Target {
        address: server.address().to_string(),
        trust: spades::net::code::Trust::Plain,
    };
    let mut connection = Connection::open(&target, "Ann").unwrap();
    connection.send(ClientMessage::Host {
        rules: RULES.to_string(),
        public: false,
    });
    let mut told = Vec::new();
    std::thread::sleep(2 * deadline);
    connection.send(ClientMessage::Start {});
    let mut slow_answers = 2;
    let bye = loop {
        match next(&mut connection, &mut told) {
            Incoming::Message(ServerMessage::Ask { legal, view, .. }) => {
                if slow_answers > 0 {
                    slow_answers -= 1;
                    std::thread::sleep(2 * deadline);
                }
                let action = Legal::first(&legal, view.cards()).expect("an action");
                connection.send(ClientMessage::Act { action });
            }
            Incoming::Message(ServerMessage::Bye { reason, .. }) => break reason,
            Incoming::Closed(why) => panic!("closed: {why}"),
            _ => {}
        }
    };
    assert_eq!(bye, "the game is over");
    assert!(
        !told
            .iter()
            .any(|t| matches!(t, Incoming::Message(ServerMessage::Ping {}))),
        "the program never hears a ping"
    );
}

/// The keepalive timers of the established loopback TCP connections with
/// an end at `port`: (local port, remote port, keepalive timer running),
/// from the kernel's own table.
#[cfg(target_os = "linux")]
fn sockets_at(port: u16) -> Vec<(u16, u16, bool)> {
    let port_of = |address: &str| u16::from_str_radix(address.rsplit(':').next().unwrap(), 16);
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (local, remote) = (port_of(fields[1]).ok()?, port_of(fields[2]).ok()?);
            // `st` 01 is an established connection: the port may have been
            // another test's before, and its closed connections linger in
            // TIME_WAIT with no keepalive.
            let established = fields[3] == "01";
            // `tr` 2: the keepalive timer is what runs on this socket.
            let keepalive = fields[5].starts_with("02:");
            (established && (local == port || remote == port)).then_some((local, remote, keepalive))
        })
        .filter(|&(local, remote, _)| local != remote)
        .collect()
}

/// Behind the ping, TCP keepalive is on at both ends of a table
/// connection: the server's socket and our client's.
#[cfg(target_os = "linux")]
#[test]
fn both_ends_of_a_connection_turn_tcp_keepalive_on() {
    let server = server(Duration::from_secs(20), Duration::from_secs(45));
    let port = server.address().port();
    let target = spades::net::client::Target {
        address: server.address().to_string(),
        trust: spades::net::code::Trust::Plain,
    };
    let mut connection = Connection::open(&target, "Ann").unwrap();
    let welcome = connection.recv_timeout(Duration::from_secs(10));
    assert!(
        matches!(
            welcome,
            Some(Incoming::Message(ServerMessage::Welcome { .. }))
        ),
        "{welcome:?}"
    );
    let sockets: Vec<_> = sockets_at(port)
        .into_iter()
        .filter(|&(local, remote, _)| local != 0 && remote != 0)
        .collect();
    assert_eq!(sockets.len(), 2, "one connection, two ends: {sockets:?}");
    assert!(
        sockets.iter().all(|&(_, _, keepalive)| keepalive),
        "{sockets:?}"
    );
}
