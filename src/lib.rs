//! Spades in the terminal. The engine holds the rules; the table runs a
//! game between seats; bots, the TUI and `spades sim` are its clients.

pub mod analysis;
pub mod appending;
pub mod bots;
pub mod cli;
pub mod config;
pub mod engine;
pub mod fairness;
pub mod history;
pub mod ladder;
#[cfg(test)]
mod layers;
pub mod look;
pub mod naming;
pub mod net;
pub mod outside;
pub mod paths;
pub mod presets;
pub mod protocol;
pub mod rating;
pub mod record;
pub mod records_folder;
pub mod save;
pub mod search;
pub mod session;
pub mod signals;
pub mod sim;
pub mod stats;
pub mod story;
pub mod table;
pub mod tui;
pub mod verify;
