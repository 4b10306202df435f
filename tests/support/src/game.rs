//! Games and commands the tests start the same way everywhere.

use assert_cmd::Command;
use spades::engine::{Mode, Rules};

/// The classic rules of a mode, cut short at `points` either way, so games
/// between weak bots end soon.
pub fn short(mode: Mode, points: i32) -> Rules {
    Rules::classic(mode)
        .with(|r| {
            r.target_score = points;
            r.losing_score = Some(-points);
        })
        .expect("valid rules")
}

/// The real binary run in `dir`, with no user config, so no stray
/// rules.toml is picked up and no file lands outside `dir`.
pub fn spades(dir: &tempfile::TempDir) -> Command {
    let mut cmd = Command::new(crate::spades_bin());
    cmd.current_dir(dir.path())
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_DATA_HOME", dir.path().join("data"));
    cmd
}
