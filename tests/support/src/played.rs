//! A records folder filled as the table fills it: whole games played by
//! bots on the real table, each recorded by the table's own writer into a
//! file of its own, with the `game` line saying what a game at the table
//! says (id, start, the player's seat 0, the level, practice).

use std::io::BufWriter;
use std::path::{Path, PathBuf};

use spades::bots::{Effort, Level};
use spades::engine::{Mode, Phase, Seat};
use spades::fairness::{Dealing, SecretSeed};
use spades::record::GameInfo;
use spades::table::{Player, Table};

use crate::game::short;

/// How a game in the folder goes.
#[derive(Debug, Clone, Copy)]
pub enum End {
    /// Played to its end.
    Finished,
    /// Left after this many hands: the record closes with `abandoned`.
    LeftAfter(u32),
    /// Stopped after this many hands with no closing line, as a killed
    /// program leaves it.
    CutAfter(u32),
}

/// One game to play into the folder.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub mode: Mode,
    pub seed: u64,
    /// When it began, seconds since 1970: the history's order.
    pub started: u64,
    /// The bots' level, in every seat (seat 0 stands in for the player).
    pub level: &'static str,
    pub practice: bool,
    /// Deals from `seed` given openly (`--seed`) rather than kept secret.
    pub open: bool,
    pub end: End,
}

impl Spec {
    /// The computer players' level, by its name.
    pub fn level(&self) -> Level {
        self.level.parse().expect("a bot level")
    }

    pub fn new(mode: Mode, seed: u64, started: u64, level: &'static str) -> Spec {
        Spec {
            mode,
            seed,
            started,
            level,
            practice: false,
            open: false,
            end: End::Finished,
        }
    }

    /// The game's id and its record file's stem.
    pub fn id(&self) -> String {
        format!("game-{}-{:08x}", self.started, self.seed)
    }
}

/// Where `spades` keeps the records of a player whose data directory is
/// `data` (`XDG_DATA_HOME`).
pub fn records_dir(data: &Path) -> PathBuf {
    data.join("spades").join("records")
}

/// Plays `spec`'s game into `dir` (made if need be) and returns its file.
/// The rules are the classic ones cut short at 200 points either way.
pub fn play_into(dir: &Path, spec: &Spec) -> PathBuf {
    std::fs::create_dir_all(dir).expect("a records folder");
    let mode = spec.mode;
    let players = (0..mode.seats())
        .map(|_| Player::Bot(spec.level().bot(Effort::Usual)))
        .collect();
    let salt = spec.seed.to_le_bytes().repeat(2);
    let secret = SecretSeed::from_parts(spec.seed, salt.try_into().expect("16 bytes"));
    let dealing = if spec.open {
        Dealing::Open(spec.seed)
    } else {
        Dealing::Secret(secret)
    };
    let mut table = Table::new(short(mode, 200), dealing, players);
    let id = spec.id();
    let path = dir.join(format!("{id}.jsonl"));
    let file = std::fs::File::create(&path).expect("a record file");
    let names = (0..mode.seats()).map(|s| format!("Seat {s}")).collect();
    let info = GameInfo {
        id: Some(id),
        started: Some(spec.started),
        player_seat: Some(Seat::new(0)),
        difficulty: Some(spec.level().into()),
        rules_source: Some("built-in rules, to 200".to_string()),
        practice: spec.practice,
        ..GameInfo::default()
    };
    table
        .record_to(Box::new(BufWriter::new(file)), names, info)
        .expect("the record starts");
    let stop = match spec.end {
        End::Finished => u32::MAX,
        End::LeftAfter(n) | End::CutAfter(n) => n,
    };
    // A hand is written once it is scored: stop when the next is to be
    // dealt (or at once, to leave before a hand is over).
    while stop > 0
        && !(table.phase() == Phase::AwaitingDeal && table.results().len() as u32 >= stop)
    {
        let Some(step) = table.step_bot() else { break };
        step.expect("bots keep the rules");
    }
    match spec.end {
        // Dropping the table closes its record: `abandoned` when undecided.
        End::Finished | End::LeftAfter(_) => drop(table),
        // Never closed, as when the program is killed: every hand scored
        // is on disk already.
        End::CutAfter(_) => std::mem::forget(table),
    }
    path
}
