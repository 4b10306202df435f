//! The game as the player sees it, and `update`: a key, a click or the
//! passing of time in, a change of state or an action for the table out.
//! Nothing here draws, and nothing here knows the rules: what is legal and
//! why not comes from the engine.

mod claim;
mod clock;
mod computer_turns;
mod game_over;
mod guard;
mod hint;
mod intents;
mod keys;
mod notice;
mod rating_note;
mod told;
mod turn_timer;
mod windows;

pub use super::components::windows::{Overlay, QuitChoice};

use std::path::Path;
use std::time::Instant;

use crate::bots;
use crate::engine::{
    Action, Bid, Card, CardSet, Decision, HandResult, PerSide, Phase, PlayerView, Seat, SeatEvent,
    SideTotals, TrickDone, Turn,
};
use crate::fairness::{Commitment, Reveal};
use crate::naming::Names;
use crate::net::client::Connection;
use crate::net::client::seat::Remote;
use crate::net::client::seating::Started;
use crate::save::Saved;
use crate::session::{LocalGame, Played, YOU};
use crate::table::BotError;

use super::components::DecisionKey;
use super::components::bids::{self, Bids};
use super::components::blind_offer::BlindOffer;
use super::components::chat::Chat;
use super::components::exchange::Exchange;
use super::components::hand::Hand;
use super::components::hints::Hints;
use super::components::memory::MemoryPanel;
use super::components::windows::Windows;
use super::hand::{faces, hand_order};
use super::hits::{Hits, OfferChoice};
use super::link::TableLink;
use super::replay::Viewer;
use super::text::sentence;
use super::theme::Theme;
use super::{PlayConfig, Speed, TuiError};

/// What fills the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Table,
    /// The table with the last hand's score over it.
    Summary,
    /// The hand just scored, told again trick by trick with every card
    /// face up; leaving it goes back to the summary.
    Review,
    GameOver,
}

/// A finished trick left on the table for a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldTrick {
    pub trick: TrickDone,
    /// Set by the first tick after the trick ends, so pauses need no clock
    /// outside `Input::Tick`.
    until: Option<Instant>,
}

pub struct App {
    config: PlayConfig,
    /// The player's seat: seat 0 at a table of this process; at a table on
    /// a server, the one it gave.
    you: Seat,
    theme: Theme,
    names: Names,
    /// The game itself, here or on a server; the app sees only what the
    /// player's seat may see.
    table: TableLink,
    /// Every event the player has been told, as the player's seat sees
    /// them, and the tricks they tell of.
    told: told::Told,
    held: Option<HeldTrick>,
    /// The hand just scored, shown until the player moves on.
    summary: Option<HandResult>,
    /// The review of that hand, while the player looks at it. It is made
    /// from what the player's seat was told and the engine's result.
    review: Option<Viewer>,
    /// The game just played, read aside for the viewer.
    looking_back: Option<game_over::LookingBack>,
    /// When a card the player has no choice about is played for them, and
    /// the turn it is for: a time left from a turn the player answered
    /// themselves is never taken for a later one.
    auto_due: Option<(DecisionKey, Instant)>,
    auto_play: bool,
    speed: Speed,
    /// The time of the last tick: when keys arrive, as far as the app knows.
    now: Instant,
    /// For a moment after a pause, a key that would act is taken as meant
    /// for the pause that just ended, or for the turn before.
    guard: guard::Guard,
    /// The player's decision last seen (hand, cards played, kind), to
    /// notice when a new one begins.
    decision_seen: Option<DecisionKey>,
    /// The cursor over the hand the player chooses from.
    hand: Hand,
    /// The cursor over the bids, at the player's turn to bid.
    bids: Bids,
    /// The answer in focus at the blind offer, and its blind number.
    offer: BlindOffer,
    /// The cards chosen to pass at the exchange.
    exchange: Exchange,
    /// The window open over the table, if any, and what it keeps.
    windows: Windows,
    /// The notice line: a refusal, a wait, news, a hint.
    notice: notice::Notice,
    hits: Hits,
    quit: bool,
    /// What the session's earlier games left behind (records written).
    earlier: Played,
    /// The other seats' turns: when the next shows, the decision being
    /// thought out aside, the failed programs told of, a rule broken.
    computer_turns: computer_turns::ComputerTurns,
    /// What the finished game did to the player's rating, worked out once
    /// the game is over.
    rating_note: rating_note::RatingNote,
    /// The chat line being typed at a shared table, and the chat shown.
    chat: Chat,
    /// The hint being worked out for the player's decision, and whether
    /// the player has asked for hints in this game.
    hints: Hints,
    /// A claim being checked on a thread of its own.
    claiming: claim::Claiming,
    /// The panel of the cards played and the voids shown (`m`).
    memory: MemoryPanel,
    /// What the turn timer of a table on a server has to say.
    timer_note: turn_timer::TimerNote,
}

impl App {
    /// A new game at a table in this process, as `config` says.
    pub fn new(config: PlayConfig, theme: Theme) -> Result<App, TuiError> {
        let game = LocalGame::start(config.game.clone(), config.look())?;
        let notice = game.save_problem().map(str::to_string);
        let names = game.names().clone();
        let mut app = App::at_table(config, theme, names, TableLink::Local(Box::new(game)));
        if let Some(notice) = notice {
            app.notice.stays(notice);
        }
        Ok(app)
    }

    /// A saved game, set at the table again exactly as it was left: its own
    /// rules, names and level, with `config`'s looks, folders and effort.
    pub fn resume(config: PlayConfig, theme: Theme, saved: &Saved) -> Result<App, TuiError> {
        let game = LocalGame::resume(saved, &config.game, config.look())?;
        let config = PlayConfig {
            game: game.setup().clone(),
            ..config
        };
        let names = game.names().clone();
        let mut app = App::at_table(config, theme, names, TableLink::Local(Box::new(game)));
        app.settle_after_replay();
        Ok(app)
    }

    /// A seat at a table on a server whose game has just started (or was
    /// just taken back), its own record kept in the records folder.
    pub fn joined(
        config: PlayConfig,
        theme: Theme,
        connection: Connection,
        started: Started,
    ) -> App {
        // A seat taken back from a new session rewrites its record whole.
        let record = config
            .game
            .records
            .as_deref()
            .and_then(|dir| match &started.seat_token {
                Some((table, _)) => {
                    crate::record::shared_record_file(dir, table, started.view.seat).ok()
                }
                None => crate::record::create_record_file(dir).ok(),
            });
        let mut config = config;
        config.game.rules = started.view.rules;
        let remote = Remote::new(connection, started, record);
        let names = Names::listed(config.game.rules.mode, remote.names())
            .marking_guests(remote.guests())
            .seen_from(remote.seat());
        App::at_table(config, theme, names, TableLink::Remote(Box::new(remote)))
    }

    fn at_table(config: PlayConfig, theme: Theme, names: Names, table: TableLink) -> App {
        let mode = config.game.rules.mode;
        let (auto_play, speed) = (config.auto_play, config.speed);
        let you = match &table {
            TableLink::Local(_) => YOU,
            TableLink::Remote(remote) => remote.seat(),
        };
        let mut app = App {
            config,
            you,
            theme,
            names,
            table,
            told: told::Told::new(mode, you),
            held: None,
            summary: None,
            review: None,
            looking_back: None,
            auto_due: None,
            auto_play,
            speed,
            now: Instant::now(),
            guard: guard::Guard::default(),
            decision_seen: None,
            hand: Hand::default(),
            bids: Bids::default(),
            offer: BlindOffer::default(),
            exchange: Exchange::default(),
            windows: Windows::default(),
            notice: notice::Notice::default(),
            hits: Hits::default(),
            quit: false,
            earlier: Played::default(),
            computer_turns: computer_turns::ComputerTurns::default(),
            rating_note: None,
            chat: Chat::default(),
            hints: Hints::default(),
            claiming: claim::Claiming::default(),
            memory: MemoryPanel::default(),
            timer_note: turn_timer::TimerNote::default(),
        };
        let first = app.table.take_events(app.you);
        app.absorb(first);
        app.sync();
        app
    }

    /// After a game is replayed into the table (resumed, or a move taken
    /// back) the app has heard every event again: what it shows is where
    /// the game stands, with no pause and no summary but an unread one.
    fn settle_after_replay(&mut self) {
        self.held = None;
        if self.table.phase() != Phase::AwaitingDeal {
            self.summary = None;
        }
        self.notice.clear();
        self.decision_seen = None;
        self.sync();
    }

    /// Ends the session. A game not yet decided is kept to be resumed when
    /// it is saved, or else recorded as abandoned with its seed revealed.
    /// Says which records were written and where the game is kept.
    pub fn close(&mut self) -> Played {
        let now = self.table.close();
        std::mem::take(&mut self.earlier).then(now)
    }

    pub fn config(&self) -> &PlayConfig {
        &self.config
    }

    /// The commitment to this game's secret seed, shown from the start.
    pub fn commitment(&self) -> Option<Commitment> {
        self.table.commitment()
    }

    /// The seed when it was given openly: the deals are known.
    pub fn open_seed(&self) -> Option<u64> {
        self.table.open_seed()
    }

    /// The secret seed and salt, once the game is over.
    pub fn revealed(&self) -> Option<Reveal> {
        self.table.revealed()
    }

    /// Is the game kept on disk, to be resumed if it is left?
    pub fn is_saved(&self) -> bool {
        self.table.is_saved()
    }

    /// The file this game is recorded in, if it is.
    pub fn record_path(&self) -> Option<&Path> {
        self.table.record_path()
    }

    /// Hands scored so far.
    pub fn hands_played(&self) -> usize {
        self.table.results().len()
    }

    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    pub fn names(&self) -> &Names {
        &self.names
    }

    /// What the player may know now.
    pub fn view(&self) -> PlayerView {
        self.table.view(self.you)
    }

    pub fn human_turn(&self) -> Option<Turn> {
        self.table.human_turn()
    }

    /// The chat line being typed, if one is.
    pub fn chat_line(&self) -> Option<&str> {
        self.chat.line()
    }

    /// The chat line and the chat shown over the table, to draw.
    pub fn chat(&self) -> &Chat {
        &self.chat
    }

    /// The chat so far, oldest first, and how far back it is scrolled.
    pub fn chat_log(&self) -> (Vec<String>, usize) {
        (self.table.chat_log(), self.chat.scroll())
    }

    /// Whether a server's ladder rates this game (`None`: no ladder).
    pub fn ladder(&self) -> Option<&crate::net::client::seat::Ladder> {
        self.table.ladder()
    }

    /// Is this a seat at a table on a server?
    pub fn is_shared(&self) -> bool {
        self.table.is_remote()
    }

    /// The player's own seat.
    pub fn you(&self) -> Seat {
        self.you
    }

    /// The seat whose cards the player chooses from now: their own, or the
    /// dummy's in its turn when they declare.
    pub fn acting_seat(&self) -> Seat {
        self.human_turn().map_or(self.you, |t| t.seat)
    }

    /// The hand the player chooses from now, as the acting seat sees it: the
    /// table shows the dummy's cards to its declarer alone.
    pub fn hand_view(&self) -> PlayerView {
        self.table.view(self.acting_seat())
    }

    /// The seat the table waits for, if any.
    pub fn waiting_for(&self) -> Option<Seat> {
        self.table
            .human_turn()
            .or(self.table.bot_turn())
            .map(|t| t.seat)
    }

    /// What the player has been told, in order.
    pub fn events(&self) -> &[SeatEvent] {
        self.told.events()
    }

    pub fn held_trick(&self) -> Option<&HeldTrick> {
        self.held.as_ref()
    }

    pub fn last_trick(&self) -> Option<&TrickDone> {
        self.told.last_trick()
    }

    /// Is the panel of the cards played and the voids shown?
    pub fn memory_shown(&self) -> bool {
        self.memory.is_shown()
    }

    /// The memory panel, to draw.
    pub fn memory(&self) -> &MemoryPanel {
        &self.memory
    }

    pub fn overlay(&self) -> Option<Overlay> {
        self.windows.open()
    }

    /// The windows over the table, to draw.
    pub fn windows(&self) -> &Windows {
        &self.windows
    }

    pub fn notice(&self) -> Option<&str> {
        self.notice.shown()
    }

    /// What `q` does once nothing holds the player at the table: leave
    /// the program, or go back to the lobby the player came from.
    pub fn leave_words(&self) -> &'static str {
        if self.config.from_lobby {
            "q goes back to the lobby"
        } else {
            "q leaves"
        }
    }

    /// Is another person at the shared table, who plays on once the player
    /// leaves? (With nobody, the table ends as they go.)
    pub fn others_here(&self) -> bool {
        self.table.others_here()
    }

    /// Why the game's save or record is not on the disk yet, while it is
    /// not: one line, shown until the disk takes them.
    pub fn unwritten(&self) -> Option<String> {
        self.table.unwritten()
    }

    /// The card auto-play is about to play for the player, its only one,
    /// while it waits its pause: the panel says so, and keys that would
    /// play are dropped meanwhile.
    pub fn card_played_for_you(&self) -> Option<Card> {
        self.forced_card()
    }

    /// Was a key held back by the guard that is still on? The key bar
    /// says so, so the player knows the key was seen and not lost.
    pub fn key_held_back(&self) -> bool {
        self.guard.held_back(self.now)
    }

    pub fn hand_cursor(&self) -> usize {
        self.hand.cursor()
    }

    /// The hand's cursor, to draw.
    pub fn hand(&self) -> &Hand {
        &self.hand
    }

    pub fn offer_cursor(&self) -> OfferChoice {
        self.offer.cursor()
    }

    /// The blind offer, to draw.
    pub fn blind_offer(&self) -> &BlindOffer {
        &self.offer
    }

    /// The blind number the offer shows; `None` when none is on offer.
    pub fn blind_number(&self, view: &PlayerView) -> Option<u8> {
        self.offer.number(view)
    }

    pub fn to_pass(&self) -> CardSet {
        self.exchange.to_pass()
    }

    /// The exchange, to draw.
    pub fn exchange(&self) -> &Exchange {
        &self.exchange
    }

    pub fn quit_focus(&self) -> QuitChoice {
        self.windows.quit_focus()
    }

    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// Is this a practice game, where moves may be taken back?
    pub fn is_practice(&self) -> bool {
        self.config.game.practice
    }

    /// Would `u` take back a move now? Only in a practice game, once the
    /// player has made one.
    pub fn can_take_back(&self) -> bool {
        self.is_practice() && self.table.can_take_back(self.you)
    }

    pub fn auto_play(&self) -> bool {
        self.auto_play
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// A bot broke a rule; the game cannot go on.
    pub fn take_failure(&mut self) -> Option<BotError> {
        self.computer_turns.take_failure()
    }

    pub fn set_hits(&mut self, hits: Hits) {
        self.hits = hits;
    }

    pub fn hits(&self) -> &Hits {
        &self.hits
    }

    pub fn screen(&self) -> Screen {
        if self.review.is_some() {
            Screen::Review
        } else if self.held.is_some() {
            Screen::Table
        } else if self.summary.is_some() {
            Screen::Summary
        } else if self.table.phase() == Phase::Over {
            Screen::GameOver
        } else {
            Screen::Table
        }
    }

    /// The hand being summed up, and each side's totals before it.
    pub fn summary(&self) -> Option<(&HandResult, PerSide<SideTotals>)> {
        let result = self.summary.as_ref()?;
        let limit = self.config.game.rules.bags.limit;
        let before = result.sides.map(|s| s.totals_before(limit));
        Some((result, before))
    }

    /// The review of the hand just scored, while it is open.
    pub fn review(&self) -> Option<&Viewer> {
        self.review.as_ref()
    }

    /// The bids the panel offers: every number, nil, and blind nil when the
    /// engine would take it now.
    pub fn bid_options(&self, view: &PlayerView) -> Vec<Bid> {
        bids::options(view)
    }

    pub fn bid_cursor(&self) -> usize {
        self.bids.cursor()
    }

    /// The bids' cursor, to draw.
    pub fn bids(&self) -> &Bids {
        &self.bids
    }

    // ----- update -----

    /// The player's action, checked by the engine; a refusal is shown as
    /// the engine words it.
    fn act(&mut self, action: Action) {
        if self.claiming.pending() {
            self.notice.stays(claim::CHECKING);
            return;
        }
        match self.table.act(self.acting_seat(), action) {
            Ok(()) => {
                self.notice.clear();
                let events = self.table.take_events(self.you);
                self.absorb(events);
            }
            Err(error) => {
                self.notice.stays(self.refusal(error));
            }
        }
    }

    /// Follows the game through its events, as any client of the table does.
    fn absorb(&mut self, events: Vec<SeatEvent>) {
        for event in events {
            match &event {
                SeatEvent::Score { .. } => self.summary = self.table.results().last().cloned(),
                SeatEvent::Dealt { .. } => {
                    self.exchange.clear();
                    self.hand.reset();
                    self.offer.reset();
                }
                SeatEvent::Exchange {
                    from,
                    to,
                    cards: Some(cards),
                    ..
                } if *to == self.you => {
                    self.notice.stays(format!(
                        "{} passed you {}.",
                        self.names.seat(*from),
                        faces(*cards, &self.theme)
                    ));
                }
                _ => {}
            }
            if let Some(trick) = self.told.hear(event) {
                self.held = Some(HeldTrick { trick, until: None });
            }
        }
    }

    /// What the end of a game shows under the scores: the rating, or for a
    /// Quick Play run where it stands among the player's best.
    pub fn rating_note(&self) -> &[String] {
        let note = self.rating_note.as_ref().and_then(|n| n.answer());
        note.map_or(&[], Vec::as_slice)
    }

    pub fn stats_lines(&self) -> &[String] {
        self.windows.stats_lines()
    }

    pub fn stats_scroll(&self) -> usize {
        self.windows.stats_scroll()
    }

    /// Keeps the cursors on something that exists, and on a playable card
    /// when it is the player's turn to play.
    fn sync(&mut self) {
        let view = self.view();
        self.take_rating_note();
        self.windows.take_stats();
        if view.phase == Phase::Over && self.rating_note.is_none() {
            self.start_rating_note();
        }
        let playing = self.hand_view();
        let hand = hand_order(playing.cards());
        self.hand.keep_within(hand.len());
        // When one of the player's decisions begins, keys pressed just
        // before it (for a pause, or while waiting) are not taken for it, and
        // a turn to play starts the cursor on the card a careful player would
        // most often play; after that it goes where the player moves it.
        let decision = self.decision_now(&view);
        if decision.is_some() && decision != self.decision_seen {
            self.guard.extend(self.now, self.speed.pace().guard);
            if let Some(card) = bots::cautious_play(&playing) {
                self.hand.place_on(card, &hand);
            }
        }
        let begins = decision.is_some() && decision != self.decision_seen;
        self.decision_seen = decision;
        let bid_begins = begins && decision.is_some_and(|(.., d)| d == Decision::Bid);
        self.bids.place(&view, &playing, bid_begins);
        if view.phase != Phase::Exchange {
            self.exchange.clear();
        }
    }

    /// The player's decision now, if it is their turn.
    fn decision_now(&self, view: &PlayerView) -> Option<DecisionKey> {
        self.human_turn()
            .map(|t| (view.hand_no, view.play.played.len(), t.decision))
    }
}
