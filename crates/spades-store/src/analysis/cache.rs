//! Analyses kept beside their record (`<record>.review.json`), so a
//! second look is instant. Each is keyed by what it was made from: the
//! record's text (its SHA-256), the analysis version, the game, the seat,
//! the budget and the search's seed. A record that changed (a game still
//! being played, or an edited file) or another `ANALYSIS_VERSION` finds
//! nothing and its old analyses are dropped at the next write. The
//! folder's listings read only `*.jsonl`, so they never see these files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::bots::Effort;
use crate::engine::Seat;
use crate::record::RecordedGame;

use super::{ANALYSIS_VERSION, AnalysisError, Depth, GameReview, Progress, analyze_seeded};

/// Guessed deals per decision when not told otherwise: with this many the
/// verdicts mostly agree from one seed to another (docs/analysis.md).
pub const DEFAULT_DEALS: u32 = 5000;

/// What an analysis was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Key {
    /// The record file's SHA-256, as 64 lowercase hex digits.
    pub record_sha256: String,
    pub version: u32,
    /// The game within the record, from 1.
    pub game: u32,
    pub seat: Seat,
    /// Guessed deals per decision.
    pub deals: u32,
    pub seed: u64,
    /// Were the hands also solved with every card seen?
    pub all_seen: bool,
}

impl Key {
    /// The key of game `game` (from 1) of the record `text`, judged for
    /// `seat` as deep as `depth`; `None` for a timed budget, whose
    /// verdicts depend on the machine and are not kept.
    pub fn new(text: &str, game: u32, seat: Seat, depth: Depth) -> Option<Key> {
        Some(Key {
            record_sha256: sha256(text),
            version: ANALYSIS_VERSION,
            game,
            seat,
            deals: deals_of(depth.effort)?,
            seed: depth.seed,
            all_seen: depth.all_seen,
        })
    }

    /// Was it made from this record text by this version?
    fn is_current(&self, sha: &str) -> bool {
        self.record_sha256 == sha && self.version == ANALYSIS_VERSION
    }
}

/// The guessed deals a budget stands for (`Usual` is `DEFAULT_DEALS`).
pub fn deals_of(effort: Effort) -> Option<u32> {
    match effort {
        Effort::Usual => Some(DEFAULT_DEALS),
        Effort::Deals(n) => Some(n),
        Effort::Time(_) => None,
    }
}

/// One analysis kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub key: Key,
    pub review: GameReview,
}

/// A cache file's contents.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct CacheFile {
    analyses: Vec<Entry>,
}

/// Where the analyses of `record` are kept.
pub fn cache_path(record: &Path) -> PathBuf {
    let mut name = record.as_os_str().to_owned();
    name.push(".review.json");
    PathBuf::from(name)
}

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every analysis kept for `record` (whatever it was made from); none when
/// there is no cache or it cannot be read.
fn read(record: &Path) -> CacheFile {
    std::fs::read_to_string(cache_path(record))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// The analyses kept for `record` that were made from its text `text` by
/// this version: what `spades stats` reads.
pub fn current(record: &Path, text: &str) -> Vec<Entry> {
    let sha = sha256(text);
    read(record)
        .analyses
        .into_iter()
        .filter(|e| e.key.is_current(&sha))
        .collect()
}

/// The analysis kept under `key`, if any.
pub fn lookup(record: &Path, key: &Key) -> Option<GameReview> {
    read(record)
        .analyses
        .into_iter()
        .find(|e| &e.key == key)
        .map(|e| e.review)
}

/// Keeps `review` under `key`, dropping analyses of another record text
/// or version and any older one under the same key. Written whole to a
/// file beside it, then renamed, so a reader never sees half of it.
pub fn store(record: &Path, key: &Key, review: &GameReview) -> std::io::Result<()> {
    let mut file = read(record);
    file.analyses
        .retain(|e| e.key.is_current(&key.record_sha256) && &e.key != key);
    file.analyses.push(Entry {
        key: key.clone(),
        review: review.clone(),
    });
    let path = cache_path(record);
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let text = serde_json::to_string(&file).map_err(std::io::Error::other)?;
    let mut out = std::fs::File::create(&temporary)?;
    out.write_all(text.as_bytes())?;
    out.sync_data()?;
    std::fs::rename(&temporary, &path)
}

/// An analysis, and whether it came from the cache.
#[derive(Debug, Clone, PartialEq)]
pub struct Cached {
    pub review: GameReview,
    pub from_cache: bool,
    /// Why it could not be kept, when it could not (a folder that cannot
    /// be written): the analysis stands all the same.
    pub not_kept: Option<String>,
}

/// What to analyse: game `game` (from 1) of the record file `path`, whose
/// text is `text`, read as `recorded`.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub game: u32,
    pub recorded: &'a RecordedGame,
}

/// The analysis of `source` for `seat`: the one kept beside the record
/// when it was made from this very text by this version as deep, else a new one (`analyze_seeded`), kept for next time.
pub fn cached_or_run(
    source: Source<'_>,
    seat: Seat,
    depth: Depth,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Cached, AnalysisError> {
    let key = Key::new(source.text, source.game, seat, depth);
    if let Some(review) = key.as_ref().and_then(|k| lookup(source.path, k)) {
        return Ok(Cached {
            review,
            from_cache: true,
            not_kept: None,
        });
    }
    let review = analyze_seeded(source.recorded, seat, depth, stop, progress)?;
    let not_kept = key.and_then(|k| {
        store(source.path, &k, &review).err().map(|e| {
            format!(
                "cannot keep the analysis in {}: {e}",
                cache_path(source.path).display()
            )
        })
    });
    Ok(Cached {
        review,
        from_cache: false,
        not_kept,
    })
}
