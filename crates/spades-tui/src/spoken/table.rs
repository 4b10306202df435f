//! A game at the table in lines: the loop that says what happens, answers
//! questions and turns words into the player's actions.

use std::time::{Duration, Instant};

use crate::engine::{Decision, Phase, SeatEvent};
use crate::save::{Saved, SetAside};
use crate::session::Played;
use crate::signals::StopSignals;

use super::super::app::{Overlay, Screen};
use super::super::input::{Input, Key};
use super::super::offer::{self, Choice};
use super::super::run::{Start, let_time_pass};
use super::super::{App, Ending, Outcome, PlayConfig, Speed, TuiError};
use super::ask::{self, Query};
use super::commands::{self, Command};
use super::say::Teller;
use super::{Heard, Lines, Speech};

/// How long the loop waits for a typed line when the table waits for the
/// player, so a stop signal or a shared table's news is heard soon.
const IDLE_WAIT: Duration = Duration::from_millis(50);
/// How long it waits while a computer player thinks: the bot's answer is
/// said as soon as it comes.
const BUSY_WAIT: Duration = Duration::from_millis(5);

/// Plays local games in lines until the player quits, as `tui::run` does
/// on the full screen: the same saves, records and endings.
pub fn run(config: PlayConfig, start: Start) -> Result<Outcome, TuiError> {
    let speech = Speech::from_preferences(&config.preferences);
    // Caught before the record is opened, so no stop can leave it open.
    let signals = StopSignals::watch()?;
    let mut lines = Lines::stdio();
    let start = match start {
        Start::Offer {
            saved,
            busy,
            set_aside,
        } => match offer(
            &mut lines,
            &signals,
            &speech,
            saved.as_deref(),
            &busy,
            &set_aside,
        )? {
            Choice::Resume => saved.map_or(Start::New, Start::Resume),
            Choice::NewGame => Start::New,
            Choice::Quit => {
                let ending = match signals.received() {
                    Some(signal) => Ending::Signal(signal),
                    None => Ending::Quit,
                };
                return Ok(Outcome {
                    played: Played::default(),
                    ending: Ok(ending),
                });
            }
        },
        start => start,
    };
    let mut app = match start {
        Start::Resume(saved) => {
            let config = config.resuming(&saved);
            App::resume(config, speech.theme(), &saved)?
        }
        _ => App::new(config, speech.theme())?,
    };
    Ok(play_to_the_end(&mut app, &mut lines, &signals))
}

/// The offer of the game left undecided, in lines: resume it, start a new
/// one, or quit. The same choices as the full screen's window.
fn offer(
    lines: &mut Lines,
    signals: &StopSignals,
    speech: &Speech,
    saved: Option<&Saved>,
    busy: &[Saved],
    set_aside: &[SetAside],
) -> Result<Choice, TuiError> {
    let theme = speech.theme();
    let waiting = offer::Offer::new(saved, busy, set_aside, &theme);
    let mut said = Vec::new();
    if let Some(saved) = saved {
        said.push(format!(
            "A game is waiting where you left it: {}.",
            offer::about(saved, &theme)
        ));
    }
    for busy in busy {
        said.push(format!(
            "Open in another window, to take up there: {}.",
            offer::about(busy, &theme)
        ));
    }
    for note in set_aside {
        said.push(super::super::text::sentence(&note.to_string()));
    }
    let ask = if saved.is_some() {
        "Type resume (or just Enter) to go on with it, new for a new game (it stays saved), or quit."
    } else {
        "Type new (or just Enter) for a new game, or quit."
    };
    said.push(ask.to_string());
    for line in &said {
        say(lines, line)?;
    }
    loop {
        if signals.received().is_some() {
            return Ok(Choice::Quit);
        }
        let key = match lines.hear(IDLE_WAIT) {
            Heard::Closed => return Ok(Choice::Quit),
            Heard::Nothing => continue,
            Heard::Line(line) => match commands::parse(&line) {
                Ok(Command::Again | Command::Yes) => Key::Enter,
                Ok(Command::Resume) => Key::Char('r'),
                Ok(Command::New | Command::No) => Key::Char('n'),
                Ok(Command::Quit) => Key::Char('q'),
                _ => Key::Char('?'),
            },
        };
        match waiting.choice(key) {
            Some(choice) => return Ok(choice),
            None => say(lines, ask)?,
        }
    }
}

/// Plays at `app`'s table (local, or a seat on a server) until the player
/// leaves, the input closes or a stop comes; then closes the session as
/// the full screen does (a game left is saved, or given up) and says how
/// it went.
pub fn play_to_the_end(app: &mut App, lines: &mut Lines, signals: &StopSignals) -> Outcome {
    // The pauses are for eyes following cards on a screen; a screen reader
    // queues its lines itself. A speed the player chose is kept.
    if !app.config().chosen.speed {
        app.set_speed(Speed::Instant);
    }
    let result = Spoken::new(app).play(app, lines, signals);
    // A game left undecided is kept to resume, or, when it cannot be kept,
    // marked abandoned and its seed revealed (a shared table's seat is given
    // up with a goodbye).
    let played = app.close();
    let ending = match signals.received() {
        Some(signal) => Ok(Ending::Signal(signal)),
        None => result,
    };
    Outcome { played, ending }
}

/// One line said (`Lines::say` splits one past the line's limit).
fn say(lines: &mut Lines, line: &str) -> Result<(), TuiError> {
    Ok(lines.say(line)?)
}

/// One of the player's decisions: the hand, the cards played so far, and
/// its kind. Each is announced once.
type DecisionKey = (u32, usize, Decision);

/// What the loop has said so far, so each thing is said once.
struct Spoken {
    speech: Speech,
    teller: Teller,
    /// Events said: `app.events()` up to here.
    told: usize,
    /// The notice last said.
    notice: Option<String>,
    /// The player's decision last announced.
    decision: Option<DecisionKey>,
    /// The hand whose cards have been said.
    hand: Option<u32>,
    /// The hand whose summary has been said, and whose "Enter for the
    /// next hand" has.
    summary: Option<u32>,
    summary_prompt: Option<u32>,
    game_over: bool,
    /// The decision whose time running out has been said.
    countdown: Option<DecisionKey>,
    /// The shared table's chat as last seen.
    chat: Vec<String>,
    /// Lines said since the player's last line: a command that changed
    /// nothing is answered with what is asked now.
    said: usize,
}

impl Spoken {
    fn new(app: &App) -> Spoken {
        let speech = Speech::from_preferences(&app.config().preferences);
        let mut spoken = Spoken {
            speech,
            teller: Teller::new(speech, app.names().clone(), app.you(), app.view().mode()),
            told: 0,
            notice: None,
            decision: None,
            hand: None,
            summary: None,
            summary_prompt: None,
            game_over: false,
            countdown: None,
            chat: app.chat_log().0,
            said: 0,
        };
        spoken.take_up(app);
        spoken
    }

    /// A game taken up in the middle (resumed, or a seat taken back): what
    /// was played before is not said again, only where it stands.
    fn take_up(&mut self, app: &App) {
        let events = app.events();
        let begun = events.iter().any(|e| !matches!(e, SeatEvent::Dealt { .. }));
        if begun {
            self.told = events.len();
            self.teller.start_from(&app.view().play);
        }
    }

    fn play(
        &mut self,
        app: &mut App,
        lines: &mut Lines,
        signals: &StopSignals,
    ) -> Result<Ending, TuiError> {
        if self.told > 0 {
            let view = app.view();
            let scores: Vec<String> = view.totals.iter().map(|t| t.score.to_string()).collect();
            self.say(
                lines,
                &format!(
                    "Game taken up where it was left: hand {}, scores {}.",
                    view.hand_no,
                    scores.join(" to ")
                ),
            )?;
        }
        loop {
            if let Some(end) = let_time_pass(app, signals) {
                return end;
            }
            self.news(app, lines)?;
            let wait = if app.is_thinking() || app.hint_pending() {
                BUSY_WAIT
            } else {
                IDLE_WAIT
            };
            match lines.hear(wait) {
                // The end of the input leaves as quitting does: the game
                // is saved, or given up where it cannot be.
                Heard::Closed => {
                    app.leave_now();
                    return Ok(Ending::Quit);
                }
                Heard::Nothing => {}
                Heard::Line(line) => {
                    self.said = 0;
                    if let Some(ending) = self.heard(app, lines, signals, &line)? {
                        return Ok(ending);
                    }
                    // What the line did is said at once.
                    app.update(Input::Tick(Instant::now()));
                    self.news(app, lines)?;
                    if self.said == 0 && !app.should_quit() {
                        self.again(app, lines)?;
                    }
                }
            }
        }
    }

    fn say(&mut self, lines: &mut Lines, line: &str) -> Result<(), TuiError> {
        self.said += 1;
        say(lines, line)
    }

    /// Says everything new since the last look, in the order it happened.
    fn news(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let events = app.events();
        // A new game starts its events afresh.
        if events.len() < self.told {
            self.told = 0;
        }
        for event in &events[self.told..] {
            if let Some(line) = self.teller.event(event) {
                self.say(lines, &line)?;
            }
            // The hand's score comes before the game's end.
            if let SeatEvent::Score { .. } = event {
                self.summary(app, lines)?;
            }
            if let SeatEvent::Dealt { hand, dealer } = *event {
                let view = app.view();
                let cards = (view.hand_no == hand).then_some(view.hand).flatten();
                self.hand = cards.map(|_| hand);
                let line = self.teller.deal(hand, dealer, cards);
                self.say(lines, &line)?;
            }
        }
        self.told = events.len();
        self.chat(app, lines)?;
        self.notice(app, lines)?;
        self.cards_turned_up(app, lines)?;
        self.summary(app, lines)?;
        self.summary_waits(app, lines)?;
        self.game_over(app, lines)?;
        // The turn first, then how long it has.
        self.your_turn(app, lines)?;
        self.countdown(app, lines)
    }

    /// The cards of a hand bid blind, once they are looked at.
    fn cards_turned_up(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let view = app.view();
        if self.hand == Some(view.hand_no) || app.screen() != Screen::Table {
            return Ok(());
        }
        if let Some(cards) = view.hand {
            self.hand = Some(view.hand_no);
            let line = self.teller.holding(cards);
            self.say(lines, &line)?;
        }
        Ok(())
    }

    fn notice(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let now = app.notice().map(str::to_string);
        if now == self.notice {
            return Ok(());
        }
        self.notice = now.clone();
        let Some(notice) = now else {
            return Ok(());
        };
        // A chat line is news too: it was said with the chat.
        if self.chat.last() == Some(&notice) {
            return Ok(());
        }
        for line in notice.lines() {
            self.say(lines, line)?;
        }
        Ok(())
    }

    /// The shared table's chat lines that came since the last look.
    fn chat(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let (log, _) = app.chat_log();
        if log == self.chat {
            return Ok(());
        }
        // The log keeps only the latest lines: the new ones follow the
        // longest run of the old ones it still starts with.
        let kept = (0..=self.chat.len().min(log.len()))
            .rev()
            .find(|&n| self.chat[self.chat.len() - n..] == log[..n])
            .unwrap_or(0);
        for line in &log[kept..] {
            self.say(lines, line)?;
        }
        self.chat = log;
        Ok(())
    }

    /// The hand's score, once it is scored (or, when a game is taken up
    /// at a summary not yet read, then).
    fn summary(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let Some((result, before)) = app.summary() else {
            return Ok(());
        };
        if self.summary == Some(result.hand) {
            return Ok(());
        }
        self.summary = Some(result.hand);
        let said = self.teller.score(result, &before, &app.config().game.rules);
        for line in said {
            self.say(lines, &line)?;
        }
        Ok(())
    }

    /// "Enter for the next hand.", once the hand and anything that ends
    /// with it (the game) have been said.
    fn summary_waits(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        if app.screen() != Screen::Summary {
            return Ok(());
        }
        let hand = app.summary().map(|(result, _)| result.hand);
        if self.summary_prompt == hand {
            return Ok(());
        }
        self.summary_prompt = hand;
        self.say(lines, next_hand(app))
    }

    fn game_over(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        // The rating's note is said with the end, once the records are read.
        if app.screen() != Screen::GameOver || self.game_over || app.rating_pending() {
            return Ok(());
        }
        self.game_over = true;
        for line in app.rating_note() {
            self.say(lines, line)?;
        }
        self.say(lines, GAME_OVER)
    }

    /// The turn timer of a shared table: a line when little time is left.
    fn countdown(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let (Some(seconds), Some(key)) = (app.countdown(), decision_key(app)) else {
            return Ok(());
        };
        if self.countdown == Some(key) {
            return Ok(());
        }
        self.countdown = Some(key);
        self.say(
            lines,
            &format!("{seconds} seconds left, then a bot acts for you."),
        )
    }

    /// "Your turn ...", once for each of the player's decisions.
    fn your_turn(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let key = decision_key(app);
        if key.is_none() || key == self.decision {
            return Ok(());
        }
        self.decision = key;
        self.ask_turn(app, lines)
    }

    fn ask_turn(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let Some(turn) = app.human_turn() else {
            return Ok(());
        };
        for line in self.teller.turn(turn.decision, &app.hand_view()) {
            self.say(lines, &line)?;
        }
        Ok(())
    }

    /// Says again what is asked now (an empty line, or a line that changed
    /// nothing).
    fn again(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        if app.overlay() == Some(Overlay::ConfirmQuit) {
            return self.ask_quit(app, lines);
        }
        match app.screen() {
            Screen::Summary => self.say(lines, next_hand(app)),
            Screen::GameOver => self.say(lines, GAME_OVER),
            _ if app.human_turn().is_some() => self.ask_turn(app, lines),
            _ => {
                let line = match app.waiting_for() {
                    Some(seat) => format!("Waiting for {}.", self.teller.who(seat)),
                    None => "Waiting for the table.".to_string(),
                };
                self.say(lines, &line)
            }
        }
    }

    fn ask_quit(&mut self, app: &App, lines: &mut Lines) -> Result<(), TuiError> {
        let what = app.leaving_words().join(" ");
        self.say(lines, &format!("Leave this game? {what} Type yes or no."))
    }

    /// Acts on a typed line; `Some` when the player leaves.
    fn heard(
        &mut self,
        app: &mut App,
        lines: &mut Lines,
        signals: &StopSignals,
        line: &str,
    ) -> Result<Option<Ending>, TuiError> {
        let command = match commands::parse(line) {
            Ok(command) => command,
            Err(why) => {
                self.say(lines, &why)?;
                return Ok(None);
            }
        };
        // While "leave this game?" waits, only its answer is taken.
        if app.overlay() == Some(Overlay::ConfirmQuit) {
            match command {
                Command::Yes | Command::Quit => app.answer_quit(true),
                Command::No => {
                    app.answer_quit(false);
                    self.say(lines, "You stay.")?;
                    self.decision = None;
                }
                _ => self.ask_quit(app, lines)?,
            }
            return Ok(None);
        }
        match command {
            Command::Again if app.screen() == Screen::Summary => app.next_hand(),
            Command::Again => self.again(app, lines)?,
            Command::Ask(query) => self.answer(app, lines, query)?,
            Command::Keys => self.keys(lines)?,
            Command::Verbosity => {
                self.speech.verbosity = self.speech.verbosity.next();
                self.teller.speech = self.speech;
                let line = format!("Verbosity: {}.", self.speech.verbosity.name());
                self.say(lines, &line)?;
            }
            Command::Quit => {
                app.ask_to_quit();
                if app.overlay() == Some(Overlay::ConfirmQuit) {
                    self.ask_quit(app, lines)?;
                }
            }
            Command::Yes | Command::No | Command::Resume => {}
            Command::Replay | Command::Review => {
                return self.look_back(app, lines, signals, command == Command::Review);
            }
            command => self.act(app, lines, command)?,
        }
        Ok(None)
    }

    /// The commands that act at the table: the notice that follows (a
    /// refusal, the hint) is said even when it is the same as the last.
    fn act(&mut self, app: &mut App, lines: &mut Lines, command: Command) -> Result<(), TuiError> {
        if !matches!(command, Command::Chat(_) | Command::New) {
            self.notice = None;
        }
        match command {
            Command::Bid(bid) => app.bid(bid),
            Command::Look => app.look(),
            Command::Pass(cards) => app.pass(cards),
            Command::Play(card) => app.play(card),
            Command::Hint => app.ask_hint(),
            Command::Claim => app.claim_the_rest(),
            Command::Undo if !app.can_take_back() => app.undo(),
            Command::Undo => {
                app.undo();
                // The table was set again from the start: where it stands
                // now is all that is new.
                self.told = app.events().len();
                self.teller.start_from(&app.view().play);
                self.decision = None;
            }
            Command::New => {
                app.new_game();
                if app.screen() != Screen::GameOver {
                    // A new game's events start afresh; the verbosity
                    // chosen with `v` stays.
                    let speech = self.speech;
                    *self = Spoken::new(app);
                    self.speech = speech;
                    self.teller.speech = speech;
                }
            }
            Command::Chat(text) if !app.send_chat(&text) => {
                self.say(
                    lines,
                    "Chat is for a shared table: nobody else is at this one.",
                )?;
            }
            _ => {}
        }
        Ok(())
    }

    fn answer(&mut self, app: &App, lines: &mut Lines, query: Query) -> Result<(), TuiError> {
        let line = ask::answer(query, app, &self.speech);
        self.say(lines, &line)
    }

    /// `?`: the keys and the commands, in a few lines.
    fn keys(&mut self, lines: &mut Lines) -> Result<(), TuiError> {
        for line in ask::help_lines(&self.speech) {
            self.say(lines, &line)?;
        }
        Ok(())
    }

    /// `replay` or `review` at the game's end: the game just played, read
    /// hand by hand; back here after.
    fn look_back(
        &mut self,
        app: &mut App,
        lines: &mut Lines,
        signals: &StopSignals,
        review: bool,
    ) -> Result<Option<Ending>, TuiError> {
        if app.screen() != Screen::GameOver {
            self.say(
                lines,
                "The replay and the review come once the game is over.",
            )?;
            return Ok(None);
        }
        match app.game_just_played() {
            Ok(mut viewer) => {
                if review {
                    viewer.start_analysis();
                }
                let ending = super::replay::read_as(&mut viewer, &self.speech, lines, signals)?;
                if ending != Ending::Quit {
                    return Ok(Some(ending));
                }
                self.say(lines, GAME_OVER)?;
            }
            Err(why) => self.say(lines, &why)?,
        }
        Ok(None)
    }
}

/// The player's decision now, if it is theirs to make and nothing is in
/// the way: no window, no trick held, no card about to be played for them.
fn decision_key(app: &App) -> Option<DecisionKey> {
    if app.screen() != Screen::Table
        || app.overlay().is_some()
        || app.held_trick().is_some()
        || app.card_played_for_you().is_some()
    {
        return None;
    }
    let turn = app.human_turn()?;
    let view = app.view();
    Some((view.hand_no, view.play.played.len() as usize, turn.decision))
}

/// What Enter does at a hand's summary: the next hand, or at the last
/// the game's end.
fn next_hand(app: &App) -> &'static str {
    if app.view().phase == Phase::Over {
        "Enter for the end of the game."
    } else {
        "Enter for the next hand."
    }
}
const GAME_OVER: &str =
    "The game is over. Type new for another game, replay or review to look back, or quit.";
