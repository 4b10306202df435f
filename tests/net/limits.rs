//! What the people at one table, or one connection, may make a server do:
//! chat is bounded per table as well as per person, and a connection opens
//! at most one table, which ends when its host leaves however they leave.

use std::time::{Duration, Instant};

use spades::net::server::{Server, ServerOptions};
use spades::protocol::{ClientMessage, ErrorCode, ServerMessage};
use support::net::Client;

const RULES: &str = "mode = \"partnership\"\ntarget_score = 200\nlosing_score = -200\n";

fn server() -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        threads: Some(2),
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

async fn connect(server: &Server, name: &str) -> Client {
    let mut client = Client::connect(server.address(), None).await;
    client.hello(name).await;
    client
}

fn chat(text: &str) -> ClientMessage {
    ClientMessage::Chat { text: text.into() }
}

/// Reads until `count` chat lines have come, failing on any error.
async fn hear_chats(client: &mut Client, count: usize) {
    let mut heard = 0;
    client
        .until(|m| match m {
            ServerMessage::Chat { .. } => {
                heard += 1;
                (heard == count).then_some(())
            }
            ServerMessage::Error { message, .. } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
}

/// Four people at a table, each under their own limit (three lines each),
/// say twelve lines together: the table's limit. A thirteenth is refused
/// to its sender alone, and nobody else ever hears it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_beyond_the_tables_rate_is_refused_to_its_sender_alone() {
    let server = server();
    let mut ann = connect(&server, "Ann").await;
    let table = ann.host(RULES).await.table;
    let mut people = vec![ann];
    for name in ["Bob", "Cy", "Di"] {
        let mut guest = connect(&server, name).await;
        guest.join(&table).await.unwrap();
        people.push(guest);
    }
    for round in 0..3 {
        for (i, person) in people.iter_mut().enumerate() {
            person.send(&chat(&format!("line {round} of {i}"))).await;
        }
    }
    for person in &mut people {
        hear_chats(person, 12).await;
    }
    let di = &mut people[3];
    di.send(&chat("one too many")).await;
    match di.next().await {
        Some(ServerMessage::Error { code, message }) => {
            assert_eq!(code, ErrorCode::Flood);
            assert!(message.contains("at this table"), "{message}");
        }
        other => panic!("a thirteenth line was answered with {other:?}"),
    }
    // Each of the others asks the table something it refuses: whatever
    // the table sent them before, the refused line included, comes first.
    for person in &mut people[..3] {
        person.send(&ClientMessage::Start {}).await;
        person
            .until(|m| match m {
                ServerMessage::Chat { text, .. } if text == "one too many" => {
                    panic!("the refused line was heard")
                }
                ServerMessage::Error { .. } | ServerMessage::Start { .. } => Some(()),
                _ => None,
            })
            .await;
    }
    server.stop();
}

/// Whether the server still holds table `id`, asked by `witness` (which
/// never sits: a reclaim with a wrong token is refused either way).
async fn holds(witness: &mut Client, id: &str) -> bool {
    let (code, _) = witness.reclaim(id, "not-a-token").await.unwrap_err();
    match code {
        ErrorCode::NoTable => false,
        ErrorCode::BadToken => true,
        other => panic!("a reclaim was refused with {other:?}"),
    }
}

/// Waits (a few seconds at most) for the server to let go of table `id`.
async fn let_go(witness: &mut Client, id: &str) {
    let by = Instant::now() + Duration::from_secs(10);
    while holds(witness, id).await {
        assert!(Instant::now() < by, "table {id} outlived its host");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A hostile loop: a connection asks for table after table, and connection
/// after connection opens a table and leaves it, saying bye or dropping
/// the connection. Each connection holds one table at most, and no lobby
/// outlives its host: the server holds none once they are gone. (Today's
/// server already does this: a second `host` is refused while seated,
/// `bye` closes the connection, and a host leaving ends the table.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_holds_one_table_and_no_lobby_outlives_its_host() {
    let server = server();
    let mut witness = connect(&server, "Wit").await;
    let mut mallory = connect(&server, "Mallory").await;
    let first = mallory.host(RULES).await.table;
    for _ in 0..20 {
        mallory
            .send(&ClientMessage::Host {
                rules: RULES.into(),
                public: false,
            })
            .await;
        let (code, why) = mallory.error().await;
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(why.contains("a table already"), "{why}");
    }
    assert!(holds(&mut witness, &first).await);
    drop(mallory);
    let_go(&mut witness, &first).await;
    for i in 0..30 {
        let mut host = connect(&server, "Mallory").await;
        let table = host.host(RULES).await.table;
        if i % 2 == 0 {
            host.send(&ClientMessage::Bye {}).await;
            host.closed().await;
        }
        drop(host);
        let_go(&mut witness, &table).await;
    }
    server.stop();
}
