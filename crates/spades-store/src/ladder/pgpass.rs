//! The PostgreSQL password as libpq finds it when the address gives none,
//! so it need not be on the command line (where `ps` shows it): the
//! `PGPASSWORD` environment variable, else the password file (`PGPASSFILE`,
//! else `~/.pgpass`). A line of the file is
//! `hostname:port:database:username:password`; each of the first four may
//! be `*`, matching anything; `\:` and `\\` stand for `:` and `\`. The
//! first line that matches gives the password. As libpq does, a file that
//! its group or others may read is not used.

use std::path::{Path, PathBuf};

/// The longest password file read: a few lines in practice.
const MAX_FILE: u64 = 1024 * 1024;

/// What a connection is for, as the password file's lines name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted<'a> {
    pub host: &'a str,
    pub port: u16,
    pub database: &'a str,
    pub user: &'a str,
}

/// The password for `wanted`: `PGPASSWORD`, else the password file's.
/// A file that cannot be used is said on standard error, as libpq does.
pub fn password(wanted: &Wanted<'_>) -> Option<String> {
    if let Some(given) = std::env::var_os("PGPASSWORD") {
        return Some(given.to_string_lossy().into_owned());
    }
    let path = password_file()?;
    match read_private(&path) {
        Ok(Some(text)) => lookup(&text, wanted),
        Ok(None) => None,
        Err(why) => {
            eprintln!(
                "spades: the password file {} is not used: {why}",
                path.display()
            );
            None
        }
    }
}

fn password_file() -> Option<PathBuf> {
    match std::env::var_os("PGPASSFILE") {
        Some(path) => Some(PathBuf::from(path)),
        None => std::env::var_os("HOME").map(|home| Path::new(&home).join(".pgpass")),
    }
}

/// The file's text; `None` when there is none.
fn read_private(path: &Path) -> Result<Option<String>, String> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("it is not a plain file".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode();
        if mode & 0o077 != 0 {
            return Err(format!(
                "its group or others may read it (mode {:o}): make it u=rw (0600) or less",
                mode & 0o777
            ));
        }
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(format!("it is longer than {MAX_FILE} bytes"));
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// The password of the first line of `text` that matches `wanted`.
pub fn lookup(text: &str, wanted: &Wanted<'_>) -> Option<String> {
    let port = wanted.port.to_string();
    let asked = [wanted.host, port.as_str(), wanted.database, wanted.user];
    text.lines()
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .filter(|line| !line.trim_start().starts_with('#') && !line.trim().is_empty())
        .filter_map(fields)
        .find(|fields| {
            fields[..4]
                .iter()
                .zip(asked)
                .all(|(field, asked)| field == "*" || field == asked)
        })
        .map(|mut fields| fields.swap_remove(4))
}

/// A line's five fields, unescaped; `None` for a line with fewer. What
/// follows a fifth `:` is part of the password, as libpq reads it.
fn fields(line: &str) -> Option<Vec<String>> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    fields.last_mut()?.push(next);
                }
            }
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => fields.last_mut()?.push(c),
        }
    }
    (fields.len() == 5).then_some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wanted() -> Wanted<'static> {
        Wanted {
            host: "db.example",
            port: 5433,
            database: "spades",
            user: "ann",
        }
    }

    #[test]
    fn the_first_line_that_matches_gives_the_password() {
        let text = "\
# comment
other.host:5433:spades:ann:wrong
db.example:5432:spades:ann:wrong port
db.example:5433:spades:ann:right
*:*:*:*:too late
";
        assert_eq!(lookup(text, &wanted()), Some("right".into()));
        assert_eq!(
            lookup("*:*:*:*:any\n", &wanted()),
            Some("any".into()),
            "every field a wildcard"
        );
        assert_eq!(
            lookup("db.example:*:spades:*:half\n", &wanted()),
            Some("half".into())
        );
        assert_eq!(lookup("db.example:5433:spades:bo:x\n", &wanted()), None);
        assert_eq!(lookup("", &wanted()), None);
    }

    #[test]
    fn escapes_colons_and_short_lines_are_read_as_libpq_reads_them() {
        let host = Wanted {
            host: "fe80::1",
            ..wanted()
        };
        assert_eq!(
            lookup("fe80\\:\\:1:5433:spades:ann:p\\:w\\\\d\n", &host),
            Some("p:w\\d".into())
        );
        // A `:` in the password itself needs no escape.
        assert_eq!(lookup("*:*:*:*:a:b:c\r\n", &wanted()), Some("a:b:c".into()));
        // Too few fields: never matches, never panics.
        assert_eq!(lookup("db.example:5433:spades\n*:*\n\\", &wanted()), None);
        // A `*` only as a whole field is a wildcard.
        assert_eq!(lookup("db.*:5433:spades:ann:x\n", &wanted()), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_may_read_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pgpass");
        std::fs::write(&path, "*:*:*:*:secret\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = read_private(&path).unwrap_err();
        assert!(refused.contains("0600"), "{refused}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(
            read_private(&path).unwrap().as_deref(),
            Some("*:*:*:*:secret\n")
        );
        assert_eq!(read_private(&dir.path().join("none")), Ok(None));
        assert!(read_private(dir.path()).is_err(), "a folder is no file");
    }
}
