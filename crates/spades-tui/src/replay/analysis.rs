//! The analysis of the game in the viewer (`a`): it runs on a thread of
//! its own, so the viewer keeps drawing and answering keys, reports its
//! progress through a channel, and stops when asked (or when the viewer
//! closes). Once done, its verdicts are listed in a panel.
//!
//! What is analysed is an `Analyser`: the real analysis of a record, or
//! in tests anything that returns a review.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;

use crate::analysis::{self, AnalysisError, GameReview, Progress, Verdict, cache};
use crate::bots::Effort;
use crate::engine::Seat;
use crate::record::{RecordedGame, read_games};
use crate::story::Story;

/// One run of an analysis: `stop` ends it early, `progress` hears of each
/// decision judged.
pub type AnalyseFn = dyn Fn(&AtomicBool, &mut dyn FnMut(Progress)) -> Result<GameReview, AnalysisError>
    + Send
    + Sync;

/// What `a` analyses.
#[derive(Clone)]
pub enum Analyser {
    /// Nothing can be: why, in a line for the player.
    Unavailable(String),
    /// This, run again each time `a` starts it.
    Run(Arc<AnalyseFn>),
}

impl std::fmt::Debug for Analyser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Analyser::Unavailable(why) => f.debug_tuple("Unavailable").field(why).finish(),
            Analyser::Run(_) => f.write_str("Run(..)"),
        }
    }
}

impl Analyser {
    /// Game `number` (from 1) of the record file at `path`, whose text is
    /// `text`, from `seat`'s view, with `effort` per decision: the review
    /// kept beside the record when there is one for this text, else a new
    /// one, kept for next time (with the usual effort, what `spades
    /// analyze` shows and keeps).
    pub fn of_game(
        path: PathBuf,
        text: String,
        number: u32,
        game: RecordedGame,
        seat: Seat,
        effort: Effort,
    ) -> Analyser {
        Analyser::Run(Arc::new(move |stop, progress| {
            let source = cache::Source {
                path: &path,
                text: &text,
                game: number,
                recorded: &game,
            };
            Ok(
                cache::cached_or_run(source, seat, analysis::Depth::of(effort), stop, progress)?
                    .review,
            )
        }))
    }

    /// Hand `hand` of the last game in the record file at `path` (the game
    /// being played), from `seat`'s view: only that hand's decisions are
    /// judged, with `effort` per decision (the game's own, so a quick test
    /// game is reviewed quickly too). The file is read on the analysis's
    /// thread, when it starts.
    pub fn of_hand_in(path: PathBuf, seat: Seat, effort: Effort, hand: u16) -> Analyser {
        Analyser::Run(Arc::new(move |stop, progress| {
            let game = LastGame::in_file(&path)?.game;
            analysis::analyze_hand(&game, seat, hand, effort, stop, progress)
        }))
    }
}

/// The last game of a record file (the one being played, or just played
/// at the table), as read from it.
pub struct LastGame {
    /// The file's whole text.
    pub text: String,
    /// Which game of the file it is, from 1.
    pub number: u32,
    pub game: RecordedGame,
}

impl LastGame {
    pub fn in_file(path: &Path) -> Result<LastGame, AnalysisError> {
        let unfit = |why: String| AnalysisError::Unfit(why);
        let text = std::fs::read_to_string(path)
            .map_err(|e| unfit(format!("the game's record cannot be read: {e}")))?;
        let mut games = read_games(&text)?;
        let number = u32::try_from(games.len()).unwrap_or(u32::MAX);
        let game = games
            .pop()
            .ok_or_else(|| unfit("the game's record holds no game".into()))?;
        Ok(LastGame { text, number, game })
    }
}

/// What the analysis's thread says.
enum Heard {
    Progress(Progress),
    Done(Result<GameReview, AnalysisError>),
}

/// An analysis under way. Dropping it stops it.
#[derive(Debug)]
pub struct Running {
    stop: Arc<AtomicBool>,
    heard: Receiver<Heard>,
    progress: Option<Progress>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Heard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Heard")
    }
}

impl Running {
    /// How far it has come, once it has said.
    pub fn progress(&self) -> Option<Progress> {
        self.progress
    }
}

/// A finished review and where the panel stands in it.
#[derive(Debug)]
pub struct Reviewed {
    pub review: GameReview,
    /// The story's step of each decision, as `review.decisions`.
    steps: Vec<Option<usize>>,
    /// The decisions the panel lists (those with a class), by index.
    listed: Vec<usize>,
    /// Which of `listed` is chosen.
    selected: usize,
    /// Is the panel shown?
    open: bool,
}

impl Reviewed {
    fn new(review: GameReview, story: &Story) -> Reviewed {
        let steps = review.steps_in(story);
        let listed = (0..review.decisions.len())
            .filter(|&i| review.decisions[i].class.is_some())
            .collect();
        Reviewed {
            review,
            steps,
            listed,
            selected: 0,
            open: true,
        }
    }

    /// The decisions listed, each with its step.
    pub fn listed(&self) -> impl Iterator<Item = (&Verdict, Option<usize>)> {
        self.listed
            .iter()
            .map(|&i| (&self.review.decisions[i], self.steps[i]))
    }

    /// Which of the listed decisions is chosen.
    pub fn selected(&self) -> usize {
        self.selected
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    /// The decision with a class made at step `at`, if one was.
    pub fn marked_at(&self, at: usize) -> Option<&Verdict> {
        self.listed
            .iter()
            .find(|&&i| self.steps[i] == Some(at))
            .map(|&i| &self.review.decisions[i])
    }

    /// The next listed decision made after step `at` (`on`), or the one
    /// before it: chosen, and its step.
    fn choose_beside(&mut self, at: usize, on: bool) -> Option<usize> {
        let steps = self.listed.iter().map(|&i| self.steps[i]);
        let found = if on {
            steps.enumerate().find(|(_, s)| s.is_some_and(|s| s > at))
        } else {
            steps.enumerate().rfind(|(_, s)| s.is_some_and(|s| s < at))
        };
        let (index, step) = found?;
        self.selected = index;
        step
    }

    /// Chooses listed decision `to` (the last, past the end); the step it
    /// was made at.
    fn choose(&mut self, to: usize) -> Option<usize> {
        let last = self.listed.len().checked_sub(1)?;
        self.selected = to.min(last);
        self.steps[self.listed[self.selected]]
    }
}

/// Where the analysis stands.
#[derive(Debug)]
pub enum State {
    Idle,
    Running(Running),
    Done(Box<Reviewed>),
}

/// The analysis of the viewer's game: what can be analysed, how far it
/// has come, and a line for the player when something needs saying.
#[derive(Debug)]
pub struct Analysis {
    analyser: Analyser,
    state: State,
    said: Option<String>,
}

/// What a key did to the panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PanelKey {
    /// The viewer goes to this step.
    Go(usize),
    /// The key was the panel's, and nothing more follows.
    Taken,
    /// The key is not the panel's.
    Ignored,
}

impl Analysis {
    pub fn new(analyser: Analyser) -> Analysis {
        Analysis {
            analyser,
            state: State::Idle,
            said: None,
        }
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// A line for the player: why `a` did nothing, that the analysis
    /// stopped or failed. It lasts until the next key.
    pub fn said(&self) -> Option<&str> {
        self.said.as_deref()
    }

    pub fn reviewed(&self) -> Option<&Reviewed> {
        match &self.state {
            State::Done(reviewed) => Some(reviewed),
            _ => None,
        }
    }

    pub(super) fn forget_said(&mut self) {
        self.said = None;
    }

    /// `a`: starts the analysis, stops it while it runs, and once done
    /// opens or closes its panel.
    pub(super) fn toggle(&mut self) {
        match &mut self.state {
            State::Idle => self.start(),
            State::Running(_) => self.stop(),
            State::Done(reviewed) => reviewed.open = !reviewed.open,
        }
    }

    fn start(&mut self) {
        let run = match &self.analyser {
            Analyser::Unavailable(why) => {
                self.said = Some(why.clone());
                return;
            }
            Analyser::Run(run) => Arc::clone(run),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let (tell, heard) = mpsc::channel();
        let stopped = Arc::clone(&stop);
        let spawned = thread::Builder::new()
            .name("analysis".into())
            .spawn(move || {
                let progress_tell = tell.clone();
                let mut progress = |p| {
                    let _ = progress_tell.send(Heard::Progress(p));
                };
                let done = run(&stopped, &mut progress);
                // The viewer may have gone: nobody to tell.
                let _ = tell.send(Heard::Done(done));
            });
        match spawned {
            Ok(_) => {
                self.state = State::Running(Running {
                    stop,
                    heard,
                    progress: None,
                })
            }
            Err(e) => self.said = Some(format!("The analysis cannot start: {e}.")),
        }
    }

    /// Stops the analysis under way; the thread sees `stop` and ends.
    pub(super) fn stop(&mut self) {
        if matches!(self.state, State::Running(_)) {
            self.state = State::Idle;
            self.said = Some("Analysis stopped: a starts it again.".into());
        }
    }

    /// `n` and `N`: the step of the next (or the previous) judged
    /// decision after (before) step `at`, once analysed.
    pub(super) fn judged_beside(&mut self, at: usize, on: bool) -> Option<usize> {
        match &mut self.state {
            State::Done(reviewed) => reviewed.choose_beside(at, on),
            _ => None,
        }
    }

    /// Takes in what the analysis's thread has said since last asked.
    pub(super) fn poll(&mut self, story: &Story) {
        let State::Running(running) = &mut self.state else {
            return;
        };
        let done = loop {
            match running.heard.try_recv() {
                Ok(Heard::Progress(p)) => running.progress = Some(p),
                Ok(Heard::Done(done)) => break done,
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    break Err(AnalysisError::Unfit("the analysis failed".into()));
                }
            }
        };
        match done {
            Ok(review) => self.state = State::Done(Box::new(Reviewed::new(review, story))),
            Err(AnalysisError::Stopped) => self.stop(),
            Err(e) => {
                self.state = State::Idle;
                self.said = Some(format!("The game cannot be analysed: {e}."));
            }
        }
    }

    /// A key while the panel is open: Up/Down (k/j) and Home/End choose a
    /// decision, and the viewer goes to its step; Enter goes there and
    /// closes the panel; Esc closes it.
    pub(super) fn panel_key(&mut self, key: super::Key) -> PanelKey {
        use super::Key;
        let State::Done(reviewed) = &mut self.state else {
            return PanelKey::Ignored;
        };
        if !reviewed.open {
            return PanelKey::Ignored;
        }
        let at = reviewed.selected;
        let step = match key {
            Key::Up | Key::Char('k') => reviewed.choose(at.saturating_sub(1)),
            Key::Down | Key::Char('j') => reviewed.choose(at + 1),
            Key::Home | Key::Char('g') => reviewed.choose(0),
            Key::End | Key::Char('G') => reviewed.choose(usize::MAX),
            Key::Enter => {
                reviewed.open = false;
                reviewed.choose(at)
            }
            Key::Esc => {
                reviewed.open = false;
                None
            }
            _ => return PanelKey::Ignored,
        };
        step.map_or(PanelKey::Taken, PanelKey::Go)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Mode, Rules};

    fn empty_story() -> Story {
        Story {
            rules: Rules::classic(Mode::Partnership),
            names: Vec::new(),
            player: None,
            hands: Vec::new(),
            steps: Vec::new(),
            end: None,
        }
    }

    /// Polls until the analysis is no longer running.
    fn settle(analysis: &mut Analysis) {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while matches!(analysis.state(), State::Running(_)) {
            assert!(std::time::Instant::now() < until);
            std::thread::sleep(std::time::Duration::from_millis(2));
            analysis.poll(&empty_story());
        }
    }

    #[test]
    fn an_analysis_that_dies_says_it_failed() {
        let dies = Analyser::Run(Arc::new(|_: &AtomicBool, _: &mut dyn FnMut(Progress)| {
            std::panic::panic_any("the search fell over")
        }));
        let mut analysis = Analysis::new(dies);
        analysis.toggle();
        settle(&mut analysis);
        assert!(matches!(analysis.state(), State::Idle));
        assert_eq!(
            analysis.said(),
            Some("The game cannot be analysed: the analysis failed.")
        );
    }

    #[test]
    fn a_review_with_nothing_judged_bad_has_an_empty_list_and_no_marks() {
        let review = GameReview {
            version: analysis::ANALYSIS_VERSION,
            seat: Seat::new(0),
            decisions: Vec::new(),
            hands: Vec::new(),
        };
        let done = Analyser::Run(Arc::new(
            move |_: &AtomicBool, _: &mut dyn FnMut(Progress)| Ok(review.clone()),
        ));
        let mut analysis = Analysis::new(done);
        analysis.toggle();
        settle(&mut analysis);
        let reviewed = analysis.reviewed().expect("done");
        assert!(reviewed.is_open());
        assert_eq!(reviewed.listed().count(), 0);
        assert!(reviewed.marked_at(0).is_none());
        // Up and Down have nothing to choose; Esc still closes the panel.
        assert_eq!(analysis.panel_key(super::super::Key::Down), PanelKey::Taken);
        assert_eq!(analysis.panel_key(super::super::Key::Esc), PanelKey::Taken);
        assert!(!analysis.reviewed().expect("done").is_open());
    }
}
