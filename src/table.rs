//! The table: runs one game, asks whichever seat must act for its action,
//! applies it and hands every event to the caller. `spades sim`, the TUI and
//! later network play all run games through this one loop.

use std::time::{Duration, Instant};

use crate::bots::{Bot, BotRng, bot_rng, decide};
use crate::engine::{Action, Decision, Event, Game, Phase, RuleError, Seat, Turn};

/// Who sits in a seat: a bot, or someone who acts through `Table::act`.
pub enum Player {
    Bot(Box<dyn Bot>),
    Human,
}

/// A bot broke a rule: a bug in the bot, reported rather than hidden.
#[derive(Debug, thiserror::Error)]
#[error("bot `{bot}` in seat {seat} tried {action:?}: {error}")]
pub struct BotError {
    pub bot: &'static str,
    pub seat: Seat,
    pub action: Action,
    pub error: RuleError,
}

pub struct Table {
    game: Game,
    players: Vec<Player>,
    rngs: Vec<BotRng>,
    /// How long each seat's bot took per decision.
    timings: Vec<Vec<Duration>>,
}

impl Table {
    /// `players` has one entry per seat; `seed` also seeds the bots.
    pub fn new(game: Game, players: Vec<Player>, seed: u64) -> Table {
        let mode = game.mode();
        let n = mode.seats();
        assert_eq!(players.len(), n, "one player per seat");
        Table {
            game,
            players,
            rngs: mode.each_seat().map(|s| bot_rng(seed, s)).collect(),
            timings: vec![Vec::new(); n],
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub fn is_human(&self, seat: Seat) -> bool {
        matches!(self.players[seat.index()], Player::Human)
    }

    /// Decision times of the bot in `seat` so far.
    pub fn timings(&self, seat: Seat) -> &[Duration] {
        &self.timings[seat.index()]
    }

    /// The next bot that must act. In an exchange a bot never waits for a
    /// human who owes cards at the same time.
    pub fn bot_turn(&self) -> Option<Turn> {
        self.turn_where(|human| !human)
    }

    /// The decision a human seat is asked for now, if any.
    pub fn human_turn(&self) -> Option<Turn> {
        self.turn_where(|human| human)
    }

    /// The turn of a seat whose player is human or not, as `wanted` says.
    /// Only the exchange asks several seats at once.
    fn turn_where(&self, wanted: impl Fn(bool) -> bool) -> Option<Turn> {
        let turn = self.game.to_act()?;
        if self.game.phase() == Phase::Exchange {
            return (self.game.mode().each_seat())
                .find(|&s| wanted(self.is_human(s)) && self.game.owes_exchange(s))
                .map(|seat| Turn {
                    seat,
                    decision: Decision::Exchange,
                });
        }
        wanted(self.is_human(turn.seat)).then_some(turn)
    }

    /// Lets the next bot act, if a bot is to act. Returns its events.
    pub fn step_bot(&mut self) -> Option<Result<Vec<Event>, BotError>> {
        let turn = self.bot_turn()?;
        let view = self.game.view(turn.seat);
        let Player::Bot(bot) = &mut self.players[turn.seat.index()] else {
            return None;
        };
        let started = Instant::now();
        let action = decide(
            bot.as_mut(),
            turn.decision,
            &view,
            &mut self.rngs[turn.seat.index()],
        );
        self.timings[turn.seat.index()].push(started.elapsed());
        let bot_name = bot.name();
        Some(
            self.game
                .apply(turn.seat, action)
                .map_err(|error| BotError {
                    bot: bot_name,
                    seat: turn.seat,
                    action,
                    error,
                }),
        )
    }

    /// A human seat's action, checked by the engine.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        self.game.apply(seat, action)
    }

    /// Plays bots until a human must act or the game ends, passing each
    /// event to `on_event`.
    pub fn run_bots(&mut self, mut on_event: impl FnMut(&Event)) -> Result<(), BotError> {
        while let Some(step) = self.step_bot() {
            for e in &step? {
                on_event(e);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::random::RandomBot;
    use crate::engine::{Mode, RuleSettings, Rules};

    #[test]
    fn random_bots_finish_a_game_in_every_mode() {
        for mode in Mode::ALL {
            for seed in 0..20 {
                // Random bots rarely make contracts: a short game with a
                // losing score ends either way.
                let rules = Rules::new(RuleSettings {
                    target_score: 150,
                    losing_score: Some(-150),
                    ..RuleSettings::classic(mode)
                })
                .expect("valid rules");
                let game = Game::new(rules, seed);
                let players = (0..mode.seats())
                    .map(|_| Player::Bot(Box::new(RandomBot)))
                    .collect();
                let mut table = Table::new(game, players, seed);
                let mut ends = 0;
                table
                    .run_bots(|e| ends += matches!(e, Event::End { .. }) as u32)
                    .unwrap();
                assert_eq!(ends, 1, "{mode} seed {seed}");
                assert_eq!(table.game().phase(), Phase::Over);
            }
        }
    }
}
