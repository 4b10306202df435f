//! The game in progress, kept on disk so that nothing ends it: quitting,
//! closing the terminal, a signal, `kill -9` or a power cut.
//!
//! A save is a journal: a first line saying which game it is (its rules,
//! its seed, who sits where), then one line per step of the game (a seat's
//! action, or the deal of the next hand), each written and flushed to the
//! disk (`fsync`) before the game goes on. The game is deterministic from
//! its seed and its steps, so replaying the journal through the engine
//! restores it exactly. A step cut off part way by a crash is left out: the
//! game resumes as it was just before it.
//!
//! The save holds the secret seed, which the game needs to deal the hands
//! still to come; it lives in the player's own data folder, readable only
//! by them. The game record, the file meant to be shared, keeps the seed
//! secret until the game is over.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::appending::{WholeLines, replace_whole, sync_folder};
use crate::bots::BotSpec;
use crate::engine::{Action, Rules, Seat};
use crate::fairness::{Dealing, SecretSeed};
use crate::look::Look;
use crate::record::GameInfo;

/// The journal format this version writes and reads.
pub const FORMAT: u32 = 1;

/// A save larger than this is not a game in progress (a game of 200 hands
/// is well under a megabyte).
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// What a local game is, beyond what the table knows: said once, and
/// written both to its save's header and to its record's `game` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveAbout {
    pub id: String,
    pub started: u64,
    /// The player's name at the table.
    pub name: String,
    pub difficulty: BotSpec,
    pub rules_source: String,
    pub practice: bool,
    /// The game's record file, to write on into when it is resumed.
    pub record: Option<PathBuf>,
    /// How the table looked, to look the same when the game is resumed.
    pub look: Look,
}

impl SaveAbout {
    /// The game as its record's `game` line tells it: the one place a
    /// local game's `GameInfo` is made, new or resumed.
    pub fn info(&self) -> GameInfo {
        GameInfo {
            id: Some(self.id.clone()),
            started: Some(self.started),
            player_seat: Some(Seat::new(0)),
            difficulty: Some(self.difficulty.clone()),
            rules_source: Some(self.rules_source.clone()),
            practice: self.practice,
            ..GameInfo::default()
        }
    }
}

/// Only what the program names games with (`game-SECS-TAG`): letters,
/// digits and dashes, so an id names a file in one folder and no other.
fn is_game_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The first line of a save: everything needed to set the table again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveHeader {
    /// The journal format.
    pub save: u32,
    /// The version of spades that began the game.
    pub version: String,
    /// The game's name, shared with its record.
    pub id: String,
    /// When it began, in whole seconds since 1970-01-01 UTC.
    pub started: u64,
    pub rules: Rules,
    /// The player's name at the table.
    pub name: String,
    /// The computer players' level.
    pub difficulty: BotSpec,
    /// Where the rules came from, as the rules window says it.
    pub rules_source: String,
    /// Moves may be taken back.
    #[serde(default)]
    pub practice: bool,
    /// The seed the deals come from.
    pub seed: u64,
    /// The salt that hides a secret seed (32 hex digits); `None` when the
    /// seed was given openly.
    pub salt: Option<String>,
    /// The game's record file, to write on into.
    pub record: Option<PathBuf>,
    /// How the table looked when the game was begun or last taken up
    /// (saves from before it was kept have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<Look>,
}

impl SaveHeader {
    /// What the game is, as it was told when the save began.
    pub fn about(&self) -> SaveAbout {
        SaveAbout {
            id: self.id.clone(),
            started: self.started,
            name: self.name.clone(),
            difficulty: self.difficulty.clone(),
            rules_source: self.rules_source.clone(),
            practice: self.practice,
            record: self.record.clone(),
            look: self.look.unwrap_or_default(),
        }
    }

    /// The game's record file: named by its id in `records`, never the
    /// path the save holds (a save is a file anyone could have written,
    /// so its `record` only says whether the game is recorded). `None`
    /// when it is not, there is no records folder, or the id is not one
    /// this program makes.
    pub fn record_in(&self, records: Option<&Path>) -> Option<PathBuf> {
        self.record.as_ref()?;
        let dir = records?;
        is_game_id(&self.id).then(|| dir.join(format!("{}.jsonl", self.id)))
    }

    /// How the deals are dealt, as the game began.
    pub fn dealing(&self) -> Result<Dealing, SaveError> {
        match &self.salt {
            None => Ok(Dealing::Open(self.seed)),
            Some(salt) => {
                let bytes = (0..salt.len())
                    .step_by(2)
                    .map(|i| {
                        salt.get(i..i + 2)
                            .and_then(|b| u8::from_str_radix(b, 16).ok())
                    })
                    .collect::<Option<Vec<u8>>>()
                    .and_then(|b| <[u8; 16]>::try_from(b).ok())
                    .ok_or_else(|| SaveError::Bad {
                        line: 1,
                        problem: format!("the salt `{salt}` is not 32 hex digits"),
                    })?;
                Ok(Dealing::Secret(SecretSeed::from_parts(self.seed, bytes)))
            }
        }
    }
}

/// One step of the game, in the order it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// A seat's bid, look, pass or card.
    Act { seat: Seat, action: Action },
    /// The next hand is dealt (when the players have read the last one).
    Deal,
}

/// Why a save cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    #[error("cannot read it: {0}")]
    Unreadable(String),
    #[error("it is empty")]
    Empty,
    #[error("it is {0} bytes, too large for a game in progress")]
    TooLarge(u64),
    #[error("line {line}: {problem}")]
    Bad { line: usize, problem: String },
    #[error(
        "it is save format {found}, from another version of spades; this one reads format {FORMAT}"
    )]
    Format { found: u32 },
}

/// A save as read from disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    pub path: PathBuf,
    pub header: SaveHeader,
    pub steps: Vec<Step>,
}

impl Saved {
    /// Reads a save. A last line cut off by a crash is left out; anything
    /// else wrong is an error naming its line.
    pub fn load(path: &Path) -> Result<Saved, SaveError> {
        let size = std::fs::metadata(path)
            .map_err(|e| SaveError::Unreadable(e.to_string()))?
            .len();
        if size > MAX_BYTES {
            return Err(SaveError::TooLarge(size));
        }
        let text =
            std::fs::read_to_string(path).map_err(|e| SaveError::Unreadable(e.to_string()))?;
        let (header, steps) = parse(&text)?;
        Ok(Saved {
            path: path.to_path_buf(),
            header,
            steps,
        })
    }

    /// Moves an unusable save aside, as `NAME.bad`, so it is neither lost
    /// nor offered again; returns where it went.
    pub fn set_aside(path: &Path) -> io::Result<PathBuf> {
        let mut aside = path.as_os_str().to_owned();
        aside.push(".bad");
        let aside = PathBuf::from(aside);
        std::fs::rename(path, &aside)?;
        Ok(aside)
    }
}

impl Saved {
    /// Is the game being played in another window (another spades holds
    /// its lock)? Such a save cannot be taken up until that one lets go.
    pub fn in_use(&self) -> bool {
        let Ok(file) = OpenOptions::new().read(true).open(lock_path(&self.path)) else {
            // No lock file: nobody has it open.
            return false;
        };
        // The lock is let go when `file` is dropped.
        matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock))
    }

    /// When the game was last played: its save is written at every step.
    pub fn left_at(&self) -> Option<std::time::SystemTime> {
        std::fs::metadata(&self.path)
            .and_then(|m| m.modified())
            .ok()
    }

    /// Where the saved game stands: the hand being played and each side's
    /// score, worked out by replaying its steps.
    pub fn standing(&self) -> Result<(u32, Vec<i32>), SaveError> {
        let dealing = self.header.dealing()?;
        let mut game = crate::engine::Game::new(self.header.rules, dealing.seed());
        for (i, &step) in self.steps.iter().enumerate() {
            let refused = match step {
                Step::Act { seat, action } => game.apply(seat, action).err().map(|e| e.to_string()),
                Step::Deal => game
                    .deal_next_hand()
                    .is_none()
                    .then(|| "no hand is over to deal the next".to_string()),
            };
            if let Some(why) = refused {
                return Err(SaveError::Bad {
                    line: i + 2,
                    problem: format!("the rules refuse this step ({why})"),
                });
            }
        }
        Ok((game.hand_no(), game.scores()))
    }
}

/// A save's text: its header and its steps.
pub fn parse(text: &str) -> Result<(SaveHeader, Vec<Step>), SaveError> {
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    let cut_off = |i: usize| i + 1 == lines.len() && !text.ends_with('\n');
    let Some(first) = lines.first() else {
        return Err(SaveError::Empty);
    };
    // The version is looked at before anything else, so an older or newer
    // save says so rather than failing on a key it does not know.
    let value: serde_json::Value = serde_json::from_str(first).map_err(|e| SaveError::Bad {
        line: 1,
        problem: format!("not JSON: {e}"),
    })?;
    match value.get("save").and_then(serde_json::Value::as_u64) {
        Some(f) if f == u64::from(FORMAT) => {}
        Some(f) => {
            return Err(SaveError::Format {
                found: u32::try_from(f).unwrap_or(u32::MAX),
            });
        }
        None => {
            return Err(SaveError::Bad {
                line: 1,
                problem: "not a spades save (no `save` format)".into(),
            });
        }
    }
    let header: SaveHeader = serde_json::from_value(value).map_err(|e| SaveError::Bad {
        line: 1,
        problem: e.to_string(),
    })?;
    // A recorded game's record is named by its id: an id this program
    // never makes names no record, and the game must not go on unrecorded
    // without a word.
    if header.record.is_some() && !is_game_id(&header.id) {
        return Err(SaveError::Bad {
            line: 1,
            problem: "its `id` is not one spades makes, so it names no record".into(),
        });
    }
    let mut steps = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate().skip(1) {
        match serde_json::from_str::<Step>(line) {
            Ok(step) => steps.push(step),
            Err(_) if cut_off(i) => break,
            Err(e) => {
                return Err(SaveError::Bad {
                    line: i + 1,
                    problem: e.to_string(),
                });
            }
        }
    }
    Ok((header, steps))
}

/// The save of the game being played: every step goes to disk before the
/// game goes on. A step the disk refuses (a full disk) is held, and
/// written before the next, so the save is whole again once there is
/// room; the file never ends in half a step. The file is locked while the
/// game is played, so a second spades cannot play the same game.
#[derive(Debug)]
pub struct Journal {
    file: WholeLines,
    path: PathBuf,
    /// Held locked while the game is played (`ID.lock` beside the save: the
    /// save itself is replaced whole when rewritten).
    lock: File,
    /// Whole lines not yet on the disk, in order.
    held: Vec<u8>,
}

impl Journal {
    /// Starts the save of a new game in `dir`, as `ID.save`.
    pub fn create(dir: &Path, header: &SaveHeader) -> io::Result<Journal> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!("{}.save", header.id));
        let lock = lock(&path)?;
        let file = private_options().create_new(true).open(&path)?;
        let mut journal = Journal {
            file: WholeLines::at_end(file)?.synced(),
            path,
            lock,
            held: Vec::new(),
        };
        journal.hold(header)?;
        // Held if the disk refuses it: the table says so and writes it later.
        let _ = journal.write_held();
        // The new file's name must reach the disk too, or a power cut could
        // lose the whole save.
        let _ = sync_folder(&journal.path);
        Ok(journal)
    }

    /// Writes a game's save again from its header and steps, replacing the
    /// file whole (a temporary file, flushed, then renamed over it), and
    /// keeps it for the steps to come: after a game is resumed, or a move
    /// taken back.
    pub fn rewrite(path: &Path, header: &SaveHeader, steps: &[Step]) -> io::Result<Journal> {
        let lock = lock(path)?;
        let mut text = serde_json::to_string(header)?;
        text.push('\n');
        for step in steps {
            text.push_str(&serde_json::to_string(step)?);
            text.push('\n');
        }
        let file = replace_whole(path, text.as_bytes(), &private_options())?;
        Ok(Journal {
            file: WholeLines::at_end(file)?.synced(),
            path: path.to_path_buf(),
            lock,
            held: Vec::new(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one step, after any held, and waits until they are on the
    /// disk. When the disk refuses, the step is held (`is_behind`).
    pub fn append(&mut self, step: &Step) -> io::Result<()> {
        self.hold(step)?;
        self.write_held()
    }

    /// Writes the lines held since the disk last refused them, in order.
    pub fn write_held(&mut self) -> io::Result<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        // One write for them all, so a crash cuts at most the last line.
        self.file.append(&self.held)?;
        self.held.clear();
        Ok(())
    }

    /// Are there steps the disk has not taken yet?
    pub fn is_behind(&self) -> bool {
        !self.held.is_empty()
    }

    fn hold<T: Serialize>(&mut self, value: &T) -> io::Result<()> {
        serde_json::to_writer(&mut self.held, value)?;
        self.held.push(b'\n');
        Ok(())
    }

    /// The game is over (or given up): its save is removed.
    pub fn remove(self) -> io::Result<()> {
        std::fs::remove_file(&self.path)?;
        let _ = std::fs::remove_file(lock_path(&self.path));
        drop(self.lock);
        Ok(())
    }
}

fn lock_path(save: &Path) -> PathBuf {
    save.with_extension("lock")
}

/// Locks a game's lock file, or says another spades is playing it.
fn lock(save: &Path) -> io::Result<File> {
    let file = private_options()
        .create(true)
        .truncate(false)
        .open(lock_path(save))?;
    file.try_lock().map_err(|_| {
        io::Error::new(
            io::ErrorKind::WouldBlock,
            "another spades is playing this game",
        )
    })?;
    Ok(file)
}

/// Saves are the player's own: on Unix, readable by them alone.
fn private_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.write(true).read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

/// The saves in `dir`, newest first by their first step's time; unusable
/// ones are listed with why.
pub fn list(dir: &Path) -> Vec<Result<Saved, (PathBuf, SaveError)>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut saves: Vec<Result<Saved, (PathBuf, SaveError)>> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "save"))
        .map(|p| Saved::load(&p).map_err(|e| (p, e)))
        .collect();
    saves.sort_by_key(|s| {
        std::cmp::Reverse(match s {
            Ok(saved) => saved.header.started,
            Err(_) => u64::MAX,
        })
    });
    saves
}

/// A save that could not be used, moved out of the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// The save's file name.
    pub name: String,
    /// Why it cannot be resumed.
    pub why: SaveError,
    /// Where it went (`NAME.bad`), or why it could not be moved.
    pub kept: Result<PathBuf, String>,
}

impl std::fmt::Display for SetAside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the saved game {} cannot be resumed ({}); ",
            self.name, self.why
        )?;
        match &self.kept {
            Ok(aside) => write!(f, "it was kept as {}", aside.display()),
            Err(e) => write!(f, "it could not be moved aside: {e}"),
        }
    }
}

/// The games in `dir` waiting to be resumed, newest first. Saves that
/// cannot be resumed (unreadable, or steps the rules refuse) are set
/// aside as `NAME.bad`, so they are neither lost nor offered again.
pub fn waiting(dir: &Path) -> (Vec<Saved>, Vec<SetAside>) {
    let mut saved = Vec::new();
    let mut set_aside = Vec::new();
    for entry in list(dir) {
        match entry.and_then(|s| match s.standing() {
            Ok(_) => Ok(s),
            Err(e) => Err((s.path.clone(), e)),
        }) {
            Ok(s) => saved.push(s),
            Err((path, why)) => set_aside.push(SetAside {
                name: path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                why,
                kept: Saved::set_aside(&path).map_err(|e| e.to_string()),
            }),
        }
    }
    (saved, set_aside)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::Level;
    use crate::engine::{Bid, Card};

    fn header(id: &str) -> SaveHeader {
        SaveHeader {
            save: FORMAT,
            version: "test".into(),
            id: id.into(),
            started: 5,
            rules: Rules::default(),
            name: "You".into(),
            difficulty: Level::Normal.into(),
            rules_source: "built-in".into(),
            practice: false,
            seed: 42,
            salt: Some("00112233445566778899aabbccddeeff".into()),
            record: None,
            look: None,
        }
    }

    #[test]
    fn a_record_is_named_by_the_id_in_the_records_folder_only() {
        let records = Path::new("/data/records");
        let mut saved = header("game-17-00ff");
        assert_eq!(saved.record_in(Some(records)), None, "not recorded");
        saved.record = Some("/home/me/.bashrc".into());
        assert_eq!(
            saved.record_in(Some(records)),
            Some(records.join("game-17-00ff.jsonl"))
        );
        assert_eq!(saved.record_in(None), None, "no records folder");
        for id in ["", "../../.bashrc", "a/b", "a.b", "game\\x", "game\nx"] {
            saved.id = id.into();
            assert_eq!(saved.record_in(Some(records)), None, "{id:?}");
        }
    }

    fn steps() -> Vec<Step> {
        vec![
            Step::Act {
                seat: Seat::new(1),
                action: Action::Bid(Bid::Tricks(3)),
            },
            Step::Act {
                seat: Seat::new(2),
                action: Action::Look,
            },
            Step::Deal,
            Step::Act {
                seat: Seat::new(0),
                action: Action::Play("AS".parse::<Card>().unwrap()),
            },
        ]
    }

    #[test]
    fn a_save_another_handle_has_locked_is_in_use() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::create(dir.path(), &header("g1")).unwrap();
        let saved = Saved::load(journal.path()).unwrap();
        assert!(saved.in_use(), "the journal holds the lock");
        // Asking does not take the lock: still in use.
        assert!(saved.in_use());
        drop(journal);
        assert!(!saved.in_use(), "let go when the game closed");
        std::fs::remove_file(lock_path(&saved.path)).unwrap();
        assert!(!saved.in_use(), "no lock file: nobody plays it");
    }

    #[test]
    fn a_journal_reads_back_step_for_step() {
        let dir = tempfile::tempdir().unwrap();
        let mut journal = Journal::create(dir.path(), &header("g1")).unwrap();
        for step in steps() {
            journal.append(&step).unwrap();
        }
        let saved = Saved::load(journal.path()).unwrap();
        assert_eq!(saved.header, header("g1"));
        assert_eq!(saved.steps, steps());
        assert_eq!(
            saved.header.dealing().unwrap().commitment(),
            Dealing::Secret(SecretSeed::from_parts(
                42,
                [
                    0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc,
                    0xdd, 0xee, 0xff
                ]
            ))
            .commitment()
        );
    }

    #[test]
    fn a_step_cut_off_by_a_crash_is_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let mut journal = Journal::create(dir.path(), &header("g2")).unwrap();
        for step in steps() {
            journal.append(&step).unwrap();
        }
        let text = std::fs::read_to_string(journal.path()).unwrap();
        // Cut anywhere in the last step but its newline (a step whole but
        // for the newline is whole).
        for cut in 2..12 {
            let (_, read) = parse(&text[..text.len() - cut]).unwrap();
            assert_eq!(read, steps()[..3], "cut {cut}");
        }
    }

    #[test]
    fn a_bad_save_says_why_and_where() {
        assert_eq!(parse(""), Err(SaveError::Empty));
        let bad = format!(
            "{}\n{{\"step\":\"deal\"}}\nnot json\n",
            serde_json::to_string(&header("g")).unwrap()
        );
        assert!(matches!(parse(&bad), Err(SaveError::Bad { line: 3, .. })));
        let newer = r#"{"save":99,"version":"9.0"}"#;
        assert_eq!(parse(newer), Err(SaveError::Format { found: 99 }));
        assert!(matches!(
            parse("{\"event\":\"game\"}\n"),
            Err(SaveError::Bad { line: 1, .. })
        ));
    }

    #[test]
    fn one_game_is_played_by_one_spades_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::create(dir.path(), &header("g3")).unwrap();
        let again = Journal::rewrite(journal.path(), &header("g3"), &[]);
        assert_eq!(
            again.map(|_| ()).unwrap_err().kind(),
            io::ErrorKind::WouldBlock
        );
        let path = journal.path().to_path_buf();
        drop(journal);
        let resumed = Journal::rewrite(&path, &header("g3"), &steps()).unwrap();
        assert_eq!(Saved::load(resumed.path()).unwrap().steps, steps());
    }

    #[test]
    fn a_bad_save_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.save");
        std::fs::write(&path, "garbage").unwrap();
        assert!(Saved::load(&path).is_err());
        let aside = Saved::set_aside(&path).unwrap();
        assert!(aside.ends_with("x.save.bad"));
        assert!(!path.exists());
        assert!(list(dir.path()).is_empty(), "a .bad file is not offered");
    }
}
