//! The table: runs one game, asks whichever seat must act for its action,
//! applies it, and tells each seat what that seat may learn. `spades sim`,
//! the TUI and later network play all run games through this one loop.
//!
//! Only the table holds the deal. A client gets its seat's `PlayerView` and
//! the events as its seat sees them (`SeatEvent`); the game record, which
//! does hold every card, is written by the table itself, a hand at a time
//! once the hand is over, and reveals a secret seed only at the end.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use crate::bots::{Bot, BotRng, bot_rng, decide};
use crate::engine::{
    Action, Decision, Event, Game, HandResult, Mode, Phase, PlayerView, RuleError, Rules, Seat,
    SeatEvent, Side, Turn,
};
use crate::fairness::{Commitment, Dealing, Reveal};
use crate::record::{GameHeader, GameInfo, RecordWriter};

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

/// Where the record goes: any writer the table can own.
pub type RecordSink = Box<dyn Write + Send>;

pub struct Table {
    game: Game,
    dealing: Dealing,
    players: Vec<Player>,
    rngs: Vec<BotRng>,
    /// How long each seat's bot took per decision.
    timings: Vec<Vec<Duration>>,
    /// What each seat has been told and not yet taken (human seats only).
    inbox: Vec<Vec<SeatEvent>>,
    record: Option<RecordWriter<RecordSink>>,
    /// The first failure to write the record: the game goes on without it.
    record_problem: Option<String>,
}

impl Table {
    /// A game under `rules` dealt by `dealing`; `players` has one entry per
    /// seat. The seed also seeds the bots, so a game replays exactly.
    pub fn new(rules: Rules, dealing: Dealing, players: Vec<Player>) -> Table {
        let mode = rules.mode;
        assert_eq!(players.len(), mode.seats(), "one player per seat");
        let seed = dealing.seed();
        let game = Game::new(rules, seed);
        let mut table = Table {
            rngs: mode.each_seat().map(|s| bot_rng(seed, s)).collect(),
            timings: vec![Vec::new(); mode.seats()],
            inbox: vec![Vec::new(); mode.seats()],
            game,
            dealing,
            players,
            record: None,
            record_problem: None,
        };
        let first_deal = table.game.deal_event();
        table.tell(&first_deal);
        table
    }

    /// Writes this game's record to `out` from now on: the `game` line at
    /// once (with the commitment when the seed is secret), each hand when
    /// it is over, and the closing line when the game ends or is left.
    /// Call before the first action.
    pub fn record_to(
        &mut self,
        out: RecordSink,
        names: Vec<String>,
        info: GameInfo,
    ) -> io::Result<()> {
        let header = GameHeader::new(*self.game.rules(), names, &self.dealing, info);
        let mut writer = RecordWriter::start(out, &header, self.dealing.reveal())?;
        writer.event(&self.game.deal_event())?;
        self.record = Some(writer);
        Ok(())
    }

    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }

    pub fn mode(&self) -> Mode {
        self.game.mode()
    }

    pub fn phase(&self) -> Phase {
        self.game.phase()
    }

    pub fn hand_no(&self) -> u32 {
        self.game.hand_no()
    }

    /// Every hand scored so far: bids, tricks and scores, all public.
    pub fn results(&self) -> &[HandResult] {
        self.game.results()
    }

    pub fn winner(&self) -> Option<Side> {
        self.game.winner()
    }

    /// What `seat` may know now, and nothing more.
    pub fn view(&self, seat: Seat) -> PlayerView {
        self.game.view(seat)
    }

    /// The commitment to the secret seed, published from the start.
    pub fn commitment(&self) -> Option<Commitment> {
        self.dealing.commitment()
    }

    /// The seed, when it was given openly: the deals are known.
    pub fn open_seed(&self) -> Option<u64> {
        self.dealing.open_seed()
    }

    /// The secret seed and salt, once the game is over and they may be told.
    pub fn revealed(&self) -> Option<Reveal> {
        let over = self.game.phase() == Phase::Over
            || self.record.as_ref().is_some_and(RecordWriter::is_closed);
        over.then(|| self.dealing.reveal()).flatten()
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

    /// Why the record could not be written, if it could not.
    pub fn record_problem(&self) -> Option<&str> {
        self.record_problem.as_deref()
    }

    /// The events `seat` has been told since it last asked, as it sees them.
    pub fn take_events(&mut self, seat: Seat) -> Vec<SeatEvent> {
        std::mem::take(&mut self.inbox[seat.index()])
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
            return self
                .mode()
                .each_seat()
                .find(|&s| wanted(self.is_human(s)) && self.game.owes_exchange(s))
                .map(|seat| Turn {
                    seat,
                    decision: Decision::Exchange,
                });
        }
        wanted(self.is_human(turn.seat)).then_some(turn)
    }

    /// Deals the next hand once the last is over, telling every seat.
    /// A table with people at it waits for them (they look at the finished
    /// hand first); a table of bots deals at once (`step_bot`).
    pub fn deal_next_hand(&mut self) -> bool {
        let Some(deal) = self.game.deal_next_hand() else {
            return false;
        };
        self.publish(vec![deal]);
        true
    }

    /// Lets the next bot act, if a bot is to act. At a table of bots alone
    /// this also deals each next hand.
    pub fn step_bot(&mut self) -> Option<Result<(), BotError>> {
        if self.game.phase() == Phase::AwaitingDeal
            && self.players.iter().all(|p| matches!(p, Player::Bot(_)))
        {
            return self.deal_next_hand().then_some(Ok(()));
        }
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
        let result = self
            .game
            .apply(turn.seat, action)
            .map_err(|error| BotError {
                bot: bot_name,
                seat: turn.seat,
                action,
                error,
            });
        Some(result.map(|events| self.publish(events)))
    }

    /// A human seat's action, checked by the engine.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), RuleError> {
        let events = self.game.apply(seat, action)?;
        self.publish(events);
        Ok(())
    }

    /// Plays bots until a human must act or the game ends.
    pub fn run_bots(&mut self) -> Result<(), BotError> {
        while let Some(step) = self.step_bot() {
            step?;
        }
        Ok(())
    }

    /// Ends the game's record: a game not yet decided is marked abandoned
    /// and its seed revealed. Nothing more happens at this table's record.
    pub fn close(&mut self) {
        if let Some(writer) = &mut self.record
            && let Err(e) = writer.abandon()
        {
            self.record_failed(&e);
        }
    }

    /// Hands each event to the record and to every human seat as it sees it.
    fn publish(&mut self, events: Vec<Event>) {
        for event in &events {
            if let Some(writer) = &mut self.record
                && let Err(e) = writer.event(event)
            {
                self.record = None;
                self.record_failed(&e);
            }
            self.tell(event);
        }
    }

    fn tell(&mut self, event: &Event) {
        for seat in self.mode().each_seat() {
            if self.is_human(seat) {
                self.inbox[seat.index()].push(event.seen_by(seat));
            }
        }
    }

    fn record_failed(&mut self, e: &io::Error) {
        self.record_problem.get_or_insert_with(|| e.to_string());
    }
}

/// A table left before its game is decided still closes its record.
impl Drop for Table {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::random::RandomBot;
    use crate::engine::{Mode, RuleSettings, Rules};

    fn short(mode: Mode) -> Rules {
        // Random bots rarely make contracts: a short game with a losing
        // score ends either way.
        Rules::new(RuleSettings {
            target_score: 150,
            losing_score: Some(-150),
            ..RuleSettings::classic(mode)
        })
        .expect("valid rules")
    }

    fn bots(mode: Mode) -> Vec<Player> {
        (0..mode.seats())
            .map(|_| Player::Bot(Box::new(RandomBot)))
            .collect()
    }

    #[test]
    fn random_bots_finish_a_game_in_every_mode() {
        for mode in Mode::ALL {
            for seed in 0..20 {
                let mut table = Table::new(short(mode), Dealing::Open(seed), bots(mode));
                table.run_bots().unwrap();
                assert_eq!(table.phase(), Phase::Over, "{mode} seed {seed}");
                assert!(table.winner().is_some());
            }
        }
    }

    #[test]
    fn a_human_seat_hears_only_what_it_may_see() {
        let mode = Mode::Partnership;
        let mut players = bots(mode);
        players[0] = Player::Human;
        let mut table = Table::new(short(mode), Dealing::secret().unwrap(), players);
        assert!(table.revealed().is_none());
        let you = Seat::new(0);
        let first = table.take_events(you);
        assert!(matches!(first[..], [SeatEvent::Dealt { hand: 1, .. }]));
        table.run_bots().unwrap();
        let turn = table.human_turn().expect("the human's turn");
        let view = table.view(you);
        let action = match turn.decision {
            Decision::BlindNil => Action::Look,
            Decision::Bid => Action::Bid(view.allowed_bids()[0]),
            Decision::Exchange | Decision::Play => unreachable!("bidding comes first"),
        };
        table.act(you, action).unwrap();
        // Bots never see a human seat's inbox, and bots get no inbox.
        assert!(table.take_events(Seat::new(1)).is_empty());
    }
}
