//! Finding a game's record: a file named on the command line, or a game
//! named by its id (its record's file name without `.jsonl`) in the folder
//! where the table records games (`paths::records`). Any command that
//! takes `ID|FILE` finds its record here.

use std::path::{Path, PathBuf};

/// Why no one record was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FindError {
    #[error("{0} is a directory: name a record file or a game's id")]
    Directory(String),
    #[error("cannot read {0}: no such file")]
    NoFile(String),
    #[error("no record file {arg}, and no game whose id starts with `{arg}` in {dir}")]
    NoGame { arg: String, dir: String },
    #[error("`{arg}` starts the ids of {count} games in {dir}: {shown}; give more of the id")]
    Several {
        arg: String,
        dir: String,
        count: usize,
        /// The first few of them.
        shown: String,
    },
}

/// The record `arg` names: a file, or else the game in `dir` whose id is
/// `arg`, or starts with it when only one does. Something that looks like
/// a path (it has a separator or ends in `.jsonl`) is only ever a file.
pub fn find_record(arg: &str, dir: Option<&Path>) -> Result<PathBuf, FindError> {
    let path = Path::new(arg);
    if path.is_file() {
        return Ok(path.to_path_buf());
    }
    if path.is_dir() {
        return Err(FindError::Directory(arg.to_string()));
    }
    let looks_like_a_path = arg.contains(std::path::MAIN_SEPARATOR) || arg.ends_with(".jsonl");
    let Some(dir) = dir.filter(|_| !looks_like_a_path && !arg.is_empty()) else {
        return Err(FindError::NoFile(arg.to_string()));
    };
    let ids = ids_starting_with(dir, arg);
    match pick(&ids, arg, |(id, _)| id) {
        Picked::None => Err(FindError::NoGame {
            arg: arg.to_string(),
            dir: dir.display().to_string(),
        }),
        Picked::One((_, only)) => Ok(only.clone()),
        Picked::Several(many) => {
            let mut shown: Vec<&str> = many.iter().take(5).map(|(id, _)| id.as_str()).collect();
            if many.len() > shown.len() {
                shown.push("...");
            }
            Err(FindError::Several {
                arg: arg.to_string(),
                dir: dir.display().to_string(),
                count: many.len(),
                shown: shown.join(", "),
            })
        }
    }
}

/// What an id given by the player picks out of some games.
#[derive(Debug, PartialEq, Eq)]
pub enum Picked<'a, T> {
    None,
    One(&'a T),
    /// More than one game's id starts with it, and none is it exactly.
    Several(Vec<&'a T>),
}

/// The game whose id is `given`, or else the games whose ids start with
/// it: the one rule for every command that takes a game's id.
pub fn pick<'a, T>(games: &'a [T], given: &str, id: impl Fn(&T) -> &str) -> Picked<'a, T> {
    if given.is_empty() {
        return Picked::None;
    }
    if let Some(exact) = games.iter().find(|g| id(g) == given) {
        return Picked::One(exact);
    }
    let mut starting: Vec<&T> = games.iter().filter(|g| id(g).starts_with(given)).collect();
    match starting.len() {
        0 => Picked::None,
        1 => Picked::One(starting.remove(0)),
        _ => Picked::Several(starting),
    }
}

/// The games recorded in `dir` whose id starts with `prefix`, with their
/// files, in order of id (which is the order they started in). A folder
/// that cannot be read holds none.
fn ids_starting_with(dir: &Path, prefix: &str) -> Vec<(String, PathBuf)> {
    let mut ids: Vec<(String, PathBuf)> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl") && p.is_file())
            .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
            .filter(|(id, _)| id.starts_with(prefix))
            .collect(),
        Err(_) => Vec::new(),
    };
    ids.sort();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(names: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in names {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        dir
    }

    #[test]
    fn an_id_its_start_or_a_file() {
        let dir = folder(&[
            "game-1764552000-1111.jsonl",
            "game-1764552000-2222.jsonl",
            "game-1764560000-3333.jsonl",
            "notes.txt",
        ]);
        let d = Some(dir.path());
        let file = |name: &str| dir.path().join(name);
        assert_eq!(
            find_record("game-1764560000-3333", d),
            Ok(file("game-1764560000-3333.jsonl"))
        );
        assert_eq!(
            find_record("game-17645600", d),
            Ok(file("game-1764560000-3333.jsonl"))
        );
        let path = file("game-1764552000-2222.jsonl");
        assert_eq!(find_record(path.to_str().unwrap(), None), Ok(path));
        assert!(matches!(
            find_record("game-1764552", d),
            Err(FindError::Several { count: 2, .. })
        ));
        assert!(matches!(
            find_record("notes", d),
            Err(FindError::NoGame { .. })
        ));
        assert!(matches!(
            find_record("elsewhere/game.jsonl", d),
            Err(FindError::NoFile(_))
        ));
        assert!(matches!(
            find_record("game-1", None),
            Err(FindError::NoFile(_))
        ));
        assert!(matches!(
            find_record(dir.path().to_str().unwrap(), d),
            Err(FindError::Directory(_))
        ));
    }

    #[test]
    fn an_exact_id_wins_over_longer_ones() {
        let dir = folder(&["g-1.jsonl", "g-12.jsonl"]);
        assert_eq!(
            find_record("g-1", Some(dir.path())),
            Ok(dir.path().join("g-1.jsonl"))
        );
    }
}
