//! The rules of the game, through the library: the golden deal, the worked
//! examples the rules were written from, properties over thousands of
//! seeded games, and each house-rule variant worked by hand.
//!
//! One test binary (`cargo test --test engine`); each module is one area.

// A test's helper that unwraps is part of the test: its panic is the
// test failing, with the value that failed it.
#![allow(clippy::unwrap_used)]

mod bidding;
mod bidding_games;
mod dummy;
mod golden_deal;
mod jokers;
mod properties;
mod quick;
mod scoring;
mod seed_examples;
