//! The real binary in a terminal, its data folder on a full disk: the
//! table says so in one line and plays on, the terminal stays whole, and
//! once there is room the save is written and the line goes.

use std::sync::Arc;

use spades::save::Saved;
use support::disk::SmallDisk;
use support::pty::Pty;

const TERM: Option<&str> = Some("xterm-256color");
const LINE: &str = "Not saved: no space left on device.";

#[test]
fn a_full_data_folder_is_said_and_nothing_is_lost_once_there_is_room() {
    let home = Arc::new(tempfile::tempdir().unwrap());
    let data = home.path().join("data");
    let Some(disk) = SmallDisk::mount_at(&data, "600k") else {
        return;
    };
    for folder in ["records", "saves"] {
        std::fs::create_dir_all(data.join("spades").join(folder)).unwrap();
    }
    let filler = disk.fill();
    let mut pty = Pty::start_at(home, &["--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the line", |s| s.contains(LINE) && s.contains("Your bid"));
    assert!(
        pty.saves()
            .iter()
            .all(|p| std::fs::read(p).unwrap().is_empty())
    );

    std::fs::remove_file(filler).unwrap();
    // Any key tries again; a card's key does nothing while bidding.
    pty.send(b"1");
    pty.wait_for("the line gone", |s| !s.contains(LINE));
    let saves = pty.saves();
    assert_eq!(saves.len(), 1, "{saves:?}");
    // Its header, held until now, and any bids before ours, all whole.
    let saved = Saved::load(&saves[0]).expect("a whole save");
    assert!(std::fs::read_to_string(&saves[0]).unwrap().ends_with('\n'));
    assert_eq!(saved.header.save, spades::save::FORMAT);
    pty.quit();
    drop(pty);
    drop(disk);
}
