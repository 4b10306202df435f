//! What the program reads and writes, and the words it shares: the game
//! record, the table protocol, fairness (secret seeds and their
//! commitments), rules files and presets, the player's preferences, seat
//! names, the player's folders, stop signals, the table's look, text from
//! outside cleaned, and files appended whole lines or nothing.

pub mod appending;
pub mod config;
pub mod fairness;
pub mod look;
pub mod naming;
pub mod outside;
pub mod paths;
pub mod presets;
pub mod protocol;
pub mod record;
pub mod signals;

// The layers below, under the names the modules use.
use spades_core::{bots, engine};
