//! The player's own copy of the game's record, written line by line as the
//! server sends it. Taken back after a drop, the seat is sent the whole
//! record again: the lines already kept are passed over, not written twice.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::record::RecordLine;

/// The record file being written, and how far it has got.
pub struct RecordCopy {
    /// `None` when the player keeps no copy, or once writing it failed.
    file: Option<(BufWriter<File>, PathBuf)>,
    /// Why the copy stopped being written, once it did.
    problem: Option<String>,
    /// Lines taken in so far.
    kept: usize,
    /// Lines of the record to pass over (already kept before a drop).
    skip: usize,
}

impl RecordCopy {
    pub fn new(file: Option<(File, PathBuf)>) -> RecordCopy {
        RecordCopy {
            file: file.map(|(file, path)| (BufWriter::new(file), path)),
            problem: None,
            kept: 0,
            skip: 0,
        }
    }

    /// The seat was taken back: the server sends the record from its
    /// start again, and what is kept already is passed over.
    pub fn rejoined(&mut self) {
        self.skip = self.kept;
    }

    /// The lines of `lines` not kept yet, counted as kept.
    pub fn new_lines<'a>(&mut self, lines: &'a [RecordLine]) -> &'a [RecordLine] {
        let skip = self.skip.min(lines.len());
        self.skip -= skip;
        let new = &lines[skip..];
        self.kept += new.len();
        new
    }

    /// Writes one line. A copy that cannot be written stops, and says why
    /// (`problem`): the game goes on without it.
    pub fn write(&mut self, line: &RecordLine) {
        if let Some((file, path)) = &mut self.file
            && let Err(e) = writeln!(file, "{}", line.json())
        {
            self.problem = Some(format!("cannot write {}: {e}", path.display()));
            self.file = None;
        }
    }

    /// Puts what is written on disk, so that a copy read now is whole.
    pub fn flush(&mut self) {
        if let Some((file, _)) = &mut self.file {
            let _ = file.flush();
        }
    }

    /// The game's id in the copy: its file's name, as the player's own
    /// games are named.
    pub fn game_id(&self) -> Option<String> {
        self.path()
            .and_then(Path::file_stem)
            .map(|s| s.to_string_lossy().into_owned())
    }

    pub fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(|(_, p)| p.as_path())
    }

    /// Why the copy stopped being written, if it did.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Bid, Seat};

    /// Record lines as a server sends them: a bid a line.
    fn a_record() -> Vec<RecordLine> {
        (0..8u8)
            .map(|i| RecordLine::Bid {
                hand: 1 + u32::from(i / 4),
                seat: Seat::new(usize::from(i % 4)),
                bid: Bid::Tricks(i % 4),
            })
            .collect()
    }

    #[test]
    fn lines_are_written_once_even_when_sent_again_after_a_drop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game-7.jsonl");
        let file = File::create(&path).unwrap();
        let mut copy = RecordCopy::new(Some((file, path.clone())));
        assert_eq!(copy.game_id().as_deref(), Some("game-7"));
        assert_eq!(copy.path(), Some(path.as_path()));

        let lines = a_record();
        let half = lines.len() / 2;
        for line in copy.new_lines(&lines[..half]) {
            copy.write(line);
        }
        copy.flush();
        // Taken back: the whole record comes again.
        copy.rejoined();
        let new = copy.new_lines(&lines).to_vec();
        assert_eq!(new, lines[half..]);
        for line in &new {
            copy.write(line);
        }
        copy.flush();
        assert_eq!(copy.problem(), None);

        let written: Vec<String> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let sent: Vec<String> = lines.iter().map(RecordLine::json).collect();
        assert_eq!(written, sent);
    }

    #[test]
    fn without_a_file_lines_are_still_counted() {
        let mut copy = RecordCopy::new(None);
        let lines = a_record();
        assert_eq!(copy.new_lines(&lines[..2]).len(), 2);
        copy.rejoined();
        assert_eq!(copy.new_lines(&lines[..1]).len(), 0);
        assert_eq!(copy.new_lines(&lines[..3]).len(), 2);
        assert_eq!(copy.game_id(), None);
        assert_eq!(copy.path(), None);
    }
}
