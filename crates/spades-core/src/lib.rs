//! Spades' rules, search and computer players: the pure core the rest of
//! the program is built on, with no I/O but a bot's own thinking.
//!
//! - [`engine`]: the rules. A [`engine::Game`] is dealt from a seed under
//!   [`engine::Rules`], takes [`engine::Action`]s and says who may do what;
//!   each seat sees only its [`engine::PlayerView`].
//! - [`search`]: what the `hard` level needs: guessed deals, fast playouts,
//!   exact endgames and the double-dummy solver.
//! - [`bots`]: the [`bots::Bot`] trait and the levels (`easy`, `normal`,
//!   `hard`, `random`); a bot of your own implements `Bot`.
//!
//! What a bot of your own needs, all at the crate's root:
//!
//! - [`Bot`]: the trait to implement; [`BotRng`] and [`bot_rng`], the
//!   seeded generator each seat draws from.
//! - [`PlayerView`]: all a seat may know, the one thing a bot is given
//!   (`legal_plays`, `allowed_bids`, `hand`, the trick, the scores).
//! - [`Bid`], [`Card`], [`CardSet`], [`Suit`], [`Rank`]: what it answers
//!   with, and the cards it reads.
//! - [`Seat`], [`Side`], [`Mode`]: who sits where and who plays with whom.
//! - [`Game`], [`Rules`], [`Action`], [`Decision`], [`Phase`]: a game to
//!   drive by hand, as below.
//! - [`Level`], [`Effort`]: the program's own levels, to play against or
//!   to ask for a decision you leave to them.
//!
//! The rest is reached through [`engine`], [`search`] and [`bots`].
//!
//! A bot of your own, at a game of four seats driven by hand (the
//! program's table does the same, and keeps each seat's cards from the
//! others: a bot sees only its [`engine::PlayerView`]):
//!
//! ```
//! use spades_core::{
//!     Bid, Bot, BotRng, Card, CardSet, Effort, Game, Level, Mode, Phase, PlayerView, Rules, Seat,
//!     bot_rng,
//! };
//!
//! /// Bids 3 and plays its lowest legal card; passes as `easy` does.
//! struct Lowest;
//!
//! impl Bot for Lowest {
//!     fn name(&self) -> &'static str {
//!         "lowest"
//!     }
//!     fn fresh(&self) -> Box<dyn Bot> {
//!         Box::new(Lowest)
//!     }
//!     fn blind_nil(&mut self, _: &PlayerView, _: &mut BotRng) -> bool {
//!         false
//!     }
//!     fn bid(&mut self, _: &PlayerView, _: &mut BotRng) -> Bid {
//!         Bid::Tricks(3)
//!     }
//!     fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
//!         Level::Easy.bot(Effort::Usual).exchange(view, rng)
//!     }
//!     fn play(&mut self, view: &PlayerView, _: &mut BotRng) -> Card {
//!         view.legal_plays().lowest().expect("a card to play")
//!     }
//! }
//!
//! let mut game = Game::new(Rules::classic(Mode::Partnership), 7);
//! let mut bots: Vec<Box<dyn Bot>> = (0..4)
//!     .map(|i| match i % 2 {
//!         0 => Box::new(Lowest) as Box<dyn Bot>,
//!         _ => Level::Normal.bot(Effort::Usual),
//!     })
//!     .collect();
//! let mut rngs: Vec<BotRng> = (0..4).map(|i| bot_rng(7, Seat::new(i))).collect();
//! while game.phase() != Phase::Over {
//!     if game.phase() == Phase::AwaitingDeal {
//!         game.deal_next_hand();
//!         continue;
//!     }
//!     let turn = game.to_act().expect("a seat to act");
//!     let seat = turn.seat.index();
//!     let action = bots[seat].act(turn.decision, &game.view(turn.seat), &mut rngs[seat]);
//!     game.apply(turn.seat, action).expect("a legal action");
//! }
//! assert!(game.winner().is_some());
//! ```

#![warn(missing_docs)]

pub mod bots;
pub mod engine;
pub mod search;

pub use bots::{Bot, BotRng, Effort, Level, bot_rng};
pub use engine::{
    Action, Bid, Card, CardSet, Decision, Game, Mode, Phase, PlayerView, Rank, Rules, Seat, Side,
    Suit,
};
