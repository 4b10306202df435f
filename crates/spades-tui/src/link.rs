//! Where the app's game is played: at a table in this process (a
//! `session::LocalGame`), or at a seat on a server (a `net::client::seat::Remote`).
//! Either way the app gets the player's view, the events as the player's
//! seat sees them, and a turn when one of the player's decisions is due; it
//! never holds the deal.

use std::path::Path;

use crate::engine::{
    Action, HandResult, Phase, PlayerView, RuleError, Rules, Seat, SeatEvent, Turn,
};
use crate::fairness::{Commitment, Reveal};
use crate::net::client::seat::Remote;
use crate::session::{ClaimRefused, LocalGame, Played};
use crate::table::{BotError, ClaimCheck, ClaimVerdict, Thinking, Thought};

pub enum TableLink {
    Local(Box<LocalGame>),
    Remote(Box<Remote>),
}

impl TableLink {
    pub fn view(&self, seat: Seat) -> PlayerView {
        match self {
            TableLink::Local(game) => game.table().view(seat),
            TableLink::Remote(remote) => remote.view(seat),
        }
    }

    pub fn human_turn(&self) -> Option<Turn> {
        match self {
            TableLink::Local(game) => game.table().human_turn(),
            TableLink::Remote(remote) => remote.turn(),
        }
    }

    /// The seat another player (or a bot) must act for now.
    pub fn bot_turn(&self) -> Option<Turn> {
        match self {
            TableLink::Local(game) => game.table().bot_turn(),
            TableLink::Remote(remote) => remote.others_turn(),
        }
    }

    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), RuleError> {
        match self {
            TableLink::Local(game) => game.table_mut().act(seat, action),
            TableLink::Remote(remote) => remote.act(seat, action),
        }
    }

    pub fn take_events(&mut self, seat: Seat) -> Vec<SeatEvent> {
        match self {
            TableLink::Local(game) => game.table_mut().take_events(seat),
            TableLink::Remote(remote) => remote.take_events(),
        }
    }

    /// A bot of this process to think now (local tables only: a server
    /// runs its own).
    pub fn think(&mut self) -> Option<Thinking> {
        match self {
            TableLink::Local(game) => game.table_mut().think(),
            TableLink::Remote(_) => None,
        }
    }

    pub fn answer(&mut self, thought: Thought) -> Result<(), BotError> {
        match self {
            TableLink::Local(game) => game.table_mut().answer(thought),
            // Nothing is handed out to think about: no answer comes back.
            TableLink::Remote(_) => Ok(()),
        }
    }

    /// Deals the next hand at a local table; a server deals by itself.
    pub fn deal_next_hand(&mut self) -> bool {
        match self {
            TableLink::Local(game) => game.table_mut().deal_next_hand(),
            TableLink::Remote(_) => false,
        }
    }

    pub fn results(&self) -> &[HandResult] {
        match self {
            TableLink::Local(game) => game.table().results(),
            TableLink::Remote(remote) => remote.results(),
        }
    }

    pub fn phase(&self) -> Phase {
        match self {
            TableLink::Local(game) => game.table().phase(),
            TableLink::Remote(remote) => remote.phase(),
        }
    }

    pub fn rules(&self) -> &Rules {
        match self {
            TableLink::Local(game) => game.table().rules(),
            TableLink::Remote(remote) => remote.rules(),
        }
    }

    /// Whether a server's ladder rates the game: never a local one's.
    /// What the server said of a shared table (`None` at home).
    pub fn facts(&self) -> Option<&crate::net::client::table_facts::TableFacts> {
        match self {
            TableLink::Local(_) => None,
            TableLink::Remote(remote) => Some(remote.facts()),
        }
    }

    pub fn ladder(&self) -> Option<&crate::net::client::seat::Ladder> {
        match self {
            TableLink::Local(_) => None,
            TableLink::Remote(remote) => remote.ladder(),
        }
    }

    pub fn commitment(&self) -> Option<Commitment> {
        match self {
            TableLink::Local(game) => game.table().commitment(),
            TableLink::Remote(remote) => remote.commitment(),
        }
    }

    pub fn open_seed(&self) -> Option<u64> {
        match self {
            TableLink::Local(game) => game.table().open_seed(),
            TableLink::Remote(_) => None,
        }
    }

    pub fn revealed(&self) -> Option<Reveal> {
        match self {
            TableLink::Local(game) => game.table().revealed(),
            TableLink::Remote(remote) => remote.revealed(),
        }
    }

    pub fn is_saved(&self) -> bool {
        match self {
            TableLink::Local(game) => game.table().is_saved(),
            TableLink::Remote(_) => false,
        }
    }

    /// The player leaves: a local game is kept or abandoned; a remote seat
    /// is given up with a goodbye (a bot takes it). Says which records were
    /// written and where the game is kept.
    pub fn close(&mut self) -> Played {
        match self {
            TableLink::Local(game) => game.close(),
            TableLink::Remote(remote) => remote.leave(),
        }
    }

    /// The file this game is recorded in, if it is.
    pub fn record_path(&self) -> Option<&Path> {
        match self {
            TableLink::Local(game) => game.record_path(),
            TableLink::Remote(remote) => remote.record_path(),
        }
    }

    /// The line saying the disk refuses a local game's files, while it does.
    pub fn unwritten(&self) -> Option<String> {
        match self {
            TableLink::Local(game) => game.unwritten(),
            TableLink::Remote(_) => None,
        }
    }

    /// Tries again to write what the disk refused (a local game).
    pub fn catch_up(&mut self) {
        if let TableLink::Local(game) = self {
            game.catch_up();
        }
    }

    /// Would `take_back` find a move of `seat`'s to take back?
    pub fn can_take_back(&self, seat: Seat) -> bool {
        match self {
            TableLink::Local(game) => game.table().can_take_back(seat),
            TableLink::Remote(_) => false,
        }
    }

    pub fn take_back(&mut self, seat: Seat) -> Result<bool, String> {
        match self {
            TableLink::Local(game) => game.table_mut().take_back(seat).map_err(|e| e.to_string()),
            TableLink::Remote(_) => Err("moves are not taken back at a shared table".into()),
        }
    }

    /// `seat`'s claim of every trick left, to check away from the screen's
    /// thread, at a local table (`None` at a shared one: a server takes no
    /// claims).
    pub fn check_claim(&self, seat: Seat) -> Option<Result<ClaimCheck, ClaimRefused>> {
        match self {
            TableLink::Local(game) => Some(game.check_claim(seat)),
            TableLink::Remote(_) => None,
        }
    }

    /// A claim checked: played out, or refused.
    pub fn settle_claim(&mut self, verdict: ClaimVerdict) -> Result<u8, ClaimRefused> {
        match self {
            TableLink::Local(game) => game.settle_claim(verdict),
            TableLink::Remote(_) => Err(ClaimRefused::Stale),
        }
    }

    /// Seats whose program (`exec:`) failed and is now played by another
    /// bot, and why, at a local table.
    pub fn replaced(&self) -> Vec<(Seat, String)> {
        let TableLink::Local(game) = self else {
            return Vec::new();
        };
        let table = game.table();
        table
            .mode()
            .each_seat()
            .filter_map(|seat| match table.player(seat) {
                crate::table::Player::Bot(bot) => bot
                    .replaced()
                    .map(|r| (seat, format!("{} in hand {}: {}", r.by, r.hand, r.reason))),
                _ => None,
            })
            .collect()
    }

    pub fn remote(&mut self) -> Option<&mut Remote> {
        match self {
            TableLink::Local(_) => None,
            TableLink::Remote(remote) => Some(remote),
        }
    }

    /// Has the table on the server ended (the host left, the server
    /// stopped)? A local table never goes.
    pub fn is_gone(&self) -> bool {
        matches!(self, TableLink::Remote(remote) if remote.closed().is_some())
    }

    /// Is another person at the shared table, to play on without the
    /// player? Never at a local table.
    pub fn others_here(&self) -> bool {
        matches!(self, TableLink::Remote(remote) if remote.others_here())
    }

    /// A shared table's chat so far, oldest first; none at a local table.
    pub fn chat_log(&self) -> Vec<String> {
        match self {
            TableLink::Local(_) => Vec::new(),
            TableLink::Remote(remote) => remote.chat_log().iter().cloned().collect(),
        }
    }

    pub fn is_remote(&self) -> bool {
        matches!(self, TableLink::Remote(_))
    }
}
