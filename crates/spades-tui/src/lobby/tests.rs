use std::time::Duration;

use super::*;
use crate::protocol::SeatPlayer;
use crate::protocol::lobby::ListedSeat;

fn seat(player: SeatPlayer, name: &str) -> ListedSeat {
    ListedSeat {
        name: (!name.is_empty()).then(|| name.to_string()),
        player,
        rating: None,
        guest: false,
    }
}

fn table(id: &str, seats: &[SeatPlayer], started: bool) -> ListedTable {
    ListedTable {
        table: id.to_string(),
        mode: Mode::Partnership,
        rules: "to 500".into(),
        seats: seats.iter().map(|&p| seat(p, "")).collect(),
        started,
        rated: false,
        unrated: None,
        watchers: 0,
        code: None,
    }
}

use SeatPlayer::{Bot, Empty, Person};

fn lobby() -> LobbyState {
    let mut state = LobbyState::new(
        "127.0.0.1:4466".into(),
        Player {
            name: "Ana".into(),
            ratings: Vec::new(),
        },
    );
    state.set_tables(
        vec![
            table("OPEN", &[Person, Empty, Bot, Empty], false),
            table("FULL", &[Person, Person, Bot, Person], false),
            table("PLAYING", &[Person, Empty, Bot, Person], true),
        ],
        3,
    );
    state
}

#[test]
fn enter_joins_a_table_with_a_free_seat_only() {
    let mut state = lobby();
    assert_eq!(state.key(Key::Enter), Outcome::Join("OPEN".into()));
    state.key(Key::Down);
    assert_eq!(state.key(Key::Enter), Outcome::Nothing);
    assert!(
        state.status().unwrap().contains("full"),
        "{:?}",
        state.status()
    );
    state.key(Key::Char('j'));
    assert_eq!(state.key(Key::Enter), Outcome::Nothing);
    assert!(state.status().unwrap().contains("started"));
    assert_eq!(state.key(Key::Char('w')), Outcome::Watch("PLAYING".into()));
}

#[test]
fn selection_stays_in_the_list_and_follows_its_table() {
    let mut state = lobby();
    state.key(Key::Up);
    assert_eq!(state.selected(), 0);
    for _ in 0..5 {
        state.key(Key::Down);
    }
    assert_eq!(state.selected(), 2);
    state.key(Key::Char('k'));
    assert_eq!(state.selected_table().unwrap().table, "FULL");
    // The list comes again in another order: the same table stays chosen.
    let mut tables = state.tables().to_vec();
    tables.reverse();
    state.set_tables(tables, 3);
    assert_eq!(state.selected_table().unwrap().table, "FULL");
    // It went away: the selection stays inside the shorter list.
    state.key(Key::End);
    state.set_tables(vec![table("NEW", &[Empty; 4], false)], 1);
    assert_eq!(state.selected(), 0);
    state.set_tables(Vec::new(), 0);
    assert_eq!(state.key(Key::Enter), Outcome::Nothing);
    assert_eq!(state.key(Key::Char('w')), Outcome::Nothing);
}

#[test]
fn the_mode_filter_cycles_and_asks_for_the_list() {
    let mut state = lobby();
    let mut seen = Vec::new();
    for _ in 0..5 {
        seen.push(state.key(Key::Char('m')));
    }
    assert_eq!(
        seen,
        [
            Outcome::Refresh(Some(Mode::Partnership)),
            Outcome::Refresh(Some(Mode::Cutthroat)),
            Outcome::Refresh(Some(Mode::Individual)),
            Outcome::Refresh(Some(Mode::Dummy)),
            Outcome::Refresh(None),
        ]
    );
    state.key(Key::Char('m'));
    state.key(Key::Char('m'));
    assert_eq!(
        state.key(Key::Char('r')),
        Outcome::Refresh(Some(Mode::Cutthroat))
    );
}

#[test]
fn a_new_table_form_opens_with_its_choices() {
    let mut state = lobby();
    assert_eq!(state.key(Key::Char('n')), Outcome::Nothing);
    assert!(matches!(state.window(), Window::NewTable(_)));
    state.key(Key::Right);
    state.key(Key::Down);
    state.key(Key::Right);
    assert_eq!(
        state.key(Key::Enter),
        Outcome::Open {
            mode: Mode::Cutthroat,
            public: false
        }
    );
    assert_eq!(state.window(), &Window::None);
    // Esc closes it unasked, and a second Esc leaves the lobby.
    state.key(Key::Char('n'));
    assert_eq!(state.key(Key::Esc), Outcome::Nothing);
    assert_eq!(state.window(), &Window::None);
    assert_eq!(state.key(Key::Esc), Outcome::Quit);
}

#[test]
fn a_quick_match_asks_for_its_mode_and_wait() {
    let mut state = lobby();
    state.key(Key::Char('m'));
    state.key(Key::Char('m'));
    state.key(Key::Char('q'));
    state.key(Key::Down);
    state.key(Key::Right);
    state.key(Key::Right);
    assert_eq!(
        state.key(Key::Enter),
        Outcome::Queue {
            mode: Mode::Cutthroat,
            wait: Duration::from_secs(300)
        },
        "the filter's mode, and 1 min stepped twice"
    );
}

#[test]
fn the_ladder_window_asks_for_each_mode_it_shows() {
    let mut state = lobby();
    state.player.ratings = vec![crate::protocol::account::ModeRating {
        mode: Mode::Individual,
        rating: 1600,
        deviation: 80,
        games: 12,
        provisional: false,
    }];
    assert_eq!(
        state.key(Key::Char('l')),
        Outcome::AskLadder(Mode::Individual)
    );
    assert_eq!(state.key(Key::Right), Outcome::AskLadder(Mode::Dummy));
    assert_eq!(state.key(Key::Left), Outcome::AskLadder(Mode::Individual));
    // List keys do nothing under the window.
    assert_eq!(state.key(Key::Enter), Outcome::Nothing);
    assert_eq!(state.key(Key::Char('Q')), Outcome::Nothing);
    assert_eq!(state.key(Key::Esc), Outcome::Nothing);
    assert_eq!(state.window(), &Window::None);
    // A ladder that comes after its window closed is dropped.
    state.set_ladder(Vec::new(), None);
    assert_eq!(state.window(), &Window::None);
}

#[test]
fn quitting_takes_a_capital_q_esc_or_ctrl_c() {
    let mut state = lobby();
    assert_eq!(state.key(Key::Char('Q')), Outcome::Quit);
    assert_eq!(state.key(Key::Interrupt), Outcome::Quit);
    state.key(Key::Char('q'));
    assert_eq!(state.key(Key::Interrupt), Outcome::Quit, "even in a window");
}

#[test]
fn a_click_selects_a_row_and_a_second_joins_it() {
    let mut state = lobby();
    let mut hits = RowHits::default();
    for i in 0..3 {
        hits.add(Rect::new(1, 2 + 2 * i as u16, 40, 2), i);
    }
    state.set_hits(hits);
    let click = |column, row| Input::Click { column, row };
    assert_eq!(state.update(click(5, 5)), Outcome::Nothing);
    assert_eq!(state.selected(), 1);
    assert_eq!(
        state.update(click(5, 4)),
        Outcome::Nothing,
        "full: not joined"
    );
    assert!(state.status().is_some());
    assert_eq!(state.update(click(5, 2)), Outcome::Nothing);
    assert_eq!(state.update(click(5, 3)), Outcome::Join("OPEN".into()));
    assert_eq!(
        state.update(click(60, 3)),
        Outcome::Nothing,
        "outside the rows"
    );
}

#[test]
fn a_new_player_s_windows_start_at_partnership() {
    let mut state = lobby();
    // A server that keeps a ladder rates every mode from the first sign-in.
    state.player.ratings = Mode::ALL
        .into_iter()
        .map(|mode| crate::protocol::account::ModeRating {
            mode,
            rating: 1500,
            deviation: 350,
            games: 0,
            provisional: true,
        })
        .collect();
    assert_eq!(
        state.key(Key::Char('l')),
        Outcome::AskLadder(Mode::Partnership)
    );
    state.player.ratings[3].games = 2;
    state.key(Key::Esc);
    assert_eq!(state.key(Key::Char('l')), Outcome::AskLadder(Mode::Dummy));
}
