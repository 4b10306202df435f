//! A local game on a full disk: the table says so at once in one line over
//! the key bar, the game goes on, and once there is room its save and
//! record are written whole and the line goes.

use spades::engine::{Decision, Mode};
use spades::save::Saved;
use support::disk::SmallDisk;
use support::tui::*;

#[test]
fn a_full_disk_is_said_in_one_line_until_there_is_room() {
    let Some(disk) = SmallDisk::mount("600k") else {
        return;
    };
    let (records, saves) = (disk.path().join("records"), disk.path().join("saves"));
    std::fs::create_dir_all(&records).unwrap();
    std::fs::create_dir_all(&saves).unwrap();
    let filler = disk.fill();
    let mut config = config(Mode::Partnership, 11);
    config.game.records = Some(records.clone());
    config.game.saves = Some(saves.clone());
    let mut app = app(config);
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
    });
    let line = "Not saved: no space left on device. Kept, and written when the disk allows.";
    assert_eq!(app.unwritten().as_deref(), Some(line));
    insta::assert_snapshot!("full_disk_80x24", screen_text(&mut app, 80, 24));

    std::fs::remove_file(filler).unwrap();
    answer(&mut app);
    assert_eq!(app.unwritten(), None, "written once there is room");
    assert!(!screen_text(&mut app, 80, 24).contains("Not saved"));
    let save = std::fs::read_dir(&saves)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "save"))
        .expect("the save");
    let saved = Saved::load(&save).unwrap();
    assert!(!saved.steps.is_empty(), "the steps held are written");
    let record = std::fs::read_dir(&records)
        .unwrap()
        .flatten()
        .next()
        .unwrap();
    let text = std::fs::read_to_string(record.path()).unwrap();
    assert!(text.starts_with("{\"event\":\"game\""), "{text}");
}
