//! Computer players. Every level implements `Bot`, which is given only the
//! seat's `PlayerView` (never the deal) and a seeded random generator.

pub mod easy;
pub mod external;
pub mod hard;
pub mod knowledge;
pub mod nil;
pub mod normal;
pub mod random;

use rand::SeedableRng;

use crate::engine::{Action, Bid, Card, CardSet, Decision, PlayerView, Seat};

/// The generator every bot draws from: seeded, portable and fast.
pub type BotRng = rand_pcg::Pcg64Mcg;

/// A bot's generator for one seat of one game, so games replay exactly.
pub fn bot_rng(seed: u64, seat: Seat) -> BotRng {
    BotRng::seed_from_u64(seed ^ (0xA076_1D64_78BD_642F_u64.wrapping_mul(seat.index() as u64 + 1)))
}

pub trait Bot: Send {
    /// The level's name, as given to `--seats` and `--difficulty`.
    fn name(&self) -> &'static str;
    /// A new bot of the same level and budget, remembering nothing.
    fn fresh(&self) -> Box<dyn Bot>;
    /// Blind nil or not, decided before the cards are seen (`view.hand` is
    /// `None`); asked only while blind nil is on offer.
    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool;
    /// A blind numeric bid (`[blind_bid]`), decided before the cards are
    /// seen when blind nil was not bid. The levels that play to win never
    /// make one: a blind 6 asks one seat for nearly twice the 3¼ tricks an
    /// unseen hand holds on average, for double the points either way.
    fn blind_number(&mut self, _view: &PlayerView, _rng: &mut BotRng) -> Option<u8> {
        None
    }
    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid;
    /// The cards to pass to the partner after a blind nil.
    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet;
    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card;
    /// The action a decision calls for. The levels answer through the
    /// methods above; a bot in another process is asked for the action
    /// whole, as the table protocol asks.
    fn act(&mut self, decision: Decision, view: &PlayerView, rng: &mut BotRng) -> Action {
        match decision {
            Decision::BlindNil => {
                if view.check_bid(Bid::BlindNil).is_ok() && self.blind_nil(view, rng) {
                    Action::Bid(Bid::BlindNil)
                } else if let Some(n) = self.blind_number(view, rng) {
                    Action::Bid(Bid::Blind(n))
                } else {
                    Action::Look
                }
            }
            Decision::Bid => Action::Bid(self.bid(view, rng)),
            Decision::Exchange => Action::Exchange(self.exchange(view, rng)),
            Decision::Play => Action::Play(self.play(view, rng)),
        }
    }
    /// Why another bot plays this seat now, if one does: a bot in another
    /// process that failed is replaced for the rest of its game.
    fn replaced(&self) -> Option<&external::Replaced> {
        None
    }
}

/// Asks `bot` for the action a decision calls for.
pub fn decide(
    bot: &mut dyn Bot,
    decision: Decision,
    view: &PlayerView,
    rng: &mut BotRng,
) -> Action {
    bot.act(decision, view, rng)
}

/// The bot levels that exist, weakest first.
pub const LEVELS: &[&str] = &["random", "easy", "normal", "hard"];

/// The level the table seats unless told otherwise: the strongest there is.
pub const DEFAULT_LEVEL: &str = "hard";

/// A bot asked for by a name that does not exist (or `exec:` with no
/// command after it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", describe_unknown(.0))]
pub struct UnknownBot(pub String);

fn describe_unknown(spec: &str) -> String {
    if spec.starts_with(external::PREFIX) {
        return format!(
            "`{spec}` names no program: give the command after `exec:`, e.g. exec:python3 examples/bot.py"
        );
    }
    format!(
        "unknown bot `{spec}`: choose one of {levels} (hard may be given a budget: hard@1200 guessed deals a decision, or hard@150ms), or exec:COMMAND for a program speaking the table protocol",
        levels = LEVELS.join(", ")
    )
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
    Time(std::time::Duration),
}

pub fn by_name(name: &str) -> Result<Box<dyn Bot>, UnknownBot> {
    by_name_with(name, Effort::Usual)
}

/// `by_name`, with the thinking a searching bot gets.
pub fn by_name_with(name: &str, effort: Effort) -> Result<Box<dyn Bot>, UnknownBot> {
    match name {
        "random" => Ok(Box::new(random::RandomBot)),
        "easy" => Ok(Box::new(easy::EasyBot)),
        "normal" => Ok(Box::new(normal::NormalBot::default())),
        "hard" => Ok(Box::new(hard::HardBot::with_effort(effort))),
        other => Err(UnknownBot(other.to_string())),
    }
}

/// A bot as `--seats` names it: a level, where `hard` may carry its own
/// budget after `@` (`hard@1200`: guessed deals a decision; `hard@150ms`: a
/// time), so one run can set a bot against itself at another budget.
/// Without one it gets `effort`. `exec:COMMAND` is a program speaking the
/// table protocol on its standard input and output (`external`), given
/// `external::DEFAULT_TIMEOUT` to answer.
pub fn by_spec(spec: &str, effort: Effort) -> Result<Box<dyn Bot>, UnknownBot> {
    by_spec_with(spec, effort, external::DEFAULT_TIMEOUT)
}

/// `by_spec`, with how long a bot in another process may take to answer.
pub fn by_spec_with(
    spec: &str,
    effort: Effort,
    bot_timeout: std::time::Duration,
) -> Result<Box<dyn Bot>, UnknownBot> {
    if let Some(command) = spec.strip_prefix(external::PREFIX) {
        return external::ExternalBot::new(command, bot_timeout)
            .map(|bot| Box::new(bot) as Box<dyn Bot>)
            .ok_or_else(|| UnknownBot(spec.to_string()));
    }
    let Some((name, budget)) = spec.split_once('@') else {
        return by_name_with(spec, effort);
    };
    let unknown = || UnknownBot(spec.to_string());
    let effort = match budget.strip_suffix("ms") {
        Some(ms) => Effort::Time(std::time::Duration::from_millis(
            ms.parse().map_err(|_| unknown())?,
        )),
        None => Effort::Deals(budget.parse().map_err(|_| unknown())?),
    };
    if name != "hard" || effort == Effort::Deals(0) || effort == Effort::Time(Default::default()) {
        return Err(unknown());
    }
    by_name_with(name, effort)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_names_a_level_and_maybe_a_budget() {
        assert_eq!(by_spec("normal", Effort::Usual).unwrap().name(), "normal");
        assert_eq!(by_spec("hard@1200", Effort::Usual).unwrap().name(), "hard");
        assert_eq!(by_spec("hard@150ms", Effort::Usual).unwrap().name(), "hard");
        // Named, not started: a program runs only once a game asks it.
        assert_eq!(by_spec("exec:./bot", Effort::Usual).unwrap().name(), "exec");
        assert_eq!(by_spec("exec:a@b", Effort::Usual).unwrap().name(), "exec");
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
        ] {
            assert_eq!(
                by_spec(bad, Effort::Usual).err(),
                Some(UnknownBot(bad.to_string())),
                "{bad}"
            );
        }
    }
}
