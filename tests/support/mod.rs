//! Helpers shared by the integration tests: the independent record checker
//! and a writer for game records made from engine events.

// Each test crate uses a different part of these helpers.
#![allow(dead_code)]

pub mod checker;
pub mod record;
