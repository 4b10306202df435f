//! Where spades keeps the player's files: the one place their folders are
//! named. Each is `None` when the system names no home or data folder.

use std::io::Write as _;
use std::path::{Path, PathBuf};

fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "spades").map(|d| d.data_dir().to_path_buf())
}

/// Every game's record: `<data dir>/spades/records/`.
pub fn records() -> Option<PathBuf> {
    data_dir().map(|d| d.join("records"))
}

/// Games left undecided, to be resumed: `<data dir>/spades/saves/`.
pub fn saves() -> Option<PathBuf> {
    data_dir().map(|d| d.join("saves"))
}

/// The seat tokens of shared tables, to take a seat back:
/// `<data dir>/spades/tables/`.
pub fn seat_tokens() -> Option<PathBuf> {
    data_dir().map(|d| d.join("tables"))
}

/// The player's own rules file: `<config dir>/spades/rules.toml`.
pub fn user_rules() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|d| d.config_dir().join("spades").join("rules.toml"))
}

/// How the player likes the game shown and said (the screen-reader mode,
/// the four-colour deck): `<config dir>/spades/config.toml`.
pub fn preferences() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|d| d.config_dir().join("spades").join("config.toml"))
}

/// The player's key for the servers they sign in to (kept readable by
/// them alone): `<data dir>/spades/account.key`.
pub fn account_key() -> Option<PathBuf> {
    data_dir().map(|d| d.join("account.key"))
}

/// A `spades serve`'s data folder, where it keeps its certificate when
/// its ladder is not a file: `<data dir>/spades/`.
pub fn server_data() -> Option<PathBuf> {
    data_dir()
}

/// A `spades serve`'s ladder (accounts, rated games, ratings):
/// `<data dir>/spades/ladder.sqlite`.
pub fn ladder_db() -> Option<PathBuf> {
    data_dir().map(|d| d.join("ladder.sqlite"))
}

/// Where a `spades serve` whose ladder is in PostgreSQL keeps the rated
/// games the database could not take: `<data dir>/spades/ladder.outbox`.
pub fn ladder_outbox() -> Option<PathBuf> {
    data_dir().map(|d| d.join("ladder.outbox"))
}

/// Writes `bytes` to a new file at `path`, readable by its owner alone (a
/// key, a certificate's key) and on the disk when this returns; never over
/// a file already there (`AlreadyExists`), which may be the only copy.
pub fn create_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}
