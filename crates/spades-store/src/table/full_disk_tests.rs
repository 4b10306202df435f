//! A game whose disk fills up part way: the table says so at once, keeps
//! every step in memory, never leaves half a line in its files, and once
//! there is room again its save and record are whole (the record passes
//! `spades verify`). Run on a real filesystem of 600 kB (a tmpfs mounted
//! for the test): root may write past permissions, not past a full disk.

use std::path::Path;

use support::disk::SmallDisk;

use super::*;
use crate::bots::Level;
use crate::look::Look;
use crate::record::create_record_file;
use crate::save::{SaveAbout, Saved};

/// Bots that make their contracts, so the game reaches its end.
fn bots() -> Vec<Player> {
    (0..4)
        .map(|_| Player::Bot(Level::Easy.bot(crate::bots::Effort::Usual)))
        .collect()
}

/// A game that ends, whoever plays it, but never in its first three hands:
/// no side can score 1,000 points (or lose them) in three.
fn rules() -> Rules {
    Rules::new(crate::engine::RuleSettings {
        target_score: 1000,
        losing_score: Some(-1000),
        ..crate::engine::RuleSettings::classic(crate::engine::Mode::Partnership)
    })
    .expect("valid rules")
}

fn about(record: &Path) -> SaveAbout {
    SaveAbout {
        id: record.file_stem().unwrap().to_string_lossy().into_owned(),
        started: 1,
        name: "You".into(),
        difficulty: Level::Random.into(),
        rules_source: "built-in".into(),
        practice: false,
        record: Some(record.to_path_buf()),
        look: Look::default(),
    }
}

/// Nothing but whole lines: empty, or ending in a newline.
fn whole_lines(path: &Path) -> bool {
    let text = std::fs::read(path).unwrap_or_default();
    text.last().is_none_or(|&b| b == b'\n')
}

#[test]
fn a_full_disk_loses_nothing_and_cuts_no_line() {
    let Some(disk) = SmallDisk::mount("600k") else {
        return;
    };
    let mut table = Table::new(rules(), Dealing::secret().unwrap(), bots());
    let (file, record) = create_record_file(&disk.path().join("records")).unwrap();
    let names = (1..=4).map(|i| format!("P{i}")).collect();
    let info = about(&record).info();
    let out = crate::appending::WholeLines::at_end(file).unwrap();
    table.record_to(Box::new(out), names, info).unwrap();
    let save = table
        .save_to(&disk.path().join("saves"), about(&record))
        .unwrap();
    let mut steps = 0;
    while table.hand_no() < 2 {
        table.step_bot().unwrap().unwrap();
        steps += 1;
    }
    let filler = disk.fill();
    // The files' last pages may hold a few more lines; from the first
    // write refused on, the table says so until there is room again.
    let mut refused = false;
    while table.hand_no() < 4 {
        table.step_bot().unwrap().unwrap();
        steps += 1;
        assert!(
            !refused || table.save_problem().is_some(),
            "step {steps}: still full, and said so"
        );
        refused = table.save_problem().is_some();
        assert!(whole_lines(&save), "step {steps}: half a line in the save");
        assert!(
            whole_lines(&record),
            "step {steps}: half a line in the record"
        );
    }
    assert!(refused, "the disk was full");
    std::fs::remove_file(filler).unwrap();
    table.step_bot().unwrap().unwrap();
    steps += 1;
    assert_eq!(table.save_problem(), None, "written once there is room");
    assert_eq!(table.record_problem(), None);
    let saved = Saved::load(&save).unwrap();
    assert_eq!(saved.steps.len(), steps, "every step is in the save");
    assert_eq!(
        saved.standing().unwrap(),
        (table.hand_no(), table.game.scores())
    );
    table.run_bots().unwrap();
    assert_eq!(table.phase(), Phase::Over);
    let text = std::fs::read_to_string(&record).unwrap();
    let verdicts = crate::verify::verify(&text).unwrap();
    assert_eq!(verdicts.len(), 1);
    assert!(verdicts[0].is_verified(), "{:?}", verdicts[0].outcome);
    assert_eq!(verdicts[0].hands, table.results().len());
}
