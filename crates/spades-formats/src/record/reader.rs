//! Reading records back: every game of a file, each line checked, and
//! what a game's deals must be before it is walked through the engine
//! (`walk`) to prove its deals and scores.

use serde::Deserialize;
use serde_json::Value;

use crate::engine::{Action, Deal, Event, Jokers, PerSeat, Seat};
use crate::fairness::{Commitment, Reveal};

use super::READS;
use super::line::{GameHeader, RecordLine};

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
        let read = RecordLine::deserialize(value).map_err(|e| match kind.as_str() {
            "game" => err(format!("bad game line: {e}")),
            _ => err(format!("bad \"{kind}\" line: {e}")),
        })?;
        if let RecordLine::Game(header) = read {
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
        if matches!(read, RecordLine::End { .. } | RecordLine::Abandoned { .. }) {
            game.reveal = read.revealed().map(|r| (line, r));
        }
        match read.event() {
            Some(event) => game.events.push((line, event)),
            None => game.abandoned = true,
        }
    }
    Ok(games)
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

/// Every deal of the record, each checked to be a whole deck split as the
/// mode says and, when `seed` is known, the deal it gives; with the first
/// hand's dealer: with them `Game::with_deals` plays the game over.
pub(super) fn recorded_deals(
    recorded: &RecordedGame,
    seed: Option<u64>,
) -> Result<(Option<Seat>, Vec<Deal>), RecordError> {
    let rules = recorded.header.rules;
    let n = rules.mode.seats();
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
    Ok((first_dealer, deals))
}

/// The seat's action a recorded event stands for: a bid, a pass or a card
/// (the other events are the engine's own doing).
pub fn action_of(event: &Event) -> Option<(Seat, Action)> {
    match *event {
        Event::Bid { seat, bid, .. } => Some((seat, Action::Bid(bid))),
        Event::Play { seat, card, .. } => Some((seat, Action::Play(card))),
        Event::Exchange { from, cards, .. } => Some((from, Action::Exchange(cards))),
        _ => None,
    }
}

/// Where the deals must come from: an open seed, or a revealed one that
/// matches the commitment.
pub(super) fn deal_proof(recorded: &RecordedGame) -> Result<DealProof, RecordError> {
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
