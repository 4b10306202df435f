//! Game records (docs/game-record.md): the engine's events written one JSON
//! object per line, read back, and replayed through the engine to prove
//! every deal and every score.
//!
//! Format 2 keeps every line of format 1 and adds fairness: the `game` line
//! carries a commitment to the secret seed instead of the seed, a hand's
//! lines reach the file only once the hand is over, and the closing line
//! (`end` or `abandoned`) reveals the seed and salt. Readers take both
//! formats and ignore keys they do not know.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots::BotSpec;
use crate::engine::{Action, Deal, Event, Game, Jokers, Mode, PerSeat, Rules, Seat};
use crate::fairness::{Commitment, Dealing, Reveal};

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

/// The first line of every game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename = "game")]
pub struct GameHeader {
    pub format: u32,
    pub mode: Mode,
    pub names: Vec<String>,
    pub rules: Rules,
    /// The dummy's seat, in dummy mode (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dummy: Option<Seat>,
    /// The seed, when it was known from the start (`null` otherwise).
    pub seed: Option<u64>,
    /// SHA-256 of the secret seed and salt, when the seed was secret.
    #[serde(default)]
    pub commitment: Option<Commitment>,
    #[serde(flatten)]
    pub info: GameInfo,
}

/// What a game was, for its history and statistics; not needed to replay
/// it, so every key is optional and older records simply lack them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GameInfo {
    /// The game's name among the player's games (its record file's stem).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// When it began, in whole seconds since 1970-01-01 UTC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started: Option<u64>,
    /// The seat of the person at the table, when one played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_seat: Option<Seat>,
    /// The computer players' level, in a game against them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<BotSpec>,
    /// Where the rules came from, as `spades rules` says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules_source: Option<String>,
    /// A practice game, in which moves may be taken back: kept out of the
    /// rating.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
}

impl GameInfo {
    /// A shared table's game, as its server records it: when it began, the
    /// level of its bots when any sat, and whose rules (the host's). A
    /// player's own copy names their seat and id on top (`net::seat`).
    /// A local game's is made by `save::SaveAbout::info`; a game between
    /// bots alone (`spades sim`) has none of these: `GameInfo::default()`.
    pub fn shared_table(started: u64, bots: Option<BotSpec>) -> GameInfo {
        GameInfo {
            started: Some(started),
            difficulty: bots,
            rules_source: Some("the table's host".into()),
            ..GameInfo::default()
        }
    }
}

impl GameHeader {
    pub fn new(rules: Rules, names: Vec<String>, dealing: &Dealing, info: GameInfo) -> GameHeader {
        GameHeader {
            format: FORMAT,
            mode: rules.mode,
            names,
            rules,
            dummy: rules.mode.dummy(),
            seed: dealing.open_seed(),
            commitment: dealing.commitment(),
            info,
        }
    }
}

/// Writes one game's record. Each hand's lines are kept back until the hand
/// is over and then written whole and flushed, so no card another seat
/// holds reaches the file while it could still be played; the closing line
/// reveals the seed when it was secret.
pub struct RecordWriter<W: Write> {
    out: W,
    /// The lines of the hand in progress.
    hand: Vec<u8>,
    reveal: Option<Reveal>,
    closed: bool,
    /// Hands already in the file: their events are not written again when
    /// a game is resumed and replayed.
    written: u32,
}

impl<W: Write> RecordWriter<W> {
    /// Writes the `game` line; `reveal` goes on the closing line.
    pub fn start(
        mut out: W,
        header: &GameHeader,
        reveal: Option<Reveal>,
    ) -> io::Result<RecordWriter<W>> {
        write_line(&mut out, header)?;
        out.flush()?;
        Ok(RecordWriter::continuing(out, reveal, 0))
    }

    /// Writes on into a record that already holds its `game` line and its
    /// first `written` hands (see `open_to_continue`): the events of those
    /// hands, replayed, are not written again.
    pub fn continuing(out: W, reveal: Option<Reveal>, written: u32) -> RecordWriter<W> {
        RecordWriter {
            out,
            hand: Vec::new(),
            reveal,
            closed: false,
            written,
        }
    }

    /// Takes the next event: kept back until its hand is scored.
    pub fn event(&mut self, event: &Event) -> io::Result<()> {
        if event.hand().is_some_and(|hand| hand <= self.written) {
            return Ok(());
        }
        match event {
            Event::End { .. } => self.close(serde_json::to_value(event)?),
            Event::Score { .. } => {
                write_line(&mut self.hand, event)?;
                self.write_hand()
            }
            _ => write_line(&mut self.hand, event),
        }
    }

    /// Ends a game left before it was decided: the hand in progress, then
    /// the `abandoned` line. Does nothing once the game is closed.
    pub fn abandon(&mut self) -> io::Result<()> {
        self.close(serde_json::json!({ "event": "abandoned" }))
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    fn write_hand(&mut self) -> io::Result<()> {
        self.out.write_all(&self.hand)?;
        self.hand.clear();
        self.out.flush()
    }

    fn close(&mut self, mut line: Value) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        if let (Some(reveal), Some(fields)) = (&self.reveal, line.as_object_mut()) {
            fields.insert("seed".into(), reveal.seed.into());
            fields.insert("salt".into(), reveal.salt.clone().into());
        }
        write_line(&mut self.hand, &line)?;
        self.write_hand()
    }
}

/// Opens a game's record file to write on into after the game is resumed:
/// the file is cut just after its last whole hand (a crash may have left
/// part of one), and never after hand `keep` (a move taken back may undo a
/// hand). Returns the file, positioned at its end, and how many hands it
/// keeps; `None` when not even its `game` line is whole, so it must be
/// written anew.
pub fn open_to_continue(path: &Path, keep: u32) -> io::Result<Option<(File, u32)>> {
    let text = std::fs::read_to_string(path)?;
    let mut end = None;
    let mut hands = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        at += line.len();
        if !line.ends_with('\n') {
            break;
        }
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            break;
        };
        match value.get("event").and_then(Value::as_str) {
            Some("game") if end.is_none() => end = Some(at),
            Some("score") if hands < keep => {
                hands += 1;
                end = Some(at);
            }
            Some("score") => break,
            _ => {}
        }
    }
    let Some(end) = end else {
        return Ok(None);
    };
    let file = OpenOptions::new().read(true).write(true).open(path)?;
    file.set_len(end as u64)?;
    file.sync_data()?;
    let mut file = file;
    std::io::Seek::seek(&mut file, io::SeekFrom::End(0))?;
    Ok(Some((file, hands)))
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

fn write_line<W: Write, T: Serialize>(out: &mut W, value: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// A record line that cannot be read, or a game that does not check, with
/// its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RecordError {
    pub line: usize,
    pub message: String,
}

/// One game as read from a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedGame {
    pub header: GameHeader,
    /// The line of the `game` line.
    pub line: usize,
    /// The events with the line each came from.
    pub events: Vec<(usize, Event)>,
    pub abandoned: bool,
    /// The seed and salt the closing line revealed, with that line.
    pub reveal: Option<(usize, Reveal)>,
}

impl RecordedGame {
    /// Did the game reach its `end` or `abandoned` line?
    pub fn is_closed(&self) -> bool {
        self.abandoned || matches!(self.events.last(), Some((_, Event::End { .. })))
    }
}

/// Reads every game of a record. Unknown keys are ignored, as the format
/// allows; a last line cut off by a crash (no newline, not JSON) is left
/// out; anything else malformed is an error naming its line.
pub fn read_games(text: &str) -> Result<Vec<RecordedGame>, RecordError> {
    let mut games: Vec<RecordedGame> = Vec::new();
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    for (i, raw) in lines.iter().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let err = |message: String| RecordError { line, message };
        let value: Value = match serde_json::from_str(raw) {
            Ok(value) => value,
            Err(_) if line == lines.len() && !text.ends_with('\n') => break,
            Err(e) => return Err(err(format!("not JSON: {e}"))),
        };
        let kind = value
            .get("event")
            .and_then(|k| k.as_str())
            .ok_or_else(|| err("the object has no \"event\" key".into()))?
            .to_string();
        if kind == "game" {
            let header: GameHeader =
                serde_json::from_value(value).map_err(|e| err(format!("bad game line: {e}")))?;
            if !READS.contains(&header.format) {
                return Err(err(format!(
                    "record format {} is not supported (this version reads formats 1 and 2)",
                    header.format
                )));
            }
            games.push(RecordedGame {
                header,
                line,
                events: Vec::new(),
                abandoned: false,
                reveal: None,
            });
            continue;
        }
        let game = games
            .last_mut()
            .ok_or_else(|| err("an event comes before any \"game\" line".into()))?;
        if game.is_closed() {
            return Err(err(format!(
                "a \"{kind}\" line after the game's closing line (a new game starts with a \"game\" line)"
            )));
        }
        if kind == "abandoned" || kind == "end" {
            game.reveal = read_reveal(&value).map_err(err)?.map(|r| (line, r));
        }
        if kind == "abandoned" {
            game.abandoned = true;
            continue;
        }
        let event: Event =
            serde_json::from_value(value).map_err(|e| err(format!("bad \"{kind}\" line: {e}")))?;
        game.events.push((line, event));
    }
    Ok(games)
}

/// The `seed` and `salt` of a closing line, when it has them.
fn read_reveal(value: &Value) -> Result<Option<Reveal>, String> {
    let (Some(seed), Some(salt)) = (value.get("seed"), value.get("salt")) else {
        return Ok(None);
    };
    let seed = seed
        .as_u64()
        .ok_or_else(|| format!("the revealed seed {seed} is not a whole number"))?;
    let salt = salt
        .as_str()
        .ok_or_else(|| format!("the revealed salt {salt} is not text"))?;
    Ok(Some(Reveal {
        seed,
        salt: salt.to_string(),
    }))
}

/// What a replay proved about where the deals came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DealProof {
    /// The revealed seed and salt hash to the commitment made at the start,
    /// and every hand is the deal that seed gives.
    Committed { seed: u64, commitment: Commitment },
    /// Every hand is the deal of a seed given openly at the start.
    OpenSeed(u64),
    /// No seed was revealed (a game cut short before its end): each deal is
    /// a whole deck split as the mode says, but where it came from is unknown.
    Unproven,
}

/// A recorded game replayed through the engine.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The game as it stands after the record's last line.
    pub game: Game,
    pub deals: DealProof,
}

/// Replays a recorded game through the engine. Every deal must be a whole
/// deck split as the mode says; when a seed is known (open, or revealed and
/// matching the commitment) every deal must be the one it gives; and every
/// event must be exactly what the engine produces from the recorded bids,
/// exchanges and plays.
pub fn replay(recorded: &RecordedGame) -> Result<Replayed, RecordError> {
    let header = &recorded.header;
    let rules = header.rules;
    let at_header = |message: String| RecordError {
        line: recorded.line,
        message,
    };
    if header.mode != rules.mode {
        return Err(at_header(
            "the game's mode and its rules' mode differ".into(),
        ));
    }
    let n = rules.mode.seats();
    if header.names.len() != n {
        return Err(at_header(format!(
            "a {} game names {n} seats, not {}",
            rules.mode,
            header.names.len()
        )));
    }
    let proof = deal_proof(recorded)?;
    let seed = match proof {
        DealProof::Committed { seed, .. } | DealProof::OpenSeed(seed) => Some(seed),
        DealProof::Unproven => None,
    };
    let mut deals = Vec::new();
    let mut first_dealer = None;
    for (line, event) in &recorded.events {
        let Event::Deal {
            hand,
            dealer,
            hands,
            out,
        } = event
        else {
            continue;
        };
        let err = |message: String| RecordError {
            line: *line,
            message,
        };
        if hands.len() != n || !rules.mode.has_seat(*dealer) {
            return Err(err(format!(
                "a {} deal has {n} hands and a dealer below {n}",
                rules.mode
            )));
        }
        let deal = Deal {
            hands: PerSeat::from_fn(rules.mode, |s| hands[s.index()]),
            out: *out,
        };
        let jokers = rules.deck.jokers;
        if !deal.is_valid_in(jokers, rules.mode) {
            let which = match jokers {
                Jokers::None => String::new(),
                _ => format!(" (`deck.jokers = \"{jokers}\"`)"),
            };
            return Err(err(format!(
                "hand {hand} is not a deal: the hands and the cards out must be the whole deck{which}, {} cards to each seat, each card once",
                rules.mode.hand_size()
            )));
        }
        if let Some(seed) = seed
            && deal != Deal::from_seed_in(jokers, seed, *hand, rules.mode, *dealer)
        {
            return Err(err(format!(
                "hand {hand} is not the deal seed {seed} gives"
            )));
        }
        first_dealer.get_or_insert(*dealer);
        deals.push(deal);
    }
    let mut game = Game::with_deals(rules, first_dealer.unwrap_or(Seat::new(0)), deals);
    let events = &recorded.events;
    if events.is_empty() {
        return Ok(Replayed { game, deals: proof });
    }
    // The engine's own events, produced from the recorded actions, must be
    // the record line for line.
    let mut next = 0;
    // A record cut short (no closing line) stops where it stops: what the
    // engine produces past its last line is simply not known.
    let cut_short = !recorded.is_closed();
    let mut check = |produced: &Event| -> Result<(), RecordError> {
        let Some((line, recorded)) = events.get(next) else {
            if cut_short {
                return Ok(());
            }
            return Err(RecordError {
                line: events.last().map_or(0, |(l, _)| *l),
                message: format!(
                    "the record ends before the game does: next comes {}",
                    serde_json::to_string(produced).unwrap_or_default()
                ),
            });
        };
        next += 1;
        if recorded == produced {
            return Ok(());
        }
        Err(RecordError {
            line: *line,
            message: format!(
                "the record says {} but the rules give {}",
                serde_json::to_string(recorded).unwrap_or_default(),
                serde_json::to_string(produced).unwrap_or_default()
            ),
        })
    };
    check(&game.deal_event())?;
    for (line, event) in &events[1..] {
        let (seat, action): (Seat, Action) = match *event {
            Event::Bid { seat, bid, .. } => (seat, Action::Bid(bid)),
            Event::Play { seat, card, .. } => (seat, Action::Play(card)),
            Event::Exchange { from, cards, .. } => (from, Action::Exchange(cards)),
            // The next hand is dealt once the last is over.
            Event::Deal { .. } => {
                if let Some(deal) = game.deal_next_hand() {
                    check(&deal)?;
                }
                continue;
            }
            _ => continue,
        };
        let produced = game.apply(seat, action).map_err(|e| RecordError {
            line: *line,
            message: format!("seat {seat}: {e}"),
        })?;
        // Both exchange lines come out together once both seats have passed.
        for p in &produced {
            check(p)?;
        }
    }
    if let Some((line, extra)) = events.get(next) {
        return Err(RecordError {
            line: *line,
            message: format!(
                "the rules give no {} here",
                serde_json::to_string(extra).unwrap_or_default()
            ),
        });
    }
    Ok(Replayed { game, deals: proof })
}

/// Where the deals must come from: an open seed, or a revealed one that
/// matches the commitment.
fn deal_proof(recorded: &RecordedGame) -> Result<DealProof, RecordError> {
    let header = &recorded.header;
    match (&header.commitment, header.seed, &recorded.reveal) {
        (Some(_), Some(_), _) => Err(RecordError {
            line: recorded.line,
            message: "the game line has both a seed and a commitment: a secret seed is revealed only at the end".into(),
        }),
        (Some(commitment), None, Some((line, reveal))) => {
            if reveal.matches(commitment) {
                Ok(DealProof::Committed {
                    seed: reveal.seed,
                    commitment: commitment.clone(),
                })
            } else {
                Err(RecordError {
                    line: *line,
                    message: format!(
                        "the revealed seed {} and salt {} do not hash to the commitment {commitment} made at the start",
                        reveal.seed, reveal.salt
                    ),
                })
            }
        }
        (Some(_), None, None) => Ok(DealProof::Unproven),
        (None, Some(seed), _) => Ok(DealProof::OpenSeed(seed)),
        (None, None, _) => Ok(DealProof::Unproven),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::random::RandomBot;
    use crate::engine::RuleSettings;
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
