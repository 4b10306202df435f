//! Rated games the store could not write, kept in a file until it can:
//! one game a line (JSON Lines), each line written whole and flushed to
//! the disk before the game is said to be kept. The server retries them
//! while it runs and when it starts again; writing one twice is harmless,
//! since the store rates a record once (its hash is a key).
//!
//! A line that cannot be read back (cut by a crash, edited by hand) is
//! never dropped nor fatal: it is moved to a file of its own beside the
//! outbox (`.damaged`) and reported by its line number.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::bots::Level;
use crate::engine::Mode;

use super::store::{AccountId, Occupant, RecordHash};
use super::{FinishedGame, UnixTime};
use crate::appending::{WholeLines, replace_whole, sync_folder};

/// The longest line read back: a game's line is a few hundred bytes.
const MAX_LINE: usize = 4096;

/// The outbox file and the games waiting in it, oldest first.
#[derive(Debug)]
pub struct Outbox {
    path: PathBuf,
    waiting: Vec<FinishedGame>,
}

/// A line of the outbox that could not be read back, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damaged {
    /// From 1, as an editor counts.
    pub line: usize,
    pub why: String,
}

/// One game as a line of the outbox.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    mode: Mode,
    /// The record's SHA-256, hex.
    record: String,
    finished: i64,
    seats: Vec<SeatLine>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatLine {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bot: Option<String>,
    score: i32,
    left: bool,
}

impl Outbox {
    /// The outbox at `path` (none yet is an empty one), its damaged lines
    /// moved aside to `<path>.damaged` and returned to be reported.
    pub fn open(path: &Path) -> io::Result<(Outbox, Vec<Damaged>)> {
        let mut outbox = Outbox {
            path: path.to_path_buf(),
            waiting: Vec::new(),
        };
        // The data folder may be new (a PostgreSQL ladder's outbox is
        // the only file there): made now, so a game can be kept later.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((outbox, Vec::new())),
            Err(e) => return Err(e),
        };
        let mut damaged = Vec::new();
        let mut set_aside = Vec::new();
        let mut reader = BufReader::new(file);
        let mut number = 0;
        loop {
            number += 1;
            let mut bytes = Vec::new();
            let read = (&mut reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut bytes)?;
            if read == 0 {
                break;
            }
            let whole = bytes.last() == Some(&b'\n');
            if !whole && bytes.len() > MAX_LINE {
                // The rest of an overlong line is part of the same damage.
                let mut rest = Vec::new();
                reader.read_until(b'\n', &mut rest)?;
                bytes.extend_from_slice(&rest);
            }
            match read_line(&bytes, whole) {
                Ok(game) => outbox.waiting.push(game),
                Err(why) => {
                    damaged.push(Damaged { line: number, why });
                    set_aside.push(bytes);
                }
            }
        }
        if !set_aside.is_empty() {
            keep_aside(&outbox.damaged_path(), &set_aside)?;
            outbox.rewrite()?;
        }
        Ok((outbox, damaged))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where damaged lines are kept: beside the outbox.
    pub fn damaged_path(&self) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(".damaged");
        PathBuf::from(name)
    }

    /// The games waiting, oldest first.
    pub fn waiting(&self) -> &[FinishedGame] {
        &self.waiting
    }

    /// Keeps `game`: its line is on the disk when this returns `Ok`.
    pub fn push(&mut self, game: FinishedGame) -> io::Result<()> {
        let mut text = serde_json::to_string(&Line::of(&game)).map_err(io::Error::other)?;
        text.push('\n');
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        // The whole line or nothing: a full disk leaves no half line that
        // would read as damaged at the next start.
        WholeLines::at_end(file)?.synced().append(text.as_bytes())?;
        self.waiting.push(game);
        Ok(())
    }

    /// The games `written` says the store has now, out of the file.
    pub fn remove_written(&mut self, written: impl Fn(&FinishedGame) -> bool) -> io::Result<()> {
        let before = self.waiting.len();
        self.waiting.retain(|game| !written(game));
        if self.waiting.len() == before {
            return Ok(());
        }
        self.rewrite()
    }

    /// Writes the games still waiting to a new file, then puts it in the
    /// outbox's place: a crash leaves the old file or the new, whole.
    fn rewrite(&self) -> io::Result<()> {
        if self.waiting.is_empty() {
            return match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                _ => sync_folder(&self.path),
            };
        }
        let mut text = String::new();
        for game in &self.waiting {
            text.push_str(&serde_json::to_string(&Line::of(game)).map_err(io::Error::other)?);
            text.push('\n');
        }
        replace_whole(&self.path, text.as_bytes(), OpenOptions::new().write(true))?;
        Ok(())
    }
}

/// Appends the damaged lines to the file beside the outbox, each ending
/// in a newline so one never runs into the next.
fn keep_aside(path: &Path, lines: &[Vec<u8>]) -> io::Result<()> {
    let mut file = OpenOptions::new().create(true).append(true).open(path)?;
    let mut all = Vec::new();
    for line in lines {
        all.extend_from_slice(line);
        if line.last() != Some(&b'\n') {
            all.push(b'\n');
        }
    }
    file.write_all(&all)?;
    file.sync_data()
}

fn read_line(bytes: &[u8], whole: bool) -> Result<FinishedGame, String> {
    if bytes.len() > MAX_LINE {
        return Err(format!("longer than {MAX_LINE} bytes"));
    }
    if !whole {
        return Err("cut short (no end of line)".into());
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8".to_string())?;
    let line: Line = serde_json::from_str(text.trim_end()).map_err(|e| e.to_string())?;
    line.game()
}

impl Line {
    fn of(game: &FinishedGame) -> Line {
        Line {
            mode: game.mode,
            record: data_encoding::HEXLOWER.encode(&game.record.0),
            finished: game.finished.0,
            seats: game
                .seats
                .iter()
                .map(|&(occupant, score, left)| {
                    let (player, bot) = match occupant {
                        Occupant::Player(account) => (Some(account.0), None),
                        Occupant::Bot(level) => (None, Some(level.name().to_string())),
                    };
                    SeatLine {
                        player,
                        bot,
                        score,
                        left,
                    }
                })
                .collect(),
        }
    }

    fn game(self) -> Result<FinishedGame, String> {
        let record: [u8; 32] = data_encoding::HEXLOWER
            .decode(self.record.as_bytes())
            .ok()
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or_else(|| "the record's hash is not 64 hex digits".to_string())?;
        let seats = self
            .seats
            .into_iter()
            .map(|seat| {
                let occupant = match (seat.player, seat.bot) {
                    (Some(id), None) => Occupant::Player(AccountId(id)),
                    (None, Some(bot)) => Occupant::Bot(
                        bot.parse::<Level>()
                            .map_err(|_| format!("no bot level `{bot}`"))?,
                    ),
                    _ => return Err("a seat is neither one player nor one bot".to_string()),
                };
                Ok((occupant, seat.score, seat.left))
            })
            .collect::<Result<Vec<_>, String>>()?;
        if seats.len() != self.mode.seats() {
            return Err(format!(
                "{} seats for a {} game",
                seats.len(),
                self.mode.name()
            ));
        }
        Ok(FinishedGame {
            mode: self.mode,
            record: RecordHash(record),
            finished: UnixTime(self.finished),
            seats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(n: u8) -> FinishedGame {
        let bot = Occupant::Bot(Level::Normal);
        FinishedGame {
            mode: Mode::Partnership,
            record: RecordHash([n; 32]),
            finished: UnixTime(1_700_000_000 + i64::from(n)),
            seats: vec![
                (Occupant::Player(AccountId(7)), 250, false),
                (bot, 100, false),
                (bot, 250, false),
                (Occupant::Player(AccountId(9)), 100, true),
            ],
        }
    }

    #[test]
    fn a_game_kept_is_read_back_after_a_restart_and_leaves_once_written() {
        let dir = tempfile::tempdir().unwrap();
        // In a data folder not made yet.
        let path = dir.path().join("spades/ladder.outbox");
        let (mut outbox, damaged) = Outbox::open(&path).unwrap();
        assert!(damaged.is_empty() && outbox.waiting().is_empty());
        outbox.push(game(1)).unwrap();
        outbox.push(game(2)).unwrap();
        drop(outbox);
        let (mut outbox, damaged) = Outbox::open(&path).unwrap();
        assert!(damaged.is_empty());
        assert_eq!(outbox.waiting(), &[game(1), game(2)]);
        outbox.remove_written(|g| g.record.0[0] == 1).unwrap();
        let (outbox, _) = Outbox::open(&path).unwrap();
        assert_eq!(outbox.waiting(), &[game(2)]);
        let (mut outbox, _) = Outbox::open(&path).unwrap();
        outbox.remove_written(|_| true).unwrap();
        assert!(!path.exists(), "an empty outbox leaves no file");
    }

    /// Damage of every kind (not JSON, a cut line, an unknown bot, a
    /// line far too long, bytes that are not UTF-8) is moved aside with
    /// its line number; the good lines around it are kept.
    #[test]
    fn damaged_lines_are_numbered_and_kept_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ladder.outbox");
        let (mut outbox, _) = Outbox::open(&path).unwrap();
        outbox.push(game(1)).unwrap();
        let good = std::fs::read(&path).unwrap();
        let bad_bot = String::from_utf8(good.clone())
            .unwrap()
            .replace("\"normal\"", "\"cheater\"");
        let mut text = good.clone();
        text.extend_from_slice(b"not json\n");
        text.extend_from_slice(bad_bot.as_bytes());
        text.extend_from_slice(&vec![b'x'; 3 * MAX_LINE]);
        text.push(b'\n');
        text.extend_from_slice(b"\xff\xfe\n");
        text.extend_from_slice(&good);
        text.extend_from_slice(&good[..good.len() / 2]);
        std::fs::write(&path, &text).unwrap();

        let (outbox, damaged) = Outbox::open(&path).unwrap();
        let lines: Vec<usize> = damaged.iter().map(|d| d.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 7], "{damaged:?}");
        assert!(damaged[1].why.contains("cheater"), "{damaged:?}");
        assert!(damaged[4].why.contains("cut short"), "{damaged:?}");
        assert_eq!(outbox.waiting(), &[game(1), game(1)]);
        let aside = std::fs::read(outbox.damaged_path()).unwrap();
        assert_eq!(aside.iter().filter(|&&b| b == b'\n').count(), 5);
        // The outbox itself now holds only the good lines.
        let (again, damaged) = Outbox::open(&path).unwrap();
        assert!(damaged.is_empty());
        assert_eq!(again.waiting().len(), 2);
    }
}
