//! The review as the replay by ear runs it: `a` starts the analysis on
//! its thread, its progress is said now and then, and once done its
//! verdicts are said (`review` words them).

use std::io;
use std::time::Instant;

use crate::analysis::Progress;

use super::super::super::replay::analysis::State;
use super::hand::Voices;
use super::{PROGRESS_EVERY, Reader, review};

impl Reader<'_> {
    /// `a`: starts the analysis; while it runs, how far it is; once done,
    /// the review's summary.
    pub(super) fn analyse(&mut self) -> io::Result<()> {
        match self.viewer.analysis().state() {
            State::Idle => {
                self.viewer.start_analysis();
                if let Some(why) = self.viewer.analysis().said() {
                    let why = why.to_string();
                    return self.say(&why);
                }
                self.said_progress = Some((Instant::now(), 0));
                self.heard_done = false;
                self.say(
                    "Reviewing the game: this takes a while, and the keys still work. \
                     Reviewing: 0%.",
                )
            }
            State::Running(running) => {
                let done = percent(running.progress());
                self.said_progress = Some((Instant::now(), done));
                self.say(&format!("Reviewing: {done}%."))
            }
            State::Done(reviewed) => {
                let voices = Voices::of(self.viewer.story());
                let line = review::summary(&reviewed.review, &voices);
                self.say(&line)
            }
        }
    }

    /// `review`: the summary, then every hand's verdicts.
    pub(super) fn review(&mut self) -> io::Result<()> {
        let Some(reviewed) = self.viewer.analysis().reviewed() else {
            let why = match self.viewer.analysis().state() {
                State::Running(_) => "The review is not done yet: a says how far it is.",
                _ => "No review yet: a starts it.",
            };
            return self.say(why);
        };
        let story = self.viewer.story();
        let voices = Voices::of(story);
        let mut said = vec![review::summary(&reviewed.review, &voices)];
        for hand in &story.hands {
            said.extend(review::hand_lines(
                &reviewed.review,
                hand.hand,
                &voices,
                &self.speech,
            ));
        }
        said.iter().try_for_each(|line| self.say(line))
    }

    /// Says how the analysis is going, a line every few seconds at most;
    /// that it is done, once; or why it stopped.
    pub(super) fn tell_analysis(&mut self) -> io::Result<()> {
        let analysis = self.viewer.analysis();
        match analysis.state() {
            State::Running(running) => {
                let done = percent(running.progress());
                let due = self
                    .said_progress
                    .is_none_or(|(when, last)| when.elapsed() >= PROGRESS_EVERY && done != last);
                if due {
                    self.said_progress = Some((Instant::now(), done));
                    return self.say(&format!("Reviewing: {done}%."));
                }
                Ok(())
            }
            State::Done(reviewed) if !self.heard_done => {
                self.heard_done = true;
                let voices = Voices::of(self.viewer.story());
                let line = review::summary(&reviewed.review, &voices);
                self.say(&line)?;
                self.say("Each hand now ends with its verdicts; review lists them all.")
            }
            State::Idle if self.said_progress.is_some() => {
                self.said_progress = None;
                let why = analysis.said().unwrap_or("The review stopped.").to_string();
                self.say(&why)
            }
            _ => Ok(()),
        }
    }
}

/// How far an analysis has come, in whole percent.
fn percent(progress: Option<Progress>) -> usize {
    match progress {
        Some(p) if p.total > 0 => p.done * 100 / p.total,
        _ => 0,
    }
}
