//! Computer players. Every level implements `Bot`, which is given only the
//! seat's `PlayerView` (never the deal) and a seeded random generator.

pub mod advice;
mod careful;
pub(crate) mod easy;
pub mod hard;
pub mod knowledge;
mod level;
pub(crate) mod nil;
pub mod normal;
pub mod random;

pub use careful::cautious_play;
pub use level::{BotSpec, EXEC_PREFIX, Effort, Level, UnknownBot};
pub use nil::NilRule;

use rand::SeedableRng;

use crate::engine::{Action, Bid, Card, CardSet, Decision, PlayerView, Seat};

/// The generator every bot draws from: seeded, portable and fast.
pub type BotRng = rand_pcg::Pcg64Mcg;

/// A bot's generator for one seat of one game, so games replay exactly.
pub fn bot_rng(seed: u64, seat: Seat) -> BotRng {
    BotRng::seed_from_u64(seed ^ (0xA076_1D64_78BD_642F_u64.wrapping_mul(seat.index() as u64 + 1)))
}

/// A computer player. It is given only its seat's `PlayerView` and a
/// seeded generator, never the deal. A bot of your own implements `name`,
/// `fresh` and the decisions (`blind_nil`, `bid`, `exchange`, `play`;
/// `blind_number` only to bid blind); the table asks it through `act`.
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
    /// The seat's bid, once it has looked at its cards: one of
    /// `view.allowed_bids()`.
    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid;
    /// The cards to pass to the partner after a blind nil.
    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet;
    /// The card to play: one of `view.legal_plays()`.
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
    fn replaced(&self) -> Option<&Replaced> {
        None
    }
}

/// Why a seat's own bot no longer plays it (a program that failed), and
/// what it said on standard error before it went.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Replaced {
    /// The hand (from 1) in which it failed.
    pub hand: u32,
    /// The level that plays the seat for the rest of the game.
    pub by: Level,
    /// What went wrong, e.g. `answered {"play":"AS"}, which is not legal here`.
    pub reason: String,
    /// Its last lines on standard error, oldest first.
    pub stderr: Vec<String>,
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
