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
