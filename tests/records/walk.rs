//! The one walk through a record (`record::walk`), on records the real
//! table wrote: at every line it shows the game the table had there, and
//! a record changed in one line stops the walk at that line, with an error
//! naming it.

use spades::bots::random::RandomBot;
use spades::engine::{Decision, Event, HandResult, Mode, Phase, PlayerView, Rules, Seat};
use spades::fairness::{Dealing, SecretSeed};
use spades::record::{At, MemoryRecord, RecordError, RecordedGame, action_of, read_games, walk};
use spades::table::{Player, Table};
use support::game::short;
use support::record::{json_lines, record_text};

/// Every seat's view: together, all the table's game holds.
fn views(seats: usize, view: impl Fn(Seat) -> PlayerView) -> Vec<PlayerView> {
    (0..seats).map(|s| view(Seat::new(s))).collect()
}

/// A game the table played and recorded, with the game it had at each line
/// the walk shows one for.
struct Played {
    text: String,
    /// With each hand just dealt, the first included.
    dealt: Vec<Vec<PlayerView>>,
    /// Before each seat's bid, pass or card, in the order played.
    before_actions: Vec<Vec<PlayerView>>,
    results: Vec<HandResult>,
    /// When the game stopped.
    last: Vec<PlayerView>,
}

/// Rules that let a blind nil be bid at any score, so games have exchanges.
fn rules(mode: Mode) -> Rules {
    short(mode, 150)
        .with(|r| r.blind_nil.min_deficit = 0)
        .expect("valid rules")
}

/// Random bots play `rules` from `seed` at the real table, which records
/// the game with its own writer; stopped after `max_hands` hands.
fn play(rules: Rules, seed: u64, max_hands: u32) -> Played {
    let mode = rules.mode;
    let seats = mode.seats();
    let players = (0..mode.players())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect();
    let secret = SecretSeed::from_parts(seed, [7; 16]);
    let mut table = Table::new(rules, Dealing::Secret(secret), players);
    let out = MemoryRecord::default();
    let names = (0..seats).map(|s| format!("Bot {s}")).collect();
    table
        .record_to(Box::new(out.clone()), names, Default::default())
        .unwrap();
    let mut played = Played {
        text: String::new(),
        dealt: vec![views(seats, |s| table.view(s))],
        before_actions: Vec::new(),
        results: Vec::new(),
        last: Vec::new(),
    };
    // The game before a seat looked at its cards, offered a blind nil: a
    // look is no line of the record, so its bid is walked from there.
    let mut before_look = None;
    while table.hand_no() <= max_hands {
        let deals = table.phase() == Phase::AwaitingDeal;
        let turn = table.bot_turn();
        let before = views(seats, |s| table.view(s));
        let Some(step) = table.step_bot() else {
            break;
        };
        step.unwrap();
        if deals {
            played.dealt.push(views(seats, |s| table.view(s)));
            continue;
        }
        let looked = turn.is_some_and(|t| {
            t.decision == Decision::BlindNil && table.view(t.seat).bids()[t.seat].is_none()
        });
        if looked {
            before_look = Some(before);
        } else {
            played
                .before_actions
                .push(before_look.take().unwrap_or(before));
        }
    }
    played.results = table.results().to_vec();
    played.last = views(seats, |s| table.view(s));
    table.abandon();
    drop(table);
    played.text = out.text();
    played
}

fn only_game(text: &str) -> RecordedGame {
    let mut games = read_games(text).unwrap();
    assert_eq!(games.len(), 1);
    games.remove(0)
}

#[test]
fn at_every_line_the_walk_shows_the_game_the_table_had() {
    let mut exchanges = 0;
    for mode in Mode::ALL {
        for seed in 1..=3 {
            let played = play(rules(mode), seed, 6);
            let recorded = only_game(&played.text);
            let seats = mode.seats();
            let (mut dealt, mut acted, mut scored, mut lines) = (0, 0, 0, Vec::new());
            let replayed = walk(&recorded, |at: At<'_>| {
                lines.push(at.line);
                let game = views(seats, |s| at.game.view(s));
                let here = format!("{mode} seed {seed} line {}", at.line);
                if let Event::Deal { .. } = at.event {
                    assert_eq!(game, played.dealt[dealt], "{here}");
                    dealt += 1;
                }
                if let Some((_, action)) = action_of(at.event) {
                    exchanges += usize::from(matches!(at.event, Event::Exchange { .. }));
                    assert_eq!(game, played.before_actions[acted], "{here}: {action:?}");
                    acted += 1;
                }
                assert_eq!(
                    at.scored(),
                    matches!(at.event, Event::Score { .. }).then(|| &played.results[scored]),
                    "{here}"
                );
                scored += usize::from(at.scored().is_some());
                Ok::<(), RecordError>(())
            })
            .unwrap_or_else(|e| panic!("{mode} seed {seed}: {e}"));
            // Every line after the `game` line, once each, in order.
            let every: Vec<usize> = recorded.events.iter().map(|(l, _)| *l).collect();
            assert_eq!(lines, every);
            assert_eq!(
                (dealt, acted, scored),
                (
                    played.dealt.len(),
                    played.before_actions.len(),
                    played.results.len()
                )
            );
            assert_eq!(views(seats, |s| replayed.game.view(s)), played.last);
        }
    }
    assert!(exchanges > 0, "no game had an exchange to walk through");
}

/// The walk of `text`, with the lines it reached before it stopped.
fn walk_text(text: &str) -> (Result<(), RecordError>, Vec<usize>) {
    let mut reached = Vec::new();
    let walked = walk(&only_game(text), |at| {
        reached.push(at.line);
        Ok::<(), RecordError>(())
    });
    (walked.map(|_| ()), reached)
}

#[test]
fn a_changed_line_stops_the_walk_at_that_line() {
    let played = play(rules(Mode::Partnership), 4, 3);
    let lines = json_lines(&played.text);
    assert_eq!(walk_text(&played.text).0, Ok(()));
    let at = |kind: &str, nth: usize| {
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l["event"] == kind)
            .nth(nth)
            .map(|(i, _)| i)
            .unwrap()
    };
    // A trick given to another seat: the engine gives it to its winner.
    let trick = at("trick", 5);
    let mut changed = lines.clone();
    let winner = changed[trick]["winner"].as_u64().unwrap();
    changed[trick]["winner"] = ((winner + 1) % 4).into();
    let (walked, reached) = walk_text(&record_text(&changed));
    let err = walked.unwrap_err();
    assert_eq!(err.line, trick + 1, "{err}");
    assert!(err.message.contains("the rules give"), "{err}");
    assert!(reached.iter().all(|&l| l < trick + 1), "{reached:?}");
    // A card played twice: the engine refuses it at its line.
    let (first, second) = (at("play", 0), at("play", 4));
    let mut changed = lines.clone();
    let seat = changed[second]["seat"].clone();
    changed[second] = changed[first].clone();
    changed[second]["seat"] = seat;
    let (walked, reached) = walk_text(&record_text(&changed));
    let err = walked.unwrap_err();
    assert_eq!(err.line, second + 1, "{err}");
    assert!(err.message.starts_with("seat "), "{err}");
    assert_eq!(reached.last(), Some(&(second + 1)));
}
