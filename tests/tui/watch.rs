//! The spectator's screen: a table watched from no seat, drawn from what
//! a spectator is sent (the public view, the seats, the events): the
//! players' names, bids and tricks, the cards on the table, the score
//! bar, and no hand.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use spades::bots::random::RandomBot;
use spades::engine::{Mode, Phase, Rules, Seat};
use spades::fairness::Dealing;
use spades::net::client::Incoming;
use spades::net::client::watch::WatchState;
use spades::protocol::{SeatPlayer, ServerMessage, TableSeat};
use spades::table::{Player, Table};
use spades::tui::watch::{WatchKey, WatchScreen};
use spades::tui::{Key, Theme};

/// A spectator's state, told a seeded game of bots up to the second card
/// of the third trick of the first hand, as the server would tell it.
fn watched() -> (WatchState, Table) {
    let mode = Mode::Partnership;
    let players = (0..mode.players())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect();
    let mut table = Table::new(Rules::classic(mode), Dealing::Open(7), players);
    table.keep_public_events();
    let mut state = WatchState::default();
    let said = |m| Incoming::Message(m);
    let names = ["Ann", "West", "Bo", "East"].map(String::from).to_vec();
    state.take(said(ServerMessage::Watching {
        table: "K7QXM2PD4T9RWA3B".into(),
        seats: names
            .iter()
            .map(|n| TableSeat {
                name: Some(n.clone()),
                player: SeatPlayer::Person,
                rating: None,
                guest: false,
            })
            .collect(),
        rules: spades::config::commented_toml(&Rules::classic(mode)),
    }));
    state.take(said(ServerMessage::Start {
        commitment: None,
        seats: names,
        players: vec![
            SeatPlayer::Person,
            SeatPlayer::Bot,
            SeatPlayer::Person,
            SeatPlayer::Bot,
        ],
        // Bo is not signed in: a guest, marked.
        guests: vec![Seat::new(2)],
    }));
    loop {
        let view = table.public_view();
        if view.phase == Phase::Playing
            && view.play.tricks_done == 2
            && view.play.trick.iter().flatten().count() == 2
        {
            break;
        }
        table.step_bot().expect("a bot's turn").unwrap();
    }
    for event in table.take_public_events() {
        state.take(said(ServerMessage::Event { event }));
    }
    state.take(said(ServerMessage::Public {
        view: Box::new(table.public_view()),
    }));
    state.take(said(ServerMessage::Chat {
        from: "Ann".into(),
        text: "well played".into(),
        guest: false,
    }));
    state.take(said(ServerMessage::Chat {
        from: "Bo".into(),
        text: "thanks".into(),
        guest: true,
    }));
    (state, table)
}

fn drawn(state: &WatchState) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| WatchScreen(state).render(frame.area(), frame.buffer_mut(), &Theme::PLAIN))
        .unwrap();
    terminal.backend().to_string()
}

#[test]
fn a_watched_table_shows_no_hand() {
    let (state, table) = watched();
    let screen = WatchScreen(&state);
    assert_eq!(screen.key(Key::Char('q')), WatchKey::Leave);
    assert_eq!(screen.key(Key::Enter), WatchKey::Nothing);
    let text = drawn(&state);
    assert!(text.contains("Watching   q  leave"), "{text}");
    // The plain theme is the ASCII one: nothing else may reach the screen.
    assert!(text.is_ascii(), "{text}");
    assert!(text.contains("Ann: well played"), "{text}");
    // No card still held by any seat is on the screen.
    let view = table.public_view();
    for seat in Mode::Partnership.each_seat() {
        for card in table.view(seat).cards().iter() {
            let face = Theme::PLAIN.card(card);
            assert!(
                !text.contains(&format!(" {face} ")) || view.play.played.contains(card),
                "the {card} held by seat {seat} is drawn:\n{text}"
            );
        }
    }
    insta::assert_snapshot!("watching_80x24", text);
}

#[test]
fn a_table_not_yet_started_lists_its_seats() {
    let mut state = WatchState::default();
    state.take(Incoming::Message(ServerMessage::Watching {
        table: "K7QXM2PD4T9RWA3B".into(),
        seats: vec![
            TableSeat {
                name: Some("Ann".into()),
                player: SeatPlayer::Person,
                rating: None,
                guest: false,
            },
            TableSeat {
                name: None,
                player: SeatPlayer::Empty,
                rating: None,
                guest: false,
            },
        ],
        rules: spades::config::commented_toml(&Rules::classic(Mode::Cutthroat)),
    }));
    let text = drawn(&state);
    assert!(text.contains("Seat 0: Ann"), "{text}");
    assert!(text.contains("Seat 1: empty"), "{text}");
    assert!(text.contains("not started"), "{text}");
}
