//! Seat tokens kept on this machine, one file per table, so a player who
//! lost the connection (or closed the terminal) takes the same seat back
//! by joining the table again. Each file is written whole (temporary file,
//! then rename) and readable by its owner only.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// Keeps each seat token the server gives in `dir`, to take the seat back
/// later; with no folder, keeps none.
pub fn keeper(dir: Option<PathBuf>) -> super::lobby::KeepToken {
    Box::new(move |table, token| {
        if let Some(dir) = &dir {
            // A token not kept only means the seat cannot be taken back.
            let _ = keep(dir, table, token);
        }
    })
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
