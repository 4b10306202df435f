//! Back from a table to the lobby: what became of the seat is said on the
//! lobby's status line, and the records written are kept, to be named when
//! the program ends. Only a stop (Ctrl-C, a signal, the terminal gone) or
//! a failure ends the program from a table.

use crate::session::Played;
use crate::tui::{Ending, RemoteEnd, TuiError};

use super::Handover;

/// Where the player goes once a seat taken from the lobby is left.
#[derive(Debug)]
pub(super) enum Back {
    /// Back to the lobby, with a word on what happened.
    ToLobby(String),
    /// The program ends, and how.
    Stop(Result<Ending, TuiError>),
}

/// What `end`, the end of the seat `handover` asked for, comes to; the
/// game's records are added to `played`.
pub(super) fn from_table(end: RemoteEnd, handover: &Handover, played: &mut Played) -> Back {
    match end {
        RemoteEnd::Played(outcome) => {
            let problem = outcome.played.record_problem.clone();
            *played = std::mem::take(played).then(outcome.played);
            match outcome.ending {
                Ok(Ending::Quit) => Back::ToLobby(match problem {
                    Some(why) => format!("Back from the table; its record was not written: {why}"),
                    None => "Back from the table.".to_string(),
                }),
                ending => Back::Stop(ending),
            }
        }
        RemoteEnd::Left => Back::ToLobby(
            match handover {
                Handover::Queue { .. } => "You left the quick match.",
                _ => "You left the table before its game.",
            }
            .to_string(),
        ),
        RemoteEnd::NoTable => Back::ToLobby("That table has closed.".to_string()),
        RemoteEnd::Closed(why) => Back::ToLobby(format!("The table ended before its game: {why}.")),
        RemoteEnd::Stopped(ending) => Back::Stop(Ok(ending)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Mode;
    use crate::tui::Outcome;
    use std::path::PathBuf;
    use std::time::Duration;

    fn game(ending: Ending, record: &str) -> RemoteEnd {
        RemoteEnd::Played(Outcome {
            played: Played {
                records: vec![PathBuf::from(record)],
                saved: None,
                record_problem: None,
            },
            ending: Ok(ending),
        })
    }

    #[test]
    fn a_game_left_or_over_goes_back_to_the_lobby_and_its_record_is_kept() {
        let mut played = Played::default();
        let join = Handover::Join("K7QXM2PD4T9RWA3B".into());
        let back = from_table(game(Ending::Quit, "a.jsonl"), &join, &mut played);
        assert!(matches!(back, Back::ToLobby(ref s) if s == "Back from the table."));
        from_table(game(Ending::Quit, "b.jsonl"), &join, &mut played);
        assert_eq!(played.records, [PathBuf::from("a.jsonl"), "b.jsonl".into()]);
    }

    #[test]
    fn leaving_a_quick_match_or_a_tables_lobby_goes_back_and_says_which() {
        let mut played = Played::default();
        let queue = Handover::Queue {
            mode: Mode::Partnership,
            wait: Duration::from_secs(30),
        };
        let said = |back| match back {
            Back::ToLobby(said) => said,
            Back::Stop(how) => panic!("stopped: {how:?}"),
        };
        assert_eq!(
            said(from_table(RemoteEnd::Left, &queue, &mut played)),
            "You left the quick match."
        );
        let open = Handover::Open {
            mode: Mode::Cutthroat,
            public: true,
        };
        assert_eq!(
            said(from_table(RemoteEnd::Left, &open, &mut played)),
            "You left the table before its game."
        );
        assert_eq!(
            said(from_table(
                RemoteEnd::Closed("the host left the table".into()),
                &open,
                &mut played
            )),
            "The table ended before its game: the host left the table."
        );
    }

    #[test]
    fn ctrl_c_or_a_signal_at_a_table_ends_the_program() {
        let mut played = Played::default();
        let join = Handover::Join("K7QXM2PD4T9RWA3B".into());
        let back = from_table(game(Ending::Interrupted, "a.jsonl"), &join, &mut played);
        assert!(matches!(back, Back::Stop(Ok(Ending::Interrupted))));
        assert_eq!(played.records.len(), 1, "its record is still named");
        let back = from_table(RemoteEnd::Stopped(Ending::Interrupted), &join, &mut played);
        assert!(matches!(back, Back::Stop(Ok(Ending::Interrupted))));
    }
}
