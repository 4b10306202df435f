//! Which computer player sits in a seat, as a type: a level (`Level`),
//! perhaps with its own budget, or a program of one's own (`BotSpec`). The
//! command line, saves, records and the table protocol all read and write
//! these by the same names.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{Bot, easy, hard, normal, random};

/// The built-in levels, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Any legal move: a baseline, not an opponent.
    Random,
    /// Plain rules of thumb: a gentle opponent.
    Easy,
    /// Counts its tricks and plays to its contract and its partner's nil.
    Normal,
    /// Searches guessed deals: the strongest there is.
    Hard,
}

impl Level {
    /// Every level, weakest first: the one list of them.
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Normal, Level::Hard];

    /// The level a table seats unless told otherwise: the strongest there is.
    pub const DEFAULT: Level = Level::Hard;

    /// The level's name, as given to `--seats` and `--difficulty`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// The levels that play to win: those a host may seat at a shared
    /// table (random only makes up the numbers in tests and the arena).
    pub fn playing() -> impl Iterator<Item = Level> {
        Level::ALL.into_iter().filter(|&l| l != Level::Random)
    }

    /// A bot of this level, thinking as `effort` says (only `hard` thinks).
    pub fn bot(self, effort: Effort) -> Box<dyn Bot> {
        match self {
            Level::Random => Box::new(random::RandomBot),
            Level::Easy => Box::new(easy::EasyBot),
            Level::Normal => Box::new(normal::NormalBot::default()),
            Level::Hard => Box::new(hard::HardBot::with_effort(effort)),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = UnknownBot;
    fn from_str(s: &str) -> Result<Level, UnknownBot> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownBot(s.to_string()))
    }
}

/// How long a searching bot may think per decision: a number of guessed
/// deals (reproducible from a seed) or a time (as strong as the machine
/// allows). Bots that do not search ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Effort {
    /// The level's own default.
    #[default]
    Usual,
    /// This many guessed deals per decision.
    Deals(u32),
    /// As many guessed deals as fit in this time per decision.
    Time(Duration),
}

impl Effort {
    /// This budget, or `otherwise` when none was given.
    pub fn or(self, otherwise: Effort) -> Effort {
        match self {
            Effort::Usual => otherwise,
            given => given,
        }
    }
}

/// A seat's computer player as `--difficulty`, `--seats` and the records
/// name it: a level, where `hard` may carry its own budget after `@`
/// (`hard@1200`: guessed deals a decision; `hard@150ms`: a time), or
/// `exec:COMMAND`, a program speaking the table protocol on its standard
/// input and output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotSpec {
    /// A level, with its own budget or `Effort::Usual` (the table's).
    Level(Level, Effort),
    /// A program's command line, never empty.
    Exec(String),
}

/// What an `exec:` seat is written with.
pub const EXEC_PREFIX: &str = "exec:";

impl BotSpec {
    /// The level the table seats unless told otherwise.
    pub const DEFAULT: BotSpec = BotSpec::Level(Level::DEFAULT, Effort::Usual);

    /// A level at the table's budget.
    pub const fn level(level: Level) -> BotSpec {
        BotSpec::Level(level, Effort::Usual)
    }

    /// Is this a program of one's own?
    pub fn is_exec(&self) -> bool {
        matches!(self, BotSpec::Exec(_))
    }
}

impl From<Level> for BotSpec {
    fn from(level: Level) -> BotSpec {
        BotSpec::level(level)
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Level(level, Effort::Usual) => write!(f, "{level}"),
            BotSpec::Level(level, Effort::Deals(n)) => write!(f, "{level}@{n}"),
            BotSpec::Level(level, Effort::Time(t)) => write!(f, "{level}@{}ms", t.as_millis()),
            BotSpec::Exec(command) => write!(f, "{EXEC_PREFIX}{command}"),
        }
    }
}

impl FromStr for BotSpec {
    type Err = UnknownBot;
    fn from_str(given: &str) -> Result<BotSpec, UnknownBot> {
        let spec = given.trim();
        let unknown = || UnknownBot(given.to_string());
        if let Some(command) = spec.strip_prefix(EXEC_PREFIX) {
            let command = command.trim();
            if command.is_empty() {
                return Err(unknown());
            }
            return Ok(BotSpec::Exec(command.to_string()));
        }
        let Some((name, budget)) = spec.split_once('@') else {
            return spec.parse().map(BotSpec::level).map_err(|_| unknown());
        };
        let effort = match budget.strip_suffix("ms") {
            Some(ms) => Effort::Time(Duration::from_millis(ms.parse().map_err(|_| unknown())?)),
            None => Effort::Deals(budget.parse().map_err(|_| unknown())?),
        };
        // Only `hard` thinks, so only it takes a budget, and never none.
        if name != Level::Hard.name()
            || effort == Effort::Deals(0)
            || effort == Effort::Time(Duration::ZERO)
        {
            return Err(unknown());
        }
        Ok(BotSpec::Level(Level::Hard, effort))
    }
}

impl Serialize for BotSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for BotSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BotSpec, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A bot asked for by a name that does not exist (or `exec:` with no
/// command after it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", describe_unknown(.0))]
pub struct UnknownBot(pub String);

fn describe_unknown(spec: &str) -> String {
    if spec.starts_with(EXEC_PREFIX) {
        return format!(
            "`{spec}` names no program: give the command after `exec:`, e.g. exec:python3 examples/bot.py"
        );
    }
    let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    format!(
        "unknown bot `{spec}`: choose one of {levels} (hard may be given a budget: hard@1200 guessed deals a decision, or hard@150ms), or exec:COMMAND for a program speaking the table protocol",
        levels = levels.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_names_a_level_and_maybe_a_budget() {
        let parse = |s: &str| s.parse::<BotSpec>();
        assert_eq!(parse("normal"), Ok(BotSpec::level(Level::Normal)));
        assert_eq!(
            parse("hard@1200"),
            Ok(BotSpec::Level(Level::Hard, Effort::Deals(1200)))
        );
        assert_eq!(
            parse("hard@150ms"),
            Ok(BotSpec::Level(
                Level::Hard,
                Effort::Time(Duration::from_millis(150))
            ))
        );
        // Named, not started: a program runs only once a game asks it.
        assert_eq!(parse("exec: ./bot "), Ok(BotSpec::Exec("./bot".into())));
        assert_eq!(parse("exec:a@b"), Ok(BotSpec::Exec("a@b".into())));
        for bad in [
            "hard@",
            "hard@0",
            "hard@0ms",
            "hard@fast",
            "normal@300",
            "@300",
            "hard@-1",
            "exec:",
            "exec:   ",
            "Hard",
            "",
        ] {
            assert_eq!(parse(bad), Err(UnknownBot(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn a_spec_reads_back_as_it_is_written() {
        for text in [
            "random",
            "easy",
            "normal",
            "hard",
            "hard@1200",
            "hard@150ms",
        ] {
            let spec: BotSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            let json = serde_json::to_string(&spec).unwrap();
            assert_eq!(json, format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<BotSpec>(&json).unwrap(), spec);
        }
        assert_eq!(BotSpec::Exec("./b x".into()).to_string(), "exec:./b x");
        assert!(serde_json::from_str::<BotSpec>("\"grandmaster\"").is_err());
    }

    #[test]
    fn every_level_is_a_bot_by_its_own_name() {
        for level in Level::ALL {
            assert_eq!(level.bot(Effort::Usual).name(), level.name());
            assert_eq!(level.name().parse(), Ok(level));
        }
        assert_eq!(Level::playing().count(), 3);
    }
}
