//! The table server on loopback, as players' programs meet it: whole games
//! between protocol clients (each answering its asks with a local bot) and
//! the server's bots, whose records pass the independent checker and prove
//! their deals; seats by the join order; a player who drops out and comes
//! back; a host who leaves; the lobby's start rules; the turn timer.

use std::time::Duration;

use spades::bots::Level;
use spades::engine::{Decision, Event, Seat, SeatEvent};
use spades::fairness::Commitment;
use spades::net::server::{Server, ServerOptions};
use spades::protocol::{ClientMessage, ErrorCode, SeatPlayer, ServerMessage};
use spades::record::RecordLine;
use spades::record::{DealProof, read_games};
use spades::verify::{Outcome, verify};
use support::checker::check_record;
use support::net::{Answerer, Client, Seen, play_on, play_out};
use support::process::Reaped;

fn server(plain: bool, turn_timer: Option<Duration>) -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain,
        turn_timer,
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

/// A rules.toml text: `mode`, played to `points` either way.
fn rules(mode: &str, points: i32) -> String {
    format!("mode = \"{mode}\"\ntarget_score = {points}\nlosing_score = -{points}\n")
}

async fn connect(server: &Server, name: &str) -> Client {
    let mut client = Client::connect(server.address(), server.fingerprint()).await;
    client.hello(name).await;
    client
}

/// The record a client was sent is a whole game that the independent
/// checker passes and whose revealed seed matches the commitment in
/// `start`; returns its events.
fn check_game(seen: &Seen) -> Vec<Event> {
    let text = seen.record_text();
    let report = check_record(&text);
    assert!(report.is_ok(), "{}\n{text}", report.describe());
    assert_eq!(report.games, 1);
    let verdicts = verify(&text).expect("a readable record");
    let commitment = Commitment::parse(seen.commitment.as_deref().expect("a commitment"))
        .expect("a commitment in start");
    match &verdicts[0].outcome {
        Outcome::Verified(DealProof::Committed { commitment: c, .. }) => {
            assert_eq!(
                *c, commitment,
                "the record's commitment is the one in start"
            )
        }
        other => panic!("the record does not verify: {other:?}"),
    }
    let games = read_games(&text).unwrap();
    games[0].events.iter().map(|(_, e)| e.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_and_two_bots_play_a_whole_game_over_tls() {
    let server = server(false, None);
    assert!(server.fingerprint().is_some());
    let mut host = connect(&server, "Alice").await;
    let table = host.host(&rules("partnership", 200)).await;
    assert_eq!((table.seat, table.host), (Seat::new(0), true));
    let mut partner = connect(&server, "Bob").await;
    let joined = partner.join(&table.table).await.unwrap();
    assert_eq!((joined.seat, joined.host), (Seat::new(2), false));
    let lobby = host
        .until(|m| match m {
            ServerMessage::Seating(l) if l.seats[2].player == SeatPlayer::Person => Some(l.clone()),
            _ => None,
        })
        .await;
    assert_eq!(lobby.seats[2].name.as_deref(), Some("Bob"));
    host.fill(true, "normal").await;
    host.start().await;
    let (mut a, mut b) = (Answerer::new("normal", 1), Answerer::new("normal", 2));
    let (alice, bob) = tokio::join!(play_out(&mut host, &mut a), play_out(&mut partner, &mut b));
    for (seen, seat) in [(&alice, 0), (&bob, 2)] {
        assert_eq!(seen.bye.as_deref(), Some("the game is over"));
        assert_eq!(seen.names[seat], ["Alice", "Bob"][seat / 2]);
        assert!(!seen.asks.is_empty());
        assert!(
            seen.asks.iter().all(|&(s, _, _)| s == Seat::new(seat)),
            "asked only for its own seat"
        );
        let events = check_game(seen);
        assert!(matches!(events.last(), Some(Event::End { .. })));
    }
    assert_eq!(alice.record, bob.record, "both were sent the same record");
    assert_eq!(alice.commitment, bob.commitment);
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declarer_is_asked_for_the_dummy() {
    let server = server(true, None);
    let mut declared = false;
    // The highest bidder declares: within a few games the host does.
    for game in 0..4 {
        let mut host = connect(&server, "Dana").await;
        host.host(&rules("dummy", 150)).await;
        let lobby = host.seating().await;
        assert_eq!(lobby.seats[3].player, SeatPlayer::Dummy);
        host.start().await;
        let seen = play_out(&mut host, &mut Answerer::new("normal", game)).await;
        let events = check_game(&seen);
        for &(seat, decision, hand) in &seen.asks {
            if seat != Seat::new(3) {
                assert_eq!(seat, Seat::new(0));
                continue;
            }
            declared = true;
            assert_eq!(decision, Decision::Play);
            let declarer = events.iter().find_map(|e| match e {
                Event::Score {
                    hand: h, declarer, ..
                } if *h == hand => *declarer,
                _ => None,
            });
            assert_eq!(
                declarer,
                Some(Seat::new(0)),
                "asked for the dummy in hand {hand}, where the host declared"
            );
        }
        if declared {
            break;
        }
    }
    assert!(declared, "the host declared in one of the games");
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joiners_sit_by_the_mode_and_a_full_table_refuses() {
    let server = server(true, None);
    for (mode, order) in [
        ("partnership", vec![2, 1, 3]),
        ("cutthroat", vec![1, 2]),
        ("individual", vec![1, 2, 3]),
        ("dummy", vec![1, 2]),
    ] {
        let mut host = connect(&server, "Host").await;
        let table = host.host(&rules(mode, 100)).await;
        let mut joiners = Vec::new();
        for (i, &seat) in order.iter().enumerate() {
            let mut joiner = connect(&server, &format!("Joiner{i}")).await;
            let sat = joiner.join(&table.table.to_lowercase()).await.unwrap();
            assert_eq!(sat.seat, Seat::new(seat), "{mode}: joiner {i}");
            assert_ne!(sat.token, table.token);
            joiners.push(joiner);
        }
        let lobby = host.seating().await;
        let last = host.seating();
        drop(last);
        assert_eq!(lobby.table, table.table);
        let mut late = connect(&server, "Late").await;
        assert_eq!(
            late.join(&table.table).await.unwrap_err().0,
            ErrorCode::TableFull
        );
        assert_eq!(
            late.join("AAAAAAAAAAAAAAAA").await.unwrap_err().0,
            ErrorCode::NoTable
        );
    }
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_drops_out_is_stood_in_for_and_takes_the_seat_back() {
    let server = server(false, None);
    let mut host = connect(&server, "Alice").await;
    let table = host.host(&rules("partnership", 150)).await;
    let mut partner = connect(&server, "Bob").await;
    let bob = partner.join(&table.table).await.unwrap();
    host.start().await;
    let (mut a, mut b) = (Answerer::new("normal", 1), Answerer::new("normal", 2));
    let mut alice_seen = Seen::default();
    // Bob's connection drops when he is first asked for a card, mid-hand;
    // Alice plays on until a bot has played a card for him, then holds
    // her next ask.
    let (mut away, mut stood_in) = (false, false);
    let alice_waits = |m: &ServerMessage| {
        match m {
            ServerMessage::Seat {
                seat, name, player, ..
            } if *seat == bob.seat => {
                assert_eq!((name.as_str(), *player), ("Bob", SeatPlayer::Away));
                away = true;
            }
            ServerMessage::Event {
                event: SeatEvent::Play { seat, .. },
            } if *seat == bob.seat && away => stood_in = true,
            ServerMessage::Ask { .. } => return stood_in,
            _ => {}
        }
        false
    };
    let answering = &mut b;
    let bob_drops = async move {
        let (mut partner, b) = (partner, answering);
        let mut seen = Seen::default();
        let first_card = |m: &ServerMessage| {
            matches!(
                m,
                ServerMessage::Ask {
                    decision: Decision::Play,
                    ..
                }
            )
        };
        play_on(&mut partner, b, &mut seen, first_card)
            .await
            .expect("Bob is asked for a card");
        drop(partner);
    };
    let (held, ()) = tokio::join!(
        play_on(&mut host, &mut a, &mut alice_seen, alice_waits),
        bob_drops
    );
    let held = held.expect("Alice holds an ask");
    // Bob comes back with his token.
    let mut partner = connect(&server, "Bob").await;
    let back = partner.reclaim(&table.table, &bob.token).await.unwrap();
    assert_eq!((back.seat, back.host), (bob.seat, false));
    // As at the start: the game's start and its record so far, then the
    // seat's view.
    assert!(matches!(
        partner.next().await,
        Some(ServerMessage::Start {
            commitment: Some(_),
            ..
        })
    ));
    match partner.next().await {
        Some(ServerMessage::Record { lines }) => {
            assert!(
                matches!(lines[0], spades::record::RecordLine::Game(_)),
                "the record from its header"
            );
        }
        other => panic!("a reclaimed seat is sent the record so far, not {other:?}"),
    }
    match partner.next().await {
        Some(ServerMessage::View { view, .. }) => {
            assert_eq!(view.seat, bob.seat);
            assert!(
                view.hand.is_some_and(|h| !h.is_empty()),
                "his cards: {view:?}"
            );
        }
        other => panic!("a reclaimed seat is sent its view next, not {other:?}"),
    }
    // A token that is not the table's takes nothing.
    let mut thief = connect(&server, "Eve").await;
    let forged = "A".repeat(bob.token.len());
    assert_eq!(
        thief.reclaim(&table.table, &forged).await.unwrap_err().0,
        ErrorCode::BadToken
    );
    let returned = host
        .until(|m| match m {
            ServerMessage::Seat { seat, player, .. } => Some((*seat, *player)),
            _ => None,
        })
        .await;
    assert_eq!(returned, (bob.seat, SeatPlayer::Person));
    support::net::answer(&mut host, &mut a, &mut alice_seen, &held).await;
    let mut bob_seen = Seen::default();
    let (_, _) = tokio::join!(
        play_on(&mut host, &mut a, &mut alice_seen, |_| false),
        play_on(&mut partner, &mut b, &mut bob_seen, |_| false)
    );
    assert!(!bob_seen.asks.is_empty(), "Bob is asked again once back");
    assert!(bob_seen.asks.iter().all(|&(s, _, _)| s == bob.seat));
    for seen in [&alice_seen, &bob_seen] {
        assert_eq!(seen.bye.as_deref(), Some("the game is over"));
    }
    check_game(&alice_seen);
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_leaving_never_ends_a_table_others_sit_at() {
    let server = server(true, None);
    // In the game: the host says bye after a few decisions, and a bot
    // plays their seat to the game's end.
    let mut host = connect(&server, "Alice").await;
    let table = host.host(&rules("partnership", 150)).await;
    let mut partner = connect(&server, "Bob").await;
    partner.join(&table.table).await.unwrap();
    host.start().await;
    let (mut a, mut b) = (Answerer::new("normal", 1), Answerer::new("normal", 2));
    let mut asks = 0;
    let enough = |m: &ServerMessage| {
        asks += usize::from(matches!(m, ServerMessage::Ask { .. }));
        asks > 5
    };
    let host_leaves = async {
        let mut seen = Seen::default();
        play_on(&mut host, &mut a, &mut seen, enough)
            .await
            .expect("asked");
        host.send(&ClientMessage::Bye {}).await;
        host.closed().await
    };
    let mut bob_seen = Seen::default();
    let (host_last, ()) = tokio::join!(host_leaves, async {
        play_on(&mut partner, &mut b, &mut bob_seen, |_| false).await;
    });
    assert!(matches!(host_last.last(), Some(ServerMessage::Bye { .. })));
    assert_eq!(bob_seen.bye.as_deref(), Some("the game is over"));
    assert!(bob_seen.seats.iter().any(|m| matches!(m,
        ServerMessage::Seat { seat, player: SeatPlayer::Away, .. } if *seat == Seat::new(0))));
    check_game(&bob_seen);

    // In the lobby: the host's connection drops, and the guest hosts the
    // table now: told so by `seated` again, they start it.
    let mut host = connect(&server, "Alice").await;
    let table = host.host(&rules("cutthroat", 150)).await;
    let mut guest = connect(&server, "Bob").await;
    let joined = guest.join(&table.table).await.unwrap();
    assert!(!joined.host);
    drop(host);
    let now = guest.seated().await.unwrap();
    assert!(now.host, "{now:?}");
    assert_eq!((now.seat, now.token), (joined.seat, joined.token));
    let lobby = guest.seating().await;
    assert_eq!(lobby.seats[0].player, SeatPlayer::Empty, "{lobby:?}");
    guest.start().await;
    let seen = play_out(&mut guest, &mut Answerer::new("normal", 4)).await;
    assert_eq!(seen.bye.as_deref(), Some("the game is over"));

    // A host alone who leaves the lobby ends it.
    let mut host = connect(&server, "Alice").await;
    let table = host.host(&rules("cutthroat", 150)).await;
    host.send(&ClientMessage::Bye {}).await;
    host.closed().await;
    let mut late = connect(&server, "Cy").await;
    assert_eq!(
        late.join(&table.table).await.unwrap_err().0,
        ErrorCode::NoTable
    );
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_starts_once_the_seats_can_be_filled() {
    let server = server(true, None);
    let mut host = connect(&server, "Alice").await;
    let table = host.host(&rules("partnership", 100)).await;
    let lobby = host.seating().await;
    assert!(lobby.bots && lobby.can_start, "alone, with bots: {lobby:?}");
    assert_eq!(lobby.seats[0].player, SeatPlayer::Person);
    assert!(
        lobby.seats[1..]
            .iter()
            .all(|s| s.player == SeatPlayer::Empty)
    );
    host.fill(false, "normal").await;
    assert!(!host.seating().await.can_start, "alone, without bots");
    host.start().await;
    assert_eq!(host.error().await.0, ErrorCode::CannotStart);
    let mut guest = connect(&server, "Bob").await;
    guest.join(&table.table).await.unwrap();
    let lobby = guest.seating().await;
    assert!(!lobby.can_start, "two of four, without bots");
    assert!(!host.seating().await.can_start);
    guest.start().await;
    assert_eq!(guest.error().await.0, ErrorCode::NotHost);
    guest.fill(true, "easy").await;
    assert_eq!(guest.error().await.0, ErrorCode::NotHost);
    host.fill(true, "grandmaster").await;
    assert_eq!(host.error().await.0, ErrorCode::BadMessage);
    // Chat reaches everyone, the speaker too.
    guest
        .send(&ClientMessage::Chat {
            text: "hello\u{1b}[2J".into(),
        })
        .await;
    for client in [&mut host, &mut guest] {
        let said = client
            .until(|m| match m {
                ServerMessage::Chat { from, text, .. } => Some((from.clone(), text.clone())),
                _ => None,
            })
            .await;
        assert_eq!(said, ("Bob".to_string(), "hello [2J".to_string()));
    }
    host.fill(true, "easy").await;
    let lobby = guest.seating().await;
    assert!(lobby.can_start && lobby.level == Level::Easy.into());
    host.start().await;
    for client in [&mut host, &mut guest] {
        let seats = client
            .until(|m| match m {
                ServerMessage::Start {
                    seats, commitment, ..
                } => {
                    assert!(commitment.is_some());
                    Some(seats.clone())
                }
                _ => None,
            })
            .await;
        assert_eq!(seats, ["Alice", "West", "Bob", "East"]);
    }
    // Without bots, every seat taken: four people may start.
    let mut people = Vec::new();
    let mut host = connect(&server, "P0").await;
    let table = host.host(&rules("individual", 100)).await;
    host.fill(false, "normal").await;
    for i in 1..4 {
        let mut guest = connect(&server, &format!("P{i}")).await;
        guest.join(&table.table).await.unwrap();
        people.push(guest);
    }
    let lobby = host
        .until(|m| match m {
            ServerMessage::Seating(l) if l.seats.iter().all(|s| s.player == SeatPlayer::Person) => {
                Some(l.clone())
            }
            _ => None,
        })
        .await;
    assert!(lobby.can_start && !lobby.bots);
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_decides_for_a_person_who_runs_out_of_time() {
    let server = server(true, Some(Duration::from_millis(200)));
    let mut host = connect(&server, "Slow").await;
    host.host(&rules("partnership", 100)).await;
    host.start().await;
    // Never answering: the turn timer answers, again and again, and the
    // seat stays the person's.
    let mut own = 0;
    while own < 3 {
        match host.next().await.expect("the game goes on") {
            ServerMessage::Event {
                event: SeatEvent::Bid { seat, .. } | SeatEvent::Play { seat, .. },
            } if seat == Seat::new(0) => own += 1,
            ServerMessage::Seat { .. } => panic!("the seat stays the person's"),
            _ => {}
        }
    }
    host.send(&ClientMessage::Bye {}).await;
    host.closed().await;
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_the_server_ends_every_table_with_its_record() {
    let server = server(true, None);
    let mut host = connect(&server, "Alice").await;
    host.host(&rules("partnership", 150)).await;
    host.start().await;
    let mut idle = connect(&server, "Idle").await;
    let mut seen = Seen::default();
    let ask = play_on(&mut host, &mut Answerer::new("normal", 1), &mut seen, |m| {
        matches!(m, ServerMessage::Ask { .. })
    })
    .await;
    assert!(ask.is_some(), "the game waits for Alice");
    tokio::task::spawn_blocking(move || server.stop())
        .await
        .unwrap();
    play_on(
        &mut host,
        &mut Answerer::new("normal", 1),
        &mut seen,
        |_| false,
    )
    .await;
    assert_eq!(seen.bye.as_deref(), Some("the server is shutting down"));
    assert!(matches!(
        seen.record.last(),
        Some(RecordLine::Abandoned { .. })
    ));
    assert!(verify(&seen.record_text()).unwrap()[0].is_verified());
    match idle.closed().await.last() {
        Some(ServerMessage::Bye { reason, .. }) => {
            assert_eq!(reason, "the server is shutting down")
        }
        other => panic!("no bye: {other:?}"),
    }
}

/// `spades serve` itself: it says where it listens, serves, and on SIGTERM
/// tells everyone at a table before it exits; bad flags exit 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spades_serve_says_goodbye_on_sigterm() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let mut child = Reaped(
        std::process::Command::new(env!("CARGO_BIN_EXE_spades"))
            .args(["serve", "--port", "0", "--listen", "127.0.0.1"])
            .current_dir(dir.path())
            .env("XDG_DATA_HOME", dir.path())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut lines = std::io::BufReader::new(child.0.stdout.take().unwrap()).lines();
    let mut said = Vec::new();
    while said.len() < 4 {
        said.push(lines.next().unwrap().unwrap());
    }
    let address: std::net::SocketAddr = said[0]
        .strip_prefix("spades serve: listening on ")
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("{said:?}"))
        .parse()
        .unwrap();
    let fingerprint = said[1].strip_prefix("fingerprint: ").unwrap().to_string();
    assert_eq!(
        said[2],
        format!(
            "open a table: spades host --server {fingerprint}@127.0.0.1:{}",
            address.port()
        )
    );
    assert_eq!(
        said[3],
        format!(
            "the lobby: spades lobby {fingerprint}@127.0.0.1:{}",
            address.port()
        )
    );
    let mut host = Client::connect(address, Some(&fingerprint)).await;
    host.hello("Alice").await;
    host.host(&rules("cutthroat", 150)).await;
    host.start().await;
    let mut seen = Seen::default();
    let asked = |m: &ServerMessage| matches!(m, ServerMessage::Ask { .. });
    play_on(&mut host, &mut Answerer::new("normal", 1), &mut seen, asked).await;
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    play_on(
        &mut host,
        &mut Answerer::new("normal", 1),
        &mut seen,
        |_| false,
    )
    .await;
    assert_eq!(seen.bye.as_deref(), Some("the server is shutting down"));
    assert!(matches!(
        seen.record.last(),
        Some(RecordLine::Abandoned { .. })
    ));
    let status = tokio::task::spawn_blocking(move || child.0.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status:?}");

    for (flags, words) in [
        (&["--port", "0", "--insecure-plain"][..], "loopback"),
        (&["--port", "0", "--turn-timer", "3601"], "--turn-timer"),
        (&["--port", "0", "--per-address", "0"], "--per-address"),
        (&["--port", "70000"], "--port"),
        (&["--listen", "127.0.0.1"], "--port"),
        (&["--port", "1", "--listen", "here"], "--listen"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_spades"))
            .arg("serve")
            .args(flags)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {err}");
        assert!(err.contains(words), "{flags:?}: {err}");
    }
}

/// A port already taken is the player's to change, whether the table is
/// served alone (`spades serve`) or from the host's own screen (`spades
/// host`, in a terminal): both exit 2 and name the address.
#[test]
fn a_port_in_use_is_bad_input_for_serve_and_host_alike() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let served = std::process::Command::new(env!("CARGO_BIN_EXE_spades"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1",
            "--insecure-plain",
            "--port",
            &port,
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&served.stderr);
    assert_eq!(served.status.code(), Some(2), "{said}");
    assert!(said.contains(&format!("127.0.0.1:{port}")), "{said}");
    assert!(said.contains("--port"), "{said}");
    let mut hosted = support::pty::Pty::start(
        &["host", "--insecure-plain", "--port", &port],
        Some("xterm-256color"),
    );
    let status = hosted.exit_status();
    let shown = hosted.text();
    assert_eq!(status.exit_code(), 2, "{shown}");
    assert!(shown.contains(&format!("127.0.0.1:{port}")), "{shown}");
    assert!(shown.contains("--port"), "{shown}");
}

/// One person flooding the chat is held back, told so alone; the others'
/// lines still reach everyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_flood_is_held_back_and_the_others_are_still_heard() {
    let server = server(true, None);
    let mut host = connect(&server, "Ann").await;
    let table = host.host(&rules("partnership", 200)).await;
    let mut guest = connect(&server, "Bob").await;
    guest.join(&table.table).await.unwrap();
    for i in 0..12 {
        guest
            .send(&ClientMessage::Chat {
                text: format!("spam {i}"),
            })
            .await;
    }
    let (code, why) = guest.error().await;
    assert_eq!(code, ErrorCode::Flood);
    assert!(why.contains("chat"), "{why}");
    host.send(&ClientMessage::Chat {
        text: "hello all".into(),
    })
    .await;
    // Ann hears Bob's first lines, no refusal of his, then her own line.
    let mut bobs = 0;
    host.until(|m| match m {
        ServerMessage::Chat { from, .. } if from == "Bob" => {
            bobs += 1;
            None
        }
        ServerMessage::Chat { text, .. } if text == "hello all" => Some(()),
        ServerMessage::Error { message, .. } => panic!("Ann was refused: {message}"),
        _ => None,
    })
    .await;
    assert_eq!(bobs, 5, "Bob's lines within the limit");
    guest
        .until(|m| match m {
            ServerMessage::Chat { text, .. } if text == "hello all" => Some(()),
            _ => None,
        })
        .await;
    server.stop();
}
