//! The messages of the table protocol (`docs/protocol.md`): JSON Lines,
//! one message a line, each an object whose `type` says what it is. The
//! same messages run over the network (inside TLS) between `spades join`
//! and a table server, and over a pipe between `spades sim` and a bot in
//! another process (`exec:`).
//!
//! The server sends a seat nothing it may not see: a `view` is that seat's
//! `PlayerView`, and an `event` is the event as that seat sees it.

pub mod account;
pub mod event;
mod legal;
pub mod lines;
pub mod lobby;
pub mod timer;
pub mod view;

use serde::{Deserialize, Serialize};

use crate::bots::BotSpec;
use crate::engine::{Action, Decision, Mode, PlayerView, PublicView, Seat, SeatEvent};
use crate::record::RecordLine;

pub use legal::Legal;

/// The protocol's version: a peer speaking another is refused at hello.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest line either side accepts, newline included; a longer one is
/// an error and closes the connection.
pub const MAX_LINE: usize = 64 * 1024;

/// The longest chat line, in characters.
pub const MAX_CHAT: usize = 200;

/// The most spectators a table takes at once; the next is refused with
/// `too_many_watchers`.
pub const MAX_WATCHERS: usize = 32;

/// What a client (a player's program or a bot) sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: who is speaking, and in which version.
    Hello {
        protocol: u32,
        name: String,
    },
    /// Open a new table on a server and sit at it as its host (seat 0).
    Host {
        /// The table's rules, as a `rules.toml` file's text.
        rules: String,
        /// Listed in the server's lobby (`tables`); absent: private, joined
        /// only by its code, as before this key.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        public: bool,
    },
    /// Sit at a table by its code.
    Join {
        table: String,
    },
    /// Watch a table by its code, holding no seat: its public view and
    /// events, live.
    Watch {
        table: String,
    },
    /// A spectator leaves the table it watches (`bye` does too, and
    /// closes the connection).
    StopWatching {},
    /// Take back a seat held before a disconnect, by its seat token.
    Reclaim {
        table: String,
        token: String,
    },
    /// The host's lobby settings: bots in the empty seats, and their level.
    Fill {
        bots: bool,
        level: BotSpec,
    },
    /// The host starts the game.
    Start {},
    /// The answer to the last `ask`.
    Act {
        action: Action,
    },
    Chat {
        text: String,
    },
    /// Leaving: the server closes the connection (a player's seat goes to
    /// a bot, to be reclaimed with its token).
    Bye {},
    /// The answer to the server's `ping`: the client is still there.
    Pong {},
    /// A new account for `key` under `name`, signing the last challenge.
    Register {
        name: String,
        key: String,
        signature: String,
    },
    /// Sign in as the account of `key`, signing the last challenge.
    SignIn {
        key: String,
        signature: String,
    },
    /// Signed in: the account moves to the key `key`, which the signed-in
    /// key's `signature` vouches for.
    Rotate {
        key: String,
        signature: String,
    },
    /// The ladder of a mode.
    Ladder {
        mode: Mode,
    },
    /// The server's public tables, of one mode or of every mode.
    Tables {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<Mode>,
    },
    /// Quick match: a table of `mode` with players of a like rating, bots
    /// filling the seats still empty once `wait` seconds have passed
    /// (at most `lobby::MAX_WAIT`).
    Queue {
        mode: Mode,
        wait: u32,
    },
    /// Out of the quick-match queue.
    Unqueue {},
    /// Keep me told, in the lobby: the public tables of `mode` (of every
    /// mode when absent) and the quick-match queues' counts, now and
    /// whenever they change. Sent again, it changes the mode and has the
    /// whole state sent again.
    Follow {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<Mode>,
    },
    /// Stop telling me.
    Unfollow {},
    /// Which of these tables (ids of tables this machine keeps a seat
    /// token for, at most `lobby::MAX_MINE`) hold a seat of the
    /// signed-in asker's, public or private: answered with `yours`.
    Mine {
        tables: Vec<String>,
    },
}

/// What the server (or `spades sim`, to a bot it runs) sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        protocol: u32,
        server: String,
        /// A server that keeps a ladder: the nonce to sign to sign in.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        challenge: Option<String>,
        /// A server that keeps a ladder whose database does not answer now:
        /// nobody can sign in, and games are not rated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ladder: Option<account::LadderState>,
    },
    /// A fresh nonce to sign, the last one being spent.
    Challenge { nonce: String },
    /// Signed in (or registered) as `name`; the account's ratings.
    SignedIn {
        name: String,
        ratings: Vec<account::ModeRating>,
    },
    /// The account now has the new key.
    Rotated { name: String },
    /// The ladder of a mode (its first `account::MAX_ROWS` rows), and the
    /// signed-in asker's own rated games in it.
    Ladder {
        mode: Mode,
        rows: Vec<account::Rung>,
        #[serde(default)]
        you: Option<Vec<account::Rated>>,
    },
    /// The public tables asked for: the first `lobby::MAX_LISTED`,
    /// open ones first, and how many match in all.
    Tables {
        tables: Vec<lobby::ListedTable>,
        total: u32,
        /// The mode listed; absent for every mode (and from servers
        /// before this key).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<Mode>,
    },
    /// The answer to `mine`: those of the tables named where the signed-in
    /// asker holds a seat (playing or away), public or private; none for a
    /// guest.
    Yours { tables: Vec<lobby::ListedTable> },
    /// To a connection that follows the lobby: how many wait in each
    /// quick-match queue now.
    Queues { queues: Vec<lobby::QueueCount> },
    /// In the quick-match queue of `mode`, with `waiting` players in it
    /// (this one included); sent again whenever that changes.
    Queued {
        mode: Mode,
        waiting: u32,
        /// The names of those waiting, longest waiting first, at most
        /// `lobby::MAX_QUEUED_NAMES` (absent from servers before
        /// this key).
        #[serde(default)]
        names: Vec<String>,
        /// Whole seconds until this player's own wait is over: by then
        /// they sit down, bots taking the seats no player took (a table
        /// may form sooner). Absent from servers before this key.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bots_in: Option<u32>,
    },
    /// Out of the quick-match queue.
    Unqueued {},
    /// A seat is yours: keep `token` to reclaim it after a disconnect.
    Seated {
        table: String,
        seat: Seat,
        token: String,
        host: bool,
    },
    /// The answer to `watch`: the table watched, who sits in each seat
    /// now, and its rules (a `rules.toml` file's text). Then, live, what
    /// the public may see: `lobby`, `start`, `seat`, `chat`, each `event`
    /// as no seat sees it privately, and `public` views; never a hand, an
    /// `ask` nor the record.
    Watching {
        table: String,
        seats: Vec<TableSeat>,
        rules: String,
    },
    /// What anyone may know of the table now (to spectators).
    Public {
        #[serde(with = "view::public")]
        view: Box<PublicView>,
    },
    /// The table before its game starts, sent to everyone at it whenever
    /// it changes. Its wire name is `lobby`, the table's lobby.
    #[serde(rename = "lobby")]
    Seating(Seating),
    /// The game starts: the deals' commitment (its seed is revealed by the
    /// record's last line) and the seats' names in seat order.
    Start {
        commitment: Option<String>,
        seats: Vec<String>,
        /// Who plays each seat, in seat order: a person, a bot or the
        /// dummy (absent from servers before this key: read the names).
        #[serde(default)]
        players: Vec<SeatPlayer>,
        /// The seats of guests: people not signed in on a server that
        /// keeps a ladder (absent when none).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        guests: Vec<Seat>,
    },
    /// Something happened at the table, as this seat may see it.
    Event {
        #[serde(with = "event::told")]
        event: SeatEvent,
    },
    /// This seat's view of the table now.
    View {
        /// The turn timer ran out on this seat's ask, and a bot answered
        /// it: what it did (absent otherwise, and from servers before
        /// this key).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "timer::lenient"
        )]
        timed_out: Option<timer::TimedOut>,
        #[serde(with = "view::boxed")]
        view: Box<PlayerView>,
    },
    /// A decision is due from this connection: for `seat` (its own, or the
    /// dummy's when it declares). `legal` lists every action accepted.
    Ask {
        seat: Seat,
        decision: Decision,
        legal: Legal,
        /// How long before a bot of the table answers for this seat, on a
        /// table with a turn timer (absent otherwise, and from servers
        /// before this key).
        #[serde(
            rename = "time_left_ms",
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "timer::lenient"
        )]
        time_left: Option<timer::TimeLeft>,
        #[serde(with = "view::boxed")]
        view: Box<PlayerView>,
    },
    /// Lines of the game record, as the table writes them: the header at
    /// the start, each hand once it is over, and the end (with the seed).
    Record { lines: Vec<RecordLine> },
    /// Who sits in a seat now: a person, a bot standing in, or nobody.
    Seat {
        seat: Seat,
        name: String,
        player: SeatPlayer,
        /// A guest sits there: not signed in, on a server that keeps a
        /// ladder (absent when not).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        guest: bool,
    },
    Chat {
        from: String,
        text: String,
        /// Said by a guest (absent when not).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        guest: bool,
    },
    /// The last message asked for something refused; nothing changed.
    Error { code: ErrorCode, message: String },
    /// The connection ends, and why; after a rated game, to each player
    /// rated, what the ladder made of it.
    Bye {
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating: Option<account::GameRating>,
    },
    /// Nothing heard from the client for a while: it answers `pong`, or is
    /// taken for gone at the read deadline.
    Ping {},
}

/// The table before its game: who sits where, and the host's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seating {
    pub table: String,
    /// The rules in force, as a `rules.toml` file's text.
    pub rules: String,
    /// One entry a seat, in seat order.
    pub seats: Vec<TableSeat>,
    pub bots: bool,
    pub level: BotSpec,
    /// The levels the host may choose from (absent before this key was
    /// sent: easy, normal and hard).
    #[serde(default)]
    pub levels: Vec<BotSpec>,
    /// Could the host start now?
    pub can_start: bool,
    /// On a server with a ladder: the game would count for it as the
    /// table stands (absent from servers before this key).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// On a server with a ladder: why the game would not count for it
    /// (`target_score 10, ranked 500`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSeat {
    pub name: Option<String>,
    pub player: SeatPlayer,
    /// A signed-in player's rating in the table's mode (absent from
    /// servers before this key, and for guests and bots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<lobby::ShownRating>,
    /// A guest: a person not signed in, on a server that keeps a ladder
    /// (absent when not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatPlayer {
    /// Nobody yet.
    Empty,
    Person,
    Bot,
    /// A bot plays for a person who left; they may reclaim the seat.
    Away,
    /// The dummy's seat (mode dummy): its declarer plays it.
    Dummy,
}

/// Why a message was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, not UTF-8, or not a message this version knows.
    BadMessage,
    /// A line longer than `MAX_LINE`: the connection is closed.
    TooLong,
    /// The first message must be `hello` in this protocol's version.
    Version,
    /// No table has that code, or the token is not this table's.
    NoTable,
    BadToken,
    /// Every seat is taken.
    TableFull,
    /// Only the host may change the lobby or start.
    NotHost,
    /// The lobby cannot start yet (too few people, or no bots to fill).
    CannotStart,
    /// An action when none was asked for.
    NotYourTurn,
    /// An action the rules or the `ask` did not allow.
    Illegal,
    /// The rules sent with `host` are refused.
    BadRules,
    /// Too many messages too fast: the connection is closed.
    Flood,
    /// Nothing said for too long: the connection is closed.
    Timeout,
    /// This server keeps no accounts nor ladder.
    NoLadder,
    /// The name is registered by someone else.
    NameTaken,
    /// The name is too like a registered one.
    NameLookAlike,
    /// The name could pass for a computer player or a seat.
    BotName,
    /// The name has no letter or digit.
    BadName,
    /// The signature does not match, the key or signature is one refused
    /// (small order, not canonical), or the challenge is spent or
    /// expired: a fresh `challenge` follows.
    BadSignature,
    /// No account has this key: register (a fresh `challenge` follows).
    NoAccount,
    /// This key has an account already: sign in.
    KeyTaken,
    /// Too many accounts registered of late, from this address or on the
    /// whole server: the message names the limit.
    TooManyRegistrations,
    /// Only a signed-in player may do this (quick match).
    NotSignedIn,
    /// The table has as many spectators as it takes.
    TooManyWatchers,
    /// A spectator may not act, start, fill the seats nor chat.
    Watching,
}

/// One message as a line of JSON, newline included.
pub fn line<T: Serialize>(message: &T) -> String {
    // Every message is plain data whose keys are strings: it always writes.
    let mut text = serde_json::to_string(message).unwrap_or_default();
    text.push('\n');
    text
}

/// The message `message` makes of the longest start of `rows` that keeps
/// it one line of at most `MAX_LINE` bytes: a list (the lobby's tables,
/// the ladder) whose rows hold text from outside is cut to what a client
/// reads, never sent whole and unreadable. Its count of all the rows is
/// the message's own (`total`).
pub fn within_line<T: Serialize>(
    mut rows: Vec<T>,
    message: impl Fn(Vec<T>) -> ServerMessage,
) -> ServerMessage {
    let room = MAX_LINE.saturating_sub(line(&message(Vec::new())).len());
    rows.truncate(fitting(&rows, room));
    message(rows)
}

/// `rows` in as many messages as `message` needs to carry them all, each
/// one line of at most `MAX_LINE` bytes (a row too long for any line goes
/// alone): a game's whole record, sent to someone taking their seat back.
pub fn in_lines<T: Serialize>(
    mut rows: Vec<T>,
    message: impl Fn(Vec<T>) -> ServerMessage,
) -> Vec<ServerMessage> {
    let room = MAX_LINE.saturating_sub(line(&message(Vec::new())).len());
    let mut messages = Vec::new();
    while !rows.is_empty() {
        let rest = rows.split_off(fitting(&rows, room).max(1));
        messages.push(message(std::mem::replace(&mut rows, rest)));
    }
    messages
}

/// How many of the first `rows` fit in `room` bytes of a JSON array: each
/// row its own JSON, and a comma before it but the first.
fn fitting<T: Serialize>(rows: &[T], mut room: usize) -> usize {
    let mut kept = 0;
    for row in rows {
        let len = serde_json::to_vec(row).map_or(usize::MAX, |json| json.len());
        let len = len.saturating_add(usize::from(kept > 0));
        if len > room {
            break;
        }
        room -= len;
        kept += 1;
    }
    kept
}

/// A line read back as a message, or why not in a plain sentence: the
/// same words for a client of the server and for a program at a seat.
pub fn parse<'a, T: Deserialize<'a>>(line: &'a str) -> Result<T, String> {
    serde_json::from_str(line.trim_end_matches(['\r', '\n'])).map_err(|e| unreadable(&e))
}

/// Why a line is not a message. The JSON reader's own words for JSON that
/// is not a message name the key or value expected; its position is left
/// out (a message is one line) and its terms put plainly.
fn unreadable(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    const ONE_OBJECT: &str = "a message is one JSON object on one line";
    match error.classify() {
        Category::Syntax => format!("not JSON from column {}: {ONE_OBJECT}", error.column()),
        Category::Eof => format!("not JSON (it ends too soon): {ONE_OBJECT}"),
        Category::Data | Category::Io => {
            let said = error.to_string();
            let said = said
                .rsplit_once(" at line ")
                .map_or(said.as_str(), |(s, _)| s);
            let said = said
                .replace("unknown variant", "unknown value")
                .replace("missing field", "missing key")
                .replace("unknown field", "unknown key")
                .replace("invalid type: ", "")
                .replace("invalid value: ", "");
            format!("not a message of the protocol: {said}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Mode;

    #[test]
    fn client_messages_read_as_the_protocol_writes_them() {
        let hello: ClientMessage = parse(r#"{"type":"hello","protocol":1,"name":"Ann"}"#).unwrap();
        assert_eq!(
            hello,
            ClientMessage::Hello {
                protocol: 1,
                name: "Ann".into()
            }
        );
        let act: ClientMessage = parse(r#"{"type":"act","action":{"play":"AS"}}"#).unwrap();
        assert_eq!(
            act,
            ClientMessage::Act {
                action: Action::Play("AS".parse().unwrap())
            }
        );
        let look: ClientMessage = parse(r#"{"type":"act","action":"look"}"#).unwrap();
        assert_eq!(
            look,
            ClientMessage::Act {
                action: Action::Look
            }
        );
        assert!(parse::<ClientMessage>(r#"{"type":"shout"}"#).is_err());
        assert!(parse::<ClientMessage>(r#"{"type":"start","x":1}"#).is_err());
        assert!(parse::<ClientMessage>("not json").is_err());
    }

    #[test]
    fn a_line_that_is_not_a_message_is_said_plainly() {
        let why = |line: &str| parse::<ClientMessage>(line).unwrap_err();
        let one = "a message is one JSON object on one line";
        assert_eq!(
            why("my bid is four"),
            format!("not JSON from column 1: {one}")
        );
        assert_eq!(
            why(r#"{"type":"act""#),
            format!("not JSON (it ends too soon): {one}")
        );
        assert_eq!(
            why(r#"{"type":"act"}"#),
            "not a message of the protocol: missing key `action`"
        );
        assert_eq!(
            why(r#"{"type":"act","action":"look","x":1}"#),
            "not a message of the protocol: unknown key `x`, expected `action`"
        );
        assert_eq!(
            why(r#"{"type":"act","action":{"play":5}}"#),
            "not a message of the protocol: integer `5`, expected a string"
        );
        assert!(why(r#"{"type":"shout"}"#).starts_with(
            "not a message of the protocol: unknown value `shout`, expected one of `hello`"
        ),);
    }

    /// Rows that would make a line longer than any client reads are cut
    /// from the end, the rest kept whole and in order.
    #[test]
    fn a_list_is_cut_to_the_rows_a_line_holds() {
        let rows: Vec<account::Rung> = (0..200)
            .map(|i| account::Rung {
                rank: i + 1,
                name: format!("{i:04}{}", "é".repeat(500)),
                rating: 1500,
                deviation: 50,
                games: 10,
                provisional: false,
            })
            .collect();
        let ladder = |rows| ServerMessage::Ladder {
            mode: Mode::Partnership,
            rows,
            you: None,
        };
        let cut = within_line(rows.clone(), ladder);
        let text = line(&cut);
        assert!(text.len() <= MAX_LINE, "{} bytes", text.len());
        let ServerMessage::Ladder { rows: kept, .. } = cut else {
            panic!("not a ladder");
        };
        assert!(kept.len() > 50 && kept.len() < 200, "{} rows", kept.len());
        assert_eq!(kept[..], rows[..kept.len()]);
        // One row more would not have fitted.
        let more = ladder(rows[..=kept.len()].to_vec());
        assert!(line(&more).len() > MAX_LINE);
        // A short list is kept whole.
        let whole = within_line(rows[..3].to_vec(), ladder);
        assert_eq!(whole, ladder(rows[..3].to_vec()));
    }

    /// Rows too many for one line go in several, each a line a client
    /// reads, all of them in order.
    #[test]
    fn a_long_list_is_sent_in_lines_a_client_reads() {
        let rows: Vec<account::Rung> = (0..300)
            .map(|i| account::Rung {
                rank: i + 1,
                name: format!("{i:04}{}", "é".repeat(300)),
                rating: 1500,
                deviation: 50,
                games: 10,
                provisional: false,
            })
            .collect();
        let ladder = |rows| ServerMessage::Ladder {
            mode: Mode::Partnership,
            rows,
            you: None,
        };
        let messages = in_lines(rows.clone(), ladder);
        assert!(messages.len() >= 3, "{} messages", messages.len());
        let mut back = Vec::new();
        for message in messages {
            assert!(line(&message).len() <= MAX_LINE);
            let ServerMessage::Ladder { rows, .. } = message else {
                panic!("not the message given");
            };
            back.extend(rows);
        }
        assert_eq!(back, rows);
        assert!(in_lines(Vec::new(), ladder).is_empty());
    }
}
