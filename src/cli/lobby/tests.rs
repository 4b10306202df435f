use super::*;
use crate::protocol::SeatPlayer;
use crate::protocol::lobby::ListedSeat;

/// A server in memory: what it lists, what it was asked, what it offers.
#[derive(Default)]
struct Fake {
    tables: Vec<ListedTable>,
    asked: Vec<String>,
    /// The handovers it refuses, and why.
    refuses: Option<String>,
    fails: bool,
    /// What it tells unasked, once.
    told: Told,
}

impl Lobby for Fake {
    fn list(&mut self, mode: Option<Mode>) -> Result<(Vec<ListedTable>, usize), String> {
        self.asked.push(format!("list {mode:?}"));
        if self.fails {
            return Err("the server did not answer".into());
        }
        let listed: Vec<ListedTable> = self
            .tables
            .iter()
            .filter(|t| mode.is_none_or(|m| t.mode == m))
            .cloned()
            .collect();
        let total = listed.len();
        Ok((listed, total))
    }

    fn ladder(&mut self, mode: Mode) -> Result<(Vec<Rung>, Option<Vec<Rated>>), String> {
        self.asked.push(format!("ladder {mode}"));
        let rung = Rung {
            rank: 1,
            name: "Bo".into(),
            rating: 1700,
            deviation: 60,
            games: 40,
            provisional: false,
        };
        Ok((vec![rung], Some(Vec::new())))
    }

    fn offers(&self, _: &Handover) -> Result<(), String> {
        self.refuses.clone().map_or(Ok(()), Err)
    }

    fn told(&mut self) -> Told {
        std::mem::take(&mut self.told)
    }
}

fn table(id: &str, mode: Mode) -> ListedTable {
    let empty = ListedSeat {
        name: None,
        player: SeatPlayer::Empty,
        rating: None,
        guest: false,
    };
    ListedTable {
        table: id.into(),
        mode,
        rules: "to 500".into(),
        seats: vec![empty; mode.seats()],
        started: false,
        rated: false,
        unrated: None,
        watchers: 0,
        code: None,
    }
}

fn fake() -> Fake {
    Fake {
        tables: vec![
            table("PART", Mode::Partnership),
            table("CUT", Mode::Cutthroat),
        ],
        ..Fake::default()
    }
}

fn state() -> LobbyState {
    LobbyState::new(
        "127.0.0.1:4466".into(),
        Player {
            name: "Ana".into(),
            ratings: Vec::new(),
        },
    )
}

/// Presses `keys` in turn, answering each outcome as the loop does, until
/// one leaves the lobby.
fn press(
    fake: &mut Fake,
    state: &mut LobbyState,
    keys: &[Key],
) -> Option<Result<Handover, Ending>> {
    for &key in keys {
        let outcome = state.key(key);
        if let Some(end) = answer(fake, state, outcome) {
            return Some(end);
        }
    }
    None
}

#[test]
fn the_filter_asks_the_server_for_that_mode_and_shows_its_answer() {
    let (mut fake, mut state) = (fake(), state());
    answer(&mut fake, &mut state, Outcome::Refresh(None));
    assert_eq!(state.tables().len(), 2);
    assert_eq!(
        press(&mut fake, &mut state, &[Key::Char('m'), Key::Char('m')]),
        None
    );
    assert_eq!(
        fake.asked,
        [
            "list None",
            "list Some(Partnership)",
            "list Some(Cutthroat)"
        ]
    );
    assert_eq!(state.tables().len(), 1);
    assert_eq!(state.tables()[0].table, "CUT");
    assert_eq!(state.status(), None);
}

#[test]
fn a_server_that_fails_is_said_on_the_status_line() {
    let (mut fake, mut state) = (fake(), state());
    fake.fails = true;
    assert_eq!(press(&mut fake, &mut state, &[Key::Char('r')]), None);
    assert_eq!(state.status(), Some("the server did not answer"));
    assert!(state.tables().is_empty());
}

#[test]
fn joining_hands_over_unless_the_server_refuses() {
    let (mut fake, mut state) = (fake(), state());
    answer(&mut fake, &mut state, Outcome::Refresh(None));
    fake.refuses = Some("not yet".into());
    assert_eq!(press(&mut fake, &mut state, &[Key::Down, Key::Enter]), None);
    assert_eq!(state.status(), Some("not yet"));
    fake.refuses = None;
    assert_eq!(
        press(&mut fake, &mut state, &[Key::Enter]),
        Some(Ok(Handover::Join("CUT".into())))
    );
    assert_eq!(
        press(
            &mut fake,
            &mut state,
            &[Key::Char('n'), Key::Down, Key::Right, Key::Enter]
        ),
        Some(Ok(Handover::Open {
            mode: Mode::Partnership,
            public: false
        }))
    );
    assert_eq!(
        press(&mut fake, &mut state, &[Key::Char('Q')]),
        Some(Err(Ending::Quit))
    );
}

#[test]
fn the_ladder_window_shows_what_the_server_sent() {
    let (mut fake, mut state) = (fake(), state());
    press(&mut fake, &mut state, &[Key::Char('l'), Key::Right]);
    assert_eq!(fake.asked, ["ladder partnership", "ladder cutthroat"]);
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    render(&state, area, &mut buf, &Theme::PLAIN);
    let screen: String = buf.content().iter().map(|c| c.symbol()).collect();
    assert!(screen.contains("Ladder: cutthroat"), "{screen}");
    assert!(screen.contains("Bo"), "{screen}");
    assert!(screen.contains("1700+-60"), "{screen}");
}

#[test]
fn what_the_server_tells_unasked_is_shown_and_a_lost_connection_asked_again() {
    let (mut fake, mut state) = (fake(), state());
    answer(&mut fake, &mut state, Outcome::Refresh(None));
    state.key(Key::Down);
    assert_eq!(state.selected_table().unwrap().table, "CUT");
    // Told a new table first and the queues' counts: shown, the same
    // table still chosen.
    let mut tables = vec![table("NEW", Mode::Partnership)];
    tables.extend(fake.tables.clone());
    fake.told = Told {
        tables: Some((tables, 3)),
        queues: Some(vec![QueueCount {
            mode: Mode::Partnership,
            waiting: 2,
        }]),
        lost: false,
    };
    assert_eq!(take_told(&mut fake, &mut state), None);
    assert_eq!(state.tables().len(), 3);
    assert_eq!(state.selected_table().unwrap().table, "CUT");
    assert_eq!(state.queues()[0].waiting, 2);
    // Nothing more told: nothing changes.
    assert_eq!(take_told(&mut fake, &mut state), None);
    assert_eq!(state.tables().len(), 3);
    // The connection lost: the list is asked for again (reconnecting).
    fake.told.lost = true;
    assert_eq!(
        take_told(&mut fake, &mut state),
        Some(Outcome::Refresh(None))
    );
}

#[test]
fn a_table_of_another_server_of_the_fleet_is_reached_by_its_listed_code() {
    let mut state = state();
    let mut theirs = table("THEIRS", Mode::Partnership);
    let code = "THEIRS.MFRGGZDFMZTWQ2LKNNWG23TPOA@cards2.example.org:4466";
    theirs.code = Some(code.into());
    state.set_tables(vec![table("OURS", Mode::Partnership), theirs], 2);
    let found = elsewhere(&state, "THEIRS").expect("listed with a code");
    assert_eq!(found.to_string(), code);
    assert_eq!(elsewhere(&state, "OURS"), None, "ours: joined here");
    assert_eq!(elsewhere(&state, "GONE"), None);
}
