//! The replay viewer's state and keys: a `Story` and the step being shown.
//! `spades replay` shows a recorded game in it; during a game the hand
//! summary's `v` opens the finished hand in it. Drawing is `replay_view`.
//!
//! Keys: Left/Right (or h/l) go back or on a step: a bid, the exchange, a
//! card, the score. Up/Down (or k/j) go a trick at a time (stopping also at
//! the deal, the end of the bidding, the exchange and the score).
//! PgUp/PgDn go to the start of the hand, or of the one before or after;
//! Home/End (or g/G) to the start and the end. q or Esc leaves.

use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};

use crate::review::{Step, Story};

use super::input::{Input, Key};
use super::terminal::{self, Session, StopSignals, Waited};
use super::theme::Theme;
use super::{Ending, TuiError, replay_view};

/// A way through the story.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Back,
    On,
    BackTrick,
    OnTrick,
    BackHand,
    OnHand,
    Start,
    End,
    Leave,
}

/// Where the story being shown comes from, for the title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Game `game` of `games` in a record file.
    Record {
        /// The file's name, or the game's id.
        name: String,
        game: usize,
        games: usize,
    },
    /// The hand just played, from the player's seat.
    HandReview,
}

/// A story and the step on screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    story: Story,
    source: Source,
    at: usize,
}

impl Viewer {
    /// Shows `story` from its first step.
    pub fn new(story: Story, source: Source) -> Viewer {
        Viewer {
            story,
            source,
            at: 0,
        }
    }

    pub fn story(&self) -> &Story {
        &self.story
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The index of the step on screen.
    pub fn at(&self) -> usize {
        self.at
    }

    pub fn step(&self) -> Option<&Step> {
        self.story.steps.get(self.at)
    }

    /// Goes where `m` says; `false` when it leaves the viewer.
    pub fn go(&mut self, m: Move) -> bool {
        let steps = &self.story.steps;
        let last = steps.len().saturating_sub(1);
        let stop = |i: usize| steps[i].is_stop(steps.get(i + 1));
        let hand = self.step().map_or(0, |s| s.hand);
        let hand_start = |h: usize| self.story.hands.get(h).map(|h| h.first_step);
        self.at = match m {
            Move::Leave => return false,
            Move::Back => self.at.saturating_sub(1),
            Move::On => (self.at + 1).min(last),
            Move::BackTrick => (0..self.at).rev().find(|&i| stop(i)).unwrap_or(0),
            Move::OnTrick => (self.at + 1..steps.len())
                .find(|&i| stop(i))
                .unwrap_or(last),
            Move::BackHand => match hand_start(hand) {
                Some(start) if start < self.at => start,
                _ => hand.checked_sub(1).and_then(hand_start).unwrap_or(0),
            },
            Move::OnHand => hand_start(hand + 1).unwrap_or(last),
            Move::Start => 0,
            Move::End => last,
        };
        true
    }

    /// The move a key of the game's makes: the hand review during a game
    /// has no Home, End or page keys, so g and G go to the start and end.
    pub fn key_move(key: Key) -> Option<Move> {
        Some(match key {
            Key::Left | Key::Char('h') | Key::Backspace => Move::Back,
            Key::Right | Key::Char('l') | Key::Space | Key::Enter => Move::On,
            Key::Up | Key::Char('k') => Move::BackTrick,
            Key::Down | Key::Char('j') => Move::OnTrick,
            Key::Char('g') => Move::Start,
            Key::Char('G') => Move::End,
            Key::Esc | Key::Char('q' | 'Q') | Key::Interrupt => Move::Leave,
            _ => return None,
        })
    }

    /// The move a terminal event makes in `spades replay`: every key of the
    /// game's, and Home, End, PgUp and PgDn.
    pub fn event_move(event: &Event) -> Option<Move> {
        let Event::Key(key) = event else {
            return None;
        };
        if key.kind == KeyEventKind::Release || key.modifiers.contains(KeyModifiers::CONTROL) {
            return None;
        }
        Some(match key.code {
            KeyCode::Home => Move::Start,
            KeyCode::End => Move::End,
            KeyCode::PageUp => Move::BackHand,
            KeyCode::PageDown => Move::OnHand,
            _ => match Input::from_event(event)? {
                Input::Key(key) => return Viewer::key_move(key),
                _ => return None,
            },
        })
    }
}

/// How long the loop waits for a key before looking for signals again.
const IDLE_WAIT: Duration = Duration::from_millis(100);

/// Shows the viewer in the terminal until it is left, by a key, Ctrl-C or
/// a stop signal.
pub fn show(
    viewer: &mut Viewer,
    theme: &Theme,
    session: &mut Session,
    signals: &StopSignals,
) -> Result<Ending, TuiError> {
    // Whether the terminal library may hold events it has already read.
    let mut buffered = false;
    loop {
        if let Some(signal) = signals.received() {
            return Ok(Ending::Signal(signal));
        }
        // Drawing every turn is cheap: ratatui sends only changed cells,
        // and a resize is laid out anew.
        session
            .terminal()
            .draw(|frame| replay_view::render(viewer, theme, frame.area(), frame.buffer_mut()))?;
        let ready = buffered
            || match session.wait_for_input(IDLE_WAIT)? {
                Waited::HungUp => return Ok(Ending::Signal(terminal::Signal::HANGUP)),
                Waited::Nothing => false,
                Waited::Input => true,
            };
        buffered = ready && event::poll(Duration::ZERO)?;
        if !buffered {
            continue;
        }
        let event = event::read()?;
        if matches!(Input::from_event(&event), Some(Input::Key(Key::Interrupt))) {
            return Ok(Ending::Interrupted);
        }
        if let Some(m) = Viewer::event_move(&event)
            && !viewer.go(m)
        {
            return Ok(Ending::Quit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::StepEvent;
    use ratatui::crossterm::event::KeyEvent;

    fn viewer() -> Viewer {
        use crate::bots::random::RandomBot;
        use crate::engine::{Mode, Rules};
        use crate::fairness::Dealing;
        use crate::record::{GameInfo, MemoryRecord, read_games};
        use crate::table::{Player, Table};
        let rules = Rules::classic(Mode::Partnership)
            .with(|r| r.target_score = 100)
            .unwrap();
        let players = (0..4).map(|_| Player::Bot(Box::new(RandomBot))).collect();
        let mut table = Table::new(rules, Dealing::Open(4), players);
        let out = MemoryRecord::default();
        table
            .record_to(
                Box::new(out.clone()),
                vec!["a".into(); 4],
                GameInfo::default(),
            )
            .unwrap();
        // Three hands are enough to go back and forth between.
        while table.hand_no() <= 3 {
            if table.step_bot().is_none() {
                break;
            }
        }
        table.abandon();
        drop(table);
        let games = read_games(&out.text()).unwrap();
        let story = Story::from_record(&games[0]).unwrap();
        assert!(story.hands.len() >= 3);
        Viewer::new(
            story,
            Source::Record {
                name: "r.jsonl".into(),
                game: 1,
                games: 1,
            },
        )
    }

    #[test]
    fn a_step_a_trick_and_a_hand_at_a_time() {
        let mut v = viewer();
        assert!(v.go(Move::Back));
        assert_eq!(v.at(), 0, "nothing before the start");
        v.go(Move::On);
        assert!(matches!(v.step().unwrap().event, StepEvent::Bid { .. }));
        // Down: the end of the bidding, then the first trick.
        v.go(Move::OnTrick);
        assert!(matches!(v.step().unwrap().event, StepEvent::Bid { .. }));
        assert_eq!(v.step().unwrap().bids.iter().flatten().count(), 4);
        v.go(Move::OnTrick);
        let step = *v.step().unwrap();
        assert!(
            matches!(
                step.event,
                StepEvent::Play {
                    completes: Some(1),
                    ..
                }
            ) || step.event == StepEvent::Exchange
        );
        v.go(Move::OnTrick);
        v.go(Move::OnTrick);
        let at = v.at();
        v.go(Move::BackTrick);
        assert!(v.at() < at);
        v.go(Move::OnTrick);
        assert_eq!(v.at(), at, "back a trick and on again");
        // PgDn: the next hand's deal; PgUp: this hand's start, then the one before.
        v.go(Move::OnHand);
        assert_eq!(v.at(), v.story().hands[1].first_step);
        v.go(Move::On);
        v.go(Move::BackHand);
        assert_eq!(v.at(), v.story().hands[1].first_step);
        v.go(Move::BackHand);
        assert_eq!(v.at(), 0);
        v.go(Move::End);
        assert_eq!(v.at(), v.story().steps.len() - 1);
        v.go(Move::On);
        assert_eq!(v.at(), v.story().steps.len() - 1, "nothing after the end");
        v.go(Move::OnHand);
        assert_eq!(v.at(), v.story().steps.len() - 1);
        v.go(Move::Start);
        assert_eq!(v.at(), 0);
        assert!(!v.go(Move::Leave));
    }

    #[test]
    fn keys_and_their_moves() {
        let press = |code| Viewer::event_move(&Event::Key(KeyEvent::from(code)));
        assert_eq!(press(KeyCode::Home), Some(Move::Start));
        assert_eq!(press(KeyCode::End), Some(Move::End));
        assert_eq!(press(KeyCode::PageUp), Some(Move::BackHand));
        assert_eq!(press(KeyCode::PageDown), Some(Move::OnHand));
        assert_eq!(press(KeyCode::Char('l')), Some(Move::On));
        assert_eq!(press(KeyCode::Left), Some(Move::Back));
        assert_eq!(press(KeyCode::Char('j')), Some(Move::OnTrick));
        assert_eq!(press(KeyCode::Up), Some(Move::BackTrick));
        assert_eq!(press(KeyCode::Esc), Some(Move::Leave));
        assert_eq!(press(KeyCode::Char('q')), Some(Move::Leave));
        assert_eq!(press(KeyCode::Char('x')), None);
        assert_eq!(Viewer::key_move(Key::Char('G')), Some(Move::End));
    }
}
