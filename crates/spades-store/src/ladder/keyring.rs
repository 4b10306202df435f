//! What a player's machine remembers of their keys beyond the key itself:
//! the servers the key signed in to, and the keys rotated away from, each
//! with the servers that still know it. A rotation is done on one server
//! at a time; the old key is kept (readable by its owner alone) so that
//! the account on every other server can be moved over, signed by it, at
//! the next sign-in there.
//!
//! Beside `account.key`: `account.servers` (the servers of the key in use)
//! and the folder `retired-keys/`, holding `SHORT.key` (the old key, as
//! `account.key` keeps one) and `SHORT.servers` for each old key. A servers
//! file is text, one server a line as `FINGERPRINT@HOST:PORT`.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::keys::{Identity, KeyError, PublicKey};

/// Servers remembered for one key, at most: older ones are forgotten.
const MOST_SERVERS: usize = 64;
/// Old keys kept, at most, and tried at a sign-in: the newest.
pub const MOST_RETIRED: usize = 8;
/// The longest server line kept; a longer one is not one of ours.
const MOST_LINE: usize = 300;

/// The keys beside `key_file` (`account.key`).
#[derive(Debug, Clone)]
pub struct Keyring {
    key_file: PathBuf,
}

/// A key rotated away from, and the servers that may still know it.
#[derive(Debug)]
pub struct Retired {
    pub identity: Identity,
    pub known_on: Vec<String>,
}

fn file_error(path: &Path) -> impl Fn(std::io::Error) -> KeyError + '_ {
    move |source| KeyError::File {
        path: path.to_path_buf(),
        source,
    }
}

/// The servers in `path` (none when there is no such file), each a line
/// of printable ASCII: anything else is not a line we wrote.
fn read_servers(path: &Path) -> Result<Vec<String>, KeyError> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(file_error(path)(e)),
    };
    let mut text = String::new();
    let most = (MOST_SERVERS * (MOST_LINE + 1)) as u64;
    file.take(most)
        .read_to_string(&mut text)
        .map_err(file_error(path))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && l.len() <= MOST_LINE && l.bytes().all(|b| b.is_ascii_graphic())
        })
        .take(MOST_SERVERS)
        .map(str::to_string)
        .collect())
}

/// Writes `servers` to `path` in one step (beside it, then moved over).
fn write_servers(path: &Path, servers: &[String]) -> Result<(), KeyError> {
    let mut text = String::new();
    for server in servers.iter().rev().take(MOST_SERVERS).rev() {
        text.push_str(server);
        text.push('\n');
    }
    let beside = path.with_extension("servers.new");
    std::fs::write(&beside, text).map_err(file_error(&beside))?;
    std::fs::rename(&beside, path).map_err(file_error(path))
}

/// A key's name in the retired folder: the first 16 hex digits of the
/// public key.
fn retired_name(key: &PublicKey) -> String {
    data_encoding::HEXLOWER.encode(&key.as_bytes()[..8])
}

impl Keyring {
    pub fn new(key_file: PathBuf) -> Keyring {
        Keyring { key_file }
    }

    fn servers_file(&self) -> PathBuf {
        self.key_file.with_extension("servers")
    }

    fn retired_folder(&self) -> PathBuf {
        self.key_file.with_file_name("retired-keys")
    }

    /// The servers the key in use signed in to.
    pub fn servers(&self) -> Result<Vec<String>, KeyError> {
        read_servers(&self.servers_file())
    }

    /// The key in use signed in to `server`; if a retired key's account
    /// there was moved to it, that key is no longer known there.
    pub fn signed_in(&self, server: &str, moved_from: Option<&PublicKey>) -> Result<(), KeyError> {
        let path = self.servers_file();
        let mut servers = read_servers(&path)?;
        if !servers.iter().any(|s| s == server) {
            servers.push(server.to_string());
            write_servers(&path, &servers)?;
        }
        let Some(old) = moved_from else {
            return Ok(());
        };
        let old_servers = self
            .retired_folder()
            .join(format!("{}.servers", retired_name(old)));
        let mut known = read_servers(&old_servers)?;
        known.retain(|s| s != server);
        write_servers(&old_servers, &known)
    }

    /// A key of another machine's took the place of the one in use: the
    /// servers noted were that key's, not this one's.
    pub fn new_key(&self) -> Result<(), KeyError> {
        write_servers(&self.servers_file(), &[])
    }

    /// `old`, rotated away from on `server`, is kept with the servers
    /// that still know it (those it signed in to, but `server`); `new`'s
    /// servers start with `server`. Call before `new` replaces the key
    /// file, so that no moment loses the old key.
    pub fn retire(&self, old: &Identity, server: &str) -> Result<Vec<String>, KeyError> {
        let mut known = self.servers()?;
        known.retain(|s| s != server);
        let folder = self.retired_folder();
        let name = retired_name(&old.public_key());
        let key = folder.join(format!("{name}.key"));
        match old.save_new(&key) {
            Ok(()) | Err(KeyError::Exists(_)) => {}
            Err(e) => return Err(e),
        }
        write_servers(&folder.join(format!("{name}.servers")), &known)?;
        write_servers(&self.servers_file(), &[server.to_string()])?;
        Ok(known)
    }

    /// The keys rotated away from, newest first, at most `MOST_RETIRED`;
    /// a damaged one is an error naming its file.
    pub fn retired(&self) -> Result<Vec<Retired>, KeyError> {
        let folder = self.retired_folder();
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(file_error(&folder)(e)),
        };
        let mut keys = Vec::new();
        for entry in entries {
            let path = entry.map_err(file_error(&folder))?.path();
            if path.extension().is_some_and(|e| e == "key") {
                let when = std::fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .map_err(file_error(&path))?;
                keys.push((when, path));
            }
        }
        keys.sort_by_key(|k| std::cmp::Reverse(k.0));
        keys.into_iter()
            .take(MOST_RETIRED)
            .map(|(_, path)| {
                Ok(Retired {
                    identity: Identity::load(&path)?,
                    known_on: read_servers(&path.with_extension("servers"))?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retired_key_is_kept_with_the_servers_that_still_know_it() {
        let dir = tempfile::tempdir().unwrap();
        let ring = Keyring::new(dir.path().join("account.key"));
        let old = Identity::generate().unwrap();
        for server in ["A@a:1", "B@b:2", "C@c:3", "B@b:2"] {
            ring.signed_in(server, None).unwrap();
        }
        assert_eq!(ring.servers().unwrap(), ["A@a:1", "B@b:2", "C@c:3"]);
        let still = ring.retire(&old, "A@a:1").unwrap();
        assert_eq!(still, ["B@b:2", "C@c:3"]);
        assert_eq!(ring.servers().unwrap(), ["A@a:1"]);
        let retired = ring.retired().unwrap();
        assert_eq!(retired.len(), 1);
        assert_eq!(retired[0].identity.public_key(), old.public_key());
        assert_eq!(retired[0].known_on, ["B@b:2", "C@c:3"]);
        // Moved on B: only C still knows the old key.
        ring.signed_in("B@b:2", Some(&old.public_key())).unwrap();
        assert_eq!(ring.retired().unwrap()[0].known_on, ["C@c:3"]);
        assert_eq!(ring.servers().unwrap(), ["A@a:1", "B@b:2"]);
        // Another machine's key imported: its servers are not known.
        ring.new_key().unwrap();
        assert!(ring.servers().unwrap().is_empty());
    }

    #[test]
    fn a_servers_file_of_garbage_keeps_only_lines_we_could_have_written() {
        let dir = tempfile::tempdir().unwrap();
        let ring = Keyring::new(dir.path().join("account.key"));
        let long = "x".repeat(MOST_LINE + 1);
        std::fs::write(
            dir.path().join("account.servers"),
            format!("A@a:1\n{long}\nbad line\n\u{1b}[2J\n\nB@b:2\n"),
        )
        .unwrap();
        assert_eq!(ring.servers().unwrap(), ["A@a:1", "B@b:2"]);
        let many: String = (0..1000).map(|i| format!("S{i}@h:1\n")).collect();
        std::fs::write(dir.path().join("account.servers"), many).unwrap();
        assert_eq!(ring.servers().unwrap().len(), MOST_SERVERS);
    }
}
