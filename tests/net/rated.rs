//! What a rated result means: a host who quits at once leaves a table
//! that plays on with a bot in their seat, and the partner is rated by
//! the score the game really ended with; a table off the server's ranked
//! rules is unrated and says why; one account holds one seat.

use std::time::{Duration, Instant};

use spades::bots::Level;
use spades::engine::{Mode, Seat};
use spades::ladder::farming::{self, Move, Opponent};
use spades::net::client::seat::Ladder;
use spades::protocol::lobby::ListedTable;
use spades::protocol::{ClientMessage, ErrorCode, ServerMessage};
use spades::rating::Rating;
use spades::rating::period::{self, SeatResult, Sitter};
use spades::record::{GameHeader, RecordLine};
use spades::tui::Key;
use support::net::{Answerer, Client, play_out};
use support::tui::{press, screen_text, tick};

use crate::play::{host, host_signed_in, target};

use super::ladder::{
    arrive, key, ladder_rows, ranked_server, registered, server, sign_in_with, signed,
};

/// A short partnership game the test server ranks, so one plays out fast.
const SHORT: &str = "mode = \"partnership\"\ntarget_score = 100\nlosing_score = -100\n";

/// `identity`'s account signed in on a new connection.
async fn signed_in(
    server: &spades::net::server::Server,
    identity: &spades::ladder::keys::Identity,
    name: &str,
) -> Client {
    let (mut client, nonce) = arrive(server, name).await;
    let signature = signed(server, identity, &nonce);
    let got = sign_in_with(&mut client, key(identity), signature).await;
    assert_eq!(got, Ok(name.to_string()));
    client
}

/// The final score of each side, from the record's `end` line.
fn final_scores(record: &[RecordLine]) -> Vec<i32> {
    record
        .iter()
        .find_map(|line| match line {
            RecordLine::End { scores, .. } => Some(scores.clone()),
            _ => None,
        })
        .expect("the game was played to its end")
}

/// The record's `game` line.
fn header(record: &[RecordLine]) -> &GameHeader {
    match record.first() {
        Some(RecordLine::Game(header)) => header,
        other => panic!("the record starts with its game line: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_who_quits_at_once_is_played_on_and_the_partner_is_rated_by_the_real_result() {
    host_quits_at_once(Mode::Partnership, SHORT, Seat::new(2)).await;
}

/// In cutthroat the leaver's seat, played on by a bot, is beaten or not
/// by the score: leaving hands no one a win.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_who_quits_cutthroat_at_once_gives_the_joiner_only_the_real_result() {
    let short = "mode = \"cutthroat\"\ntarget_score = 100\nlosing_score = -100\n";
    host_quits_at_once(Mode::Cutthroat, short, Seat::new(1)).await;
}

/// Ann hosts `rules` (ranked on this server), Bob joins into `bob_seat`,
/// Ann quits as the game starts; Bob plays to the end and is rated as
/// the final score says, Ann charged a loss.
async fn host_quits_at_once(mode: Mode, rules: &str, bob_seat: Seat) {
    let dir = tempfile::tempdir().unwrap();
    let server = ranked_server(&dir.path().join("ladder.sqlite"), &[rules]);
    let (ann_key, bob_key) = (
        registered(&server, "Ann").await,
        registered(&server, "Bob").await,
    );
    let mut ann = signed_in(&server, &ann_key, "Ann").await;
    let table = ann.host(rules).await;
    let mut bob = signed_in(&server, &bob_key, "Bob").await;
    assert_eq!(bob.join(&table.table).await.unwrap().seat, bob_seat);
    let lobby = bob.seating().await;
    assert!(lobby.rated, "{lobby:?}");
    ann.start().await;
    // The host quits as soon as the game begins.
    ann.until(|m| matches!(m, ServerMessage::Start { .. }).then_some(()))
        .await;
    ann.send(&ClientMessage::Bye {}).await;
    ann.closed().await;

    let seen = play_out(&mut bob, &mut Answerer::new("normal", 3)).await;
    assert_eq!(seen.bye.as_deref(), Some("the game is over"));
    assert!(
        seen.seats.iter().any(|m| matches!(m,
            ServerMessage::Seat { seat, .. } if *seat == Seat::new(0))),
        "Bob is told Ann's seat is played by a bot: {:?}",
        seen.seats
    );
    let info = &header(&seen.record).info;
    assert_eq!((info.rated, info.unrated.as_deref()), (true, None));
    let scores = final_scores(&seen.record);
    // Bob's rating is what the score the game ended with makes, as if
    // nobody had left: Ann's leaving gives him no win. The bots are the
    // table's normal ones.
    let seats: Vec<SeatResult<u8>> = mode
        .each_seat()
        .map(|seat| SeatResult {
            sitter: match seat.index() {
                0 => Sitter::Player(0, Rating::new_player()),
                _ if seat == bob_seat => Sitter::Player(1, Rating::new_player()),
                _ => Sitter::Bot(Level::Normal),
            },
            score: scores[mode.side_of(seat).index()],
            left: false,
        })
        .collect();
    let expected = period::rate(mode, None, &seats).unwrap();
    let bobs = expected.iter().find(|r| r.player == 1).unwrap();
    // Against Ann, whom nobody else has met, a result says nothing (the
    // farming rule): Bob keeps the share of the move that his other
    // opponents, the bots, are worth.
    let opponents: Vec<Opponent> = mode
        .each_seat()
        .filter(|&seat| mode.side_of(seat) != mode.side_of(bob_seat))
        .map(|seat| match seat.index() {
            0 => Opponent::Person {
                met_elsewhere: 0,
                met_before: 0,
            },
            _ => Opponent::Bot,
        })
        .collect();
    let way = if bobs.after.rating > bobs.before.rating {
        Move::Gain
    } else {
        Move::Loss
    };
    let bobs = farming::damped(bobs.before, bobs.after, farming::weight(&opponents, way));
    let rows = ladder_rows(&server, mode).await;
    let row = |name: &str| {
        rows.iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("{name} is on the ladder: {rows:?}"))
    };
    assert_eq!(
        (row("Bob").rating, row("Bob").deviation),
        (bobs.rating.round() as i32, bobs.deviation.round() as i32),
        "scores {scores:?}"
    );
    assert!(row("Ann").rating < 1500, "the leaver loses: {rows:?}");
    assert_eq!(row("Ann").games, 1);
}

/// The server's answer to `tables`.
async fn tables(client: &mut Client) -> Vec<ListedTable> {
    client.send(&ClientMessage::Tables { mode: None }).await;
    client
        .until(|m| match m {
            ServerMessage::Tables { tables, .. } => Some(tables.clone()),
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_target_table_is_unrated_and_says_why_in_the_lobby_and_the_listing() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let ann_key = registered(&server, "Ann").await;
    let mut ann = signed_in(&server, &ann_key, "Ann").await;
    let short = "mode = \"individual\"\ntarget_score = 10\n";
    let table = ann.open(short, true).await;
    let lobby = ann.seating().await;
    let why = "target_score 10, ranked 500";
    assert!(!lobby.rated);
    assert_eq!(lobby.unrated.as_deref(), Some(why));
    let mut classic = signed_in(&server, &registered(&server, "Cy").await, "Cy").await;
    let rated = classic.open("mode = \"individual\"\n", true).await;

    let mut reader = arrive(&server, "Reader").await.0;
    let listed = tables(&mut reader).await;
    let shown = |id: &str| listed.iter().find(|t| t.table == id).expect("listed");
    assert!(!shown(&table.table).rated);
    assert_eq!(shown(&table.table).unrated.as_deref(), Some(why));
    assert!(shown(&rated.table).rated, "{listed:?}");
    assert_eq!(shown(&rated.table).unrated, None);

    // Played out, its record says so, and it moves nobody's rating.
    ann.start().await;
    let seen = play_out(&mut ann, &mut Answerer::new("normal", 5)).await;
    assert_eq!(seen.bye.as_deref(), Some("the game is over"));
    let info = &header(&seen.record).info;
    assert_eq!((info.rated, info.unrated.as_deref()), (false, Some(why)));
    reader
        .send(&ClientMessage::Ladder {
            mode: Mode::Individual,
        })
        .await;
    let rows = reader
        .until(|m| match m {
            ServerMessage::Ladder { rows, .. } => Some(rows.clone()),
            _ => None,
        })
        .await;
    assert!(rows.is_empty(), "{rows:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_account_cannot_sit_twice_at_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let ann_key = registered(&server, "Ann").await;
    let mut ann = signed_in(&server, &ann_key, "Ann").await;
    let table = ann.host("mode = \"cutthroat\"\n").await;
    let mut again = signed_in(&server, &ann_key, "Ann").await;
    let (code, why) = again.join(&table.table).await.unwrap_err();
    assert_eq!(code, ErrorCode::TableFull);
    assert!(why.contains("already holds a seat"), "{why}");
    // Someone else still may.
    let mut bob = signed_in(&server, &registered(&server, "Bob").await, "Bob").await;
    assert!(bob.join(&table.table).await.is_ok());
}

/// A player's screen at a table the ladder does not rate says so: the
/// score bar's `Unrated`, and why in the rules window.
#[test]
fn a_players_screen_says_the_game_is_unrated_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let ann = host(
        &target(&server),
        "mode = \"cutthroat\"\ntarget_score = 100\n",
    );
    ann.connection.send(ClientMessage::Start {});
    let mut app = ann.started(dir.path());
    let until = Instant::now() + Duration::from_secs(30);
    while app.ladder().is_none() {
        assert!(Instant::now() < until, "the record's first line never came");
        tick(&mut app);
        std::thread::sleep(Duration::from_millis(5));
    }
    let why = "target_score 100, ranked 500";
    assert_eq!(app.ladder(), Some(&Ladder::Unrated(why.into())));
    let screen = screen_text(&mut app, 100, 30);
    assert!(screen.contains("Unrated"), "{screen}");
    press(&mut app, &[Key::Char('r')]);
    let screen = screen_text(&mut app, 100, 30);
    assert!(
        screen.contains(&format!("Unrated on the server's ladder: {why}.")),
        "{screen}"
    );
    // Leaving an unrated game costs no rating, and the quit box says
    // only what it does: Ann alone with bots, the table ends with her.
    press(&mut app, &[Key::Esc, Key::Char('q')]);
    let screen = screen_text(&mut app, 100, 30);
    assert!(
        screen.contains("Nobody else is at this table: it ends now."),
        "{screen}"
    );
    assert!(!screen.contains("counts as your loss"), "{screen}");
}

/// Issue 36's farm on a real server: a main account hosts an individual
/// table its three spare accounts join and leave as the game starts,
/// three games running. The spares' seats are played on by bots and the
/// spares lose, but nobody but the main account has ever met them, so a
/// result against them says nothing: the main account's rating does not
/// move (without the farming rule it moves by the score against the bots
/// in the spares' seats; before leavers were played on, it gained some
/// 400 points in three games).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spare_accounts_that_leave_at_once_pump_nobodys_rating() {
    let short = "mode = \"individual\"\ntarget_score = 100\nlosing_score = -100\n";
    let dir = tempfile::tempdir().unwrap();
    let server = ranked_server(&dir.path().join("ladder.sqlite"), &[short]);
    let main = registered(&server, "Main").await;
    let spares = [
        registered(&server, "Spare1").await,
        registered(&server, "Spare2").await,
        registered(&server, "Spare3").await,
    ];
    for game in 0..3 {
        let mut host = signed_in(&server, &main, "Main").await;
        let table = host.host(short).await;
        let mut sitting = Vec::new();
        for (i, spare) in spares.iter().enumerate() {
            let mut client = signed_in(&server, spare, &format!("Spare{}", i + 1)).await;
            client.join(&table.table).await.expect("a free seat");
            sitting.push(client);
        }
        assert!(host.seating().await.rated, "game {game} counts");
        host.start().await;
        for client in &mut sitting {
            client
                .until(|m| matches!(m, ServerMessage::Start { .. }).then_some(()))
                .await;
            client.send(&ClientMessage::Bye {}).await;
            client.closed().await;
        }
        let seen = play_out(&mut host, &mut Answerer::new("normal", game)).await;
        assert_eq!(seen.bye.as_deref(), Some("the game is over"));
    }
    let rows = ladder_rows(&server, Mode::Individual).await;
    let row = |name: &str| {
        rows.iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("{name} is on the ladder: {rows:?}"))
    };
    assert_eq!(row("Main").games, 3, "{rows:?}");
    assert_eq!(row("Main").rating, 1500, "{rows:?}");
    assert!(row("Main").provisional);
    for spare in ["Spare1", "Spare2", "Spare3"] {
        assert_eq!(row(spare).games, 3, "{rows:?}");
    }
}

/// Leaving a rated game is a loss, and the quit box says so: Ann, signed
/// in, hosts a game the server ranks, with its normal bots; nobody else
/// is at the table, so it ends with her.
#[test]
fn the_quit_box_of_a_rated_game_says_leaving_is_a_loss() {
    let dir = tempfile::tempdir().unwrap();
    let server = ranked_server(&dir.path().join("ladder.sqlite"), &[SHORT]);
    let identity = spades::ladder::keys::Identity::generate().unwrap();
    let ann = host_signed_in(&target(&server), &identity, SHORT);
    ann.connection.send(ClientMessage::Start {});
    let mut app = ann.started(dir.path());
    let until = Instant::now() + Duration::from_secs(30);
    while app.ladder().is_none() {
        assert!(Instant::now() < until, "the record's first line never came");
        tick(&mut app);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(app.ladder(), Some(&Ladder::Rated));
    press(&mut app, &[Key::Char('q')]);
    let screen = screen_text(&mut app, 100, 30);
    assert!(
        screen.contains("Nobody else is at this table: it ends now."),
        "{screen}"
    );
    assert!(
        screen.contains("This rated game counts as your loss."),
        "{screen}"
    );
    assert!(!screen.contains("cannot be saved"), "{screen}");
}
