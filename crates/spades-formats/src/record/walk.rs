//! The one walk through a recorded game: the engine plays the record's
//! bids, passes and cards, every line must be what it produces, and
//! whoever walks is shown the game as it stood at each line. Replay, the
//! game review (`analysis`), the replay's story and the history all read
//! a record this way.

use crate::engine::{Event, Game, HandResult, Seat};

use super::line::RecordLine;
use super::reader::{DealProof, RecordError, RecordedGame, action_of, deal_proof, recorded_deals};

/// A recorded game replayed through the engine.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The game as it stands after the record's last line.
    pub game: Game,
    pub deals: DealProof,
}

/// One line of the record as the walk reaches it.
#[derive(Debug, Clone, Copy)]
pub struct At<'a> {
    /// The line's number in the file, from 1.
    pub line: usize,
    pub event: &'a Event,
    /// The game as the line finds it: before the seat's bid, pass or card
    /// of a `bid`, `exchange` or `play` line (before any look at its
    /// cards too: a look is no line of the record); with its hand just
    /// dealt, at a `deal` line (a hand begins); just after the card that
    /// produced it, at a `trick`, `score` (a hand ends) or `end` line.
    pub game: &'a Game,
}

impl At<'_> {
    /// At a `score` line, the hand it ends as the engine scored it.
    pub fn scored(&self) -> Option<&HandResult> {
        match self.event {
            Event::Score { .. } => self.game.results().last(),
            _ => None,
        }
    }
}

/// Walks `recorded` through the engine, calling `visit` at every line in
/// order. Every deal must be a whole deck split as the mode says; when a
/// seed is known (open, or revealed and matching the commitment) every
/// deal must be the one it gives; and every line must be exactly what the
/// engine produces from the recorded bids, exchanges and plays. A line is
/// checked by the time the walk goes past it, so what `visit` gathered
/// stands only once the walk returns the game it ends on.
pub fn walk<E: From<RecordError>>(
    recorded: &RecordedGame,
    mut visit: impl FnMut(At<'_>) -> Result<(), E>,
) -> Result<Replayed, E> {
    let (mut game, deals) = start(recorded)?;
    let Some(((first_line, first), rest)) = recorded.events.split_first() else {
        return Ok(Replayed { game, deals });
    };
    let mut expected = Expected::new(recorded);
    // The first hand is dealt with the game.
    expected.take(&game.deal_event())?;
    visit(At {
        line: *first_line,
        event: first,
        game: &game,
    })?;
    for (line, event) in rest {
        // The next hand is dealt once the last is over.
        if let Event::Deal { .. } = event
            && let Some(deal) = game.deal_next_hand()
        {
            expected.take(&deal)?;
        }
        visit(At {
            line: *line,
            event,
            game: &game,
        })?;
        let Some((seat, action)) = action_of(event) else {
            continue;
        };
        let produced = game.apply(seat, action).map_err(|e| RecordError {
            line: *line,
            message: format!("seat {seat}: {e}"),
        })?;
        // Both exchange lines come out together once both seats have passed.
        for p in &produced {
            expected.take(p)?;
        }
    }
    expected.finish()?;
    Ok(Replayed { game, deals })
}

/// Replays a recorded game through the engine to its last line (`walk`,
/// looking at nothing on the way).
pub fn replay(recorded: &RecordedGame) -> Result<Replayed, RecordError> {
    walk(recorded, |_| Ok::<(), RecordError>(()))
}

/// The game the record's header and deals set up, before any line is
/// played, and where its deals came from.
fn start(recorded: &RecordedGame) -> Result<(Game, DealProof), RecordError> {
    let header = &recorded.header;
    let rules = header.rules;
    let at_header = |message: String| RecordError {
        line: recorded.line,
        message,
    };
    if header.mode != rules.mode {
        return Err(at_header(
            "the game's mode and its rules' mode differ".into(),
        ));
    }
    let n = rules.mode.seats();
    if header.names.len() != n {
        return Err(at_header(format!(
            "a {} game names {n} seats, not {}",
            rules.mode,
            header.names.len()
        )));
    }
    let proof = deal_proof(recorded)?;
    let seed = match proof {
        DealProof::Committed { seed, .. } | DealProof::OpenSeed(seed) => Some(seed),
        DealProof::Unproven => None,
    };
    let (first_dealer, deals) = recorded_deals(recorded, seed)?;
    let game = Game::with_deals(rules, first_dealer.unwrap_or(Seat::new(0)), deals);
    Ok((game, proof))
}

/// The record's lines the engine must produce next, in order.
struct Expected<'r> {
    events: &'r [(usize, Event)],
    next: usize,
    /// A record cut short (no closing line) stops where it stops: what the
    /// engine produces past its last line is simply not known.
    cut_short: bool,
}

impl<'r> Expected<'r> {
    fn new(recorded: &'r RecordedGame) -> Expected<'r> {
        Expected {
            events: &recorded.events,
            next: 0,
            cut_short: !recorded.is_closed(),
        }
    }

    /// The engine produced `produced`: it must be the record's next line.
    fn take(&mut self, produced: &Event) -> Result<(), RecordError> {
        let Some((line, recorded)) = self.events.get(self.next) else {
            if self.cut_short {
                return Ok(());
            }
            return Err(RecordError {
                line: self.events.last().map_or(0, |(l, _)| *l),
                message: format!(
                    "the record ends before the game does: next comes {}",
                    RecordLine::of(produced).json()
                ),
            });
        };
        self.next += 1;
        if recorded == produced {
            return Ok(());
        }
        Err(RecordError {
            line: *line,
            message: format!(
                "the record says {} but the rules give {}",
                RecordLine::of(recorded).json(),
                RecordLine::of(produced).json()
            ),
        })
    }

    /// Every line is played: none may be left that the rules never gave.
    fn finish(&self) -> Result<(), RecordError> {
        match self.events.get(self.next) {
            Some((line, extra)) => Err(RecordError {
                line: *line,
                message: format!("the rules give no {} here", RecordLine::of(extra).json()),
            }),
            None => Ok(()),
        }
    }
}
