//! Reading a connection a line at a time without ever holding more than
//! one line, and the flood limit.

use std::collections::VecDeque;
use std::io;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use crate::net::protocol::MAX_LINE;

/// What the next read found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Read {
    /// A whole line, without its `\n` (nor a `\r` before it).
    Line(Vec<u8>),
    /// More than `MAX_LINE` bytes without a newline.
    TooLong,
    /// The peer closed its side (a line cut short by it is dropped).
    End,
}

/// Lines from a reader, each at most `MAX_LINE` bytes with its newline.
/// A longer line is refused as soon as it passes the limit, before the
/// rest of it is read: a peer cannot make the server buffer more.
pub(super) struct LineReader<R> {
    inner: BufReader<R>,
    /// The line read so far: kept here, so a read cancelled half way (the
    /// connection's other work won the race) loses nothing.
    line: Vec<u8>,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(super) fn new(reader: R) -> LineReader<R> {
        LineReader {
            inner: BufReader::with_capacity(8 * 1024, reader),
            line: Vec::new(),
        }
    }

    pub(super) async fn next(&mut self) -> io::Result<Read> {
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                self.line.clear();
                return Ok(Read::End);
            }
            match available.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    if self.line.len() + i + 1 > MAX_LINE {
                        return Ok(Read::TooLong);
                    }
                    self.line.extend_from_slice(&available[..i]);
                    self.inner.consume(i + 1);
                    let mut line = std::mem::take(&mut self.line);
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    return Ok(Read::Line(line));
                }
                None => {
                    let n = available.len();
                    // Even a newline next would make the line too long.
                    if self.line.len() + n >= MAX_LINE {
                        return Ok(Read::TooLong);
                    }
                    self.line.extend_from_slice(available);
                    self.inner.consume(n);
                }
            }
        }
    }

    /// Reads and drops what the peer still sends, for at most `time` and
    /// `bytes`: a connection closed with unread input would be reset, and
    /// the peer might never read the error that explains why.
    pub(super) async fn drain(&mut self, time: Duration, bytes: usize) {
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

/// Messages allowed in any one second.
pub(super) const FLOOD_LIMIT: usize = 50;

/// Counts a connection's messages over the last second.
#[derive(Debug, Default)]
pub(super) struct Flood {
    times: VecDeque<Instant>,
}

impl Flood {
    /// Another message now: false when it makes more than `FLOOD_LIMIT`
    /// in a second.
    pub(super) fn allows(&mut self, now: Instant) -> bool {
        while self
            .times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= Duration::from_secs(1))
        {
            self.times.pop_front();
        }
        self.times.push_back(now);
        self.times.len() <= FLOOD_LIMIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8]) -> Vec<Read> {
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

    #[test]
    fn lines_end_at_newlines_and_lose_a_carriage_return() {
        assert_eq!(
            read_all(b"one\r\ntwo\n\nthree"),
            vec![
                Read::Line(b"one".to_vec()),
                Read::Line(b"two".to_vec()),
                Read::Line(Vec::new()),
                Read::End
            ]
        );
    }

    #[test]
    fn a_line_is_at_most_max_line_bytes_with_its_newline() {
        let mut longest = vec![b'x'; MAX_LINE - 1];
        longest.push(b'\n');
        assert_eq!(
            read_all(&longest),
            vec![Read::Line(vec![b'x'; MAX_LINE - 1]), Read::End]
        );
        let mut over = vec![b'x'; MAX_LINE];
        over.push(b'\n');
        assert_eq!(read_all(&over), vec![Read::TooLong]);
        // Refused before the newline comes.
        assert_eq!(read_all(&vec![b'x'; 10 * MAX_LINE]), vec![Read::TooLong]);
    }

    #[test]
    fn more_than_fifty_messages_in_a_second_is_a_flood() {
        let mut flood = Flood::default();
        let start = Instant::now();
        for i in 0..FLOOD_LIMIT {
            assert!(flood.allows(start + Duration::from_millis(i as u64)));
        }
        assert!(!flood.allows(start + Duration::from_millis(900)));
        let mut steady = Flood::default();
        for i in 0..500 {
            assert!(steady.allows(start + Duration::from_millis(25 * i)));
        }
    }
}
