//! Keys and clicks: what each does on the screen it is pressed on. Only
//! the keys that would make a bid or play a card wait out the guard after
//! a pause; choosing and moving never do harm.

use crate::engine::{Action, Card, Decision};

use super::super::components::exchange::Passing;
use super::super::components::windows::Asked;
use super::super::hand::{CARD_KEYS, hand_order};
use super::super::hits::Target;
use super::super::input::{Input, Key};
use super::super::replay::Outcome;
use super::{App, Overlay, Screen};

impl App {
    pub fn update(&mut self, input: Input) {
        match input {
            Input::Tick(now) => self.tick(now),
            Input::Key(Key::Interrupt) => self.quit = true,
            Input::Key(key) => {
                // Between steps too (a game over has none), what the disk
                // refused is tried again whenever the player does anything.
                self.table.catch_up();
                self.key(key);
            }
            Input::Click { column, row } => {
                self.table.catch_up();
                self.click(column, row);
            }
            Input::Resize => {}
        }
        self.sync();
        self.follow_hint();
    }

    pub(super) fn key(&mut self, key: Key) {
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
        if self.windows.open().is_some() {
            let limit = self.hits.scroll_limit.unwrap_or(0);
            let asked = self
                .windows
                .key(key, limit, self.told.last_trick().is_some());
            return self.follow_window(asked);
        }
        if self.chat.is_open() {
            if let Some(text) = self.chat.key(key, self.table.chat_log().len()) {
                self.send_chat(&text);
            }
            return;
        }
        match key {
            Key::Char('/') if self.table.is_remote() => return self.chat.open(),
            Key::Char('p') => return self.toggle_auto_play(),
            Key::Char('u') if matches!(self.screen(), Screen::Table | Screen::Summary) => {
                return self.undo();
            }
            Key::Char('C') if self.screen() == Screen::Table => return self.claim_the_rest(),
            Key::Char('h') if self.screen() == Screen::Table => return self.ask_hint(),
            Key::Char('+' | '=') => return self.change_speed(1),
            Key::Char('-' | '_') => return self.change_speed(-1),
            Key::Char('?') => return self.windows.show(Overlay::Help),
            Key::Char('v') if self.screen() == Screen::Summary => return self.open_review(),
            Key::Char('a') if self.screen() == Screen::Summary => return self.analyse_hand(),
            Key::Char('m') if self.screen() == Screen::Table => return self.memory.toggle(),
            // At the end, r replays the game (game_over.rs).
            Key::Char('r') if self.screen() != Screen::GameOver => {
                return self.windows.show(Overlay::Rules);
            }
            Key::Char('s') => return self.open_stats(),
            Key::Char('t') => {
                if self.told.last_trick().is_some() {
                    self.windows.show(Overlay::LastTrick);
                } else {
                    self.notice
                        .brief("No trick has been played yet.".to_string());
                }
                return;
            }
            // Nothing is lost leaving a game that is over, or a table that
            // has gone: no question asked then.
            Key::Char('q') | Key::Char('Q') => return self.ask_to_quit(),
            _ => {}
        }
        match self.screen() {
            // Keys that follow a pause at once were meant for it: they never
            // close the summary or start another game.
            Screen::GameOver | Screen::Summary if self.guarded() => self.hold_back(),
            Screen::GameOver => self.game_over_key(key),
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

    /// Does what a window's key or click asks that only the app can do.
    fn follow_window(&mut self, asked: Asked) {
        match asked {
            Asked::Nothing => {}
            Asked::Leave => self.quit = true,
            Asked::Stats => self.open_stats(),
        }
    }

    pub(super) fn table_key(&mut self, key: Key) {
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
            return self.hold_back();
        }
        // The only card is played for the player after its pause: a key
        // pressed for it meanwhile is dropped, never kept for the trick
        // after.
        if commits && self.forced_card().is_some() {
            return;
        }
        let view = self.view();
        let now = self.now;
        match turn.decision {
            Decision::BlindNil => {
                if let Some(action) = self.offer.key(key, &view, now) {
                    self.answer_offer(action);
                }
            }
            Decision::Bid => {
                if let Some(bid) = self.bids.key(key, &view, now) {
                    self.bid(bid);
                }
            }
            Decision::Exchange => {
                let hand = hand_order(self.hand_view().cards());
                let count = view.exchange.map_or(0, |e| e.count);
                let passing = self.exchange.key(key, &mut self.hand, &hand, count);
                self.after_passing(passing);
            }
            Decision::Play => {
                let hand = hand_order(self.hand_view().cards());
                let card = match key {
                    Key::Enter | Key::Space => self.hand.card(&hand),
                    _ => self.hand.key(key, &hand),
                };
                if let Some(card) = card {
                    self.play(card);
                }
            }
        }
    }

    /// Keys while another seat is to act: the cursor still moves.
    pub(super) fn idle_key(&mut self, key: Key) {
        let picked = matches!(key, Key::Enter | Key::Space) || self.move_or_pick(key).is_some();
        if picked {
            self.say_whose_turn();
        }
    }

    /// Moves the hand cursor, or returns the card whose key was pressed.
    fn move_or_pick(&mut self, key: Key) -> Option<Card> {
        let hand = hand_order(self.hand_view().cards());
        self.hand.key(key, &hand)
    }

    /// Chooses `card` to pass, or takes it back.
    fn toggle_pass(&mut self, card: Card) {
        let count = self.view().exchange.map_or(0, |e| e.count);
        let passing = self.exchange.toggle(card, count);
        self.after_passing(passing);
    }

    /// Says what came of a key or a click at the exchange.
    fn after_passing(&mut self, passing: Passing) {
        match passing {
            Passing::Nothing => {}
            // The choice changed: an earlier refusal no longer applies.
            Passing::Chosen => self.notice.clear(),
            Passing::Refused(why) => {
                self.notice.stays(why);
            }
            Passing::Pass(cards) => self.pass(cards),
        }
    }

    /// The player's answer to the blind offer: a blind bid, or a look.
    fn answer_offer(&mut self, action: Action) {
        match action {
            Action::Bid(bid) => self.bid(bid),
            _ => self.look(),
        }
    }

    pub(super) fn click(&mut self, column: u16, row: u16) {
        if self.hits.is_too_small() || self.review.is_some() {
            return;
        }
        let target = self.hits.at(column, row);
        if self.windows.open().is_some() {
            let asked = self.windows.click(target);
            return self.follow_window(asked);
        }
        if self.held.is_some() {
            self.end_pause();
            return;
        }
        let Some(target) = target else { return };
        let acts = !matches!(target, Target::Quit);
        if self.guarded() && acts {
            return self.hold_back();
        }
        // As a key is, while the only card waits to be played for them.
        if matches!(target, Target::Card(_)) && self.forced_card().is_some() {
            return;
        }
        match target {
            Target::Card(card) => {
                let hand = hand_order(self.hand_view().cards());
                self.hand.place_on(card, &hand);
                match self.human_turn().map(|t| t.decision) {
                    Some(Decision::Play) => self.play(card),
                    Some(Decision::Exchange) => self.toggle_pass(card),
                    _ => self.idle_key(Key::Enter),
                }
            }
            Target::Bid(bid) => {
                if self.human_turn().map(|t| t.decision) == Some(Decision::Bid) {
                    // A click chooses; a second click on the same bid makes it.
                    if let Some(bid) = self.bids.click(bid, &self.view()) {
                        self.bid(bid);
                    }
                }
            }
            Target::Offer(choice) => {
                if self.human_turn().map(|t| t.decision) == Some(Decision::BlindNil)
                    && let Some(action) = self.offer.choose(choice, &self.view())
                {
                    self.answer_offer(action);
                }
            }
            Target::Continue => match self.screen() {
                Screen::Summary => self.close_summary(),
                _ => self.key(Key::Enter),
            },
            Target::PlayAgain => self.play_again(),
            Target::ReviewGame => self.look_back(true),
            Target::ReplayGame => self.look_back(false),
            Target::Quit => self.quit = true,
        }
    }
}
