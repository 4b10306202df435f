//! Spades in the terminal. The engine holds the rules; the table runs a
//! game between seats; bots, the TUI and `spades sim` are its clients.
//!
//! The program is a workspace whose crates are its layers (see
//! docs/architecture.md): `spades-core` (rules, search, bots),
//! `spades-formats` (records, protocol, rules files and the words they
//! share), `spades-store` (the table, sessions, saves, history, ratings,
//! the ladder), `spades-net` (the server and the player's side of it) and
//! `spades-tui` (the screen). This crate is the command line and the
//! arena; it names every layer's modules at its root, so `spades::engine`
//! is the core's engine.

pub mod cli;
#[cfg(test)]
mod layers;
pub mod sim;

pub use spades_core::{bots, engine, search};
pub use spades_formats::{
    appending, config, fairness, look, naming, outside, paths, presets, protocol, record, signals,
};
pub use spades_net as net;
pub use spades_store::{
    analysis, history, ladder, rating, records_folder, save, session, stats, story, table, verify,
};
pub use spades_tui as tui;
