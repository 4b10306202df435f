//! A recorded game read hand by hand in lines, with its review when the
//! analysis runs: `spades replay --screen-reader`, and the game just
//! played from the game-over lines.
//!
//! The `Viewer` the full-screen replay uses holds the story, where it
//! stands and the analysis; this reads it a hand at a time (`hand`) and
//! says the analysis's verdicts (`review`).

mod hand;
mod review;
mod reviewing;

use std::io;
use std::time::{Duration, Instant};

use crate::config::preferences::Verbosity;
use crate::signals::StopSignals;
use crate::story::StepEvent;

use super::super::replay::{Move, Source, Viewer};
use super::super::{Ending, TuiError};
use super::{Heard, Lines, Speech, words};

use hand::Voices;

/// How long a look at the input waits, so that the analysis's progress
/// and stop signals are heard between lines.
const TICK: Duration = Duration::from_millis(200);

/// The least time between two lines on the analysis's progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// The keys, said on opening and with `?`.
const KEYS: &str = "Keys: n or Enter the next hand, p the previous, hand 4 a given one, \
r this hand again, t its next trick, a reviews the game, review lists the verdicts, \
v the verbosity, q leaves, ? the keys.";

/// Reads `viewer`'s game to the player until they leave it (`q`), the
/// input closes, or a stop signal comes; cards in words, at normal
/// verbosity (`read_as` says them as the player chose).
pub fn read(
    viewer: &mut Viewer,
    lines: &mut Lines,
    signals: &StopSignals,
) -> Result<Ending, TuiError> {
    let speech = Speech {
        verbosity: Verbosity::Normal,
        short_cards: false,
    };
    read_as(viewer, &speech, lines, signals)
}

/// `read`, with cards named as `speech` says.
pub fn read_as(
    viewer: &mut Viewer,
    speech: &Speech,
    lines: &mut Lines,
    signals: &StopSignals,
) -> Result<Ending, TuiError> {
    let mut reader = Reader {
        viewer,
        speech: *speech,
        lines,
        said_progress: None,
        heard_done: false,
    };
    match reader.run(signals) {
        // Nobody is reading any more: the player has gone.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Ending::Quit),
        done => done.map_err(TuiError::from),
    }
}

/// What a typed line asks of the replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Next,
    Previous,
    /// A hand by its number, from 1.
    Hand(usize),
    Again,
    /// The hand's next trick, one at a time.
    Trick,
    Analyse,
    Review,
    Keys,
    Verbosity,
    Leave,
}

impl Command {
    fn of(line: &str) -> Option<Command> {
        let line = line.trim().to_ascii_lowercase();
        let words: Vec<&str> = line.split_whitespace().collect();
        Some(match words.as_slice() {
            [] | ["n" | "next"] => Command::Next,
            ["p" | "previous" | "back"] => Command::Previous,
            ["hand" | "h", n] => Command::Hand(n.parse().ok()?),
            ["r" | "again"] => Command::Again,
            ["t" | "trick"] => Command::Trick,
            ["a" | "analyse" | "analyze"] => Command::Analyse,
            ["review"] => Command::Review,
            ["?" | "help" | "keys"] => Command::Keys,
            ["v" | "verbosity"] => Command::Verbosity,
            ["q" | "quit" | "leave"] => Command::Leave,
            _ => return None,
        })
    }
}

struct Reader<'a> {
    viewer: &'a mut Viewer,
    /// How the lines speak: `v` steps the verbosity.
    speech: Speech,
    lines: &'a mut Lines,
    /// When progress was last said, and how far it was then.
    said_progress: Option<(Instant, usize)>,
    /// The finished review has been announced.
    heard_done: bool,
}

impl Reader<'_> {
    fn run(&mut self, signals: &StopSignals) -> io::Result<Ending> {
        self.say(&self.title())?;
        self.say(KEYS)?;
        if self.viewer.story().hands.is_empty() {
            self.say("This game has no hand to read yet.")?;
        } else {
            self.go_to(0);
            self.read_hand()?;
        }
        loop {
            if let Some(signal) = signals.received() {
                return Ok(Ending::Signal(signal));
            }
            self.viewer.poll();
            self.tell_analysis()?;
            let line = match self.lines.hear(TICK) {
                Heard::Nothing => continue,
                Heard::Closed => return Ok(Ending::Quit),
                Heard::Line(line) => line,
            };
            match Command::of(&line) {
                Some(Command::Leave) => return Ok(Ending::Quit),
                Some(command) => self.obey(command)?,
                None => self.say(&format!("Not a key here: {line}. ? says the keys."))?,
            }
        }
    }

    fn obey(&mut self, command: Command) -> io::Result<()> {
        let hands = self.viewer.story().hands.len();
        if hands == 0
            && !matches!(
                command,
                Command::Keys | Command::Analyse | Command::Verbosity
            )
        {
            return self.say("This game has no hand to read yet.");
        }
        let at = self.hand_index();
        match command {
            Command::Next if at + 1 >= hands => {
                self.say("That was the last hand: p goes back, q leaves.")
            }
            Command::Next => {
                self.go_to(at + 1);
                self.read_hand()
            }
            Command::Previous if at == 0 => self.say("This is the first hand."),
            Command::Previous => {
                self.go_to(at - 1);
                self.read_hand()
            }
            Command::Hand(n) => match self.numbered(n) {
                Some(index) => {
                    self.go_to(index);
                    self.read_hand()
                }
                None => {
                    let story = self.viewer.story();
                    let first = story.hands[0].hand;
                    let last = story.hands[hands - 1].hand;
                    self.say(&format!(
                        "There is no hand {n}: this game has hands {first} to {last}."
                    ))
                }
            },
            Command::Again => {
                self.go_to(at);
                self.read_hand()
            }
            Command::Trick => self.next_trick(),
            Command::Analyse => self.analyse(),
            Command::Review => self.review(),
            Command::Keys => self.say(KEYS),
            Command::Verbosity => {
                self.speech.verbosity = self.speech.verbosity.next();
                let name = self.speech.verbosity.name();
                self.say(&format!("Verbosity: {name}; r reads this hand again."))
            }
            Command::Leave => Ok(()),
        }
    }

    /// "Replay of game 1 of 2 in r.jsonl, partnership: hard 0 and hard 2
    /// against hard 1 and hard 3. hard 0 and hard 2 win the game, 212 to
    /// 150. 5 hands."
    fn title(&self) -> String {
        let story = self.viewer.story();
        let voices = Voices::of(story);
        let what = match self.viewer.source() {
            Source::Record { name, game, games } => {
                format!("Replay of game {game} of {games} in {name}")
            }
            Source::HandReview => "Replay of the hand just played".into(),
            Source::GameJustPlayed => "Replay of the game just played".into(),
        };
        let sides: Vec<String> = story
            .mode()
            .each_side()
            .map(|side| voices.members(story, side).join(" and "))
            .collect();
        let result = match (hand::game_won(story, &voices), self.viewer.source()) {
            (Some(won), _) => won + " ",
            (None, Source::HandReview) => String::new(),
            (None, _) => "The record stops before the game's end. ".into(),
        };
        format!(
            "{what}, {}: {}. {result}{}.",
            story.mode(),
            sides.join(" against "),
            words::count(story.hands.len(), "hand")
        )
    }

    /// The index of the hand numbered `n` in the game, if the story
    /// holds it (a hand's review holds that hand alone).
    fn numbered(&self, n: usize) -> Option<usize> {
        let n = u32::try_from(n).ok()?;
        self.viewer.story().hands.iter().position(|h| h.hand == n)
    }

    /// The hand being read, by index.
    fn hand_index(&self) -> usize {
        self.viewer.step().map_or(0, |s| s.hand)
    }

    /// Puts the viewer at the start of hand `index`, so that the full
    /// screen and the lines agree on where the replay stands.
    fn go_to(&mut self, index: usize) {
        self.viewer.go(Move::Start);
        for _ in 0..index {
            self.viewer.go(Move::OnHand);
        }
    }

    /// The hand the viewer stands in, then its verdicts once reviewed.
    fn read_hand(&mut self) -> io::Result<()> {
        let index = self.hand_index();
        let story = self.viewer.story();
        let mut said = hand::lines(story, index, &self.speech);
        if let Some(reviewed) = self.viewer.analysis().reviewed() {
            let number = story.hands[index].hand;
            let voices = Voices::of(story);
            said.extend(review::hand_lines(
                &reviewed.review,
                number,
                &voices,
                &self.speech,
            ));
        }
        said.iter().try_for_each(|line| self.say(line))
    }

    /// `t`: the viewer goes on to the hand's next trick, which is said;
    /// after the last, the hand's score, and the next `t` starts its
    /// tricks again.
    fn next_trick(&mut self) -> io::Result<()> {
        let index = self.hand_index();
        let from = self.viewer.at();
        self.viewer.go(Move::OnTrick);
        let step = self.viewer.step().filter(|s| s.hand == index);
        let said = match step.map(|s| s.event) {
            _ if self.viewer.at() == from => None,
            Some(StepEvent::Play {
                completes: Some(k), ..
            }) => hand::trick(self.viewer.story(), index, k, &self.speech).map(|l| vec![l]),
            Some(StepEvent::Scored) => Some(hand::ending(self.viewer.story(), index)),
            // The deal, the bids, the exchange: read with the hand.
            Some(_) => return self.next_trick(),
            None => None,
        };
        match said {
            Some(lines) => lines.iter().try_for_each(|l| self.say(l)),
            None => {
                self.go_to(index);
                self.say("That was the hand's end: t reads its tricks again, n the next hand.")
            }
        }
    }

    /// Says `text`, in as many lines as it takes (`Lines::say` splits).
    fn say(&mut self, text: &str) -> io::Result<()> {
        self.lines.say(text)
    }
}

#[cfg(test)]
mod tests;
