//! Game records (format 1, docs/game-record.md): the engine's events written
//! one JSON object per line, read back, and replayed through the engine to
//! prove every deal came from the seed and every score is right.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::engine::{Action, Deal, Event, Game, Mode, PerSeat, Rules, Seat};

pub const FORMAT: u32 = 1;

/// Where interactive games' records go: `<data dir>/spades/records/`.
pub fn records_dir() -> Option<std::path::PathBuf> {
    directories::ProjectDirs::from("", "", "spades").map(|d| d.data_dir().join("records"))
}

/// A fresh record file name for a game starting now with `seed`.
pub fn record_file_name(seed: u64) -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("game-{secs}-{seed}.jsonl")
}

/// The first line of every game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename = "game")]
pub struct GameHeader {
    pub format: u32,
    pub mode: Mode,
    pub names: Vec<String>,
    pub rules: Rules,
    pub seed: Option<u64>,
}

impl GameHeader {
    pub fn new(rules: Rules, names: Vec<String>, seed: Option<u64>) -> GameHeader {
        GameHeader {
            format: FORMAT,
            mode: rules.mode,
            names,
            rules,
            seed,
        }
    }
}

/// Writes records, flushing after each hand so a record cut short by a crash
/// is readable up to its last whole line.
pub struct RecordWriter<W: Write> {
    out: W,
}

impl<W: Write> RecordWriter<W> {
    pub fn new(out: W) -> RecordWriter<W> {
        RecordWriter { out }
    }

    fn line<T: Serialize>(&mut self, value: &T) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, value)?;
        self.out.write_all(b"\n")
    }

    pub fn header(&mut self, header: &GameHeader) -> io::Result<()> {
        self.line(header)?;
        self.out.flush()
    }

    pub fn event(&mut self, event: &Event) -> io::Result<()> {
        self.line(event)?;
        if matches!(event, Event::Score { .. } | Event::End { .. }) {
            self.out.flush()?;
        }
        Ok(())
    }

    /// Marks the current game as left before it was decided.
    pub fn abandoned(&mut self) -> io::Result<()> {
        self.out.write_all(b"{\"event\":\"abandoned\"}\n")?;
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// A record line that cannot be read, with its 1-based line number.
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
    /// The events with the line each came from.
    pub events: Vec<(usize, Event)>,
    pub abandoned: bool,
}

/// Reads every game of a record. Unknown keys are ignored, as the format
/// allows; anything else malformed is an error naming its line.
pub fn read_games(text: &str) -> Result<Vec<RecordedGame>, RecordError> {
    let mut games: Vec<RecordedGame> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let err = |message: String| RecordError { line, message };
        let value: serde_json::Value =
            serde_json::from_str(raw).map_err(|e| err(format!("not JSON: {e}")))?;
        let kind = value
            .get("event")
            .and_then(|k| k.as_str())
            .ok_or_else(|| err("the object has no \"event\" key".into()))?
            .to_string();
        match kind.as_str() {
            "game" => {
                let header: GameHeader = serde_json::from_value(value)
                    .map_err(|e| err(format!("bad game line: {e}")))?;
                if header.format != FORMAT {
                    return Err(err(format!(
                        "record format {} is not supported (this version reads format {FORMAT})",
                        header.format
                    )));
                }
                games.push(RecordedGame {
                    header,
                    events: Vec::new(),
                    abandoned: false,
                });
            }
            _ => {
                let game = games
                    .last_mut()
                    .ok_or_else(|| err("an event comes before any \"game\" line".into()))?;
                if kind == "abandoned" {
                    game.abandoned = true;
                    continue;
                }
                let event: Event = serde_json::from_value(value)
                    .map_err(|e| err(format!("bad \"{kind}\" line: {e}")))?;
                game.events.push((line, event));
            }
        }
    }
    Ok(games)
}

/// Replays a recorded game through the engine. Every deal must be the one
/// the seed gives (when there is a seed) and every event must be exactly
/// what the engine produces from the recorded bids, exchanges and plays.
pub fn replay(recorded: &RecordedGame) -> Result<Game, RecordError> {
    let header = &recorded.header;
    let rules = header.rules;
    if header.mode != rules.mode {
        return Err(RecordError {
            line: 1,
            message: "the game's mode and its rules' mode differ".into(),
        });
    }
    let n = rules.mode.seats();
    let mut deals = Vec::new();
    let mut first_dealer = Seat::new(0);
    for (line, event) in &recorded.events {
        if let Event::Deal {
            hand,
            dealer,
            hands,
            out,
        } = event
        {
            if hands.len() != n || !rules.mode.has_seat(*dealer) {
                return Err(RecordError {
                    line: *line,
                    message: format!("a {} deal has {n} hands and a dealer below {n}", rules.mode),
                });
            }
            let deal = Deal {
                hands: PerSeat::from_fn(rules.mode, |s| hands[s.index()]),
                out: *out,
            };
            if let Some(seed) = header.seed
                && deal != Deal::from_seed(seed, *hand, rules.mode, *dealer)
            {
                return Err(RecordError {
                    line: *line,
                    message: format!("hand {hand} is not the deal seed {seed} gives"),
                });
            }
            if deals.is_empty() {
                first_dealer = *dealer;
            }
            deals.push(deal);
        }
    }
    let mut game = Game::with_deals(rules, first_dealer, deals);
    let events = &recorded.events;
    if events.is_empty() {
        return Ok(game);
    }
    // The engine's own events, produced from the recorded actions, must be
    // the record line for line.
    let mut next = 0;
    let mut check = |produced: &Event| -> Result<(), RecordError> {
        let Some((line, recorded)) = events.get(next) else {
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
    for (line, event) in events {
        let (seat, action): (Seat, Action) = match *event {
            Event::Bid { seat, bid, .. } => (seat, Action::Bid(bid)),
            Event::Play { seat, card, .. } => (seat, Action::Play(card)),
            Event::Exchange { from, cards, .. } => (from, Action::Exchange(cards)),
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
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::random::RandomBot;
    use crate::engine::RuleSettings;
    use crate::table::{Player, Table};

    fn recorded_game(mode: Mode, seed: u64) -> String {
        let rules = Rules::new(RuleSettings {
            target_score: 150,
            losing_score: Some(-150),
            ..RuleSettings::classic(mode)
        })
        .expect("valid rules");
        let game = Game::new(rules, seed);
        let mut writer = RecordWriter::new(Vec::new());
        let names = (0..mode.seats()).map(|s| format!("Bot {s}")).collect();
        writer
            .header(&GameHeader::new(rules, names, Some(seed)))
            .unwrap();
        writer.event(&game.deal_event()).unwrap();
        let players = (0..mode.seats())
            .map(|_| Player::Bot(Box::new(RandomBot)))
            .collect();
        let mut table = Table::new(game, players, seed);
        table.run_bots(|e| writer.event(e).unwrap()).unwrap();
        String::from_utf8(writer.into_inner()).unwrap()
    }

    #[test]
    fn a_record_replays_to_the_same_scores() {
        for mode in Mode::ALL {
            let text = recorded_game(mode, 7);
            let games = read_games(&text).unwrap();
            assert_eq!(games.len(), 1);
            let game = replay(&games[0]).unwrap();
            let Some((_, Event::End { scores, .. })) = games[0].events.last() else {
                panic!("the game has no end line");
            };
            assert_eq!(&game.scores(), scores);
        }
    }

    #[test]
    fn a_tampered_record_is_caught_at_its_line() {
        let text = recorded_game(Mode::Partnership, 3);
        // Change the first score line's points.
        let lines: Vec<&str> = text.lines().collect();
        let at = lines.iter().position(|l| l.contains("\"score\"")).unwrap();
        let tampered: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i == at {
                    let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                    let points = v["sides"][0]["points"].as_i64().unwrap();
                    v["sides"][0]["points"] = (points + 1).into();
                    v.to_string()
                } else {
                    l.to_string()
                }
            })
            .collect();
        let games = read_games(&tampered.join("\n")).unwrap();
        assert_eq!(replay(&games[0]).unwrap_err().line, at + 1);
    }

    #[test]
    fn a_deal_not_from_the_seed_is_caught() {
        let text = recorded_game(Mode::Cutthroat, 5);
        let mut games = read_games(&text).unwrap();
        games[0].header.seed = Some(6);
        let err = replay(&games[0]).unwrap_err();
        assert!(err.message.contains("not the deal seed"), "{err}");
    }

    #[test]
    fn unreadable_lines_name_their_line() {
        let err = read_games("{\"event\":\"bid\",\"hand\":1,\"seat\":0,\"bid\":3}").unwrap_err();
        assert_eq!(err.line, 1);
        let text = recorded_game(Mode::Individual, 1);
        let broken = format!("{text}not json\n");
        assert_eq!(
            read_games(&broken).unwrap_err().line,
            text.lines().count() + 1
        );
    }
}
