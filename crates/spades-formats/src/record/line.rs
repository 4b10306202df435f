//! A record's lines as types of the format's own (docs/game-record.md):
//! one `RecordLine` a line, tagged by its `event` key, written by the table
//! and the server and read back by every reader. The engine's events are
//! turned into lines here and back, so a change inside the engine cannot
//! change the format unnoticed (the snapshot tests hold every line).

use serde::{Deserialize, Serialize};

use crate::bots::BotSpec;
use crate::engine::{Bid, Card, CardSet, Event, Mode, Rules, Seat, Side, SideRecord};
use crate::fairness::{Commitment, Dealing, Reveal};

use super::FORMAT;

/// One line of a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RecordLine {
    Game(GameHeader),
    Deal {
        hand: u32,
        dealer: Seat,
        hands: Vec<CardSet>,
        out: CardSet,
    },
    Bid {
        hand: u32,
        seat: Seat,
        bid: Bid,
    },
    Exchange {
        hand: u32,
        from: Seat,
        to: Seat,
        cards: CardSet,
    },
    Play {
        hand: u32,
        seat: Seat,
        card: Card,
    },
    Trick {
        hand: u32,
        trick: u32,
        winner: Seat,
    },
    Score {
        hand: u32,
        tricks: Vec<u8>,
        sides: Vec<SideLine>,
        /// Quick Play: the player's side's lives left after the hand.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lives: Option<u8>,
        /// With a dummy: the player who played with it this hand.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        declarer: Option<Seat>,
    },
    /// The game is decided; a secret seed is revealed. (The closing lines'
    /// keys are in alphabetical order, as format 2 has always written them.)
    End {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt: Option<String>,
        scores: Vec<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
        winner: Side,
    },
    /// The game was left undecided; a secret seed is revealed.
    Abandoned {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
    },
}

/// One side's line in a `score` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideLine {
    pub points: i32,
    pub bags_added: i32,
    pub penalty: i32,
    pub score: i32,
    pub bags: i32,
}

impl From<&SideRecord> for SideLine {
    fn from(s: &SideRecord) -> SideLine {
        SideLine {
            points: s.points,
            bags_added: s.bags_added,
            penalty: s.penalty,
            score: s.score,
            bags: s.bags,
        }
    }
}

impl From<&SideLine> for SideRecord {
    fn from(s: &SideLine) -> SideRecord {
        SideRecord {
            points: s.points,
            bags_added: s.bags_added,
            penalty: s.penalty,
            score: s.score,
            bags: s.bags,
        }
    }
}

impl RecordLine {
    /// The line the engine's `event` is written as (a closing `end` line
    /// reveals nothing until the writer adds it).
    pub fn of(event: &Event) -> RecordLine {
        match event {
            Event::Deal {
                hand,
                dealer,
                hands,
                out,
            } => RecordLine::Deal {
                hand: *hand,
                dealer: *dealer,
                hands: hands.clone(),
                out: *out,
            },
            &Event::Bid { hand, seat, bid } => RecordLine::Bid { hand, seat, bid },
            &Event::Exchange {
                hand,
                from,
                to,
                cards,
            } => RecordLine::Exchange {
                hand,
                from,
                to,
                cards,
            },
            &Event::Play { hand, seat, card } => RecordLine::Play { hand, seat, card },
            &Event::Trick {
                hand,
                trick,
                winner,
            } => RecordLine::Trick {
                hand,
                trick,
                winner,
            },
            Event::Score {
                hand,
                tricks,
                sides,
                lives,
                declarer,
            } => RecordLine::Score {
                hand: *hand,
                tricks: tricks.clone(),
                sides: sides.iter().map(SideLine::from).collect(),
                lives: *lives,
                declarer: *declarer,
            },
            Event::End { winner, scores } => RecordLine::End {
                salt: None,
                scores: scores.clone(),
                seed: None,
                winner: *winner,
            },
        }
    }

    /// The engine's event this line tells of; `None` for the lines that
    /// are the record's own (`game`, `abandoned`).
    pub fn event(&self) -> Option<Event> {
        Some(match self {
            RecordLine::Game(_) | RecordLine::Abandoned { .. } => return None,
            RecordLine::Deal {
                hand,
                dealer,
                hands,
                out,
            } => Event::Deal {
                hand: *hand,
                dealer: *dealer,
                hands: hands.clone(),
                out: *out,
            },
            &RecordLine::Bid { hand, seat, bid } => Event::Bid { hand, seat, bid },
            &RecordLine::Exchange {
                hand,
                from,
                to,
                cards,
            } => Event::Exchange {
                hand,
                from,
                to,
                cards,
            },
            &RecordLine::Play { hand, seat, card } => Event::Play { hand, seat, card },
            &RecordLine::Trick {
                hand,
                trick,
                winner,
            } => Event::Trick {
                hand,
                trick,
                winner,
            },
            RecordLine::Score {
                hand,
                tricks,
                sides,
                lives,
                declarer,
            } => Event::Score {
                hand: *hand,
                tricks: tricks.clone(),
                sides: sides.iter().map(SideRecord::from).collect(),
                lives: *lives,
                declarer: *declarer,
            },
            RecordLine::End { winner, scores, .. } => Event::End {
                winner: *winner,
                scores: scores.clone(),
            },
        })
    }

    /// The seed and salt a closing line reveals, when it has both (a seed
    /// without its salt proves nothing).
    pub fn revealed(&self) -> Option<Reveal> {
        match self {
            RecordLine::End {
                salt: Some(salt),
                seed: Some(seed),
                ..
            }
            | RecordLine::Abandoned {
                salt: Some(salt),
                seed: Some(seed),
            } => Some(Reveal {
                seed: *seed,
                salt: salt.clone(),
            }),
            _ => None,
        }
    }

    /// This closing line, revealing `reveal` (nothing for an open seed).
    pub fn revealing(mut self, reveal: Option<&Reveal>) -> RecordLine {
        if let RecordLine::End { salt, seed, .. } | RecordLine::Abandoned { salt, seed } = &mut self
        {
            *salt = reveal.map(|r| r.salt.clone());
            *seed = reveal.map(|r| r.seed);
        }
        self
    }

    /// The line as JSON, without its newline: for messages that quote it.
    pub fn json(&self) -> String {
        // A line is plain data with string keys: it always writes.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The first line of every game (`"event": "game"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Boxed: every record line is as large as the largest kind.
    #[serde(flatten)]
    pub info: Box<GameInfo>,
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
    /// A shared table's game that its server's ladder rates.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// A shared table's game on a server with a ladder that does not rate
    /// it, and why (`target_score 10, ranked 500`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<String>,
}

/// A shared table's `rules_source`: its host chose the rules.
pub const RULES_OF_THE_HOST: &str = "the table's host";

/// A quick match's `rules_source`: the table has no host; the server
/// deals its ranked rules for the mode.
pub const RULES_OF_QUICK_MATCH: &str = "the server's quick match";

impl GameInfo {
    /// A game between bots alone (`spades sim`): no person, no level named
    /// (each seat's name says its bot), the rules as the header gives them.
    pub fn arena() -> GameInfo {
        GameInfo::default()
    }

    /// A shared table's game, as its server records it: when it began, the
    /// level of its bots when any sat, and whose rules (the host's). A
    /// player's own copy names their seat and id on top (`net::seat`).
    /// A local game's is made by `save::SaveAbout::info`.
    pub fn shared_table(started: u64, bots: Option<BotSpec>) -> GameInfo {
        GameInfo {
            started: Some(started),
            difficulty: bots,
            rules_source: Some(RULES_OF_THE_HOST.into()),
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
            info: Box::new(info),
        }
    }
}
