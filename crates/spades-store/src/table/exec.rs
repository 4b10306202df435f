//! A bot in another process (`exec:COMMAND`): any program that speaks the
//! table protocol (`docs/bot-authors.md`) on its standard input and output,
//! in whatever language it is written.
//!
//! The program is started (`sh -c COMMAND`) at the first decision its seat
//! owes in a game and lives for that game, so it may remember what it
//! likes between asks. It says `hello`, is told `welcome` and `seated`, and
//! then gets an `ask` for every decision of its seat (and of the dummy's
//! when it declares), each with the whole view; it answers `act`. It gets
//! no `event`s: every ask already holds all it may know. When the game is
//! over it is sent `bye` and given a moment to exit before it is killed.
//!
//! A program that answers what is not legal, says what is not an `act`,
//! takes longer than its time, or stops, is replaced by `normal` for the
//! rest of the game (`Bot::replaced` says why): the game always completes
//! and its record stays valid.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::bots::normal::NormalBot;
use crate::bots::{Bot, BotRng, Level, Replaced};
use crate::engine::{Action, Bid, Card, CardSet, Decision, PlayerView, Seat};
use crate::protocol::lines::{PipeLines, Read as Said};
use crate::protocol::{
    ClientMessage, ErrorCode, Legal, MAX_LINE, PROTOCOL_VERSION, ServerMessage, line, parse,
};

/// How long a program may take to say hello, and to answer each ask,
/// unless told otherwise (`spades sim --bot-timeout`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a program has to exit after `bye` before it is killed.
const GRACE: Duration = Duration::from_millis(500);

/// The level that plays a seat whose program failed.
const REPLACEMENT: Level = Level::Normal;

/// How many of the program's last lines on standard error a failure report
/// keeps, and how much of each.
const STDERR_LINES: usize = 3;
const STDERR_WIDTH: usize = 200;

/// A seat played by a program speaking the table protocol.
pub struct ExternalBot {
    command: String,
    timeout: Duration,
    fallback: NormalBot,
    state: State,
}

enum State {
    /// Not started: nothing has been asked of it yet.
    Idle,
    Running(Process),
    /// It failed, and `normal` plays for it.
    Replaced(Replaced),
}

impl ExternalBot {
    /// A bot that runs `command` once a game first asks it; `None` when
    /// there is no command.
    pub fn new(command: &str, timeout: Duration) -> ExternalBot {
        ExternalBot {
            command: command.trim().to_string(),
            timeout,
            fallback: NormalBot::default(),
            state: State::Idle,
        }
    }

    /// The command it runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Starts the program and greets it, for the seat `view` is asked for.
    fn start(&mut self, view: &PlayerView) {
        // The dummy's seat is asked of its declarer: the program's own seat.
        let seat = view.teams().player_for(view.seat);
        match Process::spawn(&self.command) {
            Ok(process) => {
                self.state = State::Running(process);
                if let State::Running(process) = &mut self.state
                    && let Err(problem) = process.greet(seat, self.timeout)
                {
                    self.replace(&problem, view.hand_no);
                }
            }
            Err(e) => {
                self.state = State::Replaced(Replaced {
                    hand: view.hand_no,
                    by: REPLACEMENT,
                    reason: format!("could not be started: {e}"),
                    stderr: Vec::new(),
                });
            }
        }
    }

    /// The program failed: it is told why and stopped, and `normal` plays
    /// its seat from now on.
    fn replace(&mut self, problem: &Problem, hand: u32) {
        let State::Running(process) = &mut self.state else {
            return;
        };
        let reason = problem.describe(self.timeout);
        let mut farewell = Vec::new();
        if let Some(code) = problem.code() {
            farewell.push(ServerMessage::Error {
                code,
                message: reason.clone(),
            });
        }
        farewell.push(ServerMessage::Bye {
            reason: format!("{reason}; {REPLACEMENT} plays this seat for the rest of the game"),
            rating: None,
        });
        let exited = process.close(farewell);
        let reason = match problem {
            Problem::Closed => closed(exited),
            _ => reason,
        };
        let stderr = process.stderr_tail();
        self.state = State::Replaced(Replaced {
            hand,
            by: REPLACEMENT,
            reason,
            stderr,
        });
    }
}

/// What is said of a program that closed its output, by how it ended.
fn closed(exited: Option<ExitStatus>) -> String {
    let Some(status) = exited else {
        return "closed its standard output".to_string();
    };
    if let Some(code) = status.code() {
        return format!("exited with code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was ended by signal {signal}");
        }
    }
    format!("exited ({status})")
}

impl Bot for ExternalBot {
    fn name(&self) -> &'static str {
        "exec"
    }

    /// The same command, not started: the table makes a fresh bot as a
    /// stand-in at every decision, so starting a program here would start
    /// one per decision.
    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(ExternalBot {
            command: self.command.clone(),
            timeout: self.timeout,
            fallback: NormalBot::default(),
            state: State::Idle,
        })
    }

    fn act(&mut self, decision: Decision, view: &PlayerView, rng: &mut BotRng) -> Action {
        if matches!(self.state, State::Idle) {
            self.start(view);
        }
        if let State::Running(process) = &mut self.state {
            match process.ask(decision, view, self.timeout) {
                Ok(action) => return action,
                Err(problem) => self.replace(&problem, view.hand_no),
            }
        }
        self.fallback.act(decision, view, rng)
    }

    fn replaced(&self) -> Option<&Replaced> {
        match &self.state {
            State::Replaced(replaced) => Some(replaced),
            State::Idle | State::Running(_) => None,
        }
    }

    // The program answers each decision whole (`act`); these ask it for
    // the one decision they name.

    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool {
        self.act(Decision::BlindNil, view, rng) == Action::Bid(Bid::BlindNil)
    }

    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        match self.act(Decision::Bid, view, rng) {
            Action::Bid(bid) => bid,
            _ => self.fallback.bid(view, rng),
        }
    }

    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        match self.act(Decision::Exchange, view, rng) {
            Action::Exchange(cards) => cards,
            _ => self.fallback.exchange(view, rng),
        }
    }

    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        match self.act(Decision::Play, view, rng) {
            Action::Play(card) => card,
            _ => self.fallback.play(view, rng),
        }
    }
}

/// What went wrong with a program.
#[derive(Debug)]
enum Problem {
    /// Nothing said within the time, before `hello` or after an ask.
    Silent {
        hello: bool,
    },
    /// Its output closed (it exited, most likely).
    Closed,
    TooLong,
    NotUtf8,
    /// A line that is not a message: not JSON, or JSON the protocol does
    /// not know (`protocol::parse` says why, as the server does).
    Unreadable {
        line: String,
        error: String,
    },
    /// A message of the protocol, but not the one due.
    Unexpected {
        got: &'static str,
        want: &'static str,
    },
    Version(u32),
    /// An action not among those asked for, and why not, in the words the
    /// server uses (`Legal::refusal`).
    Illegal {
        action: Action,
        why: String,
    },
    /// A message when nothing was asked.
    Unasked(String),
}

impl Problem {
    fn describe(&self, timeout: Duration) -> String {
        let ms = timeout.as_millis();
        match self {
            Problem::Silent { hello: true } => format!("did not say hello within {ms} ms"),
            Problem::Silent { hello: false } => format!("did not answer within {ms} ms"),
            Problem::Closed => closed(None),
            Problem::TooLong => format!("sent a line longer than {MAX_LINE} bytes"),
            Problem::NotUtf8 => "sent a line that is not UTF-8".to_string(),
            Problem::Unreadable { line, error } => {
                format!("sent `{}`: {error}", shortened(line))
            }
            Problem::Unexpected { got, want } => format!("sent `{got}` where `{want}` was due"),
            Problem::Version(v) => {
                format!("speaks protocol {v}; this table speaks {PROTOCOL_VERSION}")
            }
            Problem::Illegal { action, why } => format!(
                "answered {}, which is not legal here: {why}",
                serde_json::to_string(action).unwrap_or_else(|_| format!("{action:?}"))
            ),
            Problem::Unasked(text) => {
                format!("sent `{}` when nothing was asked", shortened(text))
            }
        }
    }

    /// The `error` the program is sent before `bye`, if one fits.
    fn code(&self) -> Option<ErrorCode> {
        match self {
            Problem::Silent { .. } => Some(ErrorCode::Timeout),
            Problem::Closed => None,
            Problem::TooLong => Some(ErrorCode::TooLong),
            Problem::NotUtf8 | Problem::Unreadable { .. } => Some(ErrorCode::BadMessage),
            Problem::Unexpected { want: "hello", .. } | Problem::Version(_) => {
                Some(ErrorCode::Version)
            }
            Problem::Unexpected { .. } => Some(ErrorCode::BadMessage),
            Problem::Illegal { .. } => Some(ErrorCode::Illegal),
            Problem::Unasked(_) => Some(ErrorCode::NotYourTurn),
        }
    }
}

/// A line as a failure report quotes it: its start, on one line.
fn shortened(text: &str) -> String {
    const MOST: usize = 80;
    let text = text.trim();
    match text.char_indices().nth(MOST) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// The `type` of a client message, as the protocol names it.
fn kind(message: &ClientMessage) -> &'static str {
    match message {
        ClientMessage::Hello { .. } => "hello",
        ClientMessage::Host { .. } => "host",
        ClientMessage::Join { .. } => "join",
        ClientMessage::Watch { .. } => "watch",
        ClientMessage::StopWatching {} => "stop_watching",
        ClientMessage::Reclaim { .. } => "reclaim",
        ClientMessage::Fill { .. } => "fill",
        ClientMessage::Start {} => "start",
        ClientMessage::Act { .. } => "act",
        ClientMessage::Chat { .. } => "chat",
        ClientMessage::Bye {} => "bye",
        ClientMessage::Pong {} => "pong",
        ClientMessage::Register { .. } => "register",
        ClientMessage::SignIn { .. } => "sign_in",
        ClientMessage::Rotate { .. } => "rotate",
        ClientMessage::Ladder { .. } => "ladder",
        ClientMessage::Tables { .. } => "tables",
        ClientMessage::Queue { .. } => "queue",
        ClientMessage::Unqueue {} => "unqueue",
        ClientMessage::Follow { .. } => "follow",
        ClientMessage::Unfollow {} => "unfollow",
        ClientMessage::Mine { .. } => "mine",
    }
}

/// A running program and the threads that talk to it.
struct Process {
    child: Child,
    /// Lines for the writer thread; dropped to close the program's input.
    to_bot: Option<Sender<String>>,
    from_bot: Receiver<Said>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Disconnected once standard error has closed and been read to its end.
    stderr_done: Receiver<()>,
    reaped: bool,
}

impl Process {
    fn spawn(command: &str) -> io::Result<Process> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A group of its own, so that whatever it starts is stopped with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn()?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("its standard streams were not piped"));
        };
        let (to_bot, lines_out) = mpsc::channel();
        std::thread::spawn(move || write_lines(stdin, lines_out));
        let (lines_in, from_bot) = mpsc::channel();
        std::thread::spawn(move || read_lines(stdout, lines_in));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (done, stderr_done) = mpsc::channel();
        let keep = Arc::clone(&tail);
        std::thread::spawn(move || {
            read_stderr(stderr, &keep);
            drop(done);
        });
        Ok(Process {
            child,
            to_bot: Some(to_bot),
            from_bot,
            stderr: tail,
            stderr_done,
            reaped: false,
        })
    }

    /// The program's `hello`, answered with `welcome` and `seated`.
    fn greet(&mut self, seat: Seat, timeout: Duration) -> Result<(), Problem> {
        let text = self.next_line(timeout, Problem::Silent { hello: true })?;
        match parse::<ClientMessage>(&text) {
            Ok(ClientMessage::Hello { protocol, .. }) if protocol == PROTOCOL_VERSION => {}
            Ok(ClientMessage::Hello { protocol, .. }) => return Err(Problem::Version(protocol)),
            Ok(other) => {
                return Err(Problem::Unexpected {
                    got: kind(&other),
                    want: "hello",
                });
            }
            Err(error) => return Err(Problem::Unreadable { line: text, error }),
        }
        self.send(&ServerMessage::Welcome {
            challenge: None,
            ladder: None,
            protocol: PROTOCOL_VERSION,
            server: format!("spades {}", env!("CARGO_PKG_VERSION")),
        })?;
        self.send(&ServerMessage::Seated {
            table: "sim".to_string(),
            seat,
            token: String::new(),
            host: false,
        })
    }

    /// Asks for `decision` and checks the answer against what is legal.
    fn ask(
        &mut self,
        decision: Decision,
        view: &PlayerView,
        timeout: Duration,
    ) -> Result<Action, Problem> {
        // Anything said since the last answer was said unasked.
        loop {
            match self.from_bot.try_recv() {
                Ok(Said::Line(bytes)) => {
                    let text = String::from_utf8_lossy(&bytes);
                    if !text.trim().is_empty() {
                        return Err(Problem::Unasked(text.into_owned()));
                    }
                }
                Ok(Said::TooLong) => return Err(Problem::TooLong),
                Ok(Said::End) | Err(TryRecvError::Disconnected) => {
                    return Err(Problem::Closed);
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        let legal = Legal::of(view, decision);
        self.send(&ServerMessage::Ask {
            seat: view.seat,
            decision,
            legal: legal.clone(),
            // The program's own time (`--bot-timeout`) is the documented
            // one; the key is for a table's turn timer.
            time_left: None,
            view: Box::new(view.clone()),
        })?;
        let text = self.next_line(timeout, Problem::Silent { hello: false })?;
        match parse::<ClientMessage>(&text) {
            Ok(ClientMessage::Act { action }) if legal.allows(&action, view.cards()) => Ok(action),
            Ok(ClientMessage::Act { action }) => Err(Problem::Illegal {
                why: Legal::refusal(view, decision, &action),
                action,
            }),
            Ok(other) => Err(Problem::Unexpected {
                got: kind(&other),
                want: "act",
            }),
            Err(error) => Err(Problem::Unreadable { line: text, error }),
        }
    }

    fn send(&self, message: &ServerMessage) -> Result<(), Problem> {
        let to_bot = self.to_bot.as_ref().ok_or(Problem::Closed)?;
        to_bot.send(line(message)).map_err(|_| Problem::Closed)
    }

    /// The next line that is not blank, within `timeout`.
    fn next_line(&self, timeout: Duration, silent: Problem) -> Result<String, Problem> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_bot.recv_timeout(left) {
                Ok(Said::Line(bytes)) => {
                    let text = String::from_utf8(bytes).map_err(|_| Problem::NotUtf8)?;
                    if !text.trim().is_empty() {
                        return Ok(text);
                    }
                }
                Ok(Said::TooLong) => return Err(Problem::TooLong),
                Ok(Said::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Problem::Closed);
                }
                Err(RecvTimeoutError::Timeout) => return Err(silent),
            }
        }
    }

    /// Sends `farewell`, closes the program's input, gives it `GRACE` to
    /// exit and then kills it (and everything it started), and reaps it.
    /// Its exit status, when it exited by itself.
    fn close(&mut self, farewell: Vec<ServerMessage>) -> Option<ExitStatus> {
        if self.reaped {
            return None;
        }
        for message in &farewell {
            let _ = self.send(message);
        }
        // The writer thread writes what it holds, then closes the input.
        self.to_bot = None;
        let deadline = Instant::now() + GRACE;
        let mut pause = Duration::from_millis(1);
        let mut exited = has_exited(&mut self.child);
        while !exited && Instant::now() < deadline {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
            exited = has_exited(&mut self.child);
        }
        kill(&mut self.child);
        let status = self.child.wait().ok();
        self.reaped = true;
        // Standard error ends once nothing of the program holds it open.
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(200));
        if exited { status } else { None }
    }

    fn stderr_tail(&self) -> Vec<String> {
        self.stderr
            .lock()
            .map(|tail| tail.iter().cloned().collect())
            .unwrap_or_default()
    }
}

/// The game is over (or left): the program is told so and stopped.
impl Drop for Process {
    fn drop(&mut self) {
        self.close(vec![ServerMessage::Bye {
            reason: "the game is over".to_string(),
            rating: None,
        }]);
    }
}

/// Has the program exited? It is not reaped, so that its process group
/// stays its own until `kill`.
#[cfg(unix)]
fn has_exited(child: &mut Child) -> bool {
    use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    match waitid(WaitId::Pid(Pid::from_child(child)), options) {
        Ok(status) => status.is_some(),
        // Not a child any more: nothing to wait for.
        Err(_) => true,
    }
}

#[cfg(not(unix))]
fn has_exited(child: &mut Child) -> bool {
    !matches!(child.try_wait(), Ok(None))
}

/// Kills the program and whatever it started (its process group: the
/// program, not yet reaped, still holds the group's id).
#[cfg(unix)]
fn kill(child: &mut Child) {
    use rustix::process::{Pid, Signal, kill_process_group};
    let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
}

#[cfg(not(unix))]
fn kill(child: &mut Child) {
    let _ = child.kill();
}

/// Writes each line to the program's input, until told to stop or the
/// program stops reading.
fn write_lines(mut stdin: ChildStdin, lines: Receiver<String>) {
    for text in lines {
        if stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Hands the program's output on a line at a time, refusing a line longer
/// than `MAX_LINE` (newline included).
fn read_lines(stdout: impl Read, lines: Sender<Said>) {
    let mut reader = PipeLines::new(stdout);
    loop {
        let read = reader.next_line();
        let last = !matches!(read, Said::Line(_));
        if lines.send(read).is_err() || last {
            return;
        }
    }
}

/// Keeps the program's last lines on standard error (read to the end, so
/// that it never blocks writing there).
fn read_stderr(stderr: impl Read, tail: &Mutex<VecDeque<String>>) {
    let mut reader = BufReader::new(stderr);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match (&mut reader).take(4096).read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_end();
        if text.trim().is_empty() {
            continue;
        }
        let text = match text.char_indices().nth(STDERR_WIDTH) {
            Some((end, _)) => format!("{}...", &text[..end]),
            None => text.to_string(),
        };
        if let Ok(mut tail) = tail.lock() {
            if tail.len() == STDERR_LINES {
                tail.pop_front();
            }
            tail.push_back(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_line_is_cut_short() {
        assert_eq!(shortened("  {\"type\":\"act\"}\n"), "{\"type\":\"act\"}");
        let long = "é".repeat(100);
        assert_eq!(shortened(&long), format!("{}...", "é".repeat(80)));
    }

    #[test]
    fn a_command_is_kept_trimmed_and_not_started() {
        let bot = ExternalBot::new(" ./bot --fast ", DEFAULT_TIMEOUT);
        assert_eq!(bot.command(), "./bot --fast");
        assert!(bot.replaced().is_none());
    }
}
