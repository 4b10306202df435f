//! The turn timer at a table on a server, as the screen shows it: nothing
//! while there is time, a countdown from 15 seconds left, and the line
//! saying what a bot played once the time ran out, held on top of what
//! the table says next. The seat's program is handed a fixed game (a
//! seeded deal, the server's messages written here) over a connection
//! that says nothing more, and the app's clock is set by hand, so every
//! screen is the same on every run.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use spades::bots::random::RandomBot;
use spades::engine::{Action, Bid, Decision, Mode, Phase, Rules, Seat};
use spades::fairness::Dealing;
use spades::net::client::seating::Started;
use spades::net::client::{Connection, Target};
use spades::net::code::Trust;
use spades::protocol::timer::{TimeLeft, TimedOut};
use spades::protocol::{Legal, SeatPlayer, ServerMessage};
use spades::table::{Player, Table};
use spades::tui::{App, Key, Theme};
use support::tui::{config, screen_text, tick_at};

const YOU: Seat = Seat::new(0);

/// The server's messages for seat 0 of a seeded game, a few cards into
/// the first hand, up to the ask for its card; and then, when `bot_acts`,
/// that card played by the table's bot with the view that says so.
fn messages(bot_acts: bool) -> (Vec<ServerMessage>, spades::engine::PlayerView) {
    let players = (0..4)
        .map(|i| match i {
            0 => Player::Human,
            _ => Player::Bot(Box::new(RandomBot)),
        })
        .collect();
    let mut table = Table::new(
        Rules::classic(Mode::Partnership),
        Dealing::Open(11),
        players,
    );
    let turn = loop {
        table.run_bots().unwrap();
        let turn = table.human_turn().expect("seat 0 is asked");
        let view = table.view(turn.seat);
        match turn.decision {
            Decision::Bid => table.act(YOU, Action::Bid(Bid::Tricks(3))).unwrap(),
            Decision::Play if view.play.played.len() >= 2 => break turn,
            _ => {
                let action = Legal::of(&view, turn.decision).first(view.cards()).unwrap();
                table.act(YOU, action).unwrap();
            }
        }
    };
    table.take_events(YOU);
    let view = table.view(YOU);
    let legal = Legal::of(&view, turn.decision);
    let mut messages = vec![
        ServerMessage::View {
            timed_out: None,
            view: Box::new(view.clone()),
        },
        ServerMessage::Ask {
            seat: YOU,
            decision: turn.decision,
            legal: legal.clone(),
            time_left: Some(TimeLeft::new(Duration::from_secs(60))),
            view: Box::new(view.clone()),
        },
    ];
    if bot_acts {
        let action = legal.first(view.cards()).unwrap();
        table.act(YOU, action).unwrap();
        messages.extend(
            table
                .take_events(YOU)
                .into_iter()
                .map(|event| ServerMessage::Event { event }),
        );
        messages.push(ServerMessage::View {
            timed_out: Some(TimedOut {
                seat: YOU,
                decision: turn.decision,
                action,
            }),
            view: Box::new(table.view(YOU)),
        });
    }
    (messages, view)
}

/// The seat's screen, its game begun with `messages`; the listener
/// stands for a server that says nothing more, and must outlive the app.
fn seat(messages: Vec<ServerMessage>, view: spades::engine::PlayerView) -> (App, TcpListener) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let target = Target {
        address: listener.local_addr().unwrap().to_string(),
        trust: Trust::Plain,
    };
    let connection = Connection::open(&target, "Ann").unwrap();
    let started = Started {
        commitment: None,
        names: ["Ann", "West", "North", "East"].map(String::from).to_vec(),
        players: vec![
            SeatPlayer::Person,
            SeatPlayer::Bot,
            SeatPlayer::Bot,
            SeatPlayer::Bot,
        ],
        guests: Vec::new(),
        view,
        queued: messages,
        seat_token: None,
        tokens: spades::net::client::seats_kept::keeper(None),
        code: None,
    };
    let mut config = config(Mode::Partnership, 11);
    config.auto_play = false;
    let app = App::joined(config, Theme::PLAIN, connection, started);
    (app, listener)
}

#[test]
fn the_countdown_shows_from_15_seconds_and_ticks_down() {
    let (messages, view) = messages(false);
    // The ask's time counts from no earlier than this.
    let read = Instant::now();
    let (mut app, _server) = seat(messages, view);
    tick_at(&mut app, read);
    assert_eq!(app.human_turn().map(|t| t.decision), Some(Decision::Play));
    // A minute to answer: nothing is said for 45 seconds of it.
    tick_at(&mut app, read + Duration::from_secs(40));
    assert_eq!(app.countdown(), None);
    assert!(!screen_text(&mut app, 80, 24).contains("s left"));
    // Half a second past, as the ask was read a little after `read`.
    let at = |secs: u64| read + Duration::from_secs(secs) + Duration::from_millis(500);
    tick_at(&mut app, at(45));
    assert_eq!(app.countdown(), Some(15));
    insta::assert_snapshot!("countdown_15s_80x24", screen_text(&mut app, 80, 24));
    insta::assert_snapshot!("countdown_15s_100x30", screen_text(&mut app, 100, 30));
    // Each second the number goes down.
    for (secs, left) in [(46, 14), (50, 10), (56, 4)] {
        tick_at(&mut app, at(secs));
        assert_eq!(app.countdown(), Some(left));
    }
    tick_at(&mut app, at(57));
    assert_eq!(app.countdown(), Some(3));
    insta::assert_snapshot!("countdown_3s_80x24", screen_text(&mut app, 80, 24));
    insta::assert_snapshot!("countdown_3s_100x30", screen_text(&mut app, 100, 30));
    // The time out and no word yet from the table: the bot decides now.
    tick_at(&mut app, at(61));
    assert_eq!(app.countdown(), Some(0));
    assert!(screen_text(&mut app, 80, 24).contains("Time is up: a bot decides for you"));
}

#[test]
fn the_line_says_what_a_bot_played_and_stays_to_be_read() {
    let (messages, view) = messages(true);
    let start = Instant::now();
    let (mut app, _server) = seat(messages, view);
    let mut now = start;
    while app.timer_note().is_none() {
        now += Duration::from_millis(100);
        assert!(now < start + Duration::from_secs(5), "no line");
        tick_at(&mut app, now);
    }
    let note = app.timer_note().unwrap().to_string();
    assert!(note.starts_with("Time ran out: a bot played "), "{note}");
    // The ask is no longer the player's: no countdown, no turn.
    assert_eq!(app.countdown(), None);
    assert_eq!(app.human_turn(), None);
    insta::assert_snapshot!("bot_played_80x24", screen_text(&mut app, 80, 24));
    insta::assert_snapshot!("bot_played_100x30", screen_text(&mut app, 100, 30));
    // A key while the others play says "wait": the line stays on top.
    app.update(spades::tui::Input::Key(Key::Enter));
    tick_at(&mut app, now + Duration::from_secs(1));
    assert_eq!(app.notice(), Some("Wait: it is West's turn."));
    let screen = screen_text(&mut app, 100, 30);
    assert!(screen.contains(&note), "{screen}");
    // Once read, it gives way.
    tick_at(&mut app, now + Duration::from_secs(11));
    assert_eq!(app.timer_note(), None);
    assert!(!screen_text(&mut app, 100, 30).contains(&note));
    assert_eq!(app.view().phase, Phase::Playing);
}

/// The server's messages for seat 0 from the last trick of the first
/// hand to the ask of the second hand's first decision: the hand's score
/// is on the screen while that ask's time runs.
fn messages_across_a_hand() -> (Vec<ServerMessage>, spades::engine::PlayerView) {
    let players = (0..4)
        .map(|i| match i {
            0 => Player::Human,
            _ => Player::Bot(Box::new(RandomBot)),
        })
        .collect();
    let mut table = Table::new(
        Rules::classic(Mode::Partnership),
        Dealing::Open(11),
        players,
    );
    let mut last_trick = None;
    let turn = loop {
        table.run_bots().unwrap();
        if table.phase() == Phase::AwaitingDeal {
            table.deal_next_hand();
            continue;
        }
        let turn = table.human_turn().expect("seat 0 is asked");
        let view = table.view(turn.seat);
        if view.hand_no == 2 {
            break turn;
        }
        if last_trick.is_none() && view.play.tricks_done == 12 {
            table.take_events(YOU);
            last_trick = Some(view.clone());
        }
        let action = Legal::of(&view, turn.decision).first(view.cards()).unwrap();
        table.act(YOU, action).unwrap();
    };
    let before = last_trick.expect("the last trick was played");
    let view = table.view(YOU);
    let mut messages = vec![ServerMessage::View {
        timed_out: None,
        view: Box::new(before.clone()),
    }];
    messages.extend(
        table
            .take_events(YOU)
            .into_iter()
            .map(|event| ServerMessage::Event { event }),
    );
    messages.push(ServerMessage::View {
        timed_out: None,
        view: Box::new(view.clone()),
    });
    messages.push(ServerMessage::Ask {
        seat: YOU,
        decision: turn.decision,
        legal: Legal::of(&view, turn.decision),
        time_left: Some(TimeLeft::new(Duration::from_secs(60))),
        view: Box::new(view),
    });
    (messages, before)
}

#[test]
fn the_countdown_shows_over_a_hands_score() {
    let (messages, view) = messages_across_a_hand();
    let read = Instant::now();
    let (mut app, _server) = seat(messages, view);
    let mut now = read;
    while app.screen() != spades::tui::app::Screen::Summary {
        now += Duration::from_millis(500);
        assert!(now < read + Duration::from_secs(30), "no score shown");
        tick_at(&mut app, now);
    }
    // The next hand's ask came with the score: its time runs meanwhile.
    tick_at(&mut app, read + Duration::from_millis(45_500));
    assert_eq!(app.screen(), spades::tui::app::Screen::Summary);
    assert_eq!(app.countdown(), Some(15));
    insta::assert_snapshot!("countdown_over_score_80x24", screen_text(&mut app, 80, 24));
}
