//! What the server says of a shared table, for the player to read at it:
//! its code (for a friend who would watch), who plays each seat, and, as
//! the game's record says them, the level of its bots and where its rules
//! come from. Nothing here guesses: what the server has not said is not
//! known.

use crate::bots::BotSpec;
use crate::engine::{Mode, Seat};
use crate::protocol::SeatPlayer;
use crate::record::GameInfo;

/// A shared table as its server told this player.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableFacts {
    /// The table's whole code (`TABLE.FINGERPRINT@HOST:PORT`), when known.
    pub code: Option<String>,
    /// Who plays each seat now, in seat order, as the game's `start` and
    /// each `seat` message since said (empty from a server that never said).
    pub players: Vec<SeatPlayer>,
    /// The bots' level, as the record's header says it.
    pub bots: Option<BotSpec>,
    /// Where the rules come from, as the record's header says it.
    pub rules_source: Option<String>,
}

impl TableFacts {
    /// What the record's header says of the game.
    pub fn heard_header(&mut self, info: &GameInfo) {
        self.bots.clone_from(&info.difficulty);
        self.rules_source.clone_from(&info.rules_source);
    }

    /// What a friend types to watch the table.
    pub fn watch_command(&self) -> Option<String> {
        self.code
            .as_ref()
            .map(|code| format!("spades watch {code}"))
    }

    /// Who sits at the table with `you`, in words: the other people by
    /// name (`names`, in seat order), the bots by their number and level,
    /// and the dummy: "you, Bob and 2 normal computer players".
    pub fn players_in_words(&self, mode: Mode, names: &[String], you: Seat) -> String {
        let mut said = vec!["you".to_string()];
        let mut bots = 0;
        let mut dummy = false;
        for seat in mode.each_seat().filter(|&s| s != you) {
            match self.players.get(seat.index()) {
                Some(SeatPlayer::Bot) => bots += 1,
                Some(SeatPlayer::Dummy) => dummy = true,
                Some(SeatPlayer::Person | SeatPlayer::Away) => {
                    let name = names.get(seat.index()).map_or("?", String::as_str);
                    said.push(name.to_string());
                }
                Some(SeatPlayer::Empty) | None => {}
            }
        }
        if bots > 0 {
            let level = self
                .bots
                .as_ref()
                .map(|b| format!("{b} "))
                .unwrap_or_default();
            let plural = if bots == 1 { "" } else { "s" };
            said.push(format!("{bots} {level}computer player{plural}"));
        }
        if dummy {
            said.push("the dummy".to_string());
        }
        match said.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => said.join(""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(all: &[&str]) -> Vec<String> {
        all.iter().map(|n| n.to_string()).collect()
    }

    /// A quick match for two: the other player by name, the bots as the
    /// record says them; not the player's own level for games at home.
    #[test]
    fn a_quick_match_names_its_people_and_its_bots_level() {
        let mut facts = TableFacts {
            players: vec![
                SeatPlayer::Person,
                SeatPlayer::Person,
                SeatPlayer::Bot,
                SeatPlayer::Bot,
            ],
            ..TableFacts::default()
        };
        let seats = names(&["Ann", "Bob", "North", "East"]);
        let bob = Seat::new(1);
        let unknown = facts.players_in_words(Mode::Partnership, &seats, bob);
        assert_eq!(unknown, "you, Ann and 2 computer players");
        facts.heard_header(&GameInfo {
            difficulty: Some(crate::bots::Level::Normal.into()),
            rules_source: Some("the server's quick match".into()),
            ..GameInfo::default()
        });
        let said = facts.players_in_words(Mode::Partnership, &seats, bob);
        assert_eq!(said, "you, Ann and 2 normal computer players");
        assert_eq!(
            facts.rules_source.as_deref(),
            Some("the server's quick match")
        );
        // One bot, a dummy, and nobody else.
        let dummy = TableFacts {
            players: vec![
                SeatPlayer::Person,
                SeatPlayer::Away,
                SeatPlayer::Bot,
                SeatPlayer::Dummy,
            ],
            ..facts.clone()
        };
        let seats = names(&["Ann", "Cy", "West", "Dummy"]);
        let said = dummy.players_in_words(Mode::Dummy, &seats, Seat::new(0));
        assert_eq!(said, "you, Cy, 1 normal computer player and the dummy");
        let alone = TableFacts::default().players_in_words(Mode::Cutthroat, &seats, Seat::new(0));
        assert_eq!(alone, "you");
    }
}
