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

use crate::bots::{Bot, BotRng, BotSpec, Effort, bot_rng, decide};
use crate::engine::{
    Action, Decision, Event, Game, HandResult, Mode, Phase, PlayerView, PublicView, RuleError,
    Rules, Seat, SeatEvent, Side, Turn,
};
use crate::fairness::{Commitment, Dealing, Reveal};
use crate::record::{GameHeader, GameInfo, RecordWriter};
use crate::save::{Journal, SaveError, SaveHeader, Step};

mod claim;
pub mod exec;
mod saving;

pub use claim::{Beaten, ClaimCheck, ClaimRefusal, ClaimVerdict, beating_line, claimed_line};

/// Who sits in a seat: a bot, or someone who acts through `Table::act`.
pub enum Player {
    Bot(Box<dyn Bot>),
    Human,
    /// A bot thinking away from the table (`Table::think`): the seat waits
    /// for its answer, holding a fresh bot of the same level and budget.
    Away(Box<dyn Bot>),
    /// Nobody: the dummy's seat, whose cards its declarer plays.
    Dummy,
}

/// The computer player `spec` names: a level at its own budget or else
/// `effort`, or a program in another process given `timeout` to answer.
pub fn seat_bot(spec: &BotSpec, effort: Effort, timeout: Duration) -> Box<dyn Bot> {
    match spec {
        BotSpec::Level(level, own) => level.bot(own.or(effort)),
        BotSpec::Exec(command) => Box::new(exec::ExternalBot::new(command, timeout)),
    }
}

/// A person in seat 0 and bots as `spec` names them in every other seat:
/// the table a player sits at.
pub fn player_and_bots(mode: Mode, spec: &BotSpec, effort: Effort) -> Vec<Player> {
    mode.each_seat()
        .map(|seat| {
            if !mode.is_player(seat) {
                Player::Dummy
            } else if seat.index() == 0 {
                Player::Human
            } else {
                Player::Bot(seat_bot(spec, effort, exec::DEFAULT_TIMEOUT))
            }
        })
        .collect()
}

/// A bot's decision, handed out to be thought about anywhere (another
/// thread), so that nothing at the table waits on it: the bot, its
/// generator, and what its seat sees. `think` gives the answer back.
pub struct Thinking {
    seat: Seat,
    /// Whose bot decides: the seat's own, or the declarer's for the dummy.
    by: Seat,
    decision: Decision,
    view: PlayerView,
    bot: Box<dyn Bot>,
    rng: BotRng,
}

impl Thinking {
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The bot decides. Its answer is for `Table::answer`.
    pub fn think(mut self) -> Thought {
        let started = Instant::now();
        let action = decide(self.bot.as_mut(), self.decision, &self.view, &mut self.rng);
        Thought {
            seat: self.seat,
            by: self.by,
            bot: self.bot,
            rng: self.rng,
            action,
            took: started.elapsed(),
        }
    }
}

/// A bot's answer, with the bot and its generator coming back to their seat.
pub struct Thought {
    seat: Seat,
    by: Seat,
    bot: Box<dyn Bot>,
    rng: BotRng,
    action: Action,
    took: Duration,
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
type RecordSink = Box<dyn Write + Send>;

pub struct Table {
    game: Game,
    dealing: Dealing,
    players: Vec<Player>,
    rngs: Vec<BotRng>,
    /// How long each seat's bot took per decision.
    timings: Vec<Vec<Duration>>,
    /// What each seat has been told and not yet taken (human seats only).
    inbox: Vec<Vec<SeatEvent>>,
    /// What the public has been told and not yet taken, once kept.
    public: Option<Vec<SeatEvent>>,
    record: Option<RecordWriter<RecordSink>>,
    /// Why the record's last lines could not be written: they are held,
    /// and written at the next step the disk takes them.
    record_problem: Option<String>,
    /// The game's save, when it is kept: every step goes to disk before the
    /// table tells anyone of it.
    save: Option<SaveState>,
    /// Why the save's last steps could not be written (held, like the
    /// record's), or why it was given up.
    save_problem: Option<String>,
}

/// A saved game's journal, and what it holds, to rebuild the table from.
struct SaveState {
    journal: Journal,
    header: SaveHeader,
    steps: Vec<Step>,
}

/// Why a saved game cannot be set at the table again.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error(transparent)]
    Save(#[from] SaveError),
    #[error("cannot write the game's files: {0}")]
    Io(#[from] io::Error),
}

impl Table {
    /// A game under `rules` dealt by `dealing`; `players` has one entry per
    /// seat, or with a dummy one per player (the dummy's seat, the last,
    /// is then added). The seed also seeds the bots, so a game replays
    /// exactly.
    pub fn new(rules: Rules, dealing: Dealing, mut players: Vec<Player>) -> Table {
        let mode = rules.mode;
        if let Some(dummy) = mode.dummy()
            && players.len() == mode.players()
        {
            players.insert(dummy.index(), Player::Dummy);
        }
        assert_eq!(players.len(), mode.seats(), "one player per seat");
        let seed = dealing.seed();
        let game = Game::new(rules, seed);
        let mut table = Table {
            rngs: mode.each_seat().map(|s| bot_rng(seed, s)).collect(),
            timings: vec![Vec::new(); mode.seats()],
            inbox: vec![Vec::new(); mode.seats()],
            public: None,
            game,
            dealing,
            players,
            record: None,
            record_problem: None,
            save: None,
            save_problem: None,
        };
        let first_deal = table.game.deal_event();
        table.tell(&first_deal);
        table
    }

    /// Writes this game's record to `out` from now on: the `game` line at
    /// once (with the commitment when the seed is secret), each hand when
    /// it is over, and the closing line when the game ends or is left.
    /// Call before the first action. When the `game` line cannot be
    /// written it is held, as any line of the record is (`catch_up`), and
    /// the error is returned.
    pub fn record_to(
        &mut self,
        out: RecordSink,
        names: Vec<String>,
        info: GameInfo,
    ) -> io::Result<()> {
        let mut names = names;
        // Names for the players alone: the dummy's seat is named for it.
        if let Some(dummy) = self.mode().dummy()
            && names.len() == self.mode().players()
        {
            names.insert(dummy.index(), "Dummy".to_string());
        }
        let header = GameHeader::new(*self.game.rules(), names, &self.dealing, info);
        let (mut writer, written) = RecordWriter::start(out, &header, self.dealing.reveal());
        writer.take(&self.game.deal_event())?;
        self.record = Some(writer);
        self.record_problem = written.as_ref().err().map(io::Error::to_string);
        written
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

    /// Why the record's last lines are not on the disk yet, if they are
    /// not: they are held until it takes them.
    pub fn record_problem(&self) -> Option<&str> {
        self.record_problem.as_deref()
    }

    /// The events `seat` has been told since it last asked, as it sees them.
    pub fn take_events(&mut self, seat: Seat) -> Vec<SeatEvent> {
        std::mem::take(&mut self.inbox[seat.index()])
    }

    /// From now on the events are kept as the public sees them, for
    /// spectators: called right after `new`, the first deal included.
    pub fn keep_public_events(&mut self) {
        self.public = Some(vec![self.game.deal_event().public()]);
    }

    /// The events the public has been told since last asked (none unless
    /// kept).
    pub fn take_public_events(&mut self) -> Vec<SeatEvent> {
        self.public.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// What anyone may know now, a spectator of the table.
    pub fn public_view(&self) -> PublicView {
        self.game.public_view()
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

    /// Does `seat` still owe cards in the exchange? (Several seats may owe
    /// at once; `human_turn` names only the first.)
    pub fn owes_exchange(&self, seat: Seat) -> bool {
        self.game.owes_exchange(seat)
    }

    /// Seats `player` in `seat` from now on: a bot stands in for a person
    /// who left, and the person comes back. Refused, the player handed
    /// back, while the seat's bot is thinking away from the table (or the
    /// seat is the dummy's). What the seat was told and had not taken is
    /// dropped: whoever sits down is given the view.
    pub fn reseat(&mut self, seat: Seat, player: Player) -> Result<Player, Player> {
        let i = seat.index();
        if matches!(self.players[i], Player::Away(_) | Player::Dummy) {
            return Err(player);
        }
        self.inbox[i].clear();
        Ok(std::mem::replace(&mut self.players[i], player))
    }

    /// Who decides for `seat` now: the declarer plays the dummy's cards.
    pub fn player_for(&self, seat: Seat) -> Seat {
        self.game.teams().player_for(seat)
    }

    /// The turn of a seat whose player is human or not, as `wanted` says
    /// (the dummy's turn is its declarer's). Only the exchange asks several
    /// seats at once.
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
        wanted(self.is_human(self.player_for(turn.seat))).then_some(turn)
    }

    /// Deals the next hand once the last is over, telling every seat.
    /// A table with people at it waits for them (they look at the finished
    /// hand first); a table of bots deals at once (`step_bot`).
    pub fn deal_next_hand(&mut self) -> bool {
        let Some(deal) = self.game.deal_next_hand() else {
            return false;
        };
        self.journal(Step::Deal);
        self.publish(vec![deal]);
        true
    }

    /// A saved step, applied as it was first: no bot is asked.
    fn apply_step(&mut self, step: Step) -> Result<(), String> {
        let events = match step {
            Step::Act { seat, action } => self
                .game
                .apply(seat, action)
                .map_err(|e| format!("seat {seat} cannot {action:?}: {e}"))?,
            Step::Deal => vec![
                self.game
                    .deal_next_hand()
                    .ok_or("no hand is waiting to be dealt")?,
            ],
        };
        self.publish(events);
        Ok(())
    }

    /// Puts a step in the save before anyone hears of it, so the record
    /// never runs ahead of the save. A step the disk refuses is held with
    /// those before it, and written first at the next step.
    fn journal(&mut self, step: Step) {
        let Some(save) = &mut self.save else {
            return;
        };
        save.steps.push(step);
        self.save_problem = save.journal.append(&step).err().map(|e| e.to_string());
    }

    /// Writes what the disk refused so far, the save's steps before the
    /// record's lines; a game over whose record is whole needs no save.
    /// Done at each step; worth calling again when the player asks.
    pub fn catch_up(&mut self) {
        if let Some(save) = &mut self.save
            && save.journal.is_behind()
        {
            self.save_problem = save.journal.write_held().err().map(|e| e.to_string());
        }
        self.write_record();
        if self.game.phase() == Phase::Over {
            self.remove_save();
        }
    }

    /// Does the table hold lines of its save or record the disk refused?
    pub fn is_behind(&self) -> bool {
        self.save.as_ref().is_some_and(|s| s.journal.is_behind())
            || self.record.as_ref().is_some_and(RecordWriter::is_behind)
    }

    /// Writes the record's held lines, unless the save is behind: a record
    /// ahead of its save would hold hands a resumed game may play again
    /// otherwise.
    fn write_record(&mut self) {
        if self.save.as_ref().is_some_and(|s| s.journal.is_behind()) {
            return;
        }
        if let Some(writer) = &mut self.record {
            self.record_problem = writer.write_held().err().map(|e| e.to_string());
        }
    }

    /// Lets the next bot act, if a bot is to act. At a table of bots alone
    /// this also deals each next hand.
    pub fn step_bot(&mut self) -> Option<Result<(), BotError>> {
        if self.game.phase() == Phase::AwaitingDeal
            && self
                .players
                .iter()
                .all(|p| matches!(p, Player::Bot(_) | Player::Dummy))
        {
            return self.deal_next_hand().then_some(Ok(()));
        }
        let thinking = self.think()?;
        Some(self.answer(thinking.think()))
    }

    /// Hands the next bot's decision out to be thought about away from the
    /// table; its seat waits (as `Player::Away`) until `answer`.
    pub fn think(&mut self) -> Option<Thinking> {
        let turn = self.bot_turn()?;
        let by = self.player_for(turn.seat);
        let i = by.index();
        let stand_in = match &self.players[i] {
            Player::Bot(bot) => bot.fresh(),
            Player::Human | Player::Away(_) | Player::Dummy => return None,
        };
        let Player::Bot(bot) = std::mem::replace(&mut self.players[i], Player::Away(stand_in))
        else {
            unreachable!("the seat holds a bot: matched just above");
        };
        // The generator goes with the bot and comes back advanced, so a
        // game replays the same wherever its bots think.
        let rng = std::mem::replace(&mut self.rngs[i], bot_rng(0, by));
        Some(Thinking {
            seat: turn.seat,
            by,
            decision: turn.decision,
            view: self.game.view(turn.seat),
            bot,
            rng,
        })
    }

    /// A bot's answer: the bot takes its seat again and its action is
    /// checked by the engine.
    pub fn answer(&mut self, thought: Thought) -> Result<(), BotError> {
        let Thought {
            seat,
            by,
            bot,
            rng,
            action,
            took,
        } = thought;
        let i = by.index();
        let bot_name = bot.name();
        self.players[i] = Player::Bot(bot);
        self.rngs[i] = rng;
        self.timings[i].push(took);
        let events = self.game.apply(seat, action).map_err(|error| BotError {
            bot: bot_name,
            seat,
            action,
            error,
        })?;
        self.journal(Step::Act { seat, action });
        self.publish(events);
        Ok(())
    }

    /// A human seat's action, checked by the engine.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), RuleError> {
        let events = self.game.apply(seat, action)?;
        self.journal(Step::Act { seat, action });
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
    pub fn abandon(&mut self) {
        if let Some(writer) = &mut self.record
            && let Err(e) = writer.abandon()
        {
            self.record_problem = Some(e.to_string());
        }
        self.remove_save();
    }

    /// The players leave the table. A saved game stays as it is, to be
    /// resumed (its record stays open, its seed secret); a game not saved is
    /// abandoned.
    pub fn leave(&mut self) {
        self.catch_up();
        if self.save.is_none() {
            self.abandon();
        }
    }

    /// A game over needs no save, once its record is whole: until then
    /// the save keeps the game, to write the record from when resumed.
    fn remove_save(&mut self) {
        if self.record.as_ref().is_some_and(RecordWriter::is_behind) {
            return;
        }
        if let Some(save) = self.save.take()
            && let Err(e) = save.journal.remove()
        {
            self.save_problem.get_or_insert_with(|| e.to_string());
        }
    }

    /// Hands each event to the record and to every human seat as it sees it.
    fn publish(&mut self, events: Vec<Event>) {
        for event in &events {
            self.record_event(event);
            self.tell(event);
        }
        self.catch_up();
    }

    fn record_event(&mut self, event: &Event) {
        if let Some(writer) = &mut self.record
            && let Err(e) = writer.take(event)
        {
            self.record_problem = Some(e.to_string());
        }
    }

    fn tell(&mut self, event: &Event) {
        for seat in self.mode().each_seat() {
            if self.is_human(seat) {
                self.inbox[seat.index()].push(event.seen_by(seat));
            }
        }
        if let Some(public) = &mut self.public {
            public.push(event.public());
        }
    }
}

/// A table left before its game is decided closes its record, unless the
/// game is saved to be resumed.
impl Drop for Table {
    fn drop(&mut self) {
        self.leave();
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod record_tests;

#[cfg(test)]
mod protocol_tests;

#[cfg(test)]
pub(crate) mod full_disk_tests;
