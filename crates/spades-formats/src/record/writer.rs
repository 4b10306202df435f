//! Writing a game's record as it is played: each hand whole once it is
//! over, and the closing line with the seed; and taking a record up again
//! when its game is resumed.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use crate::engine::Event;
use crate::fairness::Reveal;

use super::line::{GameHeader, RecordLine};

/// Writes one game's record. Each hand's lines are kept back until the hand
/// is over and then written whole and flushed, so no card another seat
/// holds reaches the file while it could still be played; the closing line
/// reveals the seed when it was secret.
///
/// Lines the sink refuses (a full disk) are held and written, in order,
/// by the next `write_held`: a sink that writes each buffer whole or not
/// at all (`WholeLines`) then never holds half a line nor a line twice.
pub struct RecordWriter<W: Write> {
    out: W,
    /// The lines of the hand in progress.
    hand: Vec<u8>,
    /// Whole hands (or the `game` line) the sink has not taken yet.
    held: Vec<u8>,
    reveal: Option<Reveal>,
    closed: bool,
    /// Hands already in the file: their events are not written again when
    /// a game is resumed and replayed.
    written: u32,
}

impl<W: Write> RecordWriter<W> {
    /// Writes the `game` line; `reveal` goes on the closing line. The
    /// writer is returned even when the sink refused the line: it is held.
    pub fn start(
        out: W,
        header: &GameHeader,
        reveal: Option<Reveal>,
    ) -> (RecordWriter<W>, io::Result<()>) {
        let mut writer = RecordWriter::continuing(out, reveal, 0);
        let written = write_line(&mut writer.held, &RecordLine::Game(header.clone()))
            .and_then(|()| writer.write_held());
        (writer, written)
    }

    /// Writes on into a record that already holds its `game` line and its
    /// first `written` hands (see `open_to_continue`): the events of those
    /// hands, replayed, are not written again.
    pub fn continuing(out: W, reveal: Option<Reveal>, written: u32) -> RecordWriter<W> {
        RecordWriter {
            out,
            hand: Vec::new(),
            held: Vec::new(),
            reveal,
            closed: false,
            written,
        }
    }

    /// Takes the next event: kept back until its hand is scored, then
    /// written.
    pub fn event(&mut self, event: &Event) -> io::Result<()> {
        self.take(event)?;
        self.write_held()
    }

    /// Takes the next event without writing anything: a hand once scored
    /// is held for `write_held`.
    pub fn take(&mut self, event: &Event) -> io::Result<()> {
        if event.hand().is_some_and(|hand| hand <= self.written) {
            return Ok(());
        }
        match (event, RecordLine::of(event)) {
            (Event::End { .. }, line) => self.close(line),
            (Event::Score { .. }, line) => {
                write_line(&mut self.hand, &line)?;
                self.held.append(&mut self.hand);
                Ok(())
            }
            (_, line) => write_line(&mut self.hand, &line),
        }
    }

    /// Ends a game left before it was decided: the hand in progress, then
    /// the `abandoned` line. Does nothing once the game is closed.
    pub fn abandon(&mut self) -> io::Result<()> {
        self.close(RecordLine::Abandoned {
            salt: None,
            seed: None,
        })?;
        self.write_held()
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Are there lines the sink has not taken yet?
    pub fn is_behind(&self) -> bool {
        !self.held.is_empty()
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes the lines held, in one write, and flushes them.
    pub fn write_held(&mut self) -> io::Result<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        self.out.write_all(&self.held)?;
        self.out.flush()?;
        self.held.clear();
        Ok(())
    }

    /// Holds the closing line (`end` or `abandoned`), revealing the seed.
    fn close(&mut self, line: RecordLine) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        let line = line.revealing(self.reveal.as_ref());
        write_line(&mut self.hand, &line)?;
        self.held.append(&mut self.hand);
        Ok(())
    }
}

/// Opens a game's record file to write on into after the game is resumed:
/// the file is cut just after its last whole hand (a crash may have left
/// part of one), and never after hand `keep` (a move taken back may undo a
/// hand). Returns the file, positioned at its end, and how many hands it
/// keeps; `None` when it is missing or not even its `game` line is whole,
/// so it must be written anew.
pub fn open_to_continue(path: &Path, keep: u32) -> io::Result<Option<(File, u32)>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut end = None;
    let mut hands = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        at += line.len();
        if !line.ends_with('\n') {
            break;
        }
        let Ok(read) = serde_json::from_str::<RecordLine>(line) else {
            break;
        };
        match read {
            RecordLine::Game(_) if end.is_none() => end = Some(at),
            RecordLine::Score { .. } if hands < keep => {
                hands += 1;
                end = Some(at);
            }
            RecordLine::Score { .. } => break,
            _ => {}
        }
    }
    let Some(end) = end else {
        return Ok(None);
    };
    let file = OpenOptions::new().read(true).write(true).open(path)?;
    file.set_len(end as u64)?;
    file.sync_data()?;
    let mut file = file;
    std::io::Seek::seek(&mut file, io::SeekFrom::End(0))?;
    Ok(Some((file, hands)))
}

fn write_line<W: Write>(out: &mut W, value: &RecordLine) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}
