//! Any bytes as a game record: `read_games` and `replay` of every game read
//! must never panic, and every error must name a line of the text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use spades_formats::record::{read_games, replay};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count();
    let in_text = |line: usize| (1..=lines).contains(&line);
    match read_games(&text) {
        Err(e) => assert!(in_text(e.line), "line {} of {lines}: {e}", e.line),
        Ok(games) => {
            for game in &games {
                if let Err(e) = replay(game) {
                    assert!(in_text(e.line), "line {} of {lines}: {e}", e.line);
                }
            }
        }
    }
});
