//! Computer players. Every level implements `Bot`, which is given only the
//! seat's `PlayerView` (never the deal) and a seeded random generator.

pub mod easy;
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
    /// Blind nil or not, decided before the cards are seen (`view.hand` is `None`).
    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool;
    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid;
    /// The cards to pass to the partner after a blind nil.
    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet;
    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card;
}

/// Asks `bot` for the action a decision calls for.
pub fn decide(
    bot: &mut dyn Bot,
    decision: Decision,
    view: &PlayerView,
    rng: &mut BotRng,
) -> Action {
    match decision {
        Decision::BlindNil => {
            if bot.blind_nil(view, rng) {
                Action::Bid(Bid::BlindNil)
            } else {
                Action::Look
            }
        }
        Decision::Bid => Action::Bid(bot.bid(view, rng)),
        Decision::Exchange => Action::Exchange(bot.exchange(view, rng)),
        Decision::Play => Action::Play(bot.play(view, rng)),
    }
}

/// The bot levels that exist, weakest first.
pub const LEVELS: &[&str] = &["random", "easy", "normal", "hard"];

/// The level the table seats unless told otherwise: the strongest there is.
pub const DEFAULT_LEVEL: &str = "hard";

/// A bot asked for by a name that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot `{0}`: choose one of {levels}", levels = LEVELS.join(", "))]
pub struct UnknownBot(pub String);

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
