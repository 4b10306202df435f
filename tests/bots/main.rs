//! The computer players: the blunder suite, whole games between the
//! levels, the hint, the engine support a search leans on, and the
//! calibration of the levels' ratings.
//!
//! One test binary (`cargo test --test bots`); each module is one area.

// A test's helper that unwraps is part of the test: its panic is the
// test failing, with the value that failed it.
#![allow(clippy::unwrap_used)]

mod blunders;
mod hint;
mod levels;
mod rating_calibration;
mod search_support;
