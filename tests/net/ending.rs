//! Every way a shared table ends leaves every seat's copy of the record
//! closed, its seed revealed, so that it verifies: the host leaving, the
//! server stopping; and a table that has ended is left with `q` at once.
//! A table id that is not there is said so, not waited on for ever.

use std::path::{Path, PathBuf};
use std::time::Duration;

use spades::engine::Decision;
use spades::net::server::Server;
use spades::protocol::ClientMessage;
use spades::session::Played;
use spades::tui::{App, Input, Key};
use support::pty::Pty;
use support::tui::{press, screen_text, tick};

use crate::e2e::code_on;
use crate::play::{config, host, hosts_own_server, join, play_until, server, target};

const RULES: &str = "mode = \"partnership\"\ntarget_score = 300\nlosing_score = -300\n";

/// Ann hosts, Bob joins opposite her, bots in the other seats; both
/// screens a few cards into the first hand. Each keeps its copy of the
/// record in a folder of its own.
pub(crate) fn two_at_a_table(server: &Server, ann_dir: &Path, bob_dir: &Path) -> (App, App) {
    let mut ann = host(&target(server), RULES);
    let table = ann.seat_token().0;
    let bob = join(&target(server), "Bob", &table);
    ann.until(|w| w.state.seating.as_ref().is_some_and(|l| l.can_start));
    ann.connection.send(ClientMessage::Start {});
    let mut ann_app = ann.started(ann_dir);
    let mut bob_app = bob.started(bob_dir);
    play_until(&mut [&mut ann_app, &mut bob_app], |apps| {
        apps[1].view().play.played.len() >= 5
    });
    (ann_app, bob_app)
}

/// Plays on (answering what is asked) until the screen says the table is
/// gone.
fn until_gone(app: &mut App) {
    play_until(&mut [app], |apps| {
        apps[0]
            .notice()
            .is_some_and(|n| n.contains("table is gone"))
    });
}

/// Each copy of the record verifies: closed, its seed revealed.
fn all_verify(played: &[Played]) {
    for p in played {
        assert_eq!(p.records.len(), 1, "{:?}", p.records);
        let text = std::fs::read_to_string(&p.records[0]).unwrap();
        let verdicts = spades::verify::verify(&text).unwrap();
        assert!(
            matches!(verdicts[0].outcome, spades::verify::Outcome::Verified(_)),
            "{}: {:?}\n{}",
            p.records[0].display(),
            verdicts[0].outcome,
            text.lines().last().unwrap_or_default()
        );
    }
}

/// On a server in the host's own program (`spades host`): the server goes
/// with its host, so the host leaving ends the table for everyone.
#[test]
fn the_host_leaving_closes_every_copy_of_the_record() {
    let server = hosts_own_server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (mut ann_app, mut bob_app) = two_at_a_table(&server, ann_dir.path(), bob_dir.path());
    // Ann, the host, leaves in the middle of the hand.
    let ann_played = ann_app.close();
    until_gone(&mut bob_app);
    // The table has ended: `q` leaves without a question.
    press(&mut bob_app, &[Key::Char('q')]);
    assert!(bob_app.should_quit(), "q leaves a table that has ended");
    assert!(bob_app.overlay().is_none(), "no question asked");
    all_verify(&[ann_played, bob_app.close()]);
}

#[test]
fn a_server_stopping_closes_every_copy_of_the_record() {
    let server = server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (mut ann_app, mut bob_app) = two_at_a_table(&server, ann_dir.path(), bob_dir.path());
    server.stop();
    until_gone(&mut ann_app);
    until_gone(&mut bob_app);
    all_verify(&[ann_app.close(), bob_app.close()]);
}

/// A turn asked of the player before the table ended (its host, who
/// served it, left) can never be answered: once the table is gone the
/// screen no longer asks for it.
#[test]
fn a_table_that_has_ended_asks_nothing_more() {
    let server = hosts_own_server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (mut ann_app, mut bob_app) = two_at_a_table(&server, ann_dir.path(), bob_dir.path());
    play_until(&mut [&mut ann_app, &mut bob_app], |apps| {
        apps[1].human_turn().is_some() && apps[1].held_trick().is_none()
    });
    drop(ann_app.close());
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while !bob_app
        .notice()
        .is_some_and(|n| n.contains("table is gone"))
    {
        assert!(std::time::Instant::now() < until, "the end was not told");
        tick(&mut bob_app);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(bob_app.human_turn().is_none(), "a turn at an ended table");
    let screen = screen_text(&mut bob_app, 100, 30);
    assert!(!screen.contains("Your turn"), "{screen}");
}

/// The player's own move, sent and not yet answered by the table, is not
/// shown as the table waiting on the player.
#[test]
fn the_players_own_move_in_flight_is_not_waited_on() {
    let server = server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (mut ann_app, mut bob_app) = two_at_a_table(&server, ann_dir.path(), bob_dir.path());
    // A turn with a choice: a lone legal card is played for the player,
    // and Enter then does nothing.
    play_until(&mut [&mut ann_app, &mut bob_app], |apps| {
        apps[1].human_turn().map(|t| t.decision) == Some(Decision::Play)
            && apps[1].held_trick().is_none()
            && apps[1].view().legal_plays().len() > 1
    });
    // Bob plays; the table has not answered yet.
    bob_app.update(Input::Key(Key::Enter));
    if bob_app.human_turn().is_some() {
        let notice = format!("{:?}", bob_app.notice());
        panic!(
            "the card was not played: {notice}\n{}",
            screen_text(&mut bob_app, 100, 30)
        );
    }
    assert_ne!(bob_app.waiting_for(), Some(bob_app.you()));
    let screen = screen_text(&mut bob_app, 100, 30);
    assert!(!screen.contains("Bob is playing"), "{screen}");
}

/// `spades host ARGS` as Ann and `spades join` as Bob, in terminals of
/// their own, a few cards into a game.
pub(crate) fn two_programs_at_a_table(host_args: &[&str]) -> (Pty, Pty) {
    let mut args = vec!["host", "--name", "Ann", "--speed", "instant"];
    args.extend(host_args);
    let mut host = Pty::start(&args, Some("xterm-256color"));
    host.wait_for("the lobby with its code", |s| code_on(s).is_some());
    let code = code_on(&host.text()).unwrap();
    let mut guest = Pty::start(
        &["join", &code, "--name", "Bob", "--speed", "instant"],
        Some("xterm-256color"),
    );
    host.wait_for("Bob seated", |s| {
        s.contains("Bob") && s.contains("Enter  start")
    });
    host.send(b"\r");
    for pty in [&mut host, &mut guest] {
        pty.wait_for("the game", |s| s.contains("? help  q quit"));
    }
    for _ in 0..12 {
        for pty in [&mut host, &mut guest] {
            pty.send(b"\r");
            pty.pump(Duration::from_millis(30));
        }
    }
    (host, guest)
}

/// A player whose table has ended leaves with `q`, cleanly.
fn leave_ended(pty: &mut Pty) {
    pty.wait_for("the table gone", |s| s.contains("q leaves"));
    pty.send(b"q");
    let status = pty.exit_status();
    assert!(status.success(), "{status:?}\n{}", pty.text());
    assert!(!pty.screen().alternate_screen(), "alternate screen left");
}

/// `spades verify` passes each player's own copy of the record.
fn copies_verify(players: &[&Pty]) {
    for pty in players {
        let record = pty.record_path();
        let out = spades_in(pty, &["verify".as_ref(), record.as_os_str()]);
        assert!(out.status.success(), "{}: {out:?}", record.display());
    }
}

/// The real programs: `spades host` and `spades join CODE`, the host
/// leaving with `q`, `y` a few cards into the game.
#[test]
fn a_host_who_leaves_keeps_a_record_that_verifies_and_history_says_left() {
    let (mut host, mut guest) = two_programs_at_a_table(&["--port", "0", "--address", "127.0.0.1"]);
    host.quit();
    // The host's own copy is closed as the host leaves.
    copies_verify(&[&host]);
    leave_ended(&mut guest);
    copies_verify(&[&guest]);
    // Ann's history has the game as left (abandoned), with its score, not
    // unfinished: it cannot be taken up again.
    let out = spades_in(&host, &["history".as_ref(), "--json".as_ref()]);
    let games: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(games[0]["result"], "left", "{games}");
    assert_eq!(
        games[0]["scores"].as_array().map(Vec::len),
        Some(2),
        "{games}"
    );
}

/// The program serving the table (`spades host`) stopped by a signal.
#[test]
fn a_hosts_program_stopped_by_a_signal_closes_every_copy() {
    let (mut host, mut guest) = two_programs_at_a_table(&["--port", "0", "--address", "127.0.0.1"]);
    host.signal("TERM");
    host.exit_status();
    assert!(!host.screen().alternate_screen(), "alternate screen left");
    copies_verify(&[&host]);
    leave_ended(&mut guest);
    copies_verify(&[&guest]);
}

/// `spades serve` stopped by a signal while a game is on at one of its
/// tables.
#[test]
fn a_server_stopped_by_a_signal_closes_every_copy() {
    let mut served = support::process::serve(&[]);
    let (mut host, mut guest) = two_programs_at_a_table(&["--server", &served.server]);
    let serve = &mut served.process;
    let pid = serve.0.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(serve.0.wait().unwrap().success(), "serve stops cleanly");
    leave_ended(&mut host);
    leave_ended(&mut guest);
    copies_verify(&[&host, &guest]);
}

/// `spades ARGS` run in `pty`'s home.
fn spades_in(pty: &Pty, args: &[&std::ffi::OsStr]) -> std::process::Output {
    let home: PathBuf = pty.home().path().to_path_buf();
    std::process::Command::new(env!("CARGO_BIN_EXE_spades"))
        .args(args)
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .output()
        .unwrap()
}

/// A code whose table is not on the server: said so, exit 2, the
/// terminal as it was.
#[test]
fn a_table_that_is_not_there_is_said_so() {
    let server = server();
    let code = format!(
        "ZZZZ7TNFDUAX4XS6.{}@127.0.0.1:{}",
        server.fingerprint().unwrap(),
        server.address().port()
    );
    let mut joiner = Pty::start(&["join", &code, "--name", "Bob"], Some("xterm-256color"));
    let status = joiner.exit_status();
    assert_eq!(status.exit_code(), 2, "{}", joiner.text());
    let text = joiner.text();
    assert!(text.contains("no such table"), "{text}");
    assert!(text.contains("ZZZZ7TNFDUAX4XS6"), "{text}");
    assert!(!joiner.screen().alternate_screen(), "alternate screen left");
}

/// The quit box, cut out of the screen: what it says, without the cards
/// of a secret deal around it.
fn quit_box(app: &mut App) -> String {
    let screen = screen_text(app, 80, 24);
    let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let top = rows
        .iter()
        .position(|r| r.iter().collect::<String>().contains("Quit?"))
        .unwrap_or_else(|| panic!("no quit box:\n{screen}"));
    let corner = |c: &char| matches!(c, '+' | '┌' | '┐' | '╭' | '╮');
    let left = rows[top].iter().position(corner).expect("a corner");
    let right = rows[top].iter().rposition(corner).expect("a corner");
    let bottom = corner_below(&rows, top, left, corner);
    rows[top..=bottom]
        .iter()
        .map(|row| row[left..=right].iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The row of the box's bottom-left corner, below its top at `top`.
fn corner_below(
    rows: &[Vec<char>],
    top: usize,
    left: usize,
    corner: impl Fn(&char) -> bool,
) -> usize {
    (top + 1..rows.len())
        .find(|&r| corner(&rows[r][left]) || matches!(rows[r][left], '└' | '╰'))
        .expect("the box's bottom")
}

/// Leaving a shared table is asked first, and the box says what it does:
/// the game goes on with a bot in the seat (here unrated: no loss is
/// said); the host whose own program serves the table is told it ends
/// for everyone.
#[test]
fn the_quit_box_at_a_shared_table_says_what_leaving_does() {
    let server = hosts_own_server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut ann = host(&target(&server), RULES);
    let table = ann.seat_token().0;
    let bob = join(&target(&server), "Bob", &table);
    ann.until(|w| w.state.seating.as_ref().is_some_and(|l| l.can_start));
    ann.connection.send(ClientMessage::Start {});
    let mut serving = config(ann_dir.path());
    serving.serves_table = true;
    let mut ann_app = ann.started_with(serving);
    let mut bob_app = bob.started(bob_dir.path());
    press(&mut bob_app, &[Key::Char('q')]);
    insta::assert_snapshot!("confirm_quit_shared_table", quit_box(&mut bob_app));
    press(&mut ann_app, &[Key::Char('q')]);
    insta::assert_snapshot!("confirm_quit_served_table", quit_box(&mut ann_app));
}

/// A guest who leaves while someone else still plays is told the game
/// plays on without them; once nobody else is at the table (Ann left on a
/// server that is not her own program: a bot plays her seat), Bob's box
/// says the table ends with him.
#[test]
fn the_quit_box_of_the_last_one_at_the_table_says_it_ends() {
    let server = server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (mut ann_app, mut bob_app) = two_at_a_table(&server, ann_dir.path(), bob_dir.path());
    assert!(bob_app.others_here());
    drop(ann_app.close());
    play_until(&mut [&mut bob_app], |apps| !apps[0].others_here());
    press(&mut bob_app, &[Key::Char('q')]);
    insta::assert_snapshot!("confirm_quit_last_at_the_table", quit_box(&mut bob_app));
}

/// The notice that the table is gone stays until the player leaves: keys
/// that would say whose turn it is, or anything else, do not cover it;
/// from the lobby, it says `q` goes back there.
#[test]
fn the_table_gone_notice_stays_until_the_player_leaves() {
    let server = hosts_own_server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut ann = host(&target(&server), RULES);
    let table = ann.seat_token().0;
    let bob = join(&target(&server), "Bob", &table);
    ann.until(|w| w.state.seating.as_ref().is_some_and(|l| l.can_start));
    ann.connection.send(ClientMessage::Start {});
    let mut ann_app = ann.started(ann_dir.path());
    let mut from_lobby = config(bob_dir.path());
    from_lobby.from_lobby = true;
    let mut bob_app = bob.started_with(from_lobby);
    play_until(&mut [&mut ann_app, &mut bob_app], |apps| {
        apps[1].view().play.played.len() >= 2
    });
    drop(ann_app.close());
    until_gone(&mut bob_app);
    let gone = bob_app.notice().unwrap().to_string();
    for key in [
        Key::Enter,
        Key::Space,
        Key::Left,
        Key::Char('t'),
        Key::Enter,
    ] {
        press(&mut bob_app, &[key]);
        for _ in 0..20 {
            tick(&mut bob_app);
        }
        assert_eq!(bob_app.notice(), Some(gone.as_str()), "after {key:?}");
    }
    assert_eq!(
        bob_app.waiting_for(),
        None,
        "nobody's turn at an ended table"
    );
    let screen = screen_text(&mut bob_app, 100, 30);
    let line = screen
        .lines()
        .find(|l| l.contains("table is gone"))
        .unwrap_or_else(|| panic!("the notice is not on screen:\n{screen}"));
    insta::assert_snapshot!(
        "table_gone_notice_from_the_lobby",
        line.trim_matches(|c: char| c == '"' || c.is_whitespace())
    );
    press(&mut bob_app, &[Key::Char('q')]);
    assert!(bob_app.should_quit(), "q leaves at once");
}
