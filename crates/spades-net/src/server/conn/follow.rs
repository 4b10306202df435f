//! A connection following the lobby (`follow`): told the public tables of
//! its mode and the quick-match queues' counts at once, then whenever the
//! lobby is poked. Bounded by construction: at most one update (a
//! `tables` line and a `queues` line, each only if it changed) every
//! `PUSH_GAP`; a burst of changes in between is one update with the latest
//! state; and nothing is queued while lines sent before still wait to be
//! written, so a slow reader holds one update at most, never a growing
//! queue. The connection is not let go for it: it is sent the latest
//! state once it has read.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::io::AsyncRead;
use tokio::sync::watch;
use tokio::time::{Instant, sleep_until};

use super::Conn;
use crate::engine::Mode;

/// The least time between two updates to one connection: at most two a
/// second, however fast the lobby changes.
const PUSH_GAP: Duration = Duration::from_millis(500);

/// What a following connection knows of what it was sent.
pub(super) struct Following {
    mode: Option<Mode>,
    changes: watch::Receiver<()>,
    /// A change not yet sent.
    due: bool,
    /// No update before this.
    next: Instant,
    /// The sums of the lines last sent, to send only what changed.
    tables: Option<u64>,
    queues: Option<u64>,
}

/// Resolves when a following connection's next update is due; never when
/// it follows nothing. Cancel-safe: a change heard is kept in `due`.
pub(super) async fn update_due(following: Option<&mut Following>) {
    let Some(following) = following else {
        return std::future::pending().await;
    };
    if !following.due {
        if following.changes.changed().await.is_err() {
            return std::future::pending().await;
        }
        following.due = true;
    }
    sleep_until(following.next).await;
}

impl<R: AsyncRead + Unpin> Conn<R> {
    /// Follows the lobby of `mode` (every mode with `None`): the whole
    /// state is sent, even what was sent before: at once, as an answer to
    /// `tables` would be (and counted with them), or at the next update
    /// when that many answers have gone lately.
    pub(super) fn follow(&mut self, mode: Option<Mode>) {
        let now = std::time::Instant::now();
        let at_once = !self.listing.full(now);
        if at_once {
            self.listing.count(now);
        }
        let following = self.following.get_or_insert_with(|| Following {
            mode,
            changes: self.shared.lobby.changes(),
            due: true,
            next: Instant::now(),
            tables: None,
            queues: None,
        });
        following.mode = mode;
        following.due = true;
        if at_once {
            following.next = Instant::now();
        }
        following.tables = None;
        following.queues = None;
    }

    /// Follows no more; the time to sit down starts again, as after a
    /// `tables`.
    pub(super) fn unfollow(&mut self) {
        self.following = None;
        self.sit_by = Instant::now() + self.shared.options.sit_timeout;
    }

    /// The update that is due: what changed since the last one, unless
    /// lines sent before still wait to be written (then it waits for the
    /// next turn, still due).
    pub(super) fn send_update(&mut self) {
        let Some(following) = self.following.as_mut() else {
            return;
        };
        following.next = Instant::now() + PUSH_GAP;
        if self.link.queued.load(Ordering::SeqCst) > 0 {
            return;
        }
        following.due = false;
        let lobby = &self.shared.lobby;
        let tables = lobby.tables_line(following.mode);
        let queues = lobby.queues_line();
        let mut lines = Vec::new();
        for ((sum, line), sent) in [
            (tables, &mut following.tables),
            (queues, &mut following.queues),
        ] {
            if *sent != Some(sum) {
                *sent = Some(sum);
                lines.push(line);
            }
        }
        for line in lines {
            self.send_line(line);
        }
    }

    /// Sends a line made already; a connection that cannot take it is let
    /// go.
    pub(super) fn send_line(&mut self, line: Arc<str>) {
        if !self.link.send(line) {
            self.cut = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr};

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::sync::{mpsc, watch};

    use super::super::super::slot::Slot;
    use super::super::super::{ServerOptions, Shared};
    use super::*;
    use crate::protocol::SeatPlayer;
    use crate::protocol::lobby::{ListedSeat, ListedTable};

    /// A public table whose summary is long: a listing of many of them is
    /// tens of kilobytes.
    fn table(i: usize) -> ListedTable {
        let seat = ListedSeat {
            name: Some(format!("Player{i}")),
            player: SeatPlayer::Person,
            rating: None,
            guest: false,
        };
        ListedTable {
            table: format!("T{i:015}"),
            mode: Mode::Partnership,
            rules: "x".repeat(200),
            seats: vec![seat; 4],
            started: false,
            rated: false,
            unrated: None,
            watchers: 0,
            code: None,
        }
    }

    /// A client that follows the lobby and never reads, through a pipe
    /// of 2 KB, while the lobby changes 200 times over four seconds (eight
    /// updates' time, each update tens of kilobytes): once it reads, it
    /// finds at most a few updates, not one per turn, and the server
    /// held no more than that for it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_follower_that_never_reads_is_held_one_update_however_much_changes() {
        let (_stop, stop_seen) = watch::channel(false);
        let (alive, _all_done) = mpsc::channel(1);
        let options = ServerOptions {
            plain: true,
            ..ServerOptions::default()
        };
        let shared = Shared::with_stop(options, stop_seen, None, None);
        let (client, server_side) = tokio::io::duplex(2048);
        let slot = Slot::take(&shared, IpAddr::V4(Ipv4Addr::LOCALHOST)).unwrap();
        let hello_by = Instant::now() + Duration::from_secs(5);
        let conn = tokio::spawn(super::super::run(
            server_side,
            hello_by,
            Arc::clone(&shared),
            alive,
            slot,
        ));
        let (mut read, mut write) = tokio::io::split(client);
        let said =
            "{\"type\":\"hello\",\"protocol\":1,\"name\":\"Mallory\"}\n{\"type\":\"follow\"}\n";
        write.write_all(said.as_bytes()).await.unwrap();
        for i in 0..200 {
            shared.lobby.put(table(i));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let mut heard = Vec::new();
        let mut chunk = vec![0; 64 * 1024];
        // Read what is there, and what the server sends as it is read,
        // until it has nothing more to say for a second.
        while let Ok(Ok(n)) =
            tokio::time::timeout(Duration::from_secs(1), read.read(&mut chunk)).await
        {
            if n == 0 {
                break;
            }
            heard.extend_from_slice(&chunk[..n]);
        }
        let text = String::from_utf8(heard).unwrap();
        let listings = text.matches("{\"type\":\"tables\"").count();
        // The first (at once), the one being written when the pipe filled,
        // the one waiting behind it, and the latest once read: four at
        // most, where one a turn would be nine.
        assert!(
            (2..=4).contains(&listings),
            "{listings} listings in {} bytes",
            text.len()
        );
        let last = text.lines().rfind(|l| l.contains("\"tables\"")).unwrap();
        assert!(last.contains("\"total\":200"), "the latest state last");
        conn.abort();
    }
}
