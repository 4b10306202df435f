//! Keys and clicks: what each does on the screen it is pressed on. Only
//! the keys that would make a bid or play a card wait out the guard after
//! a pause; choosing and moving never do harm.

use crate::engine::{Bid, Card, Decision};

use super::super::hand::{CARD_KEYS, hand_order};
use super::super::hits::{OfferChoice, Target};
use super::super::input::{Input, Key};
use super::super::replay::Outcome;
use super::{App, DIGIT_PAUSE, Overlay, QuitChoice, Screen};

/// Chat lines a PgUp or PgDn scrolls.
const CHAT_STEP: usize = 3;
/// Chat lines shown at once over the table.
pub(crate) const CHAT_SHOWN: usize = 6;

impl App {
    /// Keys while a chat line is typed: they write it, and nothing else.
    pub(super) fn chat_key(&mut self, key: Key) {
        let Some(line) = &mut self.chat else {
            return;
        };
        match key {
            Key::Esc => {
                self.chat = None;
                self.chat_scroll = 0;
            }
            Key::Enter => {
                let text = line.trim().to_string();
                self.chat = None;
                self.chat_scroll = 0;
                self.send_chat(&text);
            }
            Key::Backspace => {
                line.pop();
            }
            Key::Space => line.push(' '),
            // The chat above the line scrolls back a few lines at a time.
            Key::PageUp | Key::Up => {
                let most = self.table.chat_log().len().saturating_sub(CHAT_SHOWN);
                self.chat_scroll = (self.chat_scroll + CHAT_STEP).min(most);
            }
            Key::PageDown | Key::Down => {
                self.chat_scroll = self.chat_scroll.saturating_sub(CHAT_STEP);
            }
            Key::Char(c) if line.chars().count() < crate::protocol::MAX_CHAT => line.push(c),
            _ => {}
        }
    }

    /// The blind number `step` places up or down from the one shown.
    pub(super) fn step_blind_number(&mut self, up: bool) {
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
            Key::Char('u') if matches!(self.screen(), Screen::Table | Screen::Summary) => {
                return self.undo();
            }
            Key::Char('C') if self.screen() == Screen::Table => return self.claim_the_rest(),
            Key::Char('h') if self.screen() == Screen::Table => return self.ask_hint(),
            Key::Char('+' | '=') => return self.change_speed(1),
            Key::Char('-' | '_') => return self.change_speed(-1),
            Key::Char('?') => return self.overlay = Some(Overlay::Help),
            Key::Char('v') if self.screen() == Screen::Summary => return self.open_review(),
            Key::Char('a') if self.screen() == Screen::Summary => return self.analyse_hand(),
            Key::Char('m') if self.screen() == Screen::Table => return self.toggle_memory(),
            // At the end, r replays the game (game_over.rs).
            Key::Char('r') if self.screen() != Screen::GameOver => {
                return self.overlay = Some(Overlay::Rules);
            }
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

    pub(super) fn overlay_key(&mut self, overlay: Overlay, key: Key) {
        match (overlay, key) {
            (Overlay::ConfirmQuit, Key::Char('y' | 'Y' | 'q')) => self.answer_quit(true),
            (Overlay::ConfirmQuit, Key::Char('n' | 'N') | Key::Esc) => self.answer_quit(false),
            (
                Overlay::ConfirmQuit,
                Key::Left | Key::Right | Key::Up | Key::Down | Key::Tab | Key::Char('h' | 'l'),
            ) => {
                self.quit_focus = match self.quit_focus {
                    QuitChoice::Stay => QuitChoice::Quit,
                    QuitChoice::Quit => QuitChoice::Stay,
                }
            }
            (Overlay::ConfirmQuit, Key::Enter | Key::Space) => {
                self.answer_quit(self.quit_focus == QuitChoice::Quit);
            }
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
        match turn.decision {
            Decision::BlindNil => self.offer_key(key),
            Decision::Bid => self.bid_key(key),
            Decision::Exchange => match key {
                Key::Enter => self.pass(self.to_pass),
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
                        self.play(card);
                    }
                }
                _ => {
                    if let Some(card) = self.move_or_pick(key) {
                        self.play(card);
                    }
                }
            },
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
    pub(super) fn move_or_pick(&mut self, key: Key) -> Option<Card> {
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

    pub(super) fn card_at_cursor(&self) -> Option<Card> {
        hand_order(self.hand_view().cards())
            .get(self.hand_cursor)
            .copied()
    }

    pub(super) fn toggle_pass(&mut self, card: Card) {
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

    pub(super) fn offer_key(&mut self, key: Key) {
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
            Key::Char('b') => self.bid(Bid::BlindNil),
            Key::Char('c') => self.look(),
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
    pub(super) fn typed_number(&mut self, d: char, max: usize) -> Option<u8> {
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

    pub(super) fn bid_key(&mut self, key: Key) {
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
                    self.bid(bid);
                }
            }
            Key::Char('n') => self.bid(Bid::Nil),
            Key::Char('b') => self.bid(Bid::BlindNil),
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

    pub(super) fn choose_offer(&mut self, choice: OfferChoice) {
        match choice {
            OfferChoice::BlindNil => self.bid(Bid::BlindNil),
            OfferChoice::BlindNumber => {
                if let Some(n) = self.blind_number(&self.view()) {
                    self.bid(Bid::Blind(n));
                }
            }
            OfferChoice::Look => self.look(),
        }
    }

    pub(super) fn click(&mut self, column: u16, row: u16) {
        if self.hits.is_too_small() || self.review.is_some() {
            return;
        }
        let target = self.hits.at(column, row);
        if let Some(overlay) = self.overlay {
            match (overlay, target) {
                (Overlay::ConfirmQuit, Some(Target::Quit)) => self.answer_quit(true),
                (Overlay::ConfirmQuit, Some(Target::Continue)) => self.answer_quit(false),
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
            return self.hold_back();
        }
        // As a key is, while the only card waits to be played for them.
        if matches!(target, Target::Card(_)) && self.forced_card().is_some() {
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
                    Some(Decision::Play) => self.play(card),
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
                        self.bid(bid);
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
            Target::ReviewGame => self.look_back(true),
            Target::ReplayGame => self.look_back(false),
            Target::Quit => self.quit = true,
        }
    }
}
