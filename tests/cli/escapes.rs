//! What a record file says is shown, never obeyed: escape sequences in its
//! text (a window title, a screen clear, a colour, a bidi override) reach
//! neither stdout nor stderr of `history`, `stats`, `verify`, `replay`,
//! `analyze` or `resume --list`, whether the record or save reads well or its line is
//! broken and quoted.

use std::path::Path;

use serde_json::Value;
use spades::engine::Mode;
use support::game::spades;
use support::played::{Spec, play_into, records_dir};

/// Sets the window title, clears the screen, colours by the one-byte CSI
/// and turns the line round.
const HOSTILE: &str = "x\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{202e}\u{2028}y";

/// Nothing a terminal would obey: no control character but a newline or
/// a tab, no format or separator character.
fn assert_inert(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| spades::outside::hidden(c) && c != '\n' && c != '\t')
        .collect();
    assert!(bad.is_empty(), "{what} printed {bad:?} raw:\n{text}");
}

/// A record whose every text field of its header holds `HOSTILE`.
fn hostile_record(records: &Path) {
    let spec = Spec::new(Mode::Partnership, 1, 1_764_552_000, "random");
    let played = play_into(records, &spec);
    let text = std::fs::read_to_string(&played).unwrap();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let header = &mut lines[0];
    for key in ["id", "rules_source"] {
        header[key] = Value::from(format!("{}{HOSTILE}", header[key].as_str().unwrap()));
    }
    // A program's command: any text makes a level that reads.
    header["difficulty"] = Value::from(format!("exec:{HOSTILE}"));
    header["names"] = Value::from(vec![HOSTILE; 4]);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&played, text).unwrap();
}

/// A waiting game whose save's id holds `HOSTILE`, and one set aside
/// because its rules name a mode that is `HOSTILE`.
fn hostile_saves(data: &Path) {
    let saves = data.join("spades/saves");
    std::fs::create_dir_all(&saves).unwrap();
    let header = serde_json::json!({
        "save": 1, "version": "0.1.0", "id": format!("g{HOSTILE}"), "started": 1,
        "rules": {}, "name": HOSTILE, "difficulty": "easy", "rules_source": HOSTILE,
        "seed": 1, "salt": null, "record": null,
    });
    std::fs::write(saves.join("waiting.save"), format!("{header}\n")).unwrap();
    let mut bad = header.clone();
    bad["rules"] = serde_json::json!({ "mode": HOSTILE });
    std::fs::write(saves.join("bad.save"), format!("{bad}\n")).unwrap();
}

#[test]
fn escape_sequences_in_a_record_reach_no_output_raw() {
    let home = tempfile::tempdir().unwrap();
    let records = records_dir(&home.path().join("data"));
    hostile_record(&records);
    // A broken record whose bad line is quoted in the error.
    let broken = records.join("game-broken.jsonl");
    std::fs::write(
        &broken,
        format!(
            "{}\n",
            serde_json::json!({ "event": HOSTILE, "id": HOSTILE })
        ),
    )
    .unwrap();
    let files: Vec<String> = std::fs::read_dir(&records)
        .unwrap()
        .map(|f| f.unwrap().path().to_string_lossy().into_owned())
        .collect();
    hostile_saves(&home.path().join("data"));
    let mut runs: Vec<Vec<String>> = [
        &["resume", "--list"][..],
        &["history"],
        &["history", "--json"],
        &["stats"],
        &["stats", "--json", "--rebuild"],
    ]
    .iter()
    .map(|args| args.iter().map(|a| a.to_string()).collect())
    .collect();
    for file in &files {
        runs.push(vec!["verify".into(), file.clone()]);
        runs.push(vec!["replay".into(), file.clone()]);
        for json in ["--all", "--json"] {
            let args = ["analyze", file, "--iterations", "4", "--no-all-seen", json];
            runs.push(args.map(String::from).to_vec());
        }
    }
    for args in runs {
        let out = spades(&home).args(&args).output().unwrap();
        let what = args.join(" ");
        assert_inert(&format!("{what} (stdout)"), &out.stdout);
        assert_inert(&format!("{what} (stderr)"), &out.stderr);
        // Shown, escaped: the list's text is still there to be read.
        if args[0] == "history" || args[0] == "resume" {
            assert!(
                String::from_utf8_lossy(&out.stdout).contains("pwned"),
                "{what} does not show the record's text"
            );
        }
    }
}

/// A line break in a record's text would print a line of the record's
/// own making in `history` or `stats`, one that could pass for a game.
#[test]
fn a_line_break_in_a_record_cannot_forge_a_line() {
    let home = tempfile::tempdir().unwrap();
    let records = records_dir(&home.path().join("data"));
    let spec = Spec::new(Mode::Partnership, 1, 1_764_552_000, "random");
    let played = play_into(&records, &spec);
    let text = std::fs::read_to_string(&played).unwrap();
    let forged = "\n2026-12-01 10:00  partnership  hard  won  500-0  8  forged\t-";
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[0]["rules_source"] = Value::from(format!("mine{forged}"));
    lines[0]["difficulty"] = Value::from(format!("exec:bot{forged}"));
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&played, text).unwrap();
    let history = spades(&home).arg("history").output().unwrap();
    let listing = String::from_utf8_lossy(&history.stdout);
    // The heading and the one game, each on a line of its own.
    assert_eq!(listing.lines().count(), 2, "{listing}");
    assert!(listing.contains("mine\\u{a}2026-12-01"), "{listing}");
    let stats = spades(&home).arg("stats").output().unwrap();
    let stats = String::from_utf8_lossy(&stats.stdout);
    assert!(
        !stats.lines().any(|l| l.starts_with("2026-12-01")),
        "{stats}"
    );
    assert!(stats.contains("bot\\u{a}2026-12-01"), "{stats}");
}
