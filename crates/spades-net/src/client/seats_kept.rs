//! Seat tokens kept on this machine, one file per table, so a player who
//! lost the connection (or closed the terminal) takes the same seat back
//! by joining the table again. Each file is written whole (temporary file,
//! then rename) and readable by its owner only.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

fn token_path(dir: &Path, table: &str) -> Option<PathBuf> {
    // Table ids are base32: nothing in one can leave the folder.
    table
        .bytes()
        .all(|b| b.is_ascii_alphanumeric())
        .then(|| dir.join(format!("{table}.token")))
}

/// The token kept for `table`, if one is.
pub fn kept(dir: &Path, table: &str) -> Option<String> {
    let text = fs::read_to_string(token_path(dir, table)?).ok()?;
    let token = text.trim();
    (!token.is_empty() && token.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then(|| token.to_string())
}

/// Keeps `token` for `table`.
pub fn keep(dir: &Path, table: &str, token: &str) -> std::io::Result<()> {
    let Some(path) = token_path(dir, table) else {
        return Ok(());
    };
    fs::create_dir_all(dir)?;
    let temporary = path.with_extension("token.new");
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&temporary)?;
    file.write_all(token.as_bytes())?;
    file.sync_all()?;
    fs::rename(&temporary, &path)
}

/// The most token files looked through for the lobby: a folder grown
/// past it is read no further.
const MOST_LOOKED_AT: usize = 1000;

/// The tables a token is kept for in `dir` (none when there is no such
/// folder), to find the player's own among a server's tables.
pub fn tables(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .take(MOST_LOOKED_AT)
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let table = name.strip_suffix(".token")?;
            token_path(dir, table).map(|_| table.to_string())
        })
        .collect()
}

/// Forgets the token kept for `table`, if one is.
pub fn forget(dir: &Path, table: &str) -> std::io::Result<()> {
    let Some(path) = token_path(dir, table) else {
        return Ok(());
    };
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// How long a token is kept after the seat was last held. The server
/// keeps an away seat only while its table's game goes on (a lobby's
/// seats are freed as their players go), and a game is over within
/// hours: a token a day old is taken to name a seat, or a table, gone.
pub const KEPT_FOR: Duration = Duration::from_secs(24 * 60 * 60);

/// Removes the tokens in `dir` last written `KEPT_FOR` or more before
/// `now` (a token is written again each time its seat is taken back),
/// and any half-written one as old. How many it removed.
pub fn prune(dir: &Path, now: SystemTime) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.ends_with(".token") || name.ends_with(".token.new")) {
            continue;
        }
        let written = entry.metadata().and_then(|m| m.modified());
        let old = written.is_ok_and(|at| now.duration_since(at).is_ok_and(|age| age >= KEPT_FOR));
        if old && fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The seat tokens kept in a folder (none without one).
#[derive(Debug)]
struct Folder(Option<PathBuf>);

impl super::seating::SeatTokens for Folder {
    fn keep(&self, table: &str, token: &str) {
        if let Some(dir) = &self.0 {
            // A token not kept only means the seat cannot be taken back.
            let _ = keep(dir, table, token);
        }
    }

    fn forget(&self, table: &str) {
        if let Some(dir) = &self.0 {
            // A token left behind is refused by the server, and pruned.
            let _ = forget(dir, table);
        }
    }
}

/// Keeps each seat token the server gives in `dir`, to take the seat back
/// later, and forgets it once the seat is gone; with no folder, keeps
/// none. Tokens kept too long to be of use are pruned first.
pub fn keeper(dir: Option<PathBuf>) -> super::seating::KeepToken {
    if let Some(dir) = &dir {
        prune(dir, SystemTime::now());
    }
    std::sync::Arc::new(Folder(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_token_is_found_again_and_odd_names_are_not_paths() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(kept(dir.path(), "ABC234"), None);
        keep(dir.path(), "ABC234", "TOKEN77").unwrap();
        assert_eq!(kept(dir.path(), "ABC234").as_deref(), Some("TOKEN77"));
        keep(dir.path(), "ABC234", "OTHER22").unwrap();
        assert_eq!(kept(dir.path(), "ABC234").as_deref(), Some("OTHER22"));
        keep(dir.path(), "../evil", "X").unwrap();
        assert!(!dir.path().join("../evil.token").exists());
        assert_eq!(kept(dir.path(), "../evil"), None);
        forget(dir.path(), "ABC234").unwrap();
        assert_eq!(kept(dir.path(), "ABC234"), None);
        forget(dir.path(), "ABC234").unwrap();
        forget(dir.path(), "../evil").unwrap();
    }

    /// Tokens older than a seat is kept are removed at start; newer
    /// ones, and other files, are left.
    #[test]
    fn tokens_kept_too_long_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        keep(dir.path(), "OLD234", "T1").unwrap();
        keep(dir.path(), "NEW234", "T2").unwrap();
        std::fs::write(dir.path().join("HALF22.token.new"), "T").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        let now = SystemTime::now();
        let long_ago = now - KEPT_FOR - Duration::from_secs(60);
        for name in ["OLD234.token", "HALF22.token.new", "notes.txt"] {
            let file = std::fs::File::options()
                .write(true)
                .open(dir.path().join(name))
                .unwrap();
            file.set_modified(long_ago).unwrap();
        }
        assert_eq!(prune(dir.path(), now), 2);
        assert_eq!(kept(dir.path(), "OLD234"), None);
        assert_eq!(kept(dir.path(), "NEW234").as_deref(), Some("T2"));
        assert!(!dir.path().join("HALF22.token.new").exists());
        assert!(dir.path().join("notes.txt").exists());
        // The keeper prunes as it starts.
        keep(dir.path(), "OLD334", "T3").unwrap();
        let file = std::fs::File::options()
            .write(true)
            .open(dir.path().join("OLD334.token"))
            .unwrap();
        file.set_modified(long_ago).unwrap();
        let _ = keeper(Some(dir.path().to_path_buf()));
        assert_eq!(kept(dir.path(), "OLD334"), None);
        assert_eq!(kept(dir.path(), "NEW234").as_deref(), Some("T2"));
    }

    #[test]
    fn the_tables_a_token_is_kept_for_are_listed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        assert!(tables(&dir.path().join("none")).is_empty());
        keep(dir.path(), "ABC234", "TOKEN77").unwrap();
        keep(dir.path(), "XYZ567", "TOKEN88").unwrap();
        fs::write(dir.path().join("notes.txt"), "x").unwrap();
        fs::write(dir.path().join("a-b.token"), "x").unwrap();
        let mut found = tables(dir.path());
        found.sort();
        assert_eq!(found, ["ABC234", "XYZ567"]);
    }
}
