//! How a table reaches one of its connections: a queue of lines that a
//! task of the connection's own writes out, and a way to end it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{Notify, mpsc};

use super::ConnId;
use crate::protocol::{self, ServerMessage};

/// Sends waiting to be written to one connection (a send is a line, or
/// the lines one step of the game brings a seat). A client that lets more
/// pile up than this is too slow to play with, and is let go.
pub(super) const OUTBOX: usize = 1024;

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
}

impl Link {
    /// Queues a line (or several, as one write). False when the connection cannot take it: it is gone,
    /// or so far behind reading that it is let go.
    pub fn send(&self, line: Arc<str>) -> bool {
        self.tx.try_send(Out::Line(line)).is_ok()
    }

    /// Sends last words, if there is room for them, and ends the connection.
    pub fn close_with(&self, line: Arc<str>) {
        let _ = self.tx.try_send(Out::Line(line));
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
}

/// A message as the line that carries it, ready to be sent to many.
pub(crate) fn encode(message: &ServerMessage) -> Arc<str> {
    Arc::from(protocol::line(message))
}
