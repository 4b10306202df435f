//! The server's public lobby: public tables listed with their seats and
//! ratings, private ones never; the `mode` filter; the list cut at
//! `MAX_LISTED` with its total; a flood of `tables` refused; and quick
//! match, from the queue to a started game, with what it refuses.

use std::time::{Duration, Instant};

use spades::engine::Mode;
use spades::ladder::keys::Identity;
use spades::net::server::{Server, ServerOptions};
use spades::protocol::lobby::{ListedTable, MAX_LISTED, MAX_WAIT};
use spades::protocol::{ClientMessage, ErrorCode, SeatPlayer, ServerMessage};
use support::net::Client;

use super::ladder::{arrive, register, server as ladder_server};

const PARTNERSHIP: &str = "mode = \"partnership\"\n";
const CUTTHROAT: &str = "mode = \"cutthroat\"\n";

/// A plain server on loopback without a ladder, taking many connections
/// from this one address.
pub(super) fn plain_server() -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        threads: Some(2),
        per_address: 1000,
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

pub(super) async fn connect(server: &Server, name: &str) -> Client {
    let mut client = Client::connect(server.address(), server.fingerprint()).await;
    client.hello(name).await;
    client
}

/// A new account `name`, signed in on a connection of its own; the
/// ratings `signed_in` gave it.
pub(super) async fn signed_in(server: &Server, name: &str) -> (Client, Vec<ServerMessage>) {
    let identity = Identity::generate().unwrap();
    let (mut client, nonce) = arrive(server, name).await;
    let got = register(server, &mut client, &identity, name, &nonce).await;
    assert_eq!(got, Ok(name.to_string()));
    let signed = client
        .received
        .iter()
        .filter_map(|l| spades::protocol::parse::<ServerMessage>(l).ok())
        .filter(|m| matches!(m, ServerMessage::SignedIn { .. }))
        .collect();
    (client, signed)
}

/// The server's answer to `tables`, or the error that came instead.
async fn tables(
    client: &mut Client,
    mode: Option<Mode>,
) -> Result<(Vec<ListedTable>, u32), ErrorCode> {
    client.send(&ClientMessage::Tables { mode }).await;
    client
        .until(|m| match m {
            ServerMessage::Tables { tables, total, .. } => Some(Ok((tables.clone(), *total))),
            ServerMessage::Error { code, .. } => Some(Err(*code)),
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_table_is_listed_with_its_seats_and_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let (mut ann, signed) = signed_in(&server, "Ann").await;
    let Some(ServerMessage::SignedIn { ratings, .. }) = signed.first() else {
        panic!("Ann was not told her ratings");
    };
    let hers = ratings
        .iter()
        .find(|r| r.mode == Mode::Partnership)
        .unwrap()
        .clone();
    assert!(hers.provisional, "a new player's rating is provisional");
    let table = ann.open(PARTNERSHIP, true).await.table;
    let mut carol = connect(&server, "Carol").await;

    let (listed, total) = tables(&mut carol, None).await.unwrap();
    assert_eq!(total, 1);
    let [one] = listed.as_slice() else {
        panic!("one table listed: {listed:?}");
    };
    assert_eq!(one.table, table);
    assert_eq!(one.mode, Mode::Partnership);
    assert_eq!(one.rules, "to 500 · bags 10/−100 · nil 100 · blind nil 200");
    assert!(!one.started);
    // Ann signed in, bots of a fixed level in the other seats: rated.
    assert!(one.rated);
    let ann_seat = &one.seats[0];
    assert_eq!(ann_seat.name.as_deref(), Some("Ann"));
    assert_eq!(ann_seat.player, SeatPlayer::Person);
    let shown = ann_seat
        .rating
        .expect("a signed-in player's rating is shown");
    assert_eq!(shown.rating, hers.rating);
    assert_eq!(shown.deviation, hers.deviation);
    assert!(shown.provisional);
    assert_eq!(one.free_seats(), 3);

    // Someone not signed in sits down: no rating, and no longer rated.
    let mut bob = connect(&server, "Bob").await;
    let bob_seat = bob.join(&table).await.unwrap().seat;
    let (listed, _) = tables(&mut carol, Some(Mode::Partnership)).await.unwrap();
    let seat = &listed[0].seats[bob_seat.index()];
    assert_eq!(seat.name.as_deref(), Some("Bob"));
    assert_eq!(seat.player, SeatPlayer::Person);
    assert_eq!(seat.rating, None);
    assert!(!listed[0].rated);
    assert_eq!(listed[0].free_seats(), 2);

    // Once the game starts the table is listed as started, then gone
    // when it ends: once the last person has left it.
    ann.start().await;
    ann.until(|m| matches!(m, ServerMessage::Start { .. }).then_some(()))
        .await;
    let (listed, _) = tables(&mut carol, None).await.unwrap();
    assert!(listed[0].started);
    assert_eq!(listed[0].free_seats(), 0);
    for person in [&mut ann, &mut bob] {
        person.send(&ClientMessage::Bye {}).await;
        person.closed().await;
    }
    let (listed, total) = tables(&mut carol, None).await.unwrap();
    assert!(listed.is_empty() && total == 0, "{listed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_table_is_never_listed() {
    let server = plain_server();
    let mut ann = connect(&server, "Ann").await;
    let private = ann.host(PARTNERSHIP).await.table;
    let mut bob = connect(&server, "Bob").await;
    bob.join(&private).await.unwrap();
    let mut dan = connect(&server, "Dan").await;
    let public = dan.open(CUTTHROAT, true).await.table;
    let mut carol = connect(&server, "Carol").await;
    for mode in [None, Some(Mode::Partnership), Some(Mode::Cutthroat)] {
        let (listed, total) = tables(&mut carol, mode).await.unwrap();
        assert!(listed.iter().all(|t| t.table != private));
        let publics = usize::from(mode != Some(Mode::Partnership));
        assert_eq!((listed.len(), total), (publics, publics as u32));
    }
    ann.start().await;
    ann.until(|m| matches!(m, ServerMessage::Start { .. }).then_some(()))
        .await;
    let (listed, _) = tables(&mut carol, None).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].table, public);
    // Not a trace of the private table's code in anything Carol was sent.
    assert!(carol.received.iter().all(|line| !line.contains(&private)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_keeps_to_the_mode_asked_for() {
    let server = plain_server();
    let mut hosts = Vec::new();
    let mut opened = Vec::new();
    for (name, rules) in [("Ann", PARTNERSHIP), ("Bob", CUTTHROAT), ("Cy", CUTTHROAT)] {
        let mut host = connect(&server, name).await;
        opened.push((host.open(rules, true).await.table, rules));
        hosts.push(host);
    }
    let mut dan = connect(&server, "Dan").await;
    let (cutthroat, total) = tables(&mut dan, Some(Mode::Cutthroat)).await.unwrap();
    assert_eq!(total, 2);
    assert!(cutthroat.iter().all(|t| t.mode == Mode::Cutthroat));
    // The newest first: Cy's, then Bob's.
    let ids: Vec<&str> = cutthroat.iter().map(|t| t.table.as_str()).collect();
    assert_eq!(ids, [opened[2].0.as_str(), opened[1].0.as_str()]);
    assert_eq!(cutthroat[0].seats.len(), 3);
    let (every, total) = tables(&mut dan, None).await.unwrap();
    assert_eq!((every.len(), total), (3, 3));
    let (none, total) = tables(&mut dan, Some(Mode::Individual)).await.unwrap();
    assert_eq!((none.len(), total), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_stops_at_its_bound_and_counts_the_rest() {
    let server = plain_server();
    let count = MAX_LISTED + 5;
    let mut hosts = Vec::new();
    for i in 0..count {
        let mut host = connect(&server, &format!("H{i}")).await;
        host.open(PARTNERSHIP, true).await;
        hosts.push(host);
    }
    let mut dan = connect(&server, "Dan").await;
    let (listed, total) = tables(&mut dan, None).await.unwrap();
    assert_eq!(listed.len(), MAX_LISTED);
    assert_eq!(total as usize, count);
    let line = dan.received.last().unwrap();
    assert!(line.len() < spades::protocol::MAX_LINE, "{}", line.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_listings_is_refused_and_the_connection_kept() {
    let server = plain_server();
    let mut dan = connect(&server, "Dan").await;
    for _ in 0..10 {
        assert!(tables(&mut dan, None).await.is_ok());
    }
    assert_eq!(tables(&mut dan, None).await, Err(ErrorCode::Flood));
    assert_eq!(tables(&mut dan, None).await, Err(ErrorCode::Flood));
    // Still connected: a table opens.
    dan.host(PARTNERSHIP).await;
}

/// The `seated` that follows a queue, the time it came, and the `start`.
async fn matched(client: &mut Client) -> (spades::engine::Seat, String, Instant, Vec<SeatPlayer>) {
    let waiting = client
        .until(|m| match m {
            ServerMessage::Queued { waiting, .. } => Some(*waiting),
            ServerMessage::Error { code, message } => panic!("queue refused: {code:?} {message}"),
            _ => None,
        })
        .await;
    assert!(waiting >= 1);
    let seated = client.seated().await.unwrap();
    let at = Instant::now();
    assert!(!seated.host, "a quick match's table has no host");
    let players = client
        .until(|m| match m {
            ServerMessage::Start { players, .. } => Some(players.clone()),
            _ => None,
        })
        .await;
    (seated.seat, seated.table, at, players)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_queued_sit_together_with_bots_after_the_wait() {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let (mut ann, _) = signed_in(&server, "Ann").await;
    let (mut bob, _) = signed_in(&server, "Bob").await;
    let queued_at = Instant::now();
    let queue = |wait| ClientMessage::Queue {
        mode: Mode::Partnership,
        wait,
    };
    ann.send(&queue(2)).await;
    bob.send(&queue(60)).await;
    let (ann_seat, ann_table, at, players) = matched(&mut ann).await;
    let (bob_seat, bob_table, _, _) = matched(&mut bob).await;
    assert_eq!(ann_table, bob_table);
    // Not before Ann's wait, the first player's, had passed.
    assert!(
        at - queued_at >= Duration::from_secs(2),
        "{:?}",
        at - queued_at
    );
    // Two players of like rating sit as opponents.
    assert_ne!(
        Mode::Partnership.side_of(ann_seat),
        Mode::Partnership.side_of(bob_seat)
    );
    let people = players.iter().filter(|&&p| p == SeatPlayer::Person).count();
    let bots = players.iter().filter(|&&p| p == SeatPlayer::Bot).count();
    assert_eq!((people, bots), (2, 2));
    // The game goes on: whoever bids first is asked.
    let asked = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            tokio::select! {
                Some(m) = ann.next() => if matches!(m, ServerMessage::Ask { .. }) { return; },
                Some(m) = bob.next() => if matches!(m, ServerMessage::Ask { .. }) { return; },
            }
        }
    })
    .await;
    assert!(asked.is_ok(), "nobody was asked to bid");
    // Listed as a started, rated game.
    let mut carol = connect(&server, "Carol").await;
    let (listed, _) = tables(&mut carol, None).await.unwrap();
    let table = listed.iter().find(|t| t.table == ann_table).unwrap();
    assert!(table.started && table.rated);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_is_refused_without_a_sign_in_or_a_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let mut guest = connect(&server, "Guest").await;
    let queue = ClientMessage::Queue {
        mode: Mode::Partnership,
        wait: 10,
    };
    guest.send(&queue).await;
    assert_eq!(guest.error().await.0, ErrorCode::NotSignedIn);
    let plain = plain_server();
    let mut guest = connect(&plain, "Guest").await;
    guest.send(&queue).await;
    assert_eq!(guest.error().await.0, ErrorCode::NoLadder);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_waits_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let (mut ann, _) = signed_in(&server, "Ann").await;
    let too_long = MAX_WAIT + 1;
    for wait in [
        too_long.to_string(),
        "-1".into(),
        "4294967296".into(),
        "1e9".into(),
        "2.5".into(),
        "\"10\"".into(),
        "null".into(),
    ] {
        let line = format!(r#"{{"type":"queue","mode":"partnership","wait":{wait}}}"#);
        ann.send_raw(format!("{line}\n").as_bytes()).await.unwrap();
        let (code, message) = ann.error().await;
        assert_eq!(code, ErrorCode::BadMessage, "{wait}: {message}");
    }
    // The dummy's game is not rated: no quick match for it.
    ann.send(&ClientMessage::Queue {
        mode: Mode::Dummy,
        wait: 10,
    })
    .await;
    assert_eq!(ann.error().await.0, ErrorCode::BadMessage);
    // Still connected, and a wait in bounds is taken; then left.
    ann.send(&ClientMessage::Queue {
        mode: Mode::Cutthroat,
        wait: MAX_WAIT,
    })
    .await;
    ann.until(|m| matches!(m, ServerMessage::Queued { .. }).then_some(()))
        .await;
    ann.send(&ClientMessage::Unqueue {}).await;
    ann.until(|m| matches!(m, ServerMessage::Unqueued {}).then_some(()))
        .await;
}

/// The next `queued`: how many wait, their names and the seconds left.
async fn queued(client: &mut Client) -> (u32, Vec<String>, Option<u32>) {
    client
        .until(|m| match m {
            ServerMessage::Queued {
                waiting,
                names,
                bots_in,
                ..
            } => Some((*waiting, names.clone(), *bots_in)),
            ServerMessage::Error { code, message } => panic!("queue refused: {code:?} {message}"),
            _ => None,
        })
        .await
}

/// Everyone waiting hears the same count and names whenever who waits
/// changes, each with the seconds left of their own wait: a player who
/// came first is told the second came, and that they left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everyone_waiting_hears_who_waits_and_how_long() {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let (mut ann, _) = signed_in(&server, "Ann").await;
    let (mut bob, _) = signed_in(&server, "Bob").await;
    let queue = |wait| ClientMessage::Queue {
        mode: Mode::Partnership,
        wait,
    };
    ann.send(&queue(120)).await;
    let (count, names, bots_in) = queued(&mut ann).await;
    assert_eq!((count, names), (1, vec!["Ann".to_string()]));
    assert!(
        bots_in.is_some_and(|s| (100..=120).contains(&s)),
        "{bots_in:?}"
    );
    bob.send(&queue(90)).await;
    let both = vec!["Ann".to_string(), "Bob".to_string()];
    let (count, names, bots_in) = queued(&mut bob).await;
    assert_eq!((count, &names), (2, &both));
    assert!(
        bots_in.is_some_and(|s| (60..=90).contains(&s)),
        "{bots_in:?}"
    );
    // Ann is told Bob came, without asking.
    let (count, names, bots_in) = queued(&mut ann).await;
    assert_eq!((count, &names), (2, &both));
    assert!(bots_in.is_some_and(|s| s <= 120), "{bots_in:?}");
    bob.send(&ClientMessage::Unqueue {}).await;
    bob.until(|m| matches!(m, ServerMessage::Unqueued {}).then_some(()))
        .await;
    let (count, names, _) = queued(&mut ann).await;
    assert_eq!((count, names), (1, vec!["Ann".to_string()]));
}

/// A player coming and going as fast as they may cannot flood those who
/// wait: each hears `queued` at most five times a second, and in the end
/// the count as it stands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_coming_and_going_cannot_flood_those_who_wait() {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let (mut ann, _) = signed_in(&server, "Ann").await;
    let (mut bob, _) = signed_in(&server, "Bob").await;
    let queue = ClientMessage::Queue {
        mode: Mode::Cutthroat,
        wait: MAX_WAIT,
    };
    ann.send(&queue).await;
    assert_eq!(queued(&mut ann).await.0, 1);
    let start = Instant::now();
    for _ in 0..20 {
        bob.send(&queue).await;
        queued(&mut bob).await;
        bob.send(&ClientMessage::Unqueue {}).await;
        bob.until(|m| matches!(m, ServerMessage::Unqueued {}).then_some(()))
            .await;
    }
    // Bob stays: Ann must hear it, however soon after her last word.
    bob.send(&queue).await;
    queued(&mut bob).await;
    // Read what Ann was told until the queue has stood still a while.
    let mut told = Vec::new();
    while let Ok(Some(message)) = ann.next_within(Duration::from_secs(1)).await {
        if let ServerMessage::Queued { waiting, .. } = message {
            told.push(waiting);
        }
    }
    let spans = start.elapsed().as_millis() / 200;
    assert!(
        told.len() as u128 <= spans + 2,
        "{} queued in {spans} fifths of a second",
        told.len()
    );
    assert_eq!(told.last(), Some(&2), "the count as it stands: {told:?}");
}

/// What the lobby screen calls: the list, a public table opened (its
/// `seated` left for the table's follower), the queue joined and left,
/// and a refusal as a typed error.
#[test]
fn the_client_library_lists_opens_and_queues() {
    use spades::engine::Rules;
    use spades::net::client::account::{self, Credentials};
    use spades::net::client::lobby::{self, LobbyError, Unqueued};
    use spades::net::client::{Connection, Incoming};

    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(&dir.path().join("ladder.sqlite"));
    let target = super::play::target(&server);
    let signed = |name: &str| {
        let mut connection = Connection::open(&target, name).unwrap();
        let identity = Identity::generate().unwrap();
        let credentials = Credentials {
            identity: &identity,
            register_as: Some(name),
            retired: &[],
        };
        let signed = account::sign_in(&mut connection, &credentials).unwrap();
        assert_eq!(signed.map(|s| s.name).as_deref(), Some(name));
        connection
    };
    let mut ann = signed("Ann");
    let seated = lobby::open(&mut ann, &Rules::classic(Mode::Partnership), true).unwrap();
    assert!(seated.host);
    assert_eq!(seated.seat.index(), 0);
    // The `seated` is still there for whoever follows the table.
    let next = ann.recv_timeout(Duration::from_secs(5));
    let Some(Incoming::Message(ServerMessage::Seated { table, token, .. })) = next else {
        panic!("the seated message was not put back: {next:?}");
    };
    assert_eq!(table, seated.table);
    assert!(!token.is_empty());

    let mut bob = Connection::open(&target, "Bob").unwrap();
    let listing = lobby::list(&mut bob, Some(Mode::Partnership)).unwrap();
    assert_eq!(listing.total, 1);
    assert_eq!(listing.tables[0].table, seated.table);
    assert!(listing.tables[0].seats[0].rating.is_some());
    let empty = lobby::list(&mut bob, Some(Mode::Individual)).unwrap();
    assert_eq!((empty.tables.len(), empty.total), (0, 0));
    let refused = lobby::queue(&mut bob, Mode::Partnership, 30);
    assert!(
        matches!(
            refused,
            Err(LobbyError::Refused {
                code: ErrorCode::NotSignedIn,
                ..
            })
        ),
        "{refused:?}"
    );

    let mut cy = signed("Cy");
    assert_eq!(lobby::queue(&mut cy, Mode::Cutthroat, 300), Ok(1));
    assert_eq!(lobby::unqueue(&mut cy), Ok(Unqueued::Left));
}

/// The list says how many watch a public table, as they come and go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_counts_a_tables_spectators() {
    let server = plain_server();
    let mut ann = connect(&server, "Ann").await;
    let table = ann.open(PARTNERSHIP, true).await.table;
    let mut carol = connect(&server, "Carol").await;
    let watchers = |listed: &[ListedTable]| listed[0].watchers;
    assert_eq!(watchers(&tables(&mut carol, None).await.unwrap().0), 0);

    let mut dan = connect(&server, "Dan").await;
    dan.send(&ClientMessage::Watch {
        table: table.clone(),
    })
    .await;
    dan.until(|m| matches!(m, ServerMessage::Watching { .. }).then_some(()))
        .await;
    assert_eq!(watchers(&tables(&mut carol, None).await.unwrap().0), 1);

    dan.send(&ClientMessage::StopWatching {}).await;
    dan.closed().await;
    // The table hears of the leaving on its own time: ask until it has.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let seen = watchers(&tables(&mut carol, None).await.unwrap().0);
        if seen == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "still {seen} watching");
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
}

/// A name of one letter and 32,000 combining marks: one column on a
/// screen, 64 kB on the wire.
fn marks_name() -> String {
    format!("A{}", "\u{301}".repeat(32_000))
}

/// A hundred public tables, each opened by a host whose hello gave a
/// name of 32,000 combining marks: the name is cut at hello, and the
/// lobby's `tables` answer stays one line the client library reads, each
/// name in it within its bytes. (Two such hosts used to make the answer
/// longer than any client reads.)
#[test]
fn a_hundred_tables_of_hostile_names_leave_the_list_readable() {
    use spades::naming::MAX_NAME_BYTES;
    use spades::net::client::Connection;
    use spades::net::client::lobby;

    let server = plain_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let hosts: Vec<Client> = runtime.block_on(async {
        let mut hosts = Vec::new();
        for _ in 0..100 {
            let mut host = connect(&server, &marks_name()).await;
            host.open(PARTNERSHIP, true).await;
            hosts.push(host);
        }
        hosts
    });
    let target = super::play::target(&server);
    let mut bob = Connection::open(&target, "Bob").unwrap();
    let listing = lobby::list(&mut bob, None).expect("the list is read");
    assert_eq!(listing.total, 100);
    assert!(!listing.tables.is_empty());
    for table in &listing.tables {
        let host = table.seats[0].name.as_deref().unwrap_or_default();
        assert_eq!(host, "A\u{301}");
        assert!(host.len() <= MAX_NAME_BYTES);
    }
    drop(hosts);
}
