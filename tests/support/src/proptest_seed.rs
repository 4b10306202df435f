//! The one configuration every proptest in this repository runs with, so
//! that a run, CI's included, can be repeated exactly.
//!
//! - Cases are drawn from a fixed seed, `DEFAULT_SEED`, unless the
//!   `PROPTEST_RNG_SEED` environment variable names another (read through
//!   proptest's own default configuration). The seed is printed at the start
//!   of every test, and a failing test's output shows it: run again with
//!   `PROPTEST_RNG_SEED=<seed> cargo test <test>` to see the same cases.
//!   Any number will do to explore new cases locally.
//! - A failing case is saved next to the test's source, in
//!   `tests/<area>/<module>.proptest-regressions` (e.g.
//!   `tests/engine/properties.proptest-regressions` for the proptests of
//!   `tests/engine/properties.rs`), and tried first on every later run.
//!   Those files belong in git: commit them with the fix.

use proptest::prelude::{Just, Strategy, prop_oneof};
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};
use spades::engine::Mode;

/// The seed CI draws its cases from.
const DEFAULT_SEED: u64 = 20_251_201;

/// Proptest's configuration for `cases` cases, seeded and persisted as above.
pub fn config(cases: u32) -> Config {
    let defaults = Config::default();
    let seed = match defaults.rng_seed {
        RngSeed::Fixed(seed) => seed,
        RngSeed::Random => DEFAULT_SEED,
    };
    eprintln!("proptest: {cases} cases from seed {seed} (set PROPTEST_RNG_SEED={seed} to repeat)");
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..defaults
    }
}

/// Any of the three modes, for proptests that run every one.
pub fn any_mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Partnership),
        Just(Mode::Cutthroat),
        Just(Mode::Individual)
    ]
}
