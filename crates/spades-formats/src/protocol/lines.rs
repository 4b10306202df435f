//! Reading the protocol a line at a time without ever holding more than one
//! line of `MAX_LINE` bytes, whoever the peer is: the server reading a
//! client, a client reading its server, the table reading a bot's program.
//! The limit is checked in one place (`LineBuf::take`); a reader for async
//! connections and one for a program's pipe drive it.

use std::io::{self, BufRead};

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use super::MAX_LINE;

/// What the next read found.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A whole line, without its `\n` (nor a `\r` before it).
    Line(Vec<u8>),
    /// More than `MAX_LINE` bytes without a newline.
    TooLong,
    /// The peer closed its side.
    End,
}

/// The line being read: kept apart from the reader, so a read cancelled
/// half way (a connection's other work won the race) loses nothing.
#[derive(Debug, Default)]
struct LineBuf {
    line: Vec<u8>,
}

impl LineBuf {
    /// Takes from `available` (what the reader holds unread): returns how
    /// many bytes it used, and the line once it is whole or too long. A
    /// line is refused as soon as it passes the limit, before the rest of
    /// it is read: a peer cannot make the reader hold more.
    pub fn take(&mut self, available: &[u8]) -> (usize, Option<Read>) {
        match available.iter().position(|&b| b == b'\n') {
            Some(i) => {
                if self.line.len() + i + 1 > MAX_LINE {
                    return (0, Some(Read::TooLong));
                }
                self.line.extend_from_slice(&available[..i]);
                let mut line = std::mem::take(&mut self.line);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                (i + 1, Some(Read::Line(line)))
            }
            None => {
                let n = available.len();
                // Even a newline next would make the line too long.
                if self.line.len() + n >= MAX_LINE {
                    return (0, Some(Read::TooLong));
                }
                self.line.extend_from_slice(available);
                (n, None)
            }
        }
    }

    /// The peer has closed: what it sent after its last newline, if any.
    pub fn finish(&mut self) -> Option<Vec<u8>> {
        let rest = std::mem::take(&mut self.line);
        (!rest.is_empty()).then_some(rest)
    }
}

/// Lines from a connection. A line cut short by the peer closing is
/// dropped: over a network it may be half a message.
pub struct LineReader<R> {
    inner: BufReader<R>,
    line: LineBuf,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(reader: R) -> LineReader<R> {
        LineReader {
            inner: BufReader::with_capacity(8 * 1024, reader),
            line: LineBuf::default(),
        }
    }

    pub async fn next(&mut self) -> io::Result<Read> {
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                self.line.finish();
                return Ok(Read::End);
            }
            let (used, read) = self.line.take(available);
            self.inner.consume(used);
            if let Some(read) = read {
                return Ok(read);
            }
        }
    }

    /// Reads and drops what the peer still sends, for at most `time` and
    /// `bytes`: a connection closed with unread input would be reset, and
    /// the peer might never read the error that explains why.
    pub async fn drain(&mut self, time: std::time::Duration, bytes: usize) {
        let drained = async {
            let mut left = bytes;
            while left > 0 {
                match self.inner.fill_buf().await {
                    Ok([]) | Err(_) => break,
                    Ok(buf) => {
                        let n = buf.len().min(left);
                        self.inner.consume(n);
                        left -= n;
                    }
                }
            }
        };
        let _ = tokio::time::timeout(time, drained).await;
    }
}

/// Lines from a program's output, read on a thread of its own. Its last
/// line may end without a newline: a program that exits has said it whole.
pub struct PipeLines<R> {
    inner: io::BufReader<R>,
    line: LineBuf,
    ended: bool,
}

impl<R: io::Read> PipeLines<R> {
    pub fn new(reader: R) -> PipeLines<R> {
        PipeLines {
            inner: io::BufReader::new(reader),
            line: LineBuf::default(),
            ended: false,
        }
    }

    /// The next line; a failed read is the end.
    pub fn next_line(&mut self) -> Read {
        if self.ended {
            return Read::End;
        }
        loop {
            let available = match self.inner.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if available.is_empty() {
                self.ended = true;
                return self.line.finish().map_or(Read::End, Read::Line);
            }
            let (used, read) = self.line.take(available);
            self.inner.consume(used);
            if let Some(read) = read {
                return read;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every read from a connection sending `input`.
    fn over_a_connection(input: &[u8]) -> Vec<Read> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut reader = LineReader::new(input);
            let mut out = Vec::new();
            loop {
                let read = reader.next().await.unwrap();
                let done = matches!(read, Read::End | Read::TooLong);
                out.push(read);
                if done {
                    return out;
                }
            }
        })
    }

    /// Every read from a program writing `input`.
    fn from_a_program(input: &[u8]) -> Vec<Read> {
        let mut lines = PipeLines::new(input);
        let mut out = Vec::new();
        loop {
            let read = lines.next_line();
            let done = matches!(read, Read::End | Read::TooLong);
            out.push(read);
            if done {
                return out;
            }
        }
    }

    #[test]
    fn lines_end_at_newlines_and_lose_a_carriage_return() {
        let whole = vec![
            Read::Line(b"one".to_vec()),
            Read::Line(b"two".to_vec()),
            Read::Line(Vec::new()),
        ];
        // Over a network a line cut short by the close may be half a
        // message; a program that exits said its last line whole.
        let mut connection = whole;
        connection.push(Read::End);
        assert_eq!(over_a_connection(b"one\r\ntwo\n\nthree"), connection);
        let mut program = connection;
        program.insert(3, Read::Line(b"three".to_vec()));
        assert_eq!(from_a_program(b"one\r\ntwo\n\nthree"), program);
    }

    #[test]
    fn a_line_is_at_most_max_line_bytes_with_its_newline() {
        for read in [over_a_connection, from_a_program] {
            let mut longest = vec![b'x'; MAX_LINE - 1];
            longest.push(b'\n');
            assert_eq!(
                read(&longest),
                vec![Read::Line(vec![b'x'; MAX_LINE - 1]), Read::End]
            );
            let mut over = vec![b'x'; MAX_LINE];
            over.push(b'\n');
            assert_eq!(read(&over), vec![Read::TooLong]);
            // Refused before the newline comes.
            assert_eq!(read(&vec![b'x'; 10 * MAX_LINE]), vec![Read::TooLong]);
        }
    }
}
