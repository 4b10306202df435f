//! The terminal as lines: what the player types, read a line at a time on
//! a thread of its own so the game goes on while they think, and what the
//! game says, written a line at a time. Whatever reaches a line is shown
//! escaped (`outside::escaped_line`), so neither a name from a server nor
//! a stray character can move the cursor or clear a screen reader's view.

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

use crate::outside;

/// The longest line the mode writes, in characters: a braille display
/// shows 40 at a time, and a screen reader reads a long line as one
/// breath. Every line the mode says is checked against it in the tests.
pub const LINE_MAX: usize = 200;

/// The most a typed line may hold, in bytes: anything longer is cut here
/// and the rest of the line dropped, so a stuck key cannot fill memory.
const TYPED_MAX: usize = 1024;

/// What the player did since the last look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// A line, without its line break and surrounding spaces.
    Line(String),
    /// Nothing yet.
    Nothing,
    /// The input is closed (end of file, or the pipe's other end gone).
    Closed,
}

/// Lines in and lines out.
pub struct Lines {
    typed: Receiver<Option<String>>,
    out: Box<dyn Write + Send>,
    closed: bool,
}

impl Lines {
    /// The process's standard input and output, terminals or pipes.
    pub fn stdio() -> Lines {
        Lines::new(io::BufReader::new(io::stdin()), io::stdout())
    }

    /// Lines read from `input` on a thread of its own, said to `out`.
    pub fn new(input: impl BufRead + Send + 'static, out: impl Write + Send + 'static) -> Lines {
        // A few lines ahead at most: a script that pipes a whole game in
        // is read as the game asks, not all at once.
        let (send, typed) = sync_channel(16);
        std::thread::spawn(move || {
            let mut input = input;
            loop {
                let line = read_bounded(&mut input);
                let end = line.is_none();
                if send.send(line).is_err() || end {
                    return;
                }
            }
        });
        Lines {
            typed,
            out: Box::new(out),
            closed: false,
        }
    }

    /// Writes `text` escaped, as one line or, past `LINE_MAX`, as a few
    /// (`split`), flushed at once (a pipe is not a terminal and would
    /// otherwise hold it back). No line said is ever longer.
    pub fn say(&mut self, text: &str) -> io::Result<()> {
        let shown = outside::escaped_line(text.trim_end());
        for line in split(&shown) {
            writeln!(self.out, "{line}")?;
        }
        self.out.flush()
    }

    /// The next typed line, waiting at most `wait` for it.
    pub fn hear(&mut self, wait: Duration) -> Heard {
        if self.closed {
            return Heard::Closed;
        }
        match self.typed.recv_timeout(wait) {
            Ok(Some(line)) => Heard::Line(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Heard::Closed
            }
            Err(RecvTimeoutError::Timeout) => Heard::Nothing,
        }
    }
}

/// `text` cut into lines of at most `LINE_MAX` characters, each cut
/// after a "; ", else a ", ", else a space, so a long sentence (a hand, a
/// list) reads on as a few.
pub fn split(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while rest.chars().count() > LINE_MAX {
        let limit = rest
            .char_indices()
            .nth(LINE_MAX)
            .map_or(rest.len(), |(i, _)| i);
        let head = &rest[..limit];
        let cut = ["; ", ", ", " "]
            .iter()
            .find_map(|sep| head.rfind(sep).filter(|&i| i > 0).map(|i| i + sep.len()))
            .unwrap_or(limit);
        out.push(rest[..cut].trim_end().to_string());
        rest = rest[cut..].trim_start();
    }
    if !rest.is_empty() || out.is_empty() {
        out.push(rest.to_string());
    }
    out
}

/// One line of at most `TYPED_MAX` bytes, the rest of a longer one
/// dropped; `None` at the end of the input or when it fails.
fn read_bounded(input: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    let read = io::Read::take(&mut *input, TYPED_MAX as u64)
        .read_until(b'\n', &mut bytes)
        .ok()?;
    if read == 0 {
        return None;
    }
    if bytes.last() != Some(&b'\n') && bytes.len() >= TYPED_MAX {
        // Skip to the end of the line too long to keep.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = io::Read::take(&mut *input, 4096)
                .read_until(b'\n', &mut rest)
                .ok()?;
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    Some(outside::clean(text.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heard(input: &'static [u8]) -> Vec<Heard> {
        let mut lines = Lines::new(input, io::sink());
        let mut got = Vec::new();
        loop {
            let next = lines.hear(Duration::from_secs(5));
            got.push(next.clone());
            if next == Heard::Closed {
                return got;
            }
        }
    }

    #[test]
    fn typed_lines_come_trimmed_and_cleaned_then_closed() {
        let got = heard(b"  play qh \r\nbid\x1b[2J 4\nlast");
        assert_eq!(
            got,
            [
                Heard::Line("play qh".into()),
                Heard::Line("bid [2J 4".into()),
                Heard::Line("last".into()),
                Heard::Closed
            ]
        );
    }

    #[test]
    fn a_line_too_long_is_cut_and_the_next_one_kept() {
        let mut input = vec![b'x'; TYPED_MAX * 3];
        input.extend_from_slice(b"\nlook\n");
        let input: &'static [u8] = Box::leak(input.into_boxed_slice());
        let got = heard(input);
        assert_eq!(got.len(), 3, "{:?}", &got[1..]);
        assert!(matches!(&got[0], Heard::Line(l) if l.len() == TYPED_MAX));
        assert_eq!(got[1], Heard::Line("look".into()));
    }

    #[test]
    fn said_lines_hold_no_escape() {
        let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut lines = Lines::new(&b""[..], Shared(out.clone()));
        lines
            .say("West \x1b]0;owned\x07 says hi\nNorth plays")
            .unwrap();
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text:?}");
        assert_eq!(text.lines().count(), 1, "{text:?}");
    }

    #[test]
    fn a_long_text_is_split_at_its_lists_into_lines_that_fit() {
        let hand = "spades: ace, king, queen, jack, ten; hearts: ace, king".repeat(9);
        let lines = split(&hand);
        assert!(lines.len() > 1);
        assert!(
            lines.iter().all(|l| l.chars().count() <= LINE_MAX),
            "{lines:?}"
        );
        assert_eq!(lines.join(" "), hand, "nothing lost");
        assert!(
            lines[0].ends_with(';') || lines[0].ends_with(','),
            "{}",
            lines[0]
        );
        let word = "x".repeat(LINE_MAX * 2 + 5);
        assert_eq!(split(&word).concat(), word, "a word too long is cut anyway");
        assert_eq!(split(""), [""]);
    }
}
