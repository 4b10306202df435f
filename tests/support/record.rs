//! Game records written from engine events, as the game-record spec lays
//! them out: a `game` line, then one line per event.

use serde_json::json;
use spades::bots::random::RandomBot;
use spades::engine::{Event, Game, Phase, Rules};
use spades::table::{Player, Table};

/// The players of the seeds' examples, one per seat.
pub const NAMES: [&str; 4] = ["Alex", "Beth", "Charlie", "David"];

/// The `game` line that opens a record.
pub fn header(rules: &Rules, seed: Option<u64>) -> String {
    let n = rules.mode.seats();
    json!({
        "event": "game",
        "format": 1,
        "mode": rules.mode,
        "names": &NAMES[..n],
        "rules": rules,
        "seed": seed,
    })
    .to_string()
}

/// One event as a record line.
pub fn line(event: &Event) -> String {
    serde_json::to_string(event).expect("events serialise")
}

/// A whole record: the header, then each event on its own line.
pub fn record(rules: &Rules, seed: Option<u64>, events: &[Event]) -> String {
    let mut text = header(rules, seed);
    text.push('\n');
    for e in events {
        text.push_str(&line(e));
        text.push('\n');
    }
    text
}

/// A game played by random bots.
pub struct Played {
    pub rules: Rules,
    pub seed: u64,
    /// Every event, the first deal included.
    pub events: Vec<Event>,
    /// Did the game end, rather than stop at the hand limit?
    pub finished: bool,
}

impl Played {
    /// The game's record; a game stopped at the hand limit is marked abandoned.
    pub fn record(&self) -> String {
        let mut text = record(&self.rules, Some(self.seed), &self.events);
        if !self.finished {
            text.push_str("{\"event\":\"abandoned\"}\n");
        }
        text
    }
}

/// Plays a game between random bots on the table, stopping after
/// `max_hands` hands if it has not ended by then.
pub fn random_game(rules: Rules, seed: u64, max_hands: u32) -> Played {
    let game = Game::new(rules, seed);
    let mut events = vec![game.deal_event()];
    let players = (0..rules.mode.seats())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect();
    let mut table = Table::new(game, players, seed);
    let mut hands = 0;
    while hands < max_hands {
        let Some(step) = table.step_bot() else {
            break;
        };
        let step = step.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        hands += step
            .iter()
            .filter(|e| matches!(e, Event::Score { .. }))
            .count() as u32;
        events.extend(step);
    }
    let finished = table.game().phase() == Phase::Over;
    Played {
        rules,
        seed,
        events,
        finished,
    }
}
