//! How a table reaches one of its connections: a queue of lines that a
//! task of the connection's own writes out, and a way to end it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use tokio::sync::{Notify, mpsc};

use super::ConnId;
use crate::protocol::{self, ServerMessage};

/// Sends waiting to be written to one connection (a send is a line, or
/// the lines one step of the game brings a seat). A client that lets more
/// pile up than this is too slow to play with, and is let go.
pub(super) const OUTBOX: usize = 1024;

/// Bytes waiting to be written to one connection: what a client that
/// never reads can make the server hold. A whole game's record sent to
/// someone taking their seat back is one send, so one send of any size
/// is taken when nothing waits.
pub(super) const OUTBOX_BYTES: usize = 256 * 1024;

/// What the writer is given.
pub(super) enum Out {
    Line(Arc<str>),
    /// Write what came before, then close.
    Close,
}

/// How a table reaches one of its connections.
#[derive(Clone)]
pub(crate) struct Link {
    pub id: ConnId,
    pub(super) tx: mpsc::Sender<Out>,
    pub(super) kill: Arc<Notify>,
    /// Asks sent so far: as many `act`s are answers, not counted as
    /// messages toward the flood limit (a bot answers as fast as it is
    /// asked).
    pub(super) asks: Arc<AtomicU64>,
    /// Bytes queued and not yet written (the writer takes off what it
    /// writes).
    pub(super) queued: Arc<AtomicUsize>,
}

impl Link {
    /// Queues a line (or several, as one write). False when the connection cannot take it: it is gone,
    /// or so far behind reading that it is let go.
    pub fn send(&self, line: Arc<str>) -> bool {
        self.queue(line, OUTBOX_BYTES)
    }

    /// Queues `line` unless more than `limit` bytes would then wait.
    fn queue(&self, line: Arc<str>, limit: usize) -> bool {
        let len = line.len();
        let before = self.queued.fetch_add(len, Ordering::SeqCst);
        if (before > 0 && before + len > limit) || self.tx.try_send(Out::Line(line)).is_err() {
            self.queued.fetch_sub(len, Ordering::SeqCst);
            return false;
        }
        true
    }

    /// Sends last words, if there is room for them, and ends the connection.
    pub fn close_with(&self, line: Arc<str>) {
        // A goodbye may go over the bound: it is the last line.
        let _ = self.queue(line, usize::MAX);
        let _ = self.tx.try_send(Out::Close);
        self.kill.notify_one();
    }

    /// Counts an ask sent.
    pub fn asked(&self) {
        self.asks.fetch_add(1, Ordering::Relaxed);
    }

    /// Ends the connection without a word (it was too slow to hear one).
    pub fn kill(&self) {
        self.kill.notify_one();
    }

    /// A line of `len` bytes has been written.
    pub(super) fn written(queued: &AtomicUsize, len: usize) {
        queued.fetch_sub(len, Ordering::SeqCst);
    }
}

/// A message as the line that carries it, ready to be sent to many.
pub(crate) fn encode(message: &ServerMessage) -> Arc<str> {
    Arc::from(protocol::line(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> (Link, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(OUTBOX);
        let link = Link {
            id: 1,
            tx,
            kill: Arc::new(Notify::new()),
            asks: Arc::new(AtomicU64::new(0)),
            queued: Arc::new(AtomicUsize::new(0)),
        };
        (link, rx)
    }

    #[test]
    fn a_connection_holds_at_most_its_bytes_whatever_the_number_of_lines() {
        let (link, mut rx) = link();
        let line: Arc<str> = Arc::from("x".repeat(60_000));
        let taken = (0..10).filter(|_| link.send(Arc::clone(&line))).count();
        assert_eq!(taken, OUTBOX_BYTES / 60_000);
        // Once one is written, there is room for one more.
        let Ok(Out::Line(first)) = rx.try_recv() else {
            panic!("nothing queued")
        };
        Link::written(&link.queued, first.len());
        assert!(link.send(Arc::clone(&line)));
        assert!(!link.send(line));
    }

    #[test]
    fn one_send_bigger_than_the_bound_goes_when_nothing_waits() {
        let (link, _rx) = link();
        let big: Arc<str> = Arc::from("x".repeat(OUTBOX_BYTES + 1));
        assert!(link.send(Arc::clone(&big)));
        assert!(!link.send(Arc::from("y")));
    }
}
