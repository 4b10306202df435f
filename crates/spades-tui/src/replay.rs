//! The replay viewer's state and keys: a `Story` and the step being shown.
//! `spades replay` shows a recorded game in it; during a game the hand
//! summary's `v` opens the finished hand in it, and at its end `r` and `a`
//! the game just played. Drawing is `replay_view`.
//!
//! Keys: Left/Right (or h/l) go back or on a step: a bid, the exchange, a
//! card, the score. Up/Down (or k/j) go a trick at a time (stopping also at
//! the deal, the end of the bidding, the exchange and the score).
//! PgUp/PgDn go to the start of the hand, or of the one before or after;
//! Home/End (or g/G) to the start and the end. `a` analyses the game (and
//! stops the analysis, and once done shows or hides its panel, where Up/Down
//! choose a decision and go to it); then n and N go to the next and the
//! previous judged decision. `?` shows the keys; q or Esc leaves.

pub mod analysis;
pub mod told;

use std::path::PathBuf;

use crate::bots::Effort;
use crate::engine::Seat;
use crate::record::{RecordError, RecordedGame};
use crate::story::{Step, Story};

use analysis::{Analyser, Analysis, PanelKey, State};

use super::input::Key;

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
}

impl Move {
    pub const ALL: [Move; 8] = [
        Move::Back,
        Move::On,
        Move::BackTrick,
        Move::OnTrick,
        Move::BackHand,
        Move::OnHand,
        Move::Start,
        Move::End,
    ];

    /// The move a key makes, if any.
    fn of_key(key: Key) -> Option<Move> {
        Some(match key {
            Key::Left | Key::Char('h') | Key::Backspace => Move::Back,
            Key::Right | Key::Char('l') | Key::Space | Key::Enter => Move::On,
            Key::Up | Key::Char('k') => Move::BackTrick,
            Key::Down | Key::Char('j') => Move::OnTrick,
            Key::PageUp => Move::BackHand,
            Key::PageDown => Move::OnHand,
            Key::Home | Key::Char('g') => Move::Start,
            Key::End | Key::Char('G') => Move::End,
            _ => return None,
        })
    }
}

/// What a key did to the viewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Stay,
    /// The viewer is left (q, Esc, Ctrl-C).
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
    /// The game just finished at the table, from its record; leaving goes
    /// back to its result.
    GameJustPlayed,
}

/// A story and the step on screen.
#[derive(Debug)]
pub struct Viewer {
    story: Story,
    source: Source,
    at: usize,
    /// The keys are shown over the story.
    help: bool,
    analysis: Analysis,
}

impl Viewer {
    /// Shows `story` from its first step; `a` says there is nothing to
    /// analyse until `with_analyser` gives it something.
    pub fn new(story: Story, source: Source) -> Viewer {
        let nothing = "This game cannot be analysed here.".to_string();
        Viewer {
            story,
            source,
            at: 0,
            help: false,
            analysis: Analysis::new(Analyser::Unavailable(nothing)),
        }
    }

    /// Game `number` of the record file at `path`, whose text is `text`:
    /// what `spades replay` shows, and the end of a game at the table. `a`
    /// analyses it for the seat of the person who played it (else the
    /// first), with `effort` per decision, its review kept beside the
    /// record. An error names the record's line where it stops replaying.
    pub fn of_record(
        source: Source,
        path: PathBuf,
        text: String,
        number: u32,
        game: RecordedGame,
        effort: Effort,
    ) -> Result<Viewer, RecordError> {
        let story = Story::from_record(&game)?;
        let seat = game.header.info.player_seat.unwrap_or(Seat::new(0));
        let analyser = Analyser::of_game(path, text, number, game, seat, effort);
        Ok(Viewer::new(story, source).with_analyser(analyser))
    }

    /// What `a` analyses.
    pub fn with_analyser(mut self, analyser: Analyser) -> Viewer {
        self.analysis = Analysis::new(analyser);
        self
    }

    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// Starts the analysis, unless it has started already.
    pub fn start_analysis(&mut self) {
        if matches!(self.analysis.state(), State::Idle) {
            self.analysis.toggle();
        }
    }

    /// Takes in the analysis's progress, or its result; call it often.
    pub fn poll(&mut self) {
        self.analysis.poll(&self.story);
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

    /// Are the keys shown?
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// Goes where `m` says, never past the first step or the last.
    pub fn go(&mut self, m: Move) {
        let steps = &self.story.steps;
        let last = steps.len().saturating_sub(1);
        let stop = |i: usize| steps[i].is_stop(steps.get(i + 1));
        let hand = self.step().map_or(0, |s| s.hand);
        let hand_start = |h: usize| self.story.hands.get(h).map(|h| h.first_step);
        self.at = match m {
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
    }

    /// A key pressed in the viewer. With the keys shown, any key closes
    /// them and does nothing more; with the analysis's panel shown, the
    /// panel has the key first. While the analysis runs, Esc stops it.
    pub fn key(&mut self, key: Key) -> Outcome {
        if key == Key::Interrupt {
            return Outcome::Leave;
        }
        self.analysis.forget_said();
        if self.help {
            self.help = false;
            return Outcome::Stay;
        }
        let panel_open = self.analysis.reviewed().is_some_and(|r| r.is_open());
        match self.analysis.panel_key(key) {
            PanelKey::Go(step) => self.at = step,
            PanelKey::Taken => {}
            PanelKey::Ignored => return self.viewer_key(key, panel_open),
        }
        Outcome::Stay
    }

    /// A key the panel did not take; over the panel, only these keys do
    /// anything: the story stays where the panel put it.
    fn viewer_key(&mut self, key: Key, panel_open: bool) -> Outcome {
        let running = matches!(self.analysis.state(), State::Running(_));
        match key {
            Key::Char('?') => self.help = true,
            Key::Char('a' | 'A') => self.analysis.toggle(),
            Key::Esc if running => self.analysis.stop(),
            Key::Esc | Key::Char('q' | 'Q') => return Outcome::Leave,
            _ if panel_open => {}
            Key::Char(c @ ('n' | 'N')) => {
                if let Some(step) = self.analysis.judged_beside(self.at, c == 'n') {
                    self.at = step;
                }
            }
            _ => {
                if let Some(m) = Move::of_key(key) {
                    self.go(m);
                }
            }
        }
        Outcome::Stay
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Input;
    use crate::story::StepEvent;
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent};

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
        v.go(Move::Back);
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
    }

    #[test]
    fn down_stops_at_every_trick_and_up_retraces_them() {
        let mut v = viewer();
        let hand = v.story().hands[0].clone();
        let mut tricks = Vec::new();
        let mut stops = vec![v.at()];
        while v.step().unwrap().hand == 0 {
            let before = v.at();
            v.go(Move::OnTrick);
            if v.at() == before || v.step().unwrap().hand != 0 {
                break;
            }
            stops.push(v.at());
            if let StepEvent::Play {
                completes: Some(k), ..
            } = v.step().unwrap().event
            {
                tricks.push(k);
            }
        }
        let all: Vec<usize> = (1..=hand.tricks.len()).collect();
        assert_eq!(tricks, all, "every trick, in order, once");
        assert_eq!(
            v.story().steps[*stops.last().unwrap()].event,
            StepEvent::Scored
        );
        // Down went on to the next hand's deal; Up comes back the same way.
        assert_eq!(v.at(), v.story().hands[1].first_step);
        for &stop in stops.iter().rev() {
            v.go(Move::BackTrick);
            assert_eq!(v.at(), stop);
        }
    }

    #[test]
    fn no_move_leaves_the_story() {
        let mut v = viewer();
        let steps = v.story().steps.len();
        for start in 0..steps {
            for m in Move::ALL {
                v.go(Move::Start);
                for _ in 0..start {
                    v.go(Move::On);
                }
                assert_eq!(v.at(), start);
                v.go(m);
                assert!(v.at() < steps, "{m:?} from {start}");
                // Back and on move by exactly one step where they can.
                match m {
                    Move::Back => assert_eq!(v.at(), start.saturating_sub(1)),
                    Move::On => assert_eq!(v.at(), (start + 1).min(steps - 1)),
                    _ => {}
                }
            }
        }
        // A story with nothing in it stays at its start.
        let empty = Story {
            hands: Vec::new(),
            steps: Vec::new(),
            end: None,
            ..v.story().clone()
        };
        let mut v = Viewer::new(empty, Source::HandReview);
        for m in Move::ALL {
            v.go(m);
            assert_eq!(v.at(), 0);
            assert!(v.step().is_none());
        }
    }

    #[test]
    fn keys_and_their_moves() {
        let press = |code| match Input::from_event(&Event::Key(KeyEvent::from(code))) {
            Some(Input::Key(key)) => Move::of_key(key),
            _ => None,
        };
        assert_eq!(press(KeyCode::Home), Some(Move::Start));
        assert_eq!(press(KeyCode::End), Some(Move::End));
        assert_eq!(press(KeyCode::PageUp), Some(Move::BackHand));
        assert_eq!(press(KeyCode::PageDown), Some(Move::OnHand));
        assert_eq!(press(KeyCode::Char('l')), Some(Move::On));
        assert_eq!(press(KeyCode::Right), Some(Move::On));
        assert_eq!(press(KeyCode::Left), Some(Move::Back));
        assert_eq!(press(KeyCode::Char('j')), Some(Move::OnTrick));
        assert_eq!(press(KeyCode::Down), Some(Move::OnTrick));
        assert_eq!(press(KeyCode::Up), Some(Move::BackTrick));
        assert_eq!(press(KeyCode::Char('g')), Some(Move::Start));
        assert_eq!(press(KeyCode::Char('G')), Some(Move::End));
        assert_eq!(press(KeyCode::Char('x')), None);
        assert_eq!(press(KeyCode::Esc), None);
    }

    #[test]
    fn help_opens_and_any_key_closes_it_and_q_leaves() {
        let mut v = viewer();
        assert_eq!(v.key(Key::Down), Outcome::Stay);
        let at = v.at();
        assert_eq!(v.key(Key::Char('?')), Outcome::Stay);
        assert!(v.help_shown());
        // The key that closes the keys does nothing else.
        assert_eq!(v.key(Key::Down), Outcome::Stay);
        assert!(!v.help_shown());
        assert_eq!(v.at(), at);
        v.key(Key::Char('?'));
        assert_eq!(
            v.key(Key::Char('q')),
            Outcome::Stay,
            "q closes the keys first"
        );
        assert_eq!(v.key(Key::Char('q')), Outcome::Leave);
        assert_eq!(v.key(Key::Esc), Outcome::Leave);
        v.key(Key::Char('?'));
        assert_eq!(v.key(Key::Interrupt), Outcome::Leave, "Ctrl-C at once");
    }
}
