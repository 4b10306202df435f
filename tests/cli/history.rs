//! `spades history`, `spades export` and `spades stats`, run as the real
//! binary with a home of the test's own, over records the real table wrote
//! into that home's records folder.

use std::path::PathBuf;

use predicates::prelude::*;
use serde_json::Value;
use spades::engine::Mode;
use support::game::spades;
use support::played::{Spec, play_into, records_dir};

/// A home whose records folder holds three games, oldest first: a
/// partnership game, a practice game in cutthroat, an individual game.
struct Home {
    dir: tempfile::TempDir,
    specs: [Spec; 3],
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let at = 1_764_552_000;
        let mut practice = Spec::new(Mode::Cutthroat, 2, at + 3_600, "easy");
        practice.practice = true;
        let specs = [
            Spec::new(Mode::Partnership, 1, at, "random"),
            practice,
            Spec::new(Mode::Individual, 3, at + 7_200, "random"),
        ];
        let home = Home { dir, specs };
        for spec in &home.specs {
            play_into(&home.records(), spec);
        }
        home
    }

    fn records(&self) -> PathBuf {
        records_dir(&self.dir.path().join("data"))
    }

    fn record(&self, spec: &Spec) -> PathBuf {
        self.records().join(format!("{}.jsonl", spec.id()))
    }

    fn run(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        spades(&self.dir).args(args).assert()
    }

    fn stdout(&self, args: &[&str]) -> String {
        let out = self.run(args).success().get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    }

    /// Puts a broken copy of the first game in the folder: line `line` (from
    /// 1) becomes what `change` makes of it.
    fn break_record(&self, line: usize, change: impl Fn(&str) -> String) -> PathBuf {
        let text = std::fs::read_to_string(self.record(&self.specs[0])).unwrap();
        let broken: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                let l = if i + 1 == line { change(l) } else { l.into() };
                l + "\n"
            })
            .collect();
        let path = self.records().join("game-broken.jsonl");
        std::fs::write(&path, broken).unwrap();
        path
    }
}

#[test]
fn history_lists_the_games_newest_first_with_practice_marked() {
    let home = Home::new();
    let text = home.stdout(&["history"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for heading in [
        "DATE (UTC)",
        "MODE",
        "LEVEL",
        "RESULT",
        "SCORE",
        "HANDS",
        "RULES",
    ] {
        assert!(lines[0].contains(heading), "{text}");
    }
    let [oldest, practice, newest] = &home.specs;
    for (row, spec) in lines[1..].iter().zip([newest, practice, oldest]) {
        assert!(row.contains(&spec.id()), "{text}");
        assert!(row.contains("built-in rules, to 200"), "{text}");
        assert_eq!(row.contains("practice"), spec.practice, "{text}");
    }
    assert!(
        lines[1].starts_with("2025-12-01 03:20  individual"),
        "{text}"
    );
    assert!(
        lines[3].starts_with("2025-12-01 01:20  partnership"),
        "{text}"
    );
}

#[test]
fn history_as_json_is_newest_first_with_practice_marked() {
    let home = Home::new();
    let games: Vec<Value> = serde_json::from_str(&home.stdout(&["history", "--json"])).unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    let [oldest, practice, newest] = &home.specs;
    assert_eq!(ids, [newest.id(), practice.id(), oldest.id()]);
    let practices: Vec<bool> = games.iter().map(|g| g["practice"] == true).collect();
    assert_eq!(practices, [false, true, false]);
    let first = &games[2];
    assert_eq!(first["mode"], "partnership");
    assert_eq!(first["difficulty"], "random");
    assert_eq!(first["date"], "2025-12-01 01:20");
    assert_eq!(first["rules_source"], "built-in rules, to 200");
    // Result, final score and hands, as the record's closing lines say.
    let record = std::fs::read_to_string(home.record(oldest)).unwrap();
    let hands = record.lines().filter(|l| l.contains("\"score\"")).count();
    assert_eq!(first["hands"], hands);
    let end: Value = serde_json::from_str(record.lines().last().unwrap()).unwrap();
    assert_eq!(first["scores"], end["scores"]);
    let won = end["winner"] == 0;
    assert_eq!(first["result"], if won { "won" } else { "lost" });
}

#[test]
fn export_writes_the_record_byte_for_byte_and_never_overwrites_unasked() {
    let home = Home::new();
    let spec = &home.specs[1];
    let original = std::fs::read(home.record(spec)).unwrap();
    let out = home.dir.path().join("copy.jsonl");
    let path = out.to_str().unwrap();
    home.run(&["export", &spec.id(), path]).success();
    assert_eq!(std::fs::read(&out).unwrap(), original);

    // Already there: left as it is without --force.
    std::fs::write(&out, "mine\n").unwrap();
    home.run(&["export", &spec.id(), path]).code(2).stderr(
        predicate::str::contains("already exists").and(predicate::str::contains("--force")),
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"mine\n");
    home.run(&["export", &spec.id(), path, "--force"]).success();
    assert_eq!(std::fs::read(&out).unwrap(), original);

    // No PATH: ./ID.jsonl; the start of an id is enough when only one
    // game's id starts so.
    let newest = &home.specs[2];
    let start = &newest.id()[..16];
    home.run(&["export", start]).success();
    let default = home.dir.path().join(format!("{}.jsonl", newest.id()));
    assert_eq!(
        std::fs::read(default).unwrap(),
        std::fs::read(home.record(newest)).unwrap()
    );
}

#[test]
fn export_of_an_unknown_id_exits_2() {
    let home = Home::new();
    home.run(&["export", "game-42"])
        .code(2)
        .stderr(predicate::str::contains(
            "no game's id is or starts with `game-42`",
        ));
    // Every game's id starts with `game-`: which one is meant?
    home.run(&["export", "game-"])
        .code(2)
        .stderr(predicate::str::contains("could be any of 3 games"));
    // Nothing was written.
    let written = std::fs::read_dir(home.dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "jsonl")
        })
        .count();
    assert_eq!(written, 0);
}

/// The rating `spades stats` shows is named: the one against the computer,
/// worked out from the records, never a server's ladder rating.
#[test]
fn stats_names_the_rating_it_shows() {
    let home = Home::new();
    let home_path = home.dir.path().to_string_lossy().into_owned();
    let text = home.stdout(&["stats"]).replace(&home_path, "[home]");
    insta::assert_snapshot!("stats", text);
}

/// `--rebuild`, once documented, is kept for scripts that pass it: nothing
/// is cached, so it gives the same numbers and says what it read.
#[test]
fn stats_rebuilt_gives_the_same_numbers() {
    let home = Home::new();
    let plain = home.stdout(&["stats", "--json"]);
    let rebuilt = home.stdout(&["stats", "--json", "--rebuild"]);
    assert_eq!(plain, rebuilt);
    let stats: Value = serde_json::from_str(&plain).unwrap();
    // Two games count; the practice game is apart and not rated.
    assert_eq!(stats["games"]["games"], 2);
    assert_eq!(stats["practice"]["games"], 1);
    assert_eq!(stats["by_mode"]["partnership"]["games"], 1);
    assert_eq!(stats["by_mode"]["individual"]["games"], 1);
    assert_eq!(stats["by_level"]["random"]["games"], 2);
    assert_eq!(stats["rating"]["rated_games"], 2);
    assert_eq!(stats["record_files"], 3);
    let text = home.stdout(&["stats", "--rebuild"]);
    assert!(text.contains("Games     2 played: "), "{text}");
    assert!(text.contains("Rating    "), "{text}");
    assert!(
        text.contains("Rebuilt from the records: read 3 record files"),
        "{text}"
    );
}

#[test]
fn a_corrupt_record_is_named_with_its_file_and_line_and_exits_2() {
    let home = Home::new();
    let not_json = home.break_record(3, |_| "{\"event\":".into());
    for command in ["stats", "history"] {
        home.run(&[command])
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{}:3: ",
                not_json.display()
            )))
            .stderr(predicate::str::contains("panicked").not());
    }
    std::fs::remove_file(&not_json).unwrap();

    // A line that reads but is not what the rules give: the first score
    // line with a point more for side 0.
    let record = std::fs::read_to_string(home.record(&home.specs[0])).unwrap();
    let at = 1 + record
        .lines()
        .position(|l| l.contains("\"score\""))
        .unwrap();
    let tampered = home.break_record(at, |l| {
        let mut v: Value = serde_json::from_str(l).unwrap();
        let points = v["sides"][0]["points"].as_i64().unwrap();
        v["sides"][0]["points"] = (points + 1).into();
        v.to_string()
    });
    home.run(&["stats", "--json"])
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}:{at}: ",
            tampered.display()
        )));
}

#[test]
fn no_records_folder_yet_is_no_games() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .arg("history")
        .assert()
        .success()
        .stdout(predicate::str::contains("No games to list"));
    spades(&dir)
        .arg("stats")
        .assert()
        .success()
        .stdout(predicate::str::contains("No games played yet."));
    spades(&dir).args(["export", "game-1"]).assert().code(2);
}

/// A game analysed with `spades analyze ID` is kept beside its record:
/// `history` still lists only the games, and `stats` shows its mistakes
/// and accuracy from the kept review, without judging anything itself.
#[test]
fn stats_show_the_analysed_games_and_history_ignores_the_reviews() {
    let home = Home::new();
    let before = home.stdout(&["stats"]);
    assert!(!before.contains("Analysed"), "{before}");
    let id = home.specs[0].id();
    home.run(&["analyze", &id, "--iterations", "8", "--no-all-seen"])
        .success();
    let kept = home.records().join(format!("{id}.jsonl.review.json"));
    assert!(kept.is_file());
    let history: Value = serde_json::from_str(&home.stdout(&["history", "--json"])).unwrap();
    assert_eq!(history.as_array().unwrap().len(), 3);
    let text = home.stdout(&["stats"]);
    assert!(
        text.contains("Analysed  1 game (spades analyze): "),
        "{text}"
    );
    assert!(
        text.contains("accuracy over time, oldest first: "),
        "{text}"
    );
    let stats: Value = serde_json::from_str(&home.stdout(&["stats", "--json"])).unwrap();
    let games = stats["analyses"]["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["id"], id.as_str());
    assert!(games[0]["decisions"].as_u64().unwrap() > 0);
}
