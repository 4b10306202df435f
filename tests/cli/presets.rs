//! The shipped presets (`assets/presets/`): listed, shown, refused by
//! name when unknown, and each played by the real binary with its records
//! passing the independent checker.

use predicates::prelude::*;
use spades::presets::PRESETS;
use support::checker::check_record;
use support::game::spades;

#[test]
fn rules_presets_lists_every_preset_with_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let out = spades(&dir).args(["rules", "--presets"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for preset in PRESETS {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(preset.name))
            .unwrap_or_else(|| panic!("{} is not listed:\n{text}", preset.name));
        assert!(line.contains(preset.about()), "{line}");
    }
}

/// The presets came from rules players wrote, numbered as seeds; a player
/// would read "seed 000" as a deal's seed, so no text shown says it.
#[test]
fn no_preset_text_names_where_it_came_from_as_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let out = |args: &[&str]| {
        let out = spades(&dir).args(args).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let mut shown = vec![out(&["rules", "--presets"])];
    for preset in PRESETS {
        shown.push(out(&["rules", "--preset", preset.name]));
        shown.push(preset.text.to_string());
    }
    for text in shown {
        assert!(!text.to_lowercase().contains("seed 0"), "{text}");
    }
}

#[test]
fn a_preset_is_shown_as_a_rules_file_and_can_start_one() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .args(["rules", "--preset", "quick"])
        .assert()
        .success()
        .stdout(predicate::str::contains("# rules from: the quick preset"))
        .stdout(predicate::str::contains("kind = \"quick\""));
    spades(&dir)
        .args(["rules", "--preset", "short", "--init", "mine.toml"])
        .assert()
        .success();
    let written = std::fs::read_to_string(dir.path().join("mine.toml")).unwrap();
    assert!(written.contains("target_score = 300"), "{written}");
}

#[test]
fn an_unknown_preset_or_a_preset_with_a_rules_file_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .args(["--preset", "mirrror"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no preset `mirrror`"))
        .stderr(predicate::str::contains("classic"));
    spades(&dir)
        .args(["sim", "--preset", "quick", "--rules", "r.toml"])
        .assert()
        .code(2);
}

#[test]
fn every_preset_plays_in_sim_and_its_records_check() {
    let dir = tempfile::tempdir().unwrap();
    for preset in PRESETS {
        let rules = preset.rules().expect("a preset reads");
        let seats = vec!["random"; rules.mode.seats()].join(",");
        let record = dir.path().join(format!("{}.jsonl", preset.name));
        spades(&dir)
            .args([
                "sim",
                "--preset",
                preset.name,
                "--games",
                "6",
                "--seed",
                "3",
            ])
            .args(["--seats", &seats, "--max-hands", "40", "--record"])
            .arg(&record)
            .assert()
            .success();
        let text = std::fs::read_to_string(&record).unwrap();
        let report = check_record(&text);
        assert!(report.is_ok(), "{}: {}", preset.name, report.describe());
        assert_eq!(report.games, 6, "{}", preset.name);
    }
}

#[test]
fn quick_flag_makes_a_quick_play_run() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .args(["sim", "--quick", "--games", "4", "--seed", "1", "--json"])
        .args(["--seats", "random,random,random,random"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"hands_per_run\""));
}
