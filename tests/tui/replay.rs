//! Snapshots of the replay viewer (`spades replay`), drawn as plain text
//! from short games the table played and recorded: the start of a hand, a
//! trick in play, a hand's end with its score, a blind-nil exchange, a
//! cutthroat game, a record that stops mid-hand, a `spades sim` record
//! (no player), the keys, and the sizes a player may have.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use spades::bots::random::RandomBot;
use spades::engine::{Event, Mode, Rules, Seat};
use spades::fairness::Dealing;
use spades::record::{GameInfo, MemoryRecord, RecordedGame, read_games};
use spades::story::{StepEvent, Story};
use spades::table::{Player, Table};
use spades::tui::Key;
use spades::tui::Theme;
use spades::tui::replay::{Move, Outcome, Source, Viewer};
use spades::tui::replay_view;
use support::game::short;

/// Symbols for suits, as most terminals show them.
pub(crate) const UNICODE: Theme = Theme::UNICODE;

/// A game random bots played at the table under `rules` from an open seed,
/// recorded as a game the player sat in (seat 0) would be, or, without a
/// player, as `spades sim --record` records one.
fn recorded_as(rules: Rules, seed: u64, player: bool) -> RecordedGame {
    let mode = rules.mode;
    let players = (0..mode.seats())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect();
    let mut table = Table::new(rules, Dealing::Open(seed), players);
    let out = MemoryRecord::default();
    let names: Vec<String> = match (player, mode) {
        (true, Mode::Cutthroat) => vec!["You".into(), "West".into(), "East".into()],
        (true, _) => ["You", "West", "North", "East"].map(String::from).to_vec(),
        (false, _) => (0..mode.seats()).map(|s| format!("random {s}")).collect(),
    };
    let info = if player {
        GameInfo {
            id: Some(format!("game-{seed}")),
            player_seat: Some(Seat::new(0)),
            ..GameInfo::default()
        }
    } else {
        GameInfo::default()
    };
    table.record_to(Box::new(out.clone()), names, info).unwrap();
    table.run_bots().unwrap();
    drop(table);
    read_games(&out.text()).unwrap().remove(0)
}

pub(crate) fn recorded(rules: Rules, seed: u64) -> RecordedGame {
    recorded_as(rules, seed, true)
}

pub(crate) fn viewer(game: &RecordedGame) -> Viewer {
    let story = Story::from_record(game).expect("the record replays");
    let source = Source::Record {
        name: "game-7.jsonl".to_string(),
        game: 1,
        games: 1,
    };
    Viewer::new(story, source)
}

pub(crate) fn screen_in(viewer: &Viewer, theme: &Theme, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| replay_view::render(viewer, theme, frame.area(), frame.buffer_mut()))
        .unwrap();
    terminal.backend().to_string()
}

pub(crate) fn screen(viewer: &Viewer, width: u16, height: u16) -> String {
    screen_in(viewer, &Theme::PLAIN, width, height)
}

/// Steps on until `stop` holds of the step on screen.
fn step_until(viewer: &mut Viewer, stop: impl Fn(&Viewer) -> bool) {
    while !stop(viewer) {
        let at = viewer.at();
        viewer.go(Move::On);
        assert_ne!(viewer.at(), at, "the story ended first");
    }
}

/// A short partnership game: to 150, or down to -150.
pub(crate) fn partnership() -> Rules {
    short(Mode::Partnership, 150)
}

#[test]
fn the_start_of_a_hand() {
    let game = recorded(partnership(), 7);
    let mut viewer = viewer(&game);
    let screen0 = screen(&viewer, 80, 24);
    assert!(screen0.contains("Every hand is face up"), "{screen0}");
    insta::assert_snapshot!("replay_hand_start_80x24", screen0);
    // The second hand starts a page down.
    viewer.go(Move::OnHand);
    let step = viewer.step().unwrap();
    assert_eq!(step.event, StepEvent::Dealt);
    assert_eq!(viewer.story().hands[step.hand].hand, 2);
    assert!(screen(&viewer, 80, 24).contains("hand 2 of"));
}

#[test]
fn mid_trick() {
    let game = recorded(partnership(), 7);
    let mut viewer = viewer(&game);
    // Two tricks in, two cards on the table.
    step_until(&mut viewer, |v| {
        let s = v.step().unwrap();
        s.tricks_done == 2 && s.table.iter().flatten().count() == 2
    });
    insta::assert_snapshot!("replay_mid_trick_80x24", screen(&viewer, 80, 24));
    insta::assert_snapshot!("replay_mid_trick_100x30", screen(&viewer, 100, 30));
    insta::assert_snapshot!(
        "replay_mid_trick_unicode_80x24",
        screen_in(&viewer, &UNICODE, 80, 24)
    );
}

#[test]
fn a_finished_trick_names_its_winner() {
    let game = recorded(partnership(), 7);
    let mut viewer = viewer(&game);
    viewer.go(Move::OnTrick); // the bidding done
    viewer.go(Move::OnTrick); // the first trick
    let step = *viewer.step().unwrap();
    assert!(matches!(
        step.event,
        StepEvent::Play {
            completes: Some(1),
            ..
        }
    ));
    let winner = step.winning.unwrap();
    let card = step.table[winner].unwrap();
    let text = screen(&viewer, 80, 24);
    let face = Theme::PLAIN.card(card);
    assert!(text.contains(&format!("*{face}*")), "{text}");
    let said = text
        .lines()
        .find(|l| l.contains("trick 1.") || l.contains("trick 1 with"))
        .unwrap_or_else(|| panic!("who took the trick: {text}"));
    let name = &viewer.story().names[winner.index()];
    assert!(said.contains(name.as_str()), "{said}");
}

#[test]
fn a_hands_end_with_its_score() {
    let game = recorded(partnership(), 7);
    let mut viewer = viewer(&game);
    step_until(&mut viewer, |v| {
        v.step().unwrap().event == StepEvent::Scored
    });
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("Hand 1 scored"), "{text}");
    // Where each side's contract was decided, as well as how it scored.
    assert!(text.contains(" at trick "), "{text}");
    // The numbers are the engine's.
    let result = viewer.story().hands[0].result.clone().unwrap();
    for (_, side) in result.sides.pairs() {
        assert!(text.contains(&format!("-> {}", side.score)), "{text}");
    }
    insta::assert_snapshot!("replay_hand_scored_80x24", text);
}

#[test]
fn the_last_hand_says_who_won() {
    let game = recorded(partnership(), 7);
    let mut viewer = viewer(&game);
    viewer.go(Move::End);
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("win the game"), "{text}");
    insta::assert_snapshot!("replay_game_end_80x24", text);
}

#[test]
fn a_blind_nil_exchange() {
    // Blind nil for anyone: seed 13's first hand has one, with an exchange
    // between You and North.
    let rules = partnership().with(|r| r.blind_nil.min_deficit = 0).unwrap();
    let game = recorded(rules, 13);
    let mut viewer = viewer(&game);
    step_until(&mut viewer, |v| {
        v.step().unwrap().event == StepEvent::Exchange
    });
    assert_eq!(viewer.step().unwrap().hand, 0);
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("You pass"), "{text}");
    insta::assert_snapshot!("replay_exchange_80x24", text);
}

#[test]
fn a_cutthroat_game() {
    let game = recorded(short(Mode::Cutthroat, 150), 3);
    let mut viewer = viewer(&game);
    step_until(&mut viewer, |v| {
        let s = v.step().unwrap();
        s.tricks_done == 3 && s.table.iter().flatten().count() == 2
    });
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("Out of play: "), "{text}");
    insta::assert_snapshot!("replay_cutthroat_80x24", text);
    step_until(&mut viewer, |v| {
        v.step().unwrap().event == StepEvent::Scored
    });
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("Card out of play"), "{text}");
    insta::assert_snapshot!("replay_cutthroat_scored_80x24", text);
}

#[test]
fn a_record_cut_short_ends_where_it_stops() {
    let game = recorded(partnership(), 7);
    let mut cut = game.clone();
    // Up to the 21st card, which leads the first hand's sixth trick: the
    // record stops mid-trick and mid-hand, as a game left unfinished does.
    let plays = cut
        .events
        .iter()
        .enumerate()
        .filter(|(_, (_, e))| matches!(e, Event::Play { .. }))
        .map(|(i, _)| i)
        .nth(20)
        .unwrap();
    cut.events.truncate(plays + 1);
    cut.reveal = None;
    let mut viewer = viewer(&cut);
    viewer.go(Move::End);
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("The record ends here."), "{text}");
    insta::assert_snapshot!("replay_cut_short_80x24", text);
    // Nothing goes past it.
    let at = viewer.at();
    for m in [Move::On, Move::OnTrick, Move::OnHand, Move::End] {
        viewer.go(m);
        assert_eq!(viewer.at(), at);
    }
}

#[test]
fn a_sim_record_names_its_bots() {
    let game = recorded_as(partnership(), 7, false);
    let mut viewer = viewer(&game);
    viewer.go(Move::OnTrick);
    viewer.go(Move::OnTrick);
    let text = screen_in(&viewer, &UNICODE, 80, 24);
    assert!(text.contains("random 0 & random 2"), "{text}");
    insta::assert_snapshot!("replay_sim_record_80x24", text);
}

#[test]
fn the_keys() {
    let game = recorded(partnership(), 7);
    let mut viewer = viewer(&game);
    assert_eq!(viewer.key(Key::Char('?')), Outcome::Stay);
    let text = screen(&viewer, 80, 24);
    for key in ["Left/Right", "Up/Down", "PgUp/PgDn", "Home/End", "q or Esc"] {
        assert!(text.contains(key), "{key}: {text}");
    }
    insta::assert_snapshot!("replay_keys_80x24", text);
    // Any key closes them, and q then leaves.
    assert_eq!(viewer.key(Key::Esc), Outcome::Stay);
    assert!(!screen(&viewer, 80, 24).contains(" Keys "));
    assert_eq!(viewer.key(Key::Char('q')), Outcome::Leave);
}

#[test]
fn too_small_says_how_big() {
    let game = recorded(partnership(), 7);
    let text = screen(&viewer(&game), 79, 24);
    assert!(text.contains("at least 80x24"), "{text}");
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
/// side took what the record's score line counts for its contract: the
/// declarer's side with the dummy's tricks, each defender both defenders'.
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
    let defenders: u8 = (0..3).filter(|s| s != declarer).map(|s| tricks[s]).sum();
    let expected: Vec<u8> = (0..3)
        .map(|side| {
            if side == *declarer {
                tricks[side] + tricks[dummy]
            } else {
                defenders
            }
        })
        .collect();
    assert_eq!(took, expected, "{screen}");
}
