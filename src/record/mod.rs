//! Game records (docs/game-record.md): a game's lines (`line`) written as
//! it is played (`writer`), read back (`reader`) and walked through the
//! engine, line by line, to prove every deal and every score (`walk`).
//!
//! Format 2 keeps every line of format 1 and adds fairness: the `game` line
//! carries a commitment to the secret seed instead of the seed, a hand's
//! lines reach the file only once the hand is over, and the closing line
//! (`end` or `abandoned`) reveals the seed and salt. Readers take both
//! formats and ignore keys they do not know.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::engine::Seat;

mod line;
mod reader;
mod walk;
mod writer;

pub use line::{
    GameHeader, GameInfo, RULES_OF_QUICK_MATCH, RULES_OF_THE_HOST, RecordLine, SideLine,
};
pub use reader::{DealProof, RecordError, RecordedGame, action_of, read_games};
pub use walk::{At, Replayed, replay, walk};
pub use writer::{RecordWriter, open_to_continue};

/// The format this version writes.
pub const FORMAT: u32 = 2;
/// The formats this version reads.
pub const READS: [u32; 2] = [1, 2];

/// Seconds since 1970-01-01 UTC, now.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Creates a new record file in `dir`, never one that exists: two games
/// started at the same moment get different files. The name holds the time
/// and random digits, never the seed.
pub fn create_record_file(dir: &Path) -> io::Result<(File, PathBuf)> {
    std::fs::create_dir_all(dir)?;
    let secs = now_secs();
    let mut last = None;
    for _ in 0..16 {
        let mut tag = [0u8; 4];
        getrandom::fill(&mut tag).map_err(|e| io::Error::other(e.to_string()))?;
        let tag: String = tag.iter().map(|b| format!("{b:02x}")).collect();
        let path = dir.join(format!("game-{secs}-{tag}.jsonl"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free record name")))
}

/// The record file of one seat at a shared table, found again when the
/// player comes back to that seat from a new session (it is then written
/// afresh, whole, from what the server sends), or else made:
/// `game-SECS-TABLE-SEAT.jsonl`.
pub fn shared_record_file(dir: &Path, table: &str, seat: Seat) -> io::Result<(File, PathBuf)> {
    std::fs::create_dir_all(dir)?;
    let ending = format!("-{table}-{seat}.jsonl");
    let earlier = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(&ending))
        });
    if let Some(path) = earlier {
        return Ok((File::create(&path)?, path));
    }
    let path = dir.join(format!("game-{}{ending}", now_secs()));
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)?;
    Ok((file, path))
}

/// A record kept in memory, shared between the table that writes it and
/// whoever reads it after (the arena writes each game whole to its file).
#[derive(Debug, Clone, Default)]
pub struct MemoryRecord(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl MemoryRecord {
    /// Takes what has been written so far.
    pub fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .map(|mut b| std::mem::take(&mut *b))
            .unwrap_or_default()
    }

    /// What has been written so far, as text.
    pub fn text(&self) -> String {
        let bytes = self.0.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for MemoryRecord {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| io::Error::other("the record's buffer was poisoned"))?
            .write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    use crate::bots::random::RandomBot;
    use crate::engine::RuleSettings;
    use crate::engine::{Event, Mode, Rules};
    use crate::fairness::Dealing;
    use crate::fairness::SecretSeed;
    use crate::table::{Player, Table};

    fn short(mode: Mode) -> Rules {
        Rules::new(RuleSettings {
            target_score: 150,
            losing_score: Some(-150),
            ..RuleSettings::classic(mode)
        })
        .expect("valid rules")
    }

    /// A whole game between random bots, recorded by the table.
    fn recorded_game(mode: Mode, dealing: Dealing) -> String {
        let players = (0..mode.seats())
            .map(|_| Player::Bot(Box::new(RandomBot)))
            .collect();
        let mut table = Table::new(short(mode), dealing, players);
        let names = (0..mode.seats()).map(|s| format!("Bot {s}")).collect();
        let out = MemoryRecord::default();
        table
            .record_to(Box::new(out.clone()), names, GameInfo::default())
            .unwrap();
        table.run_bots().unwrap();
        drop(table);
        out.text()
    }

    fn secret(seed: u64) -> Dealing {
        Dealing::Secret(SecretSeed::from_parts(seed, [9; 16]))
    }

    #[test]
    fn a_record_replays_to_the_same_scores_and_proves_its_deals() {
        for mode in Mode::ALL {
            let text = recorded_game(mode, secret(7));
            let games = read_games(&text).unwrap();
            assert_eq!(games.len(), 1);
            let replayed = replay(&games[0]).unwrap();
            let Some((_, Event::End { scores, .. })) = games[0].events.last() else {
                panic!("the game has no end line");
            };
            assert_eq!(&replayed.game.scores(), scores);
            assert!(
                matches!(replayed.deals, DealProof::Committed { seed: 7, .. }),
                "{:?}",
                replayed.deals
            );
            let text = recorded_game(mode, Dealing::Open(7));
            let replayed = replay(&read_games(&text).unwrap()[0]).unwrap();
            assert_eq!(replayed.deals, DealProof::OpenSeed(7));
        }
    }

    #[test]
    fn the_seed_is_nowhere_before_the_closing_line() {
        let text = recorded_game(Mode::Partnership, secret(123_456_789));
        let lines: Vec<&str> = text.lines().collect();
        let (last, before) = lines.split_last().unwrap();
        assert!(before.iter().all(|l| !l.contains("123456789")));
        assert!(lines[0].contains("\"commitment\":\""), "{}", lines[0]);
        assert!(lines[0].contains("\"seed\":null"), "{}", lines[0]);
        assert!(last.contains("\"seed\":123456789"), "{last}");
    }

    /// Replaces line `at` (from 0) of `text` with what `change` makes of it.
    fn edit(text: &str, at: usize, change: impl Fn(&mut Value)) -> String {
        text.lines()
            .enumerate()
            .map(|(i, l)| {
                if i == at {
                    let mut v: Value = serde_json::from_str(l).unwrap();
                    change(&mut v);
                    v.to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    }

    #[test]
    fn a_tampered_record_is_caught_at_its_line() {
        let text = recorded_game(Mode::Partnership, secret(3));
        let at = text.lines().position(|l| l.contains("\"score\"")).unwrap();
        let tampered = edit(&text, at, |v| {
            let points = v["sides"][0]["points"].as_i64().unwrap();
            v["sides"][0]["points"] = (points + 1).into();
        });
        let games = read_games(&tampered).unwrap();
        assert_eq!(replay(&games[0]).unwrap_err().line, at + 1);
    }

    #[test]
    fn a_reveal_that_does_not_match_the_commitment_is_caught() {
        let text = recorded_game(Mode::Cutthroat, secret(5));
        let last = text.lines().count() - 1;
        // Another seed's deals, revealed with the same salt: a swapped deck.
        let forged = edit(&text, last, |v| v["seed"] = 6.into());
        let err = replay(&read_games(&forged).unwrap()[0]).unwrap_err();
        assert_eq!(err.line, last + 1);
        assert!(
            err.message.contains("do not hash to the commitment"),
            "{err}"
        );
    }

    #[test]
    fn a_deal_not_from_the_seed_is_caught() {
        let text = recorded_game(Mode::Cutthroat, Dealing::Open(5));
        let mut games = read_games(&text).unwrap();
        games[0].header.seed = Some(6);
        let err = replay(&games[0]).unwrap_err();
        assert!(err.message.contains("not the deal seed"), "{err}");
    }

    #[test]
    fn without_a_seed_every_deal_must_still_be_a_deal() {
        let text = recorded_game(Mode::Partnership, Dealing::Open(11));
        let at = text.lines().position(|l| l.contains("\"deal\"")).unwrap();
        // Seat 1's first card dealt to seat 0 as well: a card twice.
        let doubled = edit(&text, at, |v| {
            let card = v["hands"][1][0].clone();
            v["hands"][0][0] = card;
        });
        let mut games = read_games(&doubled).unwrap();
        games[0].header.seed = None;
        let err = replay(&games[0]).unwrap_err();
        assert_eq!(err.line, at + 1);
        assert!(err.message.contains("is not a deal"), "{err}");
    }

    #[test]
    fn unknown_keys_are_ignored_everywhere() {
        let text = recorded_game(Mode::Individual, secret(2));
        let widened: String = text
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                v["from_the_future"] = 1.into();
                if let Some(rules) = v.get_mut("rules") {
                    rules["new_house_rule"] = true.into();
                    rules["bags"]["colour"] = "red".into();
                }
                v.to_string() + "\n"
            })
            .collect();
        let games = read_games(&widened).unwrap();
        assert_eq!(games, read_games(&text).unwrap());
        replay(&games[0]).unwrap();
    }

    #[test]
    fn format_1_records_still_read() {
        let text = recorded_game(Mode::Partnership, Dealing::Open(4));
        let old = edit(&text, 0, |v| {
            v["format"] = 1.into();
            v.as_object_mut().unwrap().remove("commitment");
        });
        let games = read_games(&old).unwrap();
        assert_eq!(games[0].header.format, 1);
        assert_eq!(replay(&games[0]).unwrap().deals, DealProof::OpenSeed(4));
    }

    #[test]
    fn unreadable_lines_name_their_line_and_a_cut_off_tail_is_left_out() {
        let err = read_games("{\"event\":\"bid\",\"hand\":1,\"seat\":0,\"bid\":3}").unwrap_err();
        assert_eq!(err.line, 1);
        let text = recorded_game(Mode::Individual, secret(1));
        let broken = format!("{text}not json\n");
        assert_eq!(
            read_games(&broken).unwrap_err().line,
            text.lines().count() + 1
        );
        // Cut mid-line, as a killed process leaves a file.
        let cut = &text[..text.len() - 10];
        let games = read_games(cut).unwrap();
        assert!(!games[0].is_closed());
        assert_eq!(replay(&games[0]).unwrap().deals, DealProof::Unproven);
    }

    #[test]
    fn record_files_never_collide() {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<PathBuf> = (0..50)
            .map(|_| create_record_file(dir.path()).unwrap().1)
            .collect();
        let unique: std::collections::HashSet<_> = paths.iter().collect();
        assert_eq!(unique.len(), paths.len());
    }
}
