//! Games played on the real table and recorded by the table's own record
//! writer, read back with the real reader: what `spades` writes is what the
//! tests check.

use spades::bots::random::RandomBot;
use spades::engine::{Event, Phase, Rules};
use spades::fairness::{Dealing, SecretSeed};
use spades::record::{MemoryRecord, read_games};
use spades::table::{Player, Table};

/// The players of the rules' worked examples, one per seat.
const NAMES: [&str; 4] = ["Alex", "Beth", "Charlie", "David"];

/// A game played by random bots.
pub struct Played {
    pub rules: Rules,
    pub seed: u64,
    /// Every event, the first deal included, as the record holds them.
    pub events: Vec<Event>,
    /// Did the game end, rather than stop at the hand limit?
    pub finished: bool,
    /// The record the table wrote.
    text: String,
}

impl Played {
    /// The game's record as the table wrote it; a game stopped at the hand
    /// limit ends with an `abandoned` line.
    pub fn record(&self) -> String {
        self.text.clone()
    }
}

/// Plays a game between random bots on the table, dealt from a secret
/// seed (committed to in the record, revealed at its end), stopping after
/// `max_hands` hands if it has not ended by then.
pub fn random_game(rules: Rules, seed: u64, max_hands: u32) -> Played {
    let salt = seed.to_le_bytes().repeat(2);
    let secret = SecretSeed::from_parts(seed, salt.try_into().expect("16 bytes"));
    // One bot per player: with a dummy the table seats nobody in its seat.
    let players = (0..rules.mode.players())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect();
    let mut table = Table::new(rules, Dealing::Secret(secret), players);
    let out = MemoryRecord::default();
    let names = NAMES[..rules.mode.seats()]
        .iter()
        .map(|n| n.to_string())
        .collect();
    table
        .record_to(Box::new(out.clone()), names, Default::default())
        .expect("a record in memory");
    while table.hand_no() <= max_hands {
        let Some(step) = table.step_bot() else {
            break;
        };
        step.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    let finished = table.phase() == Phase::Over;
    table.abandon();
    let text = out.text();
    let games = read_games(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert_eq!(games.len(), 1, "seed {seed}: one game per record");
    Played {
        rules,
        seed,
        events: games[0].events.iter().map(|(_, e)| e.clone()).collect(),
        finished,
        text,
    }
}

/// A record's lines as JSON values, for tests that plant errors in them.
pub fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// JSON values written back as a record's text, one per line.
pub fn record_text(lines: &[serde_json::Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}
