//! The turn timer as a player meets it: a real server with a short timer,
//! a seat that never answers. Each ask says how long it has, the bot that
//! answers in its place does so only once that time is out, and the view
//! after says what it did; the game's own screen counts the last seconds
//! down and then says what the bot played for the player.

use std::time::{Duration, Instant};

use spades::engine::{Action, Seat, SeatEvent};
use spades::net::server::{Server, ServerOptions};
use spades::protocol::timer::TimeLeft;
use spades::protocol::{ClientMessage, ServerMessage};
use support::net::Client;
use support::tui::{screen_text, tick};

use super::play::{config, host, target};

fn server(turn_timer: Option<Duration>, tls: bool) -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: !tls,
        turn_timer,
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

const RULES: &str = "mode = \"partnership\"\ntarget_score = 100\nlosing_score = -100\n";

/// What the seat's own event says it did, for the action a bot took.
fn own_action(event: &SeatEvent, you: Seat) -> Option<Action> {
    match event {
        SeatEvent::Bid { seat, bid, .. } if *seat == you => Some(Action::Bid(*bid)),
        SeatEvent::Play { seat, card, .. } if *seat == you => Some(Action::Play(*card)),
        SeatEvent::Exchange {
            from,
            cards: Some(cards),
            ..
        } if *from == you => Some(Action::Exchange(*cards)),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_that_does_nothing_is_told_its_time_and_what_a_bot_did_for_it() {
    let timer = Duration::from_millis(400);
    let server = server(Some(timer), false);
    let mut slow = Client::connect(server.address(), None).await;
    slow.hello("Slow").await;
    let seated = slow.host(RULES).await;
    // No ask can be sent before the game starts: the first bot's answer
    // comes a whole timer after this at least, however late it is read.
    let starting = Instant::now();
    slow.start().await;
    let you = seated.seat;
    let mut told = 0;
    while told < 4 {
        // The ask gives the table's whole timer.
        let decision = slow
            .until(|m| match m {
                ServerMessage::Ask {
                    seat,
                    decision,
                    time_left,
                    ..
                } => {
                    assert_eq!(*seat, you);
                    assert_eq!(*time_left, Some(TimeLeft::new(timer)));
                    Some(*decision)
                }
                _ => None,
            })
            .await;
        // Nothing is answered: the seat's own event, then its view saying
        // what the bot did, which is what the event shows.
        let mut done = None;
        let timed_out = loop {
            match slow.next().await.expect("the game goes on") {
                ServerMessage::Event { event } => done = done.or(own_action(&event, you)),
                ServerMessage::View { timed_out, .. } => {
                    if let Some(timed_out) = timed_out {
                        break timed_out;
                    }
                }
                ServerMessage::Seat { .. } => panic!("the seat stays the person's"),
                other => panic!("before the bot acted: {other:?}"),
            }
        };
        if told == 0 {
            assert!(
                starting.elapsed() >= timer,
                "the bot acted {:?} after the start",
                starting.elapsed()
            );
        }
        assert_eq!(timed_out.seat, you);
        assert_eq!(timed_out.decision, decision);
        // A look at the cards brings no event of its own.
        if timed_out.action != Action::Look {
            assert_eq!(
                Some(timed_out.action),
                done,
                "the view says what the event did"
            );
        }
        told += 1;
    }
    slow.send(&ClientMessage::Bye {}).await;
    slow.closed().await;
    server.stop();
}

/// A seat that answers in time is never told a bot answered for it, and
/// a table without a timer gives its asks no time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_in_time_or_a_table_without_a_timer_hears_nothing_of_it() {
    for timer in [None, Some(Duration::from_secs(30))] {
        let server = server(timer, false);
        let mut ann = Client::connect(server.address(), None).await;
        ann.hello("Ann").await;
        ann.host(RULES).await;
        ann.start().await;
        let mut answerer = support::net::Answerer::new("normal", 1);
        let mut asks = 0;
        while asks < 6 {
            match ann.next().await.expect("the game goes on") {
                ServerMessage::Ask {
                    decision,
                    legal,
                    time_left,
                    view,
                    ..
                } => {
                    assert_eq!(time_left, timer.map(TimeLeft::new));
                    let action = answerer.answer(decision, &legal, &view);
                    ann.send(&ClientMessage::Act { action }).await;
                    asks += 1;
                }
                ServerMessage::View { timed_out, .. } => assert_eq!(timed_out, None),
                _ => {}
            }
        }
        ann.send(&ClientMessage::Bye {}).await;
        ann.closed().await;
        server.stop();
    }
}

/// The game's own screen at a table whose timer is 3 seconds: the
/// countdown is up from the ask, ticks down, and once the bot has acted
/// the line says what it did, and stays while the game goes on.
#[test]
fn the_table_counts_down_and_says_what_a_bot_played() {
    let server = server(Some(Duration::from_secs(3)), true);
    let records = tempfile::tempdir().unwrap();
    let ann = host(&target(&server), RULES);
    ann.connection.send(ClientMessage::Start {});
    let mut app = ann.started_with(config(records.path()));
    let until = Instant::now() + Duration::from_secs(30);
    let mut counted = Vec::new();
    let timed_out = loop {
        assert!(Instant::now() < until, "no bot acted: {counted:?}");
        tick(&mut app);
        // The next ask may come with the bot's answer, its own count begun.
        if let Some(note) = app.timer_note() {
            break note.to_string();
        }
        if let Some(left) = app.countdown() {
            if counted.last() != Some(&left) {
                counted.push(left);
            }
            let screen = screen_text(&mut app, 80, 24);
            assert!(
                screen.contains(&format!("{left} s left, then a bot decides for you"))
                    || (left == 0 && screen.contains("Time is up")),
                "{screen}"
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(counted.len() >= 2 && counted[0] <= 3, "{counted:?}");
    assert!(counted.windows(2).all(|w| w[1] < w[0]), "{counted:?}");
    assert!(timed_out.starts_with("Time ran out: a bot "), "{timed_out}");
    assert!(screen_text(&mut app, 80, 24).contains(&timed_out));
    // The line stays on while the others play on, whatever else is said
    // (only the next ask's own line, on a slow machine, may replace it).
    let shown = Instant::now();
    while shown.elapsed() < Duration::from_secs(2) {
        tick(&mut app);
        let screen = screen_text(&mut app, 80, 24);
        assert!(screen.contains("Time ran out: a bot "), "{screen}");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(app.timer_note().is_some());
    drop(app);
    server.stop();
}

/// `spades serve --turn-timer 2` and a player at its table, in a terminal
/// of their own, who does nothing once the game starts: the countdown is
/// on the screen, then the line saying what the bot played for them.
#[test]
fn spades_serve_s_timer_counts_down_on_a_waiting_players_screen() {
    let served = support::process::serve(&["--turn-timer", "2"]);
    let mut ann = support::pty::Pty::start(
        &[
            "host",
            "--name",
            "Ann",
            "--speed",
            "instant",
            "--server",
            &served.server,
        ],
        Some("xterm-256color"),
    );
    ann.wait_for("the lobby", |s| s.contains("Enter  start"));
    ann.send(b"\r");
    ann.wait_for("the countdown", |s| {
        s.contains(" s left, then a bot decides for you")
    });
    ann.wait_for("the bot's line", |s| s.contains("Time ran out: a bot "));
    ann.kill();
}
