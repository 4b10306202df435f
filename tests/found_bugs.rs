//! Two bugs a player could see, each caught by reading what the program
//! itself wrote: the header of a record the table wrote for a practice
//! game, and the replay of a dummy game, counted as the table counts.

mod support;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use spades::bots::random::RandomBot;
use spades::engine::{Event, Mode, Rules};
use spades::fairness::Dealing;
use spades::record::{GameInfo, MemoryRecord, read_games};
use spades::review::Story;
use spades::table::{Player, Table};
use spades::tui::replay::{Move, Source, Viewer};
use spades::tui::{PlayConfig, Theme, replay_view};
use support::tui::{app, config};

/// The header (`game` line) of the one record in `dir`.
fn header_of_record_in(dir: &std::path::Path) -> serde_json::Value {
    let records: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let text = std::fs::read_to_string(&records[0]).unwrap();
    let first = text.lines().next().expect("a game line");
    serde_json::from_str(first).unwrap()
}

#[test]
fn a_practice_game_is_recorded_as_practice() {
    for practice in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(PlayConfig {
            practice,
            records: Some(dir.path().join("records")),
            ..config(Mode::Partnership, 5)
        });
        let _ = app.close();
        let header = header_of_record_in(&dir.path().join("records"));
        assert_eq!(header["event"], "game");
        assert_eq!(
            header.get("practice").and_then(serde_json::Value::as_bool),
            practice.then_some(true),
            "practice = {practice}: {header}"
        );
    }
}

/// A dummy game random bots played from an open seed, as recorded.
fn dummy_game(seed: u64) -> spades::record::RecordedGame {
    // One hand is all the test looks at.
    let rules = Rules::classic(Mode::Dummy)
        .with(|r| r.game.hands = 1)
        .unwrap();
    let players = (0..Mode::Dummy.seats())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect();
    let mut table = Table::new(rules, Dealing::Open(seed), players);
    let out = MemoryRecord::default();
    let names = ["P0", "P1", "P2", "Dummy"].map(String::from).to_vec();
    table
        .record_to(Box::new(out.clone()), names, GameInfo::default())
        .unwrap();
    table.run_bots().unwrap();
    drop(table);
    read_games(&out.text()).unwrap().remove(0)
}

/// At the end of each hand's last trick the replay's score bar says each
/// side took what the record's score line counts for it: the declarer's
/// side with the dummy's tricks.
#[test]
fn the_replay_of_a_dummy_game_counts_the_dummys_tricks_for_its_declarer() {
    let game = dummy_game(3);
    let scored: Vec<(u32, Vec<u8>, usize)> = game
        .events
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Score {
                hand,
                tricks,
                declarer: Some(d),
                ..
            } => Some((*hand, tricks.clone(), d.index())),
            _ => None,
        })
        .collect();
    assert!(!scored.is_empty());
    let story = Story::from_record(&game).expect("the record replays");
    let source = Source::Record {
        name: "d.jsonl".into(),
        game: 1,
        games: 1,
    };
    let mut viewer = Viewer::new(story, source);
    let (hand, tricks, declarer) = &scored[0];
    assert_eq!(*hand, 1);
    // The hand's last trick, just completed.
    while viewer.step().is_some_and(|s| s.tricks_done < 13) {
        viewer.go(Move::On);
    }
    let dummy = Mode::Dummy.dummy().unwrap().index();
    let screen = {
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        terminal
            .draw(|f| replay_view::render(&viewer, &Theme::PLAIN, f.area(), f.buffer_mut()))
            .unwrap();
        terminal.backend().to_string()
    };
    // The score bar: the first line that counts tricks, one column a side.
    let bar = screen
        .lines()
        .find(|l| l.contains("took"))
        .expect("a score bar");
    let took: Vec<u8> = bar
        .match_indices("took ")
        .map(|(at, _)| {
            let rest = &bar[at + 5..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().unwrap()
        })
        .collect();
    let expected: Vec<u8> = (0..3)
        .map(|side| tricks[side] + if side == *declarer { tricks[dummy] } else { 0 })
        .collect();
    assert_eq!(took, expected, "{screen}");
}
