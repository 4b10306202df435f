//! The player's games, read back from the records `spades` keeps in its
//! records folder: what each game was, how it went for the player, and
//! where its record is. Statistics and the rating are worked out from this
//! list; nothing else is kept.
//!
//! Only games someone played at the table count (their `game` line names
//! the player's seat). A file that cannot be read, or a game whose record
//! does not replay, is set aside with its file and line, and never stops
//! the rest from being read.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::bots::BotSpec;
use crate::engine::{HandResult, Mode, Seat, Side};
use crate::record::{self, GameInfo, RecordedGame};
use crate::records_folder::Picked;

/// A record, or a game in one, that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unreadable {
    pub file: PathBuf,
    /// The line at fault, when there is one.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// The records folder itself cannot be read. A folder that does not exist
/// yet is not an error: no game has been recorded, so there is nothing in
/// it.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the records folder {}: {error}", dir.display())]
pub struct FolderError {
    pub dir: PathBuf,
    pub error: std::io::Error,
}

/// A game found in a record file, as read, before it is replayed.
#[derive(Debug, Clone)]
pub struct FoundGame {
    /// The game's id, or its file's name when the record has none.
    pub id: String,
    pub file: PathBuf,
    pub recorded: RecordedGame,
    /// The line the next game of the same file starts on, if any: this
    /// game's record is its `game` line up to there.
    pub next_game_line: Option<usize>,
}

impl FoundGame {
    /// This game's lines exactly as its file holds them, byte for byte:
    /// the whole file when it holds this game alone.
    pub fn record_bytes(&self) -> std::io::Result<Vec<u8>> {
        let bytes = std::fs::read(&self.file)?;
        let first = self.recorded.line;
        Ok(bytes
            .split_inclusive(|&b| b == b'\n')
            .enumerate()
            .map(|(i, line)| (i + 1, line))
            .filter(|&(n, _)| n >= first && self.next_game_line.is_none_or(|next| n < next))
            .flat_map(|(_, line)| line.iter().copied())
            .collect())
    }
}

/// Every game played at the table found in the records folder.
#[derive(Debug, Clone, Default)]
pub struct Folder {
    pub games: Vec<FoundGame>,
    pub unreadable: Vec<Unreadable>,
    /// Record files read (those set aside included).
    pub files: usize,
}

/// Reads every `*.jsonl` file in `dir`, in name order.
pub fn read_folder(dir: &Path) -> Result<Folder, FolderError> {
    let paths = record_files(dir)?;
    let mut folder = Folder {
        files: paths.len(),
        ..Folder::default()
    };
    for file in paths {
        match read_record_file(&file) {
            Ok(games) => folder.games.extend(played_at_the_table(&file, games)),
            Err(unreadable) => folder.unreadable.push(unreadable),
        }
    }
    Ok(folder)
}

/// The `*.jsonl` files in `dir`, in name order; none when it does not
/// exist yet.
fn record_files(dir: &Path) -> Result<Vec<PathBuf>, FolderError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => {
            return Err(FolderError {
                dir: dir.to_path_buf(),
                error,
            });
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl") && p.is_file())
        .collect();
    paths.sort();
    Ok(paths)
}

/// Every game in one record file, or why the file cannot be used: it
/// cannot be read, is not UTF-8 text, or is not a game record.
fn read_record_file(file: &Path) -> Result<Vec<RecordedGame>, Unreadable> {
    let unreadable = |line, message| Unreadable {
        file: file.to_path_buf(),
        line,
        message,
    };
    let bytes = std::fs::read(file).map_err(|e| unreadable(None, format!("cannot read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        unreadable(
            Some(line),
            "not a game record spades can read: not UTF-8 text".into(),
        )
    })?;
    record::read_games(&text).map_err(|e| {
        unreadable(
            Some(e.line),
            format!("not a game record spades can read: {}", e.message),
        )
    })
}

/// The games of `file` someone played at the table, each with its id (the
/// file's name when the record has none) and where the next game begins.
fn played_at_the_table(file: &Path, games: Vec<RecordedGame>) -> Vec<FoundGame> {
    let starts: Vec<usize> = games.iter().map(|g| g.line).collect();
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut found = Vec::new();
    for (i, recorded) in games.into_iter().enumerate() {
        // Games between bots (`spades sim`) have no player.
        if recorded.header.info.player_seat.is_none() {
            continue;
        }
        found.push(FoundGame {
            id: recorded
                .header
                .info
                .id
                .clone()
                .unwrap_or_else(|| stem.clone()),
            file: file.to_path_buf(),
            next_game_line: starts.get(i + 1).copied(),
            recorded,
        });
    }
    found
}

/// The game whose id is `id`, or the one game whose id starts with it.
pub fn find<'a>(folder: &'a Folder, id: &str) -> Result<&'a FoundGame, String> {
    if id.is_empty() {
        return Err("give a game's id, as `spades history` lists it".into());
    }
    match crate::records_folder::pick(&folder.games, id, |g| &g.id) {
        Picked::One(one) => Ok(one),
        Picked::None => Err(format!(
            "no game's id is or starts with `{id}` (`spades history` lists your games)"
        )),
        Picked::Several(many) => {
            let shown: Vec<String> = many
                .iter()
                .take(5)
                .map(|g| format!("{} ({})", g.id, g.file.display()))
                .collect();
            let more = if many.len() > 5 { ", ..." } else { "" };
            Err(format!(
                "`{id}` could be any of {} games: {}{more}; give more of the id",
                many.len(),
                shown.join(", ")
            ))
        }
    }
}

/// Is `id` safe to use as a file's name as it is: no folder, nothing
/// hidden, no character a shell would trip on?
pub fn plain_name(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// How a game went for the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Won,
    Lost,
    /// The player left before the game was decided.
    Left,
    /// The record stops with no closing line: the program was killed, or
    /// the game is still being played.
    Unfinished,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Left => "left",
            Outcome::Unfinished => "unfinished",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A game the player played, replayed through the engine.
#[derive(Debug, Clone)]
pub struct PlayedGame {
    pub id: String,
    pub file: PathBuf,
    pub mode: Mode,
    pub info: GameInfo,
    /// The player's seat.
    pub seat: Seat,
    pub outcome: Outcome,
    /// Every side's score after the last hand played.
    pub scores: Vec<i32>,
    /// Every hand scored, in order.
    pub results: Vec<HandResult>,
    /// A Quick Play run rather than a game to a target.
    pub quick: bool,
    /// The seed, when the deals came from one known from the start (the
    /// header's `seed`): open deals, which could be known in advance.
    pub open_seed: Option<u64>,
}

impl PlayedGame {
    /// Replays a found game; a record that does not replay is set aside
    /// with its line.
    pub fn replay(found: &FoundGame) -> Result<PlayedGame, Unreadable> {
        let recorded = &found.recorded;
        let info = &recorded.header.info;
        let unreadable = |line, message| Unreadable {
            file: found.file.clone(),
            line: Some(line),
            message,
        };
        let seat = info
            .player_seat
            .ok_or_else(|| unreadable(recorded.line, "no player's seat".into()))?;
        let mode = recorded.header.mode;
        if !mode.has_seat(seat) {
            return Err(unreadable(
                recorded.line,
                format!("the player's seat {seat} is not at a {mode} table"),
            ));
        }
        let replayed = record::replay(recorded).map_err(|e| unreadable(e.line, e.message))?;
        let game = replayed.game;
        let outcome = match game.winner() {
            Some(side) if side == mode.side_of(seat) => Outcome::Won,
            Some(_) => Outcome::Lost,
            None if recorded.abandoned => Outcome::Left,
            None => Outcome::Unfinished,
        };
        Ok(PlayedGame {
            id: found.id.clone(),
            file: found.file.clone(),
            mode,
            info: GameInfo::clone(info),
            seat,
            outcome,
            scores: game.scores(),
            results: game.results().to_vec(),
            quick: recorded.header.rules.is_quick(),
            open_seed: recorded.header.seed,
        })
    }

    /// The player's side.
    pub fn side(&self) -> Side {
        self.mode.side_of(self.seat)
    }

    /// A Quick Play run's total: the player's side's score at its end.
    pub fn run_total(&self) -> i32 {
        self.scores.get(self.side().index()).copied().unwrap_or(0)
    }

    /// The computer players' level, as the record names it.
    pub fn level(&self) -> String {
        self.info
            .difficulty
            .as_ref()
            .map_or_else(|| "unknown".to_string(), BotSpec::to_string)
    }

    /// The final score, the player's side first: `512/347`, `-50/101/55`
    /// (a dash would read as a minus).
    fn score_line(&self) -> String {
        let mine = self.side().index();
        let others = self.scores.iter().enumerate().filter(|&(s, _)| s != mine);
        std::iter::once(self.scores.get(mine).copied().unwrap_or(0))
            .chain(others.map(|(_, &score)| score))
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Sorts games oldest first: by start, then by id.
    fn order_key(&self) -> (u64, &str) {
        (self.info.started.unwrap_or(0), &self.id)
    }
}

/// The player's games, oldest first, and the records set aside.
#[derive(Debug, Clone)]
pub struct History {
    pub games: Vec<PlayedGame>,
    pub unreadable: Vec<Unreadable>,
    /// Record files read.
    pub files: usize,
}

impl History {
    /// Reads and replays every game in the folder.
    pub fn read(dir: &Path) -> Result<History, FolderError> {
        let folder = read_folder(dir)?;
        let mut unreadable = folder.unreadable;
        let mut games = Vec::new();
        for found in &folder.games {
            match PlayedGame::replay(found) {
                Ok(game) => games.push(game),
                Err(e) => unreadable.push(e),
            }
        }
        games.sort_by(|a, b| a.order_key().cmp(&b.order_key()));
        Ok(History {
            games,
            unreadable,
            files: folder.files,
        })
    }
}

/// One game as `spades history --json` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct Entry<'a> {
    pub id: &'a str,
    pub file: &'a Path,
    /// Seconds since 1970-01-01 UTC.
    pub started: Option<u64>,
    /// `YYYY-MM-DD HH:MM`, UTC.
    pub date: Option<String>,
    pub mode: Mode,
    pub rules_source: Option<&'a str>,
    pub difficulty: Option<&'a BotSpec>,
    pub practice: bool,
    pub result: Outcome,
    pub player_seat: Seat,
    pub player_side: Side,
    /// Every side's score, in side order.
    pub scores: &'a [i32],
    pub hands: usize,
}

impl<'a> From<&'a PlayedGame> for Entry<'a> {
    fn from(g: &'a PlayedGame) -> Entry<'a> {
        Entry {
            id: &g.id,
            file: &g.file,
            started: g.info.started,
            date: g.info.started.map(utc_minute),
            mode: g.mode,
            rules_source: g.info.rules_source.as_deref(),
            difficulty: g.info.difficulty.as_ref(),
            practice: g.info.practice,
            result: g.outcome,
            player_seat: g.seat,
            player_side: g.side(),
            scores: &g.scores,
            hands: g.results.len(),
        }
    }
}

/// The listing `spades history` prints, newest first.
pub fn render(games: &[PlayedGame]) -> String {
    let head = [
        "DATE (UTC)",
        "MODE",
        "LEVEL",
        "RESULT",
        "SCORE",
        "HANDS",
        "ID",
        "RULES",
    ];
    let rows: Vec<[String; 8]> = games
        .iter()
        .rev()
        .map(|g| {
            let mode = match (g.info.practice, g.quick) {
                (true, _) => format!("{}, practice", g.mode),
                (false, true) => format!("{}, quick", g.mode),
                (false, false) => g.mode.to_string(),
            };
            // A Quick Play run is played for a total, not won or lost.
            let result = match (g.quick, g.outcome) {
                (true, Outcome::Won | Outcome::Lost) => "run over".to_string(),
                (_, outcome) => outcome.to_string(),
            };
            [
                g.info.started.map_or_else(|| "-".into(), utc_minute),
                mode,
                g.level(),
                result,
                g.score_line(),
                g.results.len().to_string(),
                g.id.clone(),
                g.info.rules_source.clone().unwrap_or_else(|| "-".into()),
            ]
            .map(|cell| crate::outside::escaped_line(&cell))
        })
        .collect();
    let mut widths = head.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            match i {
                // Numbers line up on the right; the last column is not padded.
                5 => s.push_str(&format!("{cell:>w$}  ")),
                7 => s.push_str(cell),
                _ => s.push_str(&format!("{cell:<w$}  ")),
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&head.map(String::from));
    for row in &rows {
        out.push_str(&line(row));
    }
    out
}

/// `secs` since 1970-01-01 UTC as `YYYY-MM-DD HH:MM`.
pub fn utc_minute(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01: Howard Hinnant's
/// `civil_from_days`, which counts in 400-year eras (146,097 days each)
/// starting on a 1 March, so that leap days fall at the end of a year.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z / 146_097;
    let doe = z % 146_097; // day of the era, 0..=146_096
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // 0..=399
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // from 1 March, 0..=365
    let mp = (5 * doy + 2) / 153; // month from March, 0..=11
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = era * 400 + yoe + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_to_the_minute() {
        assert_eq!(utc_minute(0), "1970-01-01 00:00");
        assert_eq!(utc_minute(59), "1970-01-01 00:00");
        assert_eq!(utc_minute(86_399), "1970-01-01 23:59");
        // `date -u -d @951782400`: the leap day of a year divisible by 400.
        assert_eq!(utc_minute(951_782_400), "2000-02-29 00:00");
        assert_eq!(utc_minute(951_868_800), "2000-03-01 00:00");
        // 1900 and 2100 are not leap years.
        assert_eq!(utc_minute(4_107_542_400), "2100-03-01 00:00");
        assert_eq!(utc_minute(1_764_552_000), "2025-12-01 01:20");
        assert_eq!(utc_minute(1_709_164_800 + 3_599), "2024-02-29 00:59");
        assert_eq!(utc_minute(1_735_689_599), "2024-12-31 23:59");
        assert_eq!(utc_minute(1_735_689_600), "2025-01-01 00:00");
    }

    #[test]
    fn every_day_follows_the_one_before() {
        let days_in = |y: u64, m: u64| match m {
            2 if y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400)) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let mut date = (1970, 1, 1);
        for days in 0..200_000 {
            assert_eq!(civil_from_days(days), date, "day {days}");
            let (y, m, d) = date;
            date = if d < days_in(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
        }
    }

    #[test]
    fn an_unreadable_record_names_its_file_and_line() {
        let at = Unreadable {
            file: PathBuf::from("r/game-1.jsonl"),
            line: Some(3),
            message: "not JSON".into(),
        };
        assert_eq!(at.to_string(), "r/game-1.jsonl:3: not JSON");
        let whole = Unreadable { line: None, ..at };
        assert_eq!(whole.to_string(), "r/game-1.jsonl: not JSON");
    }
}
