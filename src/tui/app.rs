//! The game as the player sees it, and `update`: a key, a click or the
//! passing of time in, a change of state or an action for the table out.
//! Nothing here draws, and nothing here knows the rules: what is legal and
//! why not comes from the engine.

use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use ratatui::layout::{Position, Rect};

use crate::bots;
use crate::engine::{
    Action, Bid, BiddingGame, Card, CardSet, Decision, HandResult, PerSeat, PerSide, Phase,
    PlayerView, Seat, SeatEvent, SideTotals, Suit, TrickDone, Turn,
};
use crate::fairness::{Commitment, Dealing, Reveal};
use crate::record::{GameInfo, create_record_file, now_secs};
use crate::review::Story;
use crate::save::Saved;
use crate::table::{BotError, Player, SaveAbout, Table, Thinking, Thought};

use super::input::{Input, Key};
use super::link::{Remote, TableLink};
use super::replay::{Outcome, Source, Viewer};
use super::seats::Names;
use super::theme::Theme;
use super::widgets::faces;
use super::{PlayConfig, Played, Speed, TuiError};

/// The player's seat.
pub const YOU: Seat = Seat::new(0);

/// The keys that pick a card by its place in the hand. They skip every
/// letter that is a command (`h l q r t`) so a label never shadows one.
pub const CARD_KEYS: &[u8] = b"1234567890abcdefg";

/// Suits in the order the hand is shown: colours alternate black and red.
pub const HAND_SUITS: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

/// The hand as shown: by suit, highest rank first.
pub fn hand_order(cards: CardSet) -> Vec<Card> {
    HAND_SUITS
        .iter()
        .flat_map(|&suit| cards.suit(suit).iter().rev())
        .collect()
}

/// A window over the table that waits for the player to close it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    Help,
    Rules,
    LastTrick,
    /// The player's statistics and rating, from their records.
    Stats,
    ConfirmQuit,
}

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

/// The two buttons of the quit window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuitChoice {
    Stay,
    Quit,
}

/// How long typed digits make one bid: `1` then `3` within this is 13.
const DIGIT_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// The answers to the offer of a blind bid, made before looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferChoice {
    BlindNil,
    /// A blind number (`[blind_bid]`): the one `App::blind_number` shows.
    BlindNumber,
    Look,
}

/// Something on screen that a click acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Card(Card),
    Bid(Bid),
    Offer(OfferChoice),
    /// Close the summary, or pass the chosen cards.
    Continue,
    PlayAgain,
    Quit,
}

/// Where each clickable thing was drawn in the last frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hits {
    targets: Vec<(Rect, Target)>,
    /// The frame had no room for the table: only a request to enlarge it.
    too_small: bool,
    /// How far down the window on screen can scroll, when it scrolls.
    scroll_limit: Option<usize>,
}

impl Hits {
    pub fn add(&mut self, area: Rect, target: Target) {
        self.targets.push((area, target));
    }

    /// The window drawn can scroll down by `limit` lines at most.
    pub fn scrolls(&mut self, limit: usize) {
        self.scroll_limit = Some(limit);
    }

    /// A frame too small for the table: nothing on it can be acted on.
    pub fn too_small() -> Hits {
        Hits {
            too_small: true,
            ..Hits::default()
        }
    }

    pub fn is_too_small(&self) -> bool {
        self.too_small
    }

    pub fn at(&self, column: u16, row: u16) -> Option<Target> {
        let pos = Position::new(column, row);
        // Later drawings lie on top.
        self.targets
            .iter()
            .rev()
            .find(|(r, _)| r.contains(pos))
            .map(|&(_, t)| t)
    }

    pub fn targets(&self) -> impl Iterator<Item = &(Rect, Target)> {
        self.targets.iter()
    }
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
    /// Every event the player has been told, as the player's seat sees them.
    events: Vec<SeatEvent>,
    /// The cards of the trick being played, as the events showed them.
    trick_so_far: PerSeat<Option<Card>>,
    trick_leader: Seat,
    held: Option<HeldTrick>,
    last_trick: Option<TrickDone>,
    /// The hand just scored, shown until the player moves on.
    summary: Option<HandResult>,
    /// The review of that hand, while the player looks at it. It is made
    /// from what the player's seat was told and the engine's result.
    review: Option<Viewer>,
    bot_due: Option<Instant>,
    /// When a card the player has no choice about is played for them.
    auto_due: Option<Instant>,
    auto_play: bool,
    speed: Speed,
    /// The time of the last tick: when keys arrive, as far as the app knows.
    now: Instant,
    /// Until then, a key that would act is taken as meant for the pause that
    /// just ended, or for the turn before, and does nothing.
    guard_until: Option<Instant>,
    /// The player's decision last seen (hand, cards played, kind), to
    /// notice when a new one begins.
    decision_seen: Option<(u32, u32, Decision)>,
    /// When the last digit of a bid was typed.
    digit_at: Option<Instant>,
    quit_focus: QuitChoice,
    hand_cursor: usize,
    bid_cursor: usize,
    bid_digits: String,
    offer_cursor: OfferChoice,
    /// The blind number last chosen on the offer (0: none yet).
    blind_number: u8,
    to_pass: CardSet,
    overlay: Option<Overlay>,
    notice: Option<String>,
    /// A "wait" notice is stale once anyone moves; a refusal stays until
    /// the player acts.
    notice_lasts_one_move: bool,
    hits: Hits,
    quit: bool,
    failure: Option<BotError>,
    /// The record files of this session's games, and why records could not
    /// be written, if they could not.
    records: Vec<PathBuf>,
    record_problem: Option<String>,
    /// Where this game is saved, when it is.
    save_path: Option<PathBuf>,
    /// A computer player's decision being thought out on a thread of its
    /// own; nothing at the table waits on it.
    thinking: Option<Receiver<Thought>>,
    /// The statistics window's lines, read when it opens, and how far down
    /// it is scrolled.
    stats_lines: Vec<String>,
    stats_scroll: usize,
    /// What the finished game did to the player's rating, worked out once
    /// the game is over.
    rating_note: Option<Vec<String>>,
    /// A chat line being typed, at a shared table (`/` opens it).
    chat: Option<String>,
    /// Seats whose failed program the player has been told of.
    replaced_told: Vec<Seat>,
}

impl App {
    pub fn new(config: PlayConfig, theme: Theme) -> Result<App, TuiError> {
        // Fail before the game starts on a level that does not exist.
        bots::by_spec(&config.difficulty, config.effort)?;
        let names = Names::new(config.rules.mode, &config.name);
        let mut table = new_table(&config)?;
        let started = now_secs();
        let (records, record_problem) = match &config.records {
            Some(dir) => match record_game(&mut table, dir, &names, &config, started) {
                Ok(path) => (vec![path], None),
                Err(problem) => (Vec::new(), Some(problem)),
            },
            None => (Vec::new(), None),
        };
        let mut notice = None;
        let save_path = match &config.saves {
            Some(dir) => {
                let about = SaveAbout {
                    id: records.last().and_then(|p| p.file_stem()).map_or_else(
                        || format!("game-{started}"),
                        |s| s.to_string_lossy().into_owned(),
                    ),
                    started,
                    name: config.name.clone(),
                    difficulty: config.difficulty.clone(),
                    rules_source: config.rules_source.clone(),
                    practice: config.practice,
                    record: records.last().cloned(),
                };
                match table.save_to(dir, about) {
                    Ok(path) => Some(path),
                    Err(e) => {
                        notice = Some(format!(
                            "Saving is off ({e}): this game cannot be resumed if it is left."
                        ));
                        None
                    }
                }
            }
            None => None,
        };
        let mut app = App::at_table(
            config,
            theme,
            names,
            TableLink::Local(Box::new(table)),
            records,
            record_problem,
            save_path,
        );
        if notice.is_some() {
            app.notice = notice;
        }
        Ok(app)
    }

    /// A saved game, set at the table again exactly as it was left.
    pub fn resume(config: PlayConfig, theme: Theme, saved: &Saved) -> Result<App, TuiError> {
        bots::by_spec(&config.difficulty, config.effort)?;
        let names = Names::new(config.rules.mode, &config.name);
        let table =
            Table::resume(saved, players(&config)?, names.all()).map_err(TuiError::Resume)?;
        let records = saved.header.record.iter().cloned().collect();
        let save_path = Some(saved.path.clone());
        let table = TableLink::Local(Box::new(table));
        let mut app = App::at_table(config, theme, names, table, records, None, save_path);
        app.settle_after_replay();
        Ok(app)
    }

    /// A seat at a table on a server whose game has just started (or was
    /// just taken back), its own record kept in the records folder.
    pub fn joined(
        config: PlayConfig,
        theme: Theme,
        connection: crate::net::client::Connection,
        started: super::lobby::Started,
    ) -> App {
        // A seat taken back from a new session rewrites its record whole.
        let record = config
            .records
            .as_deref()
            .and_then(|dir| match &started.seat_token {
                Some((table, _)) => {
                    crate::record::shared_record_file(dir, table, started.view.seat).ok()
                }
                None => create_record_file(dir).ok(),
            });
        let config = PlayConfig {
            rules: started.view.rules,
            ..config
        };
        let remote = Remote::new(connection, started, record);
        let names = Names::shared(config.rules.mode, remote.names(), remote.seat());
        let records = remote
            .record_path()
            .map(Path::to_path_buf)
            .into_iter()
            .collect();
        App::at_table(
            config,
            theme,
            names,
            TableLink::Remote(Box::new(remote)),
            records,
            None,
            None,
        )
    }

    fn at_table(
        config: PlayConfig,
        theme: Theme,
        names: Names,
        table: TableLink,
        records: Vec<PathBuf>,
        record_problem: Option<String>,
        save_path: Option<PathBuf>,
    ) -> App {
        let trick_so_far = PerSeat::filled(config.rules.mode, None);
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
            events: Vec::new(),
            table,
            trick_so_far,
            trick_leader: you,
            held: None,
            last_trick: None,
            summary: None,
            review: None,
            bot_due: None,
            auto_due: None,
            auto_play,
            speed,
            now: Instant::now(),
            guard_until: None,
            decision_seen: None,
            digit_at: None,
            quit_focus: QuitChoice::Stay,
            hand_cursor: 0,
            bid_cursor: 0,
            bid_digits: String::new(),
            offer_cursor: OfferChoice::Look,
            blind_number: 0,
            to_pass: CardSet::EMPTY,
            overlay: None,
            notice: None,
            notice_lasts_one_move: false,
            hits: Hits::default(),
            quit: false,
            failure: None,
            records,
            record_problem,
            save_path,
            thinking: None,
            stats_lines: Vec::new(),
            stats_scroll: 0,
            rating_note: None,
            chat: None,
            replaced_told: Vec::new(),
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
        self.notice = None;
        self.decision_seen = None;
        self.sync();
    }

    /// Takes back the player's last bid or card, and what the bots did
    /// after it: practice games only.
    fn take_back(&mut self) {
        if !self.config.practice {
            self.notice =
                Some("Moves can be taken back only in a practice game (--practice).".into());
            self.notice_lasts_one_move = true;
            return;
        }
        // A bot thinking now answers first: what it does is taken back too.
        if let Some(thought) = self.thought(Duration::MAX) {
            self.bot_due = None;
            self.answer(thought);
        }
        match self.table.take_back(self.you) {
            Ok(true) => {
                self.events.clear();
                self.trick_so_far = PerSeat::filled(self.config.rules.mode, None);
                self.last_trick = None;
                let events = self.table.take_events(self.you);
                self.absorb(events);
                self.settle_after_replay();
                self.notice = Some("Taken back.".to_string());
                self.notice_lasts_one_move = true;
            }
            Ok(false) => {
                self.notice = Some("Nothing to take back.".to_string());
                self.notice_lasts_one_move = true;
            }
            Err(e) => self.notice = Some(format!("Cannot take back: {e}.")),
        }
    }

    /// Ends the session. A game not yet decided is kept to be resumed when
    /// it is saved, or else recorded as abandoned with its seed revealed.
    /// Says which records were written and where the game is kept.
    pub fn close(&mut self) -> Played {
        self.table.leave();
        let saved = self
            .table
            .is_saved()
            .then(|| self.save_path.clone())
            .flatten();
        // The kept game's record is not finished: it is not one to check yet.
        let mut records = self.records.clone();
        if saved.is_some() {
            records.pop();
        }
        Played {
            saved,
            records,
            record_problem: self
                .record_problem
                .clone()
                .or_else(|| self.table.record_problem().map(str::to_string)),
        }
    }

    // ----- what the view reads -----

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
    pub fn record_path(&self) -> Option<&PathBuf> {
        self.records.last()
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
        self.chat.as_deref()
    }

    /// Keys while a chat line is typed: they write it, and nothing else.
    fn chat_key(&mut self, key: Key) {
        let Some(line) = &mut self.chat else {
            return;
        };
        match key {
            Key::Esc => self.chat = None,
            Key::Enter => {
                let text = line.trim().to_string();
                self.chat = None;
                if let (false, Some(remote)) = (text.is_empty(), self.table.remote()) {
                    remote.chat(&text);
                }
            }
            Key::Backspace => {
                line.pop();
            }
            Key::Space => line.push(' '),
            Key::Char(c) if line.chars().count() < crate::net::protocol::MAX_CHAT => line.push(c),
            _ => {}
        }
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
        &self.events
    }

    pub fn held_trick(&self) -> Option<&HeldTrick> {
        self.held.as_ref()
    }

    pub fn last_trick(&self) -> Option<&TrickDone> {
        self.last_trick.as_ref()
    }

    pub fn overlay(&self) -> Option<Overlay> {
        self.overlay
    }

    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    pub fn hand_cursor(&self) -> usize {
        self.hand_cursor
    }

    pub fn offer_cursor(&self) -> OfferChoice {
        self.offer_cursor
    }

    /// The answers the blind offer has now, in the panel's order: blind
    /// nil and a blind number where the engine would take them, and looking.
    pub fn offer_choices(&self, view: &PlayerView) -> Vec<OfferChoice> {
        let blind = view.blind_bids();
        let mut choices = Vec::new();
        if blind.contains(&Bid::BlindNil) {
            choices.push(OfferChoice::BlindNil);
        }
        if blind.iter().any(|b| b.is_numeric()) {
            choices.push(OfferChoice::BlindNumber);
        }
        choices.push(OfferChoice::Look);
        choices
    }

    /// The blind number the offer shows: the one chosen, else the
    /// smallest the engine would take; `None` when none is on offer.
    pub fn blind_number(&self, view: &PlayerView) -> Option<u8> {
        let numbers = view.blind_numbers();
        numbers
            .iter()
            .copied()
            .find(|&n| n == self.blind_number)
            .or(numbers.first().copied())
    }

    /// The blind number `step` places up or down from the one shown.
    fn step_blind_number(&mut self, up: bool) {
        let view = self.view();
        let Some(now) = self.blind_number(&view) else {
            return;
        };
        let numbers = view.blind_bids().into_iter().filter(|b| b.is_numeric());
        let next = if up {
            numbers.map(Bid::tricks).find(|&n| n > now)
        } else {
            numbers.map(Bid::tricks).rfind(|&n| n < now)
        };
        self.blind_number = next.unwrap_or(now);
    }

    pub fn to_pass(&self) -> CardSet {
        self.to_pass
    }

    pub fn quit_focus(&self) -> QuitChoice {
        self.quit_focus
    }

    pub fn speed(&self) -> Speed {
        self.speed
    }

    pub fn auto_play(&self) -> bool {
        self.auto_play
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// A bot broke a rule; the game cannot go on.
    pub fn take_failure(&mut self) -> Option<BotError> {
        self.failure.take()
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
        let limit = self.config.rules.bags.limit;
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
        let max = view.mode().hand_size() as u8;
        let nil = view.rules.nil_is_bid().then_some(Bid::Nil);
        let mut bids: Vec<Bid> = (1..=max).map(Bid::Tricks).chain(nil).collect();
        if view.blind_nil_refusal().is_none() {
            bids.push(Bid::BlindNil);
        }
        bids
    }

    pub fn bid_cursor(&self) -> usize {
        self.bid_cursor
    }

    // ----- update -----

    pub fn update(&mut self, input: Input) {
        match input {
            Input::Tick(now) => self.tick(now),
            Input::Key(Key::Interrupt) => self.quit = true,
            Input::Key(key) => self.key(key),
            Input::Click { column, row } => self.click(column, row),
            Input::Resize => {}
        }
        self.sync();
    }

    fn key(&mut self, key: Key) {
        // The review draws itself at any size, and takes every key.
        if let Some(review) = &mut self.review {
            if review.key(key) == Outcome::Leave {
                self.review = None;
            }
            return;
        }
        // With no room for the table the player sees none of it: only
        // quitting does anything.
        if self.hits.is_too_small() {
            if matches!(key, Key::Char('q' | 'Q')) {
                self.quit = true;
            }
            return;
        }
        if let Some(overlay) = self.overlay {
            self.overlay_key(overlay, key);
            return;
        }
        if self.chat.is_some() {
            return self.chat_key(key);
        }
        match key {
            Key::Char('/') if self.table.is_remote() => return self.chat = Some(String::new()),
            Key::Char('p') => return self.toggle_auto_play(),
            Key::Char('u') if self.screen() == Screen::Table => return self.take_back(),
            Key::Char('h') if self.screen() == Screen::Table => return self.hint(),
            Key::Char('+' | '=') => return self.change_speed(1),
            Key::Char('-' | '_') => return self.change_speed(-1),
            Key::Char('?') => return self.overlay = Some(Overlay::Help),
            Key::Char('v') if self.screen() == Screen::Summary => return self.open_review(),
            Key::Char('r') => return self.overlay = Some(Overlay::Rules),
            Key::Char('s') => return self.open_stats(),
            Key::Char('t') => {
                if self.last_trick.is_some() {
                    self.overlay = Some(Overlay::LastTrick);
                } else {
                    self.notice = Some("No trick has been played yet.".to_string());
                    self.notice_lasts_one_move = true;
                }
                return;
            }
            Key::Char('q') | Key::Char('Q') => {
                if self.screen() == Screen::GameOver {
                    self.quit = true;
                } else {
                    self.quit_focus = QuitChoice::Stay;
                    self.overlay = Some(Overlay::ConfirmQuit);
                }
                return;
            }
            _ => {}
        }
        match self.screen() {
            // Keys that follow a pause at once were meant for it: they never
            // close the summary or start another game.
            Screen::GameOver | Screen::Summary if self.guarded() => {}
            Screen::GameOver => {
                if matches!(key, Key::Char('n') | Key::Enter) {
                    self.play_again();
                }
            }
            Screen::Summary => {
                if matches!(key, Key::Enter | Key::Space | Key::Esc) {
                    self.close_summary();
                }
            }
            // Its keys were taken above.
            Screen::Review => {}
            // Any key lifts a finished trick off the table, and nothing more.
            Screen::Table if self.held.is_some() => self.end_pause(),
            Screen::Table => self.table_key(key),
        }
    }

    fn overlay_key(&mut self, overlay: Overlay, key: Key) {
        match (overlay, key) {
            (Overlay::ConfirmQuit, Key::Char('y' | 'Y' | 'q')) => self.quit = true,
            (Overlay::ConfirmQuit, Key::Char('n' | 'N') | Key::Esc) => self.overlay = None,
            (
                Overlay::ConfirmQuit,
                Key::Left | Key::Right | Key::Up | Key::Down | Key::Tab | Key::Char('h' | 'l'),
            ) => {
                self.quit_focus = match self.quit_focus {
                    QuitChoice::Stay => QuitChoice::Quit,
                    QuitChoice::Quit => QuitChoice::Stay,
                }
            }
            (Overlay::ConfirmQuit, Key::Enter | Key::Space) => match self.quit_focus {
                QuitChoice::Quit => self.quit = true,
                QuitChoice::Stay => self.overlay = None,
            },
            (Overlay::ConfirmQuit, _) => {}
            (Overlay::Stats, Key::Up | Key::Char('k')) => {
                self.stats_scroll = self.stats_scroll.saturating_sub(1);
            }
            (Overlay::Stats, Key::Down | Key::Char('j')) => {
                // No further than the window drawn lets the last line rise.
                let limit = self.hits.scroll_limit.unwrap_or(0);
                self.stats_scroll = (self.stats_scroll + 1).min(limit);
            }
            (Overlay::Help, Key::Char('?'))
            | (Overlay::Rules, Key::Char('r'))
            | (Overlay::Stats, Key::Char('s'))
            | (Overlay::LastTrick, Key::Char('t'))
            | (_, Key::Esc | Key::Enter | Key::Space | Key::Char('q')) => self.overlay = None,
            // Another window's key goes straight to that window.
            (_, Key::Char('?')) => self.overlay = Some(Overlay::Help),
            (_, Key::Char('r')) => self.overlay = Some(Overlay::Rules),
            (_, Key::Char('s')) => self.open_stats(),
            (_, Key::Char('t')) if self.last_trick.is_some() => {
                self.overlay = Some(Overlay::LastTrick)
            }
            _ => {}
        }
    }

    fn table_key(&mut self, key: Key) {
        let Some(turn) = self.human_turn() else {
            self.idle_key(key);
            return;
        };
        // Only the keys that would make a bid or play a card wait out the
        // guard; choosing and moving never do harm.
        let commits = match (turn.decision, key) {
            (_, Key::Enter) => true,
            (Decision::BlindNil | Decision::Bid | Decision::Play, Key::Space) => true,
            (Decision::BlindNil, Key::Char('b' | 'c')) => true,
            (Decision::Bid, Key::Char('n' | 'b')) => true,
            (Decision::Play, Key::Char(c)) => c.is_ascii() && CARD_KEYS.contains(&(c as u8)),
            _ => false,
        };
        if commits && self.guarded() {
            return;
        }
        match turn.decision {
            Decision::BlindNil => self.offer_key(key),
            Decision::Bid => self.bid_key(key),
            Decision::Exchange => match key {
                Key::Enter => self.act(Action::Exchange(self.to_pass)),
                Key::Space => {
                    if let Some(card) = self.card_at_cursor() {
                        self.toggle_pass(card);
                    }
                }
                _ => {
                    if let Some(card) = self.move_or_pick(key) {
                        self.toggle_pass(card);
                    }
                }
            },
            Decision::Play => match key {
                Key::Enter | Key::Space => {
                    if let Some(card) = self.card_at_cursor() {
                        self.act(Action::Play(card));
                    }
                }
                _ => {
                    if let Some(card) = self.move_or_pick(key) {
                        self.act(Action::Play(card));
                    }
                }
            },
        }
    }

    /// Keys while another seat is to act: the cursor still moves.
    fn idle_key(&mut self, key: Key) {
        let picked = matches!(key, Key::Enter | Key::Space) || self.move_or_pick(key).is_some();
        if picked && let Some(seat) = self.waiting_for() {
            self.notice = Some(format!("Wait: it is {}'s turn.", self.names.seat(seat)));
            self.notice_lasts_one_move = true;
        }
    }

    /// Moves the hand cursor, or returns the card whose key was pressed.
    fn move_or_pick(&mut self, key: Key) -> Option<Card> {
        let hand = hand_order(self.hand_view().cards());
        match key {
            Key::Left => {
                self.hand_cursor = self.hand_cursor.saturating_sub(1);
                None
            }
            Key::Right => {
                self.hand_cursor = (self.hand_cursor + 1).min(hand.len().saturating_sub(1));
                None
            }
            Key::Char(c) => {
                let place = CARD_KEYS.iter().position(|&k| char::from(k) == c)?;
                let card = *hand.get(place)?;
                self.hand_cursor = place;
                Some(card)
            }
            _ => None,
        }
    }

    fn card_at_cursor(&self) -> Option<Card> {
        hand_order(self.hand_view().cards())
            .get(self.hand_cursor)
            .copied()
    }

    fn toggle_pass(&mut self, card: Card) {
        let count = self.view().exchange.map_or(0, |e| e.count);
        if self.to_pass.contains(card) {
            self.to_pass.remove(card);
        } else if self.to_pass.len() >= u32::from(count) {
            self.notice = Some(format!(
                "You pass exactly {count} cards: take one back before choosing another."
            ));
            self.notice_lasts_one_move = false;
            return;
        } else {
            self.to_pass.insert(card);
        }
        // The choice changed: an earlier refusal no longer applies.
        self.notice = None;
    }

    fn offer_key(&mut self, key: Key) {
        if !matches!(key, Key::Char('0'..='9')) {
            self.bid_digits.clear();
        }
        let view = self.view();
        let choices = self.offer_choices(&view);
        let at = choices.iter().position(|&c| c == self.offer_cursor);
        let step = |by: usize| {
            let at = at.unwrap_or(0);
            choices[(at + by) % choices.len()]
        };
        match key {
            Key::Char('b') => self.act(Action::Bid(Bid::BlindNil)),
            Key::Char('c') => self.act(Action::Look),
            Key::Up | Key::Down if self.offer_cursor == OfferChoice::BlindNumber => {
                self.step_blind_number(key == Key::Up);
            }
            Key::Right | Key::Down => self.offer_cursor = step(1),
            Key::Left | Key::Up => self.offer_cursor = step(choices.len() - 1),
            Key::Char(d @ '0'..='9') => {
                let max = view.mode().hand_size();
                if let Some(n) = self.typed_number(d, max)
                    && view.blind_bids().contains(&Bid::Blind(n))
                {
                    self.blind_number = n;
                    self.offer_cursor = OfferChoice::BlindNumber;
                }
            }
            Key::Enter | Key::Space => self.choose_offer(self.offer_cursor),
            _ => {}
        }
    }

    /// A digit typed toward a number up to `max`: "1" then "2" within a
    /// second is 12 when 12 fits; after a pause a digit starts anew. `None`
    /// for a lone 0.
    fn typed_number(&mut self, d: char, max: usize) -> Option<u8> {
        if self.digit_at.is_some_and(|at| self.now >= at + DIGIT_PAUSE) {
            self.bid_digits.clear();
        }
        self.digit_at = Some(self.now);
        let mut typed = format!("{}{d}", self.bid_digits);
        if typed.parse::<usize>().map_or(true, |n| n > max) {
            typed = d.to_string();
        }
        let n = typed.parse::<u8>().ok()?;
        if n == 0 {
            self.bid_digits.clear();
            return None;
        }
        self.bid_digits = typed;
        Some(n)
    }

    fn bid_key(&mut self, key: Key) {
        let view = self.view();
        let options = self.bid_options(&view);
        let last = options.len().saturating_sub(1);
        if !matches!(key, Key::Char('0'..='9')) {
            self.bid_digits.clear();
        }
        match key {
            Key::Left => self.bid_cursor = self.bid_cursor.saturating_sub(1),
            Key::Right => self.bid_cursor = (self.bid_cursor + 1).min(last),
            Key::Enter | Key::Space => {
                if let Some(&bid) = options.get(self.bid_cursor) {
                    self.act(Action::Bid(bid));
                }
            }
            Key::Char('n') => self.act(Action::Bid(Bid::Nil)),
            Key::Char('b') => self.act(Action::Bid(Bid::BlindNil)),
            Key::Char(d @ '0'..='9') => {
                let max = view.mode().hand_size();
                if let Some(n) = self.typed_number(d, max)
                    && let Some(i) = options.iter().position(|&b| b == Bid::Tricks(n))
                {
                    self.bid_cursor = i;
                }
            }
            _ => {}
        }
    }

    fn choose_offer(&mut self, choice: OfferChoice) {
        match choice {
            OfferChoice::BlindNil => self.act(Action::Bid(Bid::BlindNil)),
            OfferChoice::BlindNumber => {
                if let Some(n) = self.blind_number(&self.view()) {
                    self.act(Action::Bid(Bid::Blind(n)));
                }
            }
            OfferChoice::Look => self.act(Action::Look),
        }
    }

    fn click(&mut self, column: u16, row: u16) {
        if self.hits.is_too_small() || self.review.is_some() {
            return;
        }
        let target = self.hits.at(column, row);
        if let Some(overlay) = self.overlay {
            match (overlay, target) {
                (Overlay::ConfirmQuit, Some(Target::Quit)) => self.quit = true,
                (Overlay::ConfirmQuit, Some(Target::Continue)) => self.overlay = None,
                (Overlay::ConfirmQuit, _) => {}
                // A click outside the window closes it, as Esc does.
                (_, None) => self.overlay = None,
                (_, Some(_)) => {}
            }
            return;
        }
        if self.held.is_some() {
            self.end_pause();
            return;
        }
        let Some(target) = target else { return };
        let acts = !matches!(target, Target::Quit);
        if self.guarded() && acts {
            return;
        }
        match target {
            Target::Card(card) => {
                if let Some(place) = hand_order(self.hand_view().cards())
                    .iter()
                    .position(|&c| c == card)
                {
                    self.hand_cursor = place;
                }
                match self.human_turn().map(|t| t.decision) {
                    Some(Decision::Play) => self.act(Action::Play(card)),
                    Some(Decision::Exchange) => self.toggle_pass(card),
                    _ => self.idle_key(Key::Enter),
                }
            }
            Target::Bid(bid) => {
                if self.human_turn().map(|t| t.decision) == Some(Decision::Bid) {
                    // A click chooses; a second click on the same bid makes it.
                    let options = self.bid_options(&self.view());
                    let chosen = options.get(self.bid_cursor) == Some(&bid);
                    if chosen {
                        self.act(Action::Bid(bid));
                    } else if let Some(i) = options.iter().position(|&b| b == bid) {
                        self.bid_cursor = i;
                    }
                }
            }
            Target::Offer(choice) => {
                if self.human_turn().map(|t| t.decision) == Some(Decision::BlindNil) {
                    self.choose_offer(choice);
                }
            }
            Target::Continue => match self.screen() {
                Screen::Summary => self.close_summary(),
                _ => self.key(Key::Enter),
            },
            Target::PlayAgain => self.play_again(),
            Target::Quit => self.quit = true,
        }
    }

    /// The player's action, checked by the engine; a refusal is shown as
    /// the engine words it.
    fn act(&mut self, action: Action) {
        match self.table.act(self.acting_seat(), action) {
            Ok(()) => {
                self.notice = None;
                let events = self.table.take_events(self.you);
                self.absorb(events);
            }
            Err(error) => {
                self.notice = Some(sentence(&error.to_string()));
                self.notice_lasts_one_move = false;
            }
        }
    }

    /// Lets time pass: finished tricks clear and bots act, each after the
    /// pause the speed asks for.
    fn tick(&mut self, now: Instant) {
        // The app's clock never runs back, so a pause is measured one way.
        self.now = self.now.max(now);
        let now = self.now;
        // Nothing moves under a window or a review.
        if self.overlay.is_some() || self.failure.is_some() || self.review.is_some() {
            return;
        }
        let pace = self.speed.pace();
        loop {
            if let Some(held) = &mut self.held {
                match held.until {
                    None => held.until = Some(now + pace.trick),
                    Some(until) if now >= until => self.end_pause(),
                    Some(_) => return,
                }
                continue;
            }
            if self.summary.is_some() {
                return;
            }
            if let Some(card) = self.forced_card() {
                match self.auto_due {
                    None => self.auto_due = Some(now + pace.bot),
                    Some(due) if now >= due => {
                        self.auto_due = None;
                        self.act(Action::Play(card));
                        continue;
                    }
                    Some(_) => return,
                }
            }
            if self.table.is_remote() {
                if !self.remote_step(now) {
                    return;
                }
                continue;
            }
            if self.table.bot_turn().is_none() {
                return;
            }
            // The bot starts thinking at once, on a thread of its own, so
            // the table keeps drawing and answering keys while it thinks;
            // its answer shows once the pause is over.
            if self.thinking.is_none() {
                let Some(thinking) = self.table.think() else {
                    return;
                };
                self.thinking = Some(think_aside(thinking));
                self.bot_due = Some(now + pace.bot);
            }
            if self.bot_due.is_some_and(|due| now < due) {
                return;
            }
            let Some(thought) = self.thought(THINK_WAIT) else {
                return;
            };
            self.bot_due = None;
            if self.notice_lasts_one_move {
                self.notice = None;
            }
            if !self.answer(thought) {
                return;
            }
        }
    }

    /// Shows the next move at a table on a server, once its pause is over:
    /// another seat's move waits as a bot's would here. False when there
    /// is nothing to show yet.
    fn remote_step(&mut self, now: Instant) -> bool {
        let pace = self.speed.pace();
        if let Some(remote) = self.table.remote() {
            remote.pump();
        }
        self.show_news();
        let Some(remote) = self.table.remote() else {
            return false;
        };
        if !remote.has_waiting() {
            return false;
        }
        if remote.next_is_others_move() {
            match self.bot_due {
                None => {
                    self.bot_due = Some(now + pace.bot);
                    return false;
                }
                Some(due) if now < due => return false,
                Some(_) => self.bot_due = None,
            }
        }
        remote.step();
        let closed = remote.closed().map(str::to_string);
        if !self.show_news() && self.notice_lasts_one_move {
            self.notice = None;
        }
        let events = self.table.take_events(self.you);
        self.absorb(events);
        if let Some(why) = closed
            && self.table.phase() != Phase::Over
        {
            self.notice = Some(sentence(&format!("the table is gone: {why}; q leaves")));
            self.notice_lasts_one_move = false;
            return false;
        }
        true
    }

    /// Puts a shared table's latest news (chat, seats changing hands,
    /// refusals) in the notice line; says whether there was any.
    fn show_news(&mut self) -> bool {
        let latest = self.table.remote().and_then(|r| r.take_news().pop());
        let Some(news) = latest else {
            return false;
        };
        self.notice = Some(news);
        self.notice_lasts_one_move = false;
        true
    }

    /// The thinking bot's answer, waiting for it up to `wait`.
    fn thought(&mut self, wait: Duration) -> Option<Thought> {
        let answer = self.thinking.as_ref()?.recv_timeout(wait);
        match answer {
            Ok(thought) => {
                self.thinking = None;
                Some(thought)
            }
            Err(RecvTimeoutError::Timeout) => None,
            // A bot that panics is a bug: it is not hidden.
            Err(RecvTimeoutError::Disconnected) => {
                panic!("a computer player failed while thinking")
            }
        }
    }

    /// Seats the bot's answer at the table; false when it broke a rule.
    fn answer(&mut self, thought: Thought) -> bool {
        match self.table.answer(thought) {
            Ok(()) => {
                // A program at a seat that failed is said once, as sim does.
                for (seat, why) in self.table.replaced() {
                    if !self.replaced_told.contains(&seat) {
                        self.replaced_told.push(seat);
                        self.notice = Some(format!(
                            "{}'s program was replaced by {why}",
                            self.names.seat(seat)
                        ));
                        self.notice_lasts_one_move = false;
                    }
                }
                let events = self.table.take_events(self.you);
                self.absorb(events);
                true
            }
            Err(error) => {
                self.failure = Some(error);
                false
            }
        }
    }

    /// Is a computer player thinking right now?
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Is the table waiting on a bot's answer, its pause over?
    pub fn waits_for_bot(&self) -> bool {
        self.thinking.is_some() && self.bot_due.is_none_or(|due| self.now >= due)
    }

    /// Follows the game through its events, as any client of the table does.
    fn absorb(&mut self, events: Vec<SeatEvent>) {
        for event in events {
            match &event {
                SeatEvent::Play { seat, card, .. } => {
                    if self.trick_so_far.iter().all(Option::is_none) {
                        self.trick_leader = *seat;
                    }
                    self.trick_so_far[*seat] = Some(*card);
                }
                SeatEvent::Trick { winner, .. } => {
                    let trick = TrickDone {
                        leader: self.trick_leader,
                        cards: self.trick_so_far,
                        winner: *winner,
                    };
                    self.trick_so_far = self.trick_so_far.map(|_| None);
                    self.last_trick = Some(trick);
                    self.held = Some(HeldTrick { trick, until: None });
                }
                SeatEvent::Score { .. } => self.summary = self.table.results().last().cloned(),
                SeatEvent::Dealt { .. } => {
                    self.to_pass = CardSet::EMPTY;
                    self.hand_cursor = 0;
                    self.offer_cursor = OfferChoice::Look;
                    self.blind_number = 0;
                }
                SeatEvent::Exchange {
                    from,
                    to,
                    cards: Some(cards),
                    ..
                } if *to == self.you => {
                    self.notice = Some(format!(
                        "{} passed you {}.",
                        self.names.seat(*from),
                        faces(*cards, &self.theme)
                    ));
                    self.notice_lasts_one_move = false;
                }
                SeatEvent::Bid { .. } | SeatEvent::Exchange { .. } | SeatEvent::End { .. } => {}
            }
            self.events.push(event);
        }
    }

    /// A finished trick leaves the table; keys that follow at once were
    /// meant for the pause, not for the next turn.
    fn end_pause(&mut self) {
        self.held = None;
        self.guard_until = Some(self.now + self.speed.pace().guard);
    }

    fn guarded(&self) -> bool {
        self.guard_until.is_some_and(|until| self.now < until)
    }

    /// The card auto-play plays: the player's only legal one, when it is
    /// their turn to play and auto-play is on.
    fn forced_card(&self) -> Option<Card> {
        if !self.auto_play || self.human_turn().map(|t| t.decision) != Some(Decision::Play) {
            return None;
        }
        let legal = self.hand_view().legal_plays();
        (legal.len() == 1).then(|| legal.lowest()).flatten()
    }

    fn toggle_auto_play(&mut self) {
        self.auto_play = !self.auto_play;
        self.auto_due = None;
        self.notice = Some(if self.auto_play {
            "Auto-play on: a card you have no choice about is played for you.".to_string()
        } else {
            "Auto-play off: you play every card yourself.".to_string()
        });
        self.notice_lasts_one_move = true;
    }

    /// One step faster (`up` > 0) or slower along slow, normal, fast, instant.
    fn change_speed(&mut self, up: i32) {
        let at = Speed::ALL
            .iter()
            .position(|&s| s == self.speed)
            .unwrap_or(1) as i32;
        let to = (at + up).clamp(0, Speed::ALL.len() as i32 - 1);
        self.speed = Speed::ALL[to as usize];
        self.notice = Some(format!("Speed: {}.", self.speed));
        self.notice_lasts_one_move = true;
    }

    /// Opens the review of the hand summed up: built from the events the
    /// player's seat was told, which once a hand is over show every card,
    /// and the engine's result. The table is not asked for anything more.
    fn open_review(&mut self) {
        let Some(result) = &self.summary else {
            return;
        };
        let rules = self.config.rules;
        let names = rules
            .mode
            .each_seat()
            .map(|s| self.names.seat(s).to_string())
            .collect();
        match Story::of_hand(rules, names, self.you, &self.events, result) {
            Ok(story) => self.review = Some(Viewer::new(story, Source::HandReview)),
            Err(why) => {
                self.notice = Some(sentence(&format!("the hand cannot be reviewed: {why}")));
                self.notice_lasts_one_move = true;
            }
        }
    }

    /// The player has read the hand's summary: the next hand is dealt.
    fn close_summary(&mut self) {
        self.summary = None;
        self.guard_until = Some(self.now + self.speed.pace().guard);
        if self.table.deal_next_hand() {
            let events = self.table.take_events(self.you);
            self.absorb(events);
        }
    }

    /// Says what `hard` would do at the player's turn, and why, from the
    /// player's own view of the table (nothing else is given to it).
    fn hint(&mut self) {
        self.notice_lasts_one_move = true;
        let Some(turn) = self.human_turn() else {
            self.notice = Some("A hint is for your turn.".into());
            return;
        };
        let view = self.hand_view();
        // Seeded from where the game stands: the same question, the same hint.
        let mut rng = bots::bot_rng(
            u64::from(view.hand_no) << 8 | u64::from(view.play.played.len()),
            view.seat,
        );
        let advice = bots::hard::advise(&view, turn.decision, self.config.effort, &mut rng);
        self.notice = Some(hint_text(&advice, self.theme()));
        // The cursor goes to the hinted choice; only the player makes it.
        match advice.chosen {
            Action::Play(card) => {
                if let Some(at) = hand_order(view.cards()).iter().position(|&c| c == card) {
                    self.hand_cursor = at;
                }
            }
            Action::Bid(bid) => {
                if let Some(at) = self.bid_options(&view).iter().position(|&b| b == bid) {
                    self.bid_cursor = at;
                }
            }
            _ => {}
        }
    }

    /// Opens the statistics window on the player's records as they stand.
    fn open_stats(&mut self) {
        self.stats_lines = match &self.config.records {
            Some(dir) => crate::stats::summary_of(dir)
                .unwrap_or_else(|e| vec![format!("The records cannot be read: {e}.")]),
            None => vec![
                "Statistics come from the games' records, and no game is recorded here.".into(),
            ],
        };
        self.stats_scroll = 0;
        self.overlay = Some(Overlay::Stats);
    }

    /// What the game just finished did to the player's rating, in a line
    /// or two for the game-over window.
    fn rating_lines(&self) -> Vec<String> {
        if self.config.practice {
            return vec!["A practice game: not rated.".into()];
        }
        let (Some(dir), Some(id)) = (
            &self.config.records,
            self.record_path().and_then(|p| p.file_stem()),
        ) else {
            return Vec::new();
        };
        if self.table.rules().is_quick() {
            return vec![best_run_note(dir, &id.to_string_lossy())];
        }
        match crate::rating::change_for(dir, &id.to_string_lossy()) {
            Ok(Some(change)) => vec![format!(
                "Rating {:.0} ± {:.0} ({} from {:.0})",
                change.after.0,
                change.after.1,
                crate::rating::signed(change.after.0 - change.before.0),
                change.before.0,
            )],
            Ok(None) => vec![format!(
                "Not rated: {} has no rating.",
                self.config.difficulty
            )],
            Err(e) => vec![format!("Rating unknown: {e}")],
        }
    }

    /// What the end of a game shows under the scores: the rating, or for a
    /// Quick Play run where it stands among the player's best.
    pub fn rating_note(&self) -> &[String] {
        self.rating_note.as_deref().unwrap_or_default()
    }

    pub fn stats_lines(&self) -> &[String] {
        &self.stats_lines
    }

    pub fn stats_scroll(&self) -> usize {
        self.stats_scroll
    }

    fn play_again(&mut self) {
        if self.table.is_remote() {
            self.notice = Some("This table's game is over: q leaves it.".into());
            self.notice_lasts_one_move = true;
            return;
        }
        // An open seed leads to the next open seed, so a session replays; a
        // secret one to a fresh secret.
        let config = PlayConfig {
            seed: self.open_seed().map(next_seed),
            ..self.config.clone()
        };
        match App::new(config, self.theme) {
            Ok(mut fresh) => {
                fresh.hits = std::mem::take(&mut self.hits);
                let mut records = std::mem::take(&mut self.records);
                records.append(&mut fresh.records);
                fresh.records = records;
                fresh.record_problem = fresh.record_problem.or(self.record_problem.take());
                *self = fresh;
            }
            Err(error) => self.notice = Some(sentence(&error.to_string())),
        }
    }

    /// Keeps the cursors on something that exists, and on a playable card
    /// when it is the player's turn to play.
    fn sync(&mut self) {
        let view = self.view();
        if view.phase == Phase::Over && self.rating_note.is_none() {
            self.rating_note = Some(self.rating_lines());
        }
        let playing = self.hand_view();
        let hand = hand_order(playing.cards());
        self.hand_cursor = self.hand_cursor.min(hand.len().saturating_sub(1));
        // When one of the player's decisions begins, keys pressed just
        // before it (for a pause, or while waiting) are not taken for it, and
        // a turn to play starts the cursor on the card a careful player would
        // most often play; after that it goes where the player moves it.
        let decision = self
            .human_turn()
            .map(|t| (view.hand_no, view.play.played.len(), t.decision));
        if decision.is_some() && decision != self.decision_seen {
            let guard = self.now + self.speed.pace().guard;
            self.guard_until = Some(self.guard_until.map_or(guard, |g| g.max(guard)));
            if let Some(card) = playing.cautious_play()
                && let Some(place) = hand.iter().position(|&c| c == card)
            {
                self.hand_cursor = place;
            }
        }
        let begins = decision.is_some() && decision != self.decision_seen;
        self.decision_seen = decision;
        let options = self.bid_options(&view);
        self.bid_cursor = self.bid_cursor.min(options.len().saturating_sub(1));
        // A bid the rules refuse (mirror's forced bid, the board, suicide)
        // is not where a new turn to bid starts the cursor.
        let refused = |b: &Bid| view.check_bid(*b).is_err();
        if begins
            && (view.rules.bidding.game != BiddingGame::Classic
                || view.rules.bidding.board > 0
                || view.rules.bidding.min_bid > 1)
            && options.get(self.bid_cursor).is_some_and(refused)
            && let Some(i) = options.iter().position(|b| !refused(b))
        {
            self.bid_cursor = i;
        }
        if view.phase != Phase::Exchange {
            self.to_pass = CardSet::EMPTY;
        }
    }
}

/// A hint in a line: the action, what it comes to, and the next best.
fn hint_text(advice: &bots::hard::Weighing<Action>, theme: &Theme) -> String {
    let say = |action: Action| match action {
        Action::Play(card) => format!("play the {}", theme.card(card)),
        Action::Bid(Bid::Nil) => "bid nil".to_string(),
        Action::Bid(Bid::BlindNil) => "bid blind nil".to_string(),
        Action::Bid(bid @ Bid::Blind(_)) => format!("bid {bid}"),
        Action::Bid(bid) => format!("bid {}", bid.tricks()),
        Action::Look => "look at your cards".to_string(),
        Action::Exchange(cards) => format!(
            "pass {}",
            cards
                .iter()
                .map(|c| theme.card(c))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    };
    let short = |action: Action| match action {
        Action::Play(card) => theme.card(card),
        Action::Bid(Bid::Nil) => "nil".to_string(),
        Action::Bid(bid @ Bid::Blind(_)) => bid.to_string(),
        Action::Bid(bid) => bid.tricks().to_string(),
        other => say(other),
    };
    let mut text = format!("Hint: {}", say(advice.chosen));
    let Some(chosen) = advice.ranked.iter().find(|w| w.choice == advice.chosen) else {
        // Nothing was weighed: one sensible choice, or a nil on your side,
        // which is played by the rules a partner counts on.
        return text + " (the usual play here).";
    };
    let percent = |p: f64| format!("{:.0}%", 100.0 * p);
    let mut why = Vec::new();
    if let Some(p) = chosen.nil {
        why.push(format!("nil holds {}", percent(p)));
    }
    if let Some(p) = chosen.contract {
        why.push(format!("contract {}", percent(p)));
    }
    if let Some(p) = chosen.set.filter(|&p| p >= 0.05) {
        why.push(format!("sets them {}", percent(p)));
    }
    why.push(format!("{:+.0} points", chosen.points));
    text.push_str(&format!(" ({})", why.join(", ")));
    let others: Vec<String> = advice
        .ranked
        .iter()
        .filter(|w| w.choice != advice.chosen)
        .take(2)
        .map(|w| format!("{} {:+.0}", short(w.choice), w.points))
        .collect();
    if !others.is_empty() {
        text.push_str(&format!("; else {}", others.join(", ")));
    }
    text + "."
}

/// How long a tick waits for a bot whose pause is over: long enough that
/// a quick bot's answer shows on the tick it is due, short enough that the
/// table never seems to stall while a slow one thinks.
const THINK_WAIT: Duration = Duration::from_millis(5);

/// Thinks `thinking` out on a thread of its own; the answer comes back on
/// the channel. Nobody waits for the thread: a game left while a bot
/// thinks simply drops its answer.
fn think_aside(thinking: Thinking) -> Receiver<Thought> {
    let (answer, thought) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = answer.send(thinking.think());
    });
    thought
}

fn new_table(config: &PlayConfig) -> Result<Table, TuiError> {
    let dealing = match config.seed {
        Some(seed) => Dealing::Open(seed),
        None => Dealing::secret().map_err(TuiError::Dealing)?,
    };
    Ok(Table::new(config.rules, dealing, players(config)?))
}

/// The player at seat 0, bots of the chosen level at the others.
fn players(config: &PlayConfig) -> Result<Vec<Player>, TuiError> {
    debug_assert_eq!(YOU.index(), 0, "the player sits in seat 0");
    Ok(crate::table::player_and_bots(
        config.rules.mode,
        &config.difficulty,
        config.effort,
    )?)
}

/// Has the table write the game's record to a new file in `dir`.
fn record_game(
    table: &mut Table,
    dir: &Path,
    names: &Names,
    config: &PlayConfig,
    started: u64,
) -> Result<PathBuf, String> {
    let (file, path) =
        create_record_file(dir).map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
    let seats = names.all();
    let info = GameInfo {
        id: path.file_stem().map(|s| s.to_string_lossy().into_owned()),
        started: Some(started),
        player_seat: Some(YOU),
        difficulty: Some(config.difficulty.clone()),
        rules_source: Some(config.rules_source.clone()),
        practice: config.practice,
    };
    table
        .record_to(Box::new(BufWriter::new(file)), seats, info)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The next game's seed, derived so a session of games replays too.
pub fn next_seed(seed: u64) -> u64 {
    // SplitMix64's step: consecutive seeds give unrelated deals.
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An engine message as a sentence: capital first, full stop last.
fn sentence(message: &str) -> String {
    let mut chars = message.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut s: String = first.to_uppercase().chain(chars).collect();
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}

/// Where the Quick Play run recorded as `id` stands among the best runs
/// in the records folder `dir`.
fn best_run_note(dir: &std::path::Path, id: &str) -> String {
    let history = match crate::history::History::read(dir) {
        Ok(history) => history,
        Err(e) => return format!("Best runs unknown: {e}"),
    };
    let runs = crate::stats::Stats::of(&history.games).runs;
    let best = runs.best.first();
    match runs.best.iter().position(|r| r.id == id) {
        Some(0) if runs.finished > 1 => "A new personal best!".to_string(),
        Some(0) => "Your first run: your best so far.".to_string(),
        Some(place) if best.is_some_and(|b| b.total == runs.best[place].total) => {
            "Level with your best run.".to_string()
        }
        Some(place) => format!(
            "Your {} best run (the best: {}).",
            ordinal(place + 1),
            best.map_or(0, |b| b.total)
        ),
        None => best.map_or_else(String::new, |best| {
            format!("Your best run: {} in {} hands.", best.total, best.hands)
        }),
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_runs_spades_hearts_clubs_diamonds_high_first() {
        let cards: CardSet = "2C AS 3D KH 9S TC".parse().unwrap();
        let shown: Vec<String> = hand_order(cards).iter().map(|c| c.to_string()).collect();
        assert_eq!(shown, ["AS", "9S", "KH", "TC", "2C", "3D"]);
    }

    #[test]
    fn card_keys_avoid_command_letters() {
        for k in CARD_KEYS {
            assert!(!b"hlqrtn?".contains(k), "{}", char::from(*k));
        }
        assert_eq!(CARD_KEYS.len(), 17, "one key per card of a cutthroat hand");
    }

    #[test]
    fn engine_messages_become_sentences() {
        assert_eq!(
            sentence("you must follow hearts"),
            "You must follow hearts."
        );
        assert_eq!(sentence(""), "");
    }
}
