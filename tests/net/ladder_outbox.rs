//! Nothing lost: a rated game the ladder's store cannot write when it ends
//! is kept in the outbox file beside it, its players told the rating is
//! pending, and it is written once the store can be, across a restart of
//! the server, and never twice.

use std::path::Path;
use std::time::Duration;

use spades::engine::Mode;
use spades::ladder::keys::Identity;
use spades::ladder::store::Database;
use spades::net::server::{Server, ServerOptions};
use spades::protocol::account::{GameRating, LadderState, Rung};
use spades::protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};
use support::net::{Answerer, Client, play_out};

use crate::ladder::{SHORT, arrive, ranked, register};

/// What a server's `welcome` says: its challenge, and its ladder's state.
async fn welcomed(server: &Server) -> (Client, Option<String>, Option<LadderState>) {
    let mut client = Client::connect(server.address(), server.fingerprint()).await;
    client
        .send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            name: "Reader".into(),
        })
        .await;
    let (challenge, ladder) = client
        .until(|m| match m {
            ServerMessage::Welcome {
                challenge, ladder, ..
            } => Some((challenge.clone(), *ladder)),
            _ => None,
        })
        .await;
    (client, challenge, ladder)
}

/// The partnership ladder as a connection not signed in reads it: a
/// server whose store takes no writes offers no challenge, and still
/// answers.
async fn ladder_rows(server: &Server) -> Vec<Rung> {
    let (mut client, ..) = welcomed(server).await;
    client
        .send(&ClientMessage::Ladder {
            mode: Mode::Partnership,
        })
        .await;
    client
        .until(|m| match m {
            ServerMessage::Ladder { rows, .. } => Some(rows.clone()),
            _ => None,
        })
        .await
}

fn server(db: &Path) -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        db: Some(Database::File(db.to_path_buf())),
        ladder_retry: Duration::from_millis(50),
        ranked: ranked(&[SHORT]),
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

/// The ladder's rows once `done` holds of them, asking again and again
/// (the outbox is retried on the server's own clock).
async fn rows_once(server: &Server, done: impl Fn(&[Rung]) -> bool) -> Vec<Rung> {
    for _ in 0..600 {
        let rows = ladder_rows(server).await;
        if done(&rows) {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the ladder never came to what was awaited");
}

/// Another program holds the database's write lock: every write of the
/// server's waits out its busy timeout, then fails.
fn lock(db: &Path) -> rusqlite::Connection {
    let holder = rusqlite::Connection::open(db).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    holder
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_the_store_cannot_take_is_pending_then_written_after_a_restart_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ladder.sqlite");
    let outbox = dir.path().join("ladder.sqlite.outbox");
    let first = server(&db);
    let (mut client, nonce) = arrive(&first, "Ann").await;
    let ann = Identity::generate().unwrap();
    let got = register(&first, &mut client, &ann, "Ann", &nonce).await;
    assert_eq!(got, Ok("Ann".to_string()));
    client
        .host("mode = \"partnership\"\ntarget_score = 100\nlosing_score = -100\n")
        .await;
    client.start().await;

    // The store stops taking writes mid-game.
    let holder = lock(&db);
    let seen = play_out(&mut client, &mut Answerer::new("normal", 7)).await;
    assert_eq!(seen.bye.as_deref(), Some("the game is over"));
    assert_eq!(
        seen.rating,
        Some(GameRating::Pending {
            mode: Mode::Partnership
        }),
        "the player is told the rating is pending, no figure"
    );
    let kept = std::fs::read_to_string(&outbox).expect("the game waits in the outbox");
    assert_eq!(kept.lines().count(), 1, "{kept}");

    // The server restarts while the store is still down: the game waits.
    drop(first);
    let second = server(&db);
    // Nobody can sign in meanwhile, and the welcome says why.
    let (_, challenge, ladder) = welcomed(&second).await;
    assert_eq!((challenge, ladder), (None, Some(LadderState::Unavailable)));
    assert!(ladder_rows(&second).await.is_empty());
    assert!(outbox.exists());

    // The store comes back: the game is written, and leaves the outbox.
    drop(holder);
    let rows = rows_once(&second, |rows| !rows.is_empty()).await;
    assert_eq!((rows[0].name.as_str(), rows[0].games), ("Ann", 1));
    assert_ne!(rows[0].rating, 1500);
    let (_, challenge, ladder) = welcomed(&second).await;
    assert!(challenge.is_some() && ladder.is_none());
    for _ in 0..100 {
        if !outbox.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!outbox.exists(), "a game written leaves the outbox");

    // Written, but its line put back (a crash before the outbox was
    // rewritten): tried again at the next start, it is not rated twice.
    drop(second);
    std::fs::write(&outbox, &kept).unwrap();
    let third = server(&db);
    assert!(!outbox.exists(), "tried at start, found rated, let go");
    let again = ladder_rows(&third).await;
    assert_eq!(again, rows);
}

/// An outbox with a damaged line (cut by a crash) does not stop the
/// server: the line is moved aside, the file's good lines kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_outbox_line_is_set_aside_and_the_server_starts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ladder.sqlite");
    let outbox = dir.path().join("ladder.sqlite.outbox");
    std::fs::write(&outbox, "{\"mode\":\"partnership\",\"rec").unwrap();
    let server = server(&db);
    let (_, challenge, ladder) = welcomed(&server).await;
    assert!(challenge.is_some() && ladder.is_none());
    let aside = dir.path().join("ladder.sqlite.outbox.damaged");
    assert_eq!(
        std::fs::read_to_string(aside).unwrap(),
        "{\"mode\":\"partnership\",\"rec\n"
    );
    assert!(!outbox.exists(), "nothing good was left in it");
}
