//! Snapshots of a server's lobby (`spades lobby`): its public tables (one
//! rated with a provisional player, one full, one started with watchers),
//! an empty list, the ladder with the player's history, the two forms, at
//! the smallest size and a larger one; and names of odd widths.

use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use spades::engine::Mode;
use spades::protocol::SeatPlayer;
use spades::protocol::account::{ModeRating, Rated, Rung};
use spades::protocol::lobby::{ListedSeat, ListedTable, ShownRating};
use spades::tui::lobby::{LobbyState, Outcome, Player, render};
use spades::tui::{Key, Theme};

/// Symbols as most terminals show them, without colour.
const UNICODE: Theme = Theme::UNICODE;

fn screen(state: &mut LobbyState, theme: &Theme, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            let hits = render(state, frame.area(), frame.buffer_mut(), theme);
            state.set_hits(hits);
        })
        .unwrap();
    terminal.backend().to_string()
}

fn person(name: &str, rating: i32, deviation: i32, provisional: bool) -> ListedSeat {
    ListedSeat {
        name: Some(name.into()),
        player: SeatPlayer::Person,
        rating: Some(ShownRating {
            rating,
            deviation,
            provisional,
        }),
        guest: false,
    }
}

/// Someone not signed in: no rating, and marked.
fn guest(name: &str) -> ListedSeat {
    ListedSeat {
        name: Some(name.into()),
        player: SeatPlayer::Person,
        rating: None,
        guest: true,
    }
}

fn bot(level: &str) -> ListedSeat {
    ListedSeat {
        name: Some(level.into()),
        player: SeatPlayer::Bot,
        rating: None,
        guest: false,
    }
}

fn empty() -> ListedSeat {
    ListedSeat {
        name: None,
        player: SeatPlayer::Empty,
        rating: None,
        guest: false,
    }
}

fn listed(id: &str, mode: Mode, rules: &str, seats: Vec<ListedSeat>) -> ListedTable {
    ListedTable {
        table: id.into(),
        mode,
        rules: rules.into(),
        seats,
        started: false,
        rated: false,
        unrated: None,
        watchers: 0,
        code: None,
    }
}

fn tables() -> Vec<ListedTable> {
    let mut rated = listed(
        "RATEDTABLE234567",
        Mode::Partnership,
        "to 500, bags 10 cost 100, nil 100, blind nil",
        vec![
            person("Ana", 1620, 210, true),
            empty(),
            bot("normal"),
            person("Bo", 1512, 64, false),
        ],
    );
    rated.rated = true;
    let mut full = listed(
        "FULLTABLE2345678",
        Mode::Cutthroat,
        "to 300, 17 cards each",
        vec![person("Cy", 1480, 90, false), guest("Dee"), bot("hard")],
    );
    // On a server with a ladder: why this table's game is not rated.
    full.unrated = Some("target_score 300, ranked 500".into());
    let mut started = listed(
        "STARTEDTABLE2345",
        Mode::Individual,
        "to 500, no nil",
        vec![
            person("Eve", 1500, 350, true),
            person("Finn", 1490, 80, false),
            bot("easy"),
            bot("normal"),
        ],
    );
    started.started = true;
    started.watchers = 3;
    let dummy = listed(
        "DUMMYTABLE234567",
        Mode::Dummy,
        "to 250",
        vec![
            empty(),
            empty(),
            person("Gus", 1500, 350, true),
            ListedSeat {
                name: None,
                player: SeatPlayer::Dummy,
                rating: None,
                guest: false,
            },
        ],
    );
    vec![rated, full, started, dummy]
}

fn lobby() -> LobbyState {
    let player = Player {
        name: "Ana".into(),
        ratings: vec![ModeRating {
            mode: Mode::Partnership,
            rating: 1620,
            deviation: 210,
            games: 4,
            provisional: true,
        }],
    };
    let mut state = LobbyState::new("203.0.113.7:4466".into(), player);
    state.set_tables(tables(), 4);
    state
}

#[test]
fn the_list_of_tables() {
    let mut state = lobby();
    let text = screen(&mut state, &Theme::PLAIN, 80, 24);
    assert!(
        text.contains("1620?+-210"),
        "a provisional rating is marked"
    );
    insta::assert_snapshot!("lobby_list_80x24", text);
    state.key(Key::Down);
    state.key(Key::Enter);
    insta::assert_snapshot!(
        "lobby_list_full_120x40",
        screen(&mut state, &UNICODE, 120, 40)
    );
}

#[test]
fn more_tables_than_fit_keep_the_selected_one_in_view() {
    let mut state = lobby();
    let many: Vec<ListedTable> = (0..30)
        .map(|i| {
            listed(
                &format!("T{i}"),
                Mode::Partnership,
                "to 500",
                vec![empty(); 4],
            )
        })
        .collect();
    state.set_tables(many, 240);
    for _ in 0..20 {
        state.key(Key::Down);
    }
    let text = screen(&mut state, &Theme::PLAIN, 80, 24);
    assert!(text.contains("Tables (30 of 240)"), "{text}");
    let selected = text.lines().find(|l| l.contains("> partnership")).unwrap();
    assert!(text.lines().filter(|l| l.contains("partnership")).count() >= 8);
    assert!(selected.contains("to 500"), "{text}");
}

#[test]
fn an_empty_list() {
    let mut state = LobbyState::new("203.0.113.7:4466".into(), lobby().player);
    let unlisted = screen(&mut state, &Theme::PLAIN, 80, 24);
    assert!(unlisted.contains("No list of tables"), "{unlisted}");
    assert!(!unlisted.contains("No public"), "{unlisted}");
    let mut state = lobby();
    state.set_tables(Vec::new(), 0);
    assert_eq!(
        state.key(Key::Char('m')),
        Outcome::Refresh(Some(Mode::Partnership))
    );
    insta::assert_snapshot!(
        "lobby_empty_80x24",
        screen(&mut state, &Theme::PLAIN, 80, 24)
    );
}

#[test]
fn the_ladder_with_the_player_s_history() {
    let mut state = lobby();
    assert_eq!(
        state.key(Key::Char('l')),
        Outcome::AskLadder(Mode::Partnership)
    );
    let waiting = screen(&mut state, &Theme::PLAIN, 80, 24);
    assert!(waiting.contains("Asking the server"), "{waiting}");
    let rung = |rank, name: &str, rating, deviation, games, provisional| Rung {
        rank,
        name: name.into(),
        rating,
        deviation,
        games,
        provisional,
    };
    let rows = vec![
        rung(1, "Bo", 1712, 61, 48, false),
        rung(2, "Ana", 1620, 210, 4, true),
        rung(3, "Zoë the very long-named", 1480, 95, 20, false),
    ];
    let day = 1_764_547_200; // 2025-12-01 00:00 UTC
    let you = vec![
        Rated {
            finished: day,
            before: 1500,
            after: 1561,
            deviation: 290,
        },
        Rated {
            finished: day + 3_600 * 26,
            before: 1561,
            after: 1540,
            deviation: 250,
        },
        Rated {
            finished: day + 3_600 * 50,
            before: 1540,
            after: 1620,
            deviation: 210,
        },
    ];
    state.set_ladder(rows, Some(you));
    insta::assert_snapshot!(
        "lobby_ladder_80x24",
        screen(&mut state, &Theme::PLAIN, 80, 24)
    );
    insta::assert_snapshot!("lobby_ladder_120x40", screen(&mut state, &UNICODE, 120, 40));
}

#[test]
fn the_new_table_form() {
    let mut state = lobby();
    state.key(Key::Char('n'));
    state.key(Key::Down);
    state.key(Key::Right);
    insta::assert_snapshot!(
        "lobby_new_table_80x24",
        screen(&mut state, &Theme::PLAIN, 80, 24)
    );
}

#[test]
fn the_quick_match_form() {
    let mut state = lobby();
    state.key(Key::Char('q'));
    insta::assert_snapshot!(
        "lobby_quick_match_80x24",
        screen(&mut state, &UNICODE, 80, 24)
    );
    state.key(Key::Down);
    state.key(Key::Right);
    assert_eq!(
        state.key(Key::Enter),
        Outcome::Queue {
            mode: Mode::Partnership,
            wait: Duration::from_secs(120)
        }
    );
}

/// Names from outside are cleaned before they come here, but may still be
/// wide (two columns a letter) or long: each is cut by the columns it
/// takes, so no row runs into the next or past the frame.
#[test]
fn wide_and_odd_names_keep_to_their_columns() {
    let mut state = lobby();
    let mut table = listed(
        "WIDE234567ABCDEF",
        Mode::Partnership,
        "ｗｉｄｅ rules line that is far too long to fit on one row of the list at all",
        vec![
            person("ＡＢＣＤＥＦＧＨＩＪＫＬ", 1500, 350, true),
            person("e\u{301}mile\u{200b}\u{1b}[31m", 1400, 100, false),
            bot("normal"),
            person(&"x".repeat(200), 1300, 90, false),
        ],
    );
    table.rated = true;
    state.set_tables(vec![table], 1);
    for (theme, width) in [(Theme::PLAIN, 80), (UNICODE, 80), (UNICODE, 120)] {
        let text = screen(&mut state, &theme, width, 24);
        assert!(!text.contains('\u{1b}'), "no raw escape reaches the screen");
        assert!(
            text.contains("rated"),
            "the facts at the right stay: {text}"
        );
        assert!(
            text.contains("1300"),
            "the last seat's rating stays: {text}"
        );
        for line in text.lines() {
            // Each row is quoted; a note on wide letters may follow it.
            let inner = line.split('"').nth(1).unwrap();
            assert!(
                spades::outside::columns(inner) <= usize::from(width),
                "{line}"
            );
        }
    }
    insta::assert_snapshot!(
        "lobby_wide_names_80x24",
        screen(&mut state, &UNICODE, 80, 24)
    );
}

/// How many wait for a quick match, as the server tells it: in the list's
/// title, for the modes in view, and not at all when nobody waits.
#[test]
fn the_quick_match_queues_show_in_the_lists_title() {
    use spades::protocol::lobby::QueueCount;
    let mut state = LobbyState::new(
        "127.0.0.1:4466".into(),
        Player {
            name: "Ana".into(),
            ratings: Vec::new(),
        },
    );
    state.set_tables(tables(), 3);
    let counts = |p, c| {
        vec![
            QueueCount {
                mode: Mode::Partnership,
                waiting: p,
            },
            QueueCount {
                mode: Mode::Cutthroat,
                waiting: c,
            },
        ]
    };
    state.set_queues(counts(0, 0));
    assert!(!screen(&mut state, &UNICODE, 100, 30).contains("quick match:"));
    state.set_queues(counts(2, 1));
    let shown = screen(&mut state, &UNICODE, 100, 30);
    assert!(
        shown.contains("quick match: partnership 2, cutthroat 1 waiting"),
        "{shown}"
    );
    // Every mode waiting, at the smallest size: cut, the frame whole.
    state.set_queues(
        [Mode::Partnership, Mode::Cutthroat, Mode::Individual]
            .map(|mode| QueueCount { mode, waiting: 12 })
            .to_vec(),
    );
    let small = screen(&mut state, &UNICODE, 80, 24);
    assert!(
        small.contains("all modes · quick match: 36 waiting ─"),
        "{small}"
    );
    // The partnership list alone: its queue alone.
    state.set_queues(counts(2, 1));
    state.key(Key::Char('m'));
    let shown = screen(&mut state, &UNICODE, 100, 30);
    assert!(
        shown.contains("quick match: partnership 2 waiting"),
        "{shown}"
    );
}

/// Ana left the started individual game (a bot plays her seat): with her
/// seat's token kept here, that table is hers, listed first; Enter takes
/// the seat back, though the game has started; and quitting while it
/// plays on is asked first, saying what the rated game will cost.
#[test]
fn the_players_own_table_comes_first_and_enter_takes_the_seat_back() {
    let mut state = lobby();
    let mut tables = tables();
    tables[2].seats[0] = ListedSeat {
        player: SeatPlayer::Away,
        ..person("Ana", 1620, 210, true)
    };
    tables[2].rated = true;
    state.set_tables(tables.clone(), 4);
    assert_eq!(state.tables()[0].table, "RATEDTABLE234567", "no token kept");
    assert_eq!(state.key(Key::Char('Q')), Outcome::Quit, "nothing held");

    state.set_kept(vec!["STARTEDTABLE2345".into(), "ELSEWHERE2345678".into()]);
    assert_eq!(state.tables()[0].table, "STARTEDTABLE2345");
    // A list coming again keeps it first.
    state.set_tables(tables, 4);
    assert_eq!(state.tables()[0].table, "STARTEDTABLE2345");
    state.key(Key::Home);
    let text = screen(&mut state, &Theme::PLAIN, 80, 24);
    assert!(text.contains("your seat: Enter takes it back"), "{text}");
    insta::assert_snapshot!("lobby_your_table_80x24", text);
    assert_eq!(
        state.key(Key::Enter),
        Outcome::Join("STARTEDTABLE2345".into())
    );

    assert_eq!(state.key(Key::Char('Q')), Outcome::Nothing, "asked first");
    let text = screen(&mut state, &Theme::PLAIN, 80, 24);
    assert!(text.contains("counts as your loss"), "{text}");
    insta::assert_snapshot!("lobby_quit_with_a_seat_held_80x24", text);
    assert_eq!(state.key(Key::Char('n')), Outcome::Nothing);
    assert_eq!(state.key(Key::Esc), Outcome::Nothing, "asked again");
    assert_eq!(state.key(Key::Char('y')), Outcome::Quit);
}

/// A token kept for a table whose game Ana holds no seat in (she left its
/// lobby before it started) makes it no more hers than any other.
#[test]
fn a_token_for_a_table_without_the_players_seat_is_not_theirs() {
    let mut state = lobby();
    state.set_kept(vec!["STARTEDTABLE2345".into(), "RATEDTABLE234567".into()]);
    assert!(state.yours().next().is_none());
    state.key(Key::Down);
    state.key(Key::Down);
    assert_eq!(state.key(Key::Enter), Outcome::Nothing);
    assert!(state.status().unwrap().contains("has started"));
}
