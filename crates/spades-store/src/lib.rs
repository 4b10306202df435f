//! A game at a table and what it leaves behind: the table that alone holds
//! the deal, a local session with its record and save, the player's
//! history, statistics and rating, the game review (`analysis`) and the
//! replay's story, and a server's ladder (accounts, sign-in, ratings, its
//! SQLite or PostgreSQL store).

pub mod analysis;
pub mod history;
pub mod ladder;
pub mod rating;
pub mod records_folder;
pub mod save;
pub mod session;
pub mod stats;
pub mod story;
pub mod table;
pub mod verify;

// The layers below, under the names the modules use.
use spades_core::{bots, engine, search};
use spades_formats::{appending, fairness, look, naming, outside, paths, protocol, record};
