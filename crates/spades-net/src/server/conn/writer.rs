//! A connection's writer: a task of its own that writes what the
//! connection is sent, so no table ever waits on a slow reader.

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

use super::super::link::{Link, Out};

/// Writes the lines a connection is sent, several at a time when they
/// queue up (one TLS record, one packet), until told to close. The batch
/// is kept only while there is something to write: an idle connection
/// holds no buffer of its own (a 16 KB one each was most of what a
/// thousand idle connections cost).
pub(super) async fn write_lines<W: AsyncWrite + Unpin>(
    mut write: W,
    mut lines: mpsc::Receiver<Out>,
    queued: Arc<AtomicUsize>,
) {
    const BATCH: usize = 16 * 1024;
    let mut closing = false;
    while !closing && let Some(first) = lines.recv().await {
        let mut batch: Vec<u8> = Vec::new();
        let mut next = Some(first);
        while let Some(item) = next.take() {
            match item {
                Out::Line(line) => {
                    batch.extend_from_slice(line.as_bytes());
                    Link::written(&queued, line.len());
                }
                Out::Close => closing = true,
            }
            if !closing && batch.len() < BATCH {
                next = lines.try_recv().ok();
            }
        }
        if write.write_all(&batch).await.is_err() || write.flush().await.is_err() {
            return;
        }
    }
    let _ = write.shutdown().await;
}
