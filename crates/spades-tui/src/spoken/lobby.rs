//! A server's lobby in lines: its tables as a numbered list, one short
//! line a table, the quick-match queues in one more, the commands typed
//! as words (`join 2`, `watch 3`, `quick partnership`), and what changes
//! while the player listens said as a few short lines, never the whole
//! list again. The state is the full-screen lobby's (`LobbyState`);
//! this only says it and reads words.

use std::time::{Duration, Instant};

use crate::engine::Mode;
use crate::naming::MAX_NAME;
use crate::outside::{clean, clean_name, thin_marks};
use crate::protocol::SeatPlayer;
use crate::protocol::account::Rung;
use crate::protocol::lobby::{ListedTable, QueueCount};

use super::super::lobby::LobbyState;

/// Text from outside made a line: hidden characters out, a mark a letter
/// at most, cut to `LINE_MAX` characters, so a server's 10 kB name is one
/// line a screen reader can read through.
pub fn bounded(text: &str) -> String {
    let kept = thin_marks(&clean(text));
    super::words::cut(kept.trim())
}

/// A name from the server, as a line says it.
fn name(name: &str) -> String {
    clean_name(name, MAX_NAME)
}

/// Whose table it is: the first person seated at it (its host, as the
/// server seats the host first), or the player's own.
fn whose(table: &ListedTable, yours: bool) -> String {
    if yours {
        return "your table".to_string();
    }
    let host = table.seats.iter().find_map(|s| {
        s.name
            .as_deref()
            .filter(|_| matches!(s.player, SeatPlayer::Person | SeatPlayer::Away))
            .map(name)
            .filter(|n| !n.is_empty())
    });
    match host {
        Some(host) => format!("{host}'s table"),
        None => "a table".to_string(),
    }
}

/// One table, numbered as the commands take it: "1. Ann's table,
/// partnership to 500, 2 of 4 seated, rated."
pub fn table_line(number: usize, table: &ListedTable, yours: bool) -> String {
    // The course alone ("to 500"): the rest of the server's line is signs.
    let course = table.rules.split(" \u{b7} ").next().unwrap_or_default();
    let course = clean_name(course, 24);
    let mut parts = vec![
        format!("{number}. {}", whose(table, yours)),
        format!("{} {course}", table.mode).trim().to_string(),
    ];
    let taken = table
        .seats
        .iter()
        .filter(|s| s.player != SeatPlayer::Empty)
        .count();
    parts.push(if table.started {
        "playing, watchable".to_string()
    } else {
        format!("{taken} of {} seated", table.seats.len())
    });
    if table.rated {
        parts.push("rated".to_string());
    }
    if table.watchers > 0 {
        parts.push(format!("{} watching", table.watchers));
    }
    if yours {
        parts.push("your seat: yours takes it back".to_string());
    }
    bounded(&format!("{}.", parts.join(", ")))
}

/// The queues in one line: "Quick match: partnership 1 waiting,
/// cutthroat 0."; `None` from a server that does not say.
pub fn queues_line(queues: &[QueueCount]) -> Option<String> {
    if queues.is_empty() {
        return None;
    }
    let counts: Vec<String> = queues
        .iter()
        .enumerate()
        .map(|(i, q)| {
            if i == 0 {
                format!("{} {} waiting", q.mode, q.waiting)
            } else {
                format!("{} {}", q.mode, q.waiting)
            }
        })
        .collect();
    Some(bounded(&format!("Quick match: {}.", counts.join(", "))))
}

/// The whole list: a heading, a line a table, the queues.
pub fn list_lines(state: &LobbyState) -> Vec<String> {
    let shown = state.tables().len();
    let modes = state
        .filter()
        .map_or_else(|| "all modes".to_string(), |m| format!("{m} only"));
    let mut lines = vec![match (shown, state.total()) {
        (0, _) => format!("No tables, {modes}. Type open to open one, or quick partnership."),
        (n, total) if total > n => format!("Tables, the first {n} of {total}, {modes}:"),
        (n, _) => format!("Tables, {n}, {modes}:"),
    }];
    for (i, table) in state.tables().iter().enumerate() {
        lines.push(table_line(i + 1, table, state.is_yours(table)));
    }
    lines.extend(queues_line(state.queues()));
    lines
}

/// The ladder's first rungs, a line each.
pub fn ladder_lines(mode: Mode, rungs: &[Rung]) -> Vec<String> {
    const SHOWN: usize = 10;
    if rungs.is_empty() {
        return vec![format!("The {mode} ladder has nobody on it yet.")];
    }
    let mut lines = vec![format!(
        "The {mode} ladder, the first {}:",
        rungs.len().min(SHOWN)
    )];
    for rung in rungs.iter().take(SHOWN) {
        let guess = if rung.provisional {
            ", provisional"
        } else {
            ""
        };
        lines.push(bounded(&format!(
            "{}. {}, {} plus or minus {}, {}{guess}.",
            rung.rank,
            name(&rung.name),
            rung.rating,
            rung.deviation,
            super::words::count(rung.games as usize, "game"),
        )));
    }
    lines
}

/// What a typed line asks of the lobby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `list`, or an empty line: the list again.
    List,
    /// `join 2`: sit at the table numbered 2.
    Join(usize),
    /// `watch 3`.
    Watch(usize),
    /// `quick partnership`: wait for a quick match in a mode.
    Quick(Mode),
    /// `open`, `open cutthroat`, `open private`: a table of one's own.
    Open {
        mode: Option<Mode>,
        public: bool,
    },
    /// `yours`: take the player's own seat back.
    Yours,
    /// `ladder`, `ladder cutthroat`.
    Ladder(Option<Mode>),
    /// `mode cutthroat` lists one mode's tables; `mode all` every mode.
    Filter(Option<Mode>),
    /// `?` or `help`.
    Help,
    /// `quit`, `q`.
    Quit,
    Yes,
    No,
    /// Not a command, and why.
    Unknown(String),
}

/// The keys and commands of the lobby, for `?`.
pub const HELP: [&str; 4] = [
    "Commands: list (or Enter) says the tables again; join 2 sits at table 2; watch 3 watches table 3.",
    "quick partnership (or cutthroat, individual) waits for a quick match; open, open cutthroat, open private opens a table.",
    "yours takes your own seat back; ladder, ladder cutthroat says the ladder; mode cutthroat or mode all lists one mode or all.",
    "quit leaves the lobby.",
];

impl Command {
    pub fn from_line(line: &str) -> Command {
        let line = line.trim().to_ascii_lowercase();
        let words: Vec<&str> = line.split_whitespace().collect();
        let mode = |word: Option<&&str>| word.and_then(|w| w.parse::<Mode>().ok());
        match words.as_slice() {
            [] | ["list" | "l" | "r" | "refresh"] => Command::List,
            ["join" | "j", n] => number(n).map_or_else(|| not_a_number(n), Command::Join),
            ["watch" | "w", n] => number(n).map_or_else(|| not_a_number(n), Command::Watch),
            ["join" | "watch" | "j" | "w"] => {
                Command::Unknown("Say which table by its number: join 2, watch 3.".into())
            }
            ["quick", rest @ ..] => match (rest, mode(rest.first())) {
                ([_], Some(mode)) => Command::Quick(mode),
                ([], _) => Command::Quick(Mode::Partnership),
                _ => Command::Unknown(modes_said()),
            },
            ["open", rest @ ..] => {
                let public = !rest.contains(&"private");
                let others: Vec<&&str> = rest
                    .iter()
                    .filter(|w| !matches!(**w, "private" | "public"))
                    .collect();
                match others.as_slice() {
                    [] => Command::Open { mode: None, public },
                    [word] => match word.parse::<Mode>() {
                        Ok(mode) => Command::Open {
                            mode: Some(mode),
                            public,
                        },
                        Err(_) => Command::Unknown(modes_said()),
                    },
                    _ => Command::Unknown(modes_said()),
                }
            }
            ["yours" | "mine"] => Command::Yours,
            ["ladder"] => Command::Ladder(None),
            ["ladder", word] => mode(Some(word)).map_or_else(|| Command::Unknown(modes_said()), |m| Command::Ladder(Some(m))),
            ["mode", "all"] => Command::Filter(None),
            ["mode", word] => mode(Some(word)).map_or_else(|| Command::Unknown(modes_said()), |m| Command::Filter(Some(m))),
            ["?" | "help" | "h"] => Command::Help,
            ["quit" | "q" | "exit"] => Command::Quit,
            ["yes" | "y"] => Command::Yes,
            ["no" | "n"] => Command::No,
            _ => Command::Unknown(
                "Not a lobby command: type list, join 2, watch 3, quick partnership, open, or ? for all."
                    .into(),
            ),
        }
    }
}

fn number(word: &str) -> Option<usize> {
    word.trim_end_matches('.')
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
}

fn not_a_number(word: &str) -> Command {
    let word = clean_name(word, 12);
    Command::Unknown(format!(
        "{word} is not a table's number: the list numbers them from 1."
    ))
}

fn modes_said() -> String {
    let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
    format!("The modes are {}.", names.join(", "))
}

/// The least time between two sayings of the lobby's changes: a busy
/// server may change its list many times a second, and a screen reader
/// that is read every change falls behind for ever.
pub const CHANGES_EVERY: Duration = Duration::from_secs(3);

/// The most lines of changes said at once; the rest is counted.
const CHANGES_MAX: usize = 3;

/// What the player last heard of the list, to say only what changed since.
#[derive(Debug, Default)]
pub struct Heard {
    tables: Vec<ListedTable>,
    queues: Vec<QueueCount>,
    said_at: Option<Instant>,
}

impl Heard {
    /// The whole list was just said.
    pub fn said_all(&mut self, state: &LobbyState, now: Instant) {
        self.tables = state.tables().to_vec();
        self.queues = state.queues().to_vec();
        self.said_at = Some(now);
    }

    /// What changed since it was last said, a few short lines, or nothing
    /// when it was said less than `CHANGES_EVERY` ago (the changes wait,
    /// and are said together).
    pub fn changes(&mut self, state: &LobbyState, now: Instant) -> Vec<String> {
        if self
            .said_at
            .is_some_and(|at| now.duration_since(at) < CHANGES_EVERY)
        {
            return Vec::new();
        }
        let mut lines = Vec::new();
        for (i, table) in state.tables().iter().enumerate() {
            let yours = state.is_yours(table);
            let before = self.tables.iter().find(|t| t.table == table.table);
            let said = match before {
                None => format!("New: {}", table_line(i + 1, table, yours)),
                Some(before)
                    if before.started != table.started || seated(before) != seated(table) =>
                {
                    format!("Now {}", table_line(i + 1, table, yours))
                }
                Some(_) => continue,
            };
            lines.push(said);
        }
        for gone in self
            .tables
            .iter()
            .filter(|t| !state.tables().iter().any(|now| now.table == t.table))
        {
            lines.push(bounded(&format!("Gone: {}.", whose(gone, false))));
        }
        if self.queues != state.queues() {
            lines.extend(queues_line(state.queues()));
        }
        if lines.is_empty() {
            return lines;
        }
        if lines.len() > CHANGES_MAX {
            let more = lines.len() - CHANGES_MAX;
            lines.truncate(CHANGES_MAX);
            lines.push(format!(
                "And {}: list says them all.",
                super::words::count(more, "more change")
            ));
        }
        self.said_all(state, now);
        lines
    }
}

fn seated(table: &ListedTable) -> usize {
    table
        .seats
        .iter()
        .filter(|s| s.player != SeatPlayer::Empty)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::Player;
    use crate::protocol::lobby::ListedSeat;
    use crate::spoken::LINE_MAX;

    fn seat(name: Option<&str>, player: SeatPlayer) -> ListedSeat {
        ListedSeat {
            name: name.map(String::from),
            player,
            rating: None,
            guest: false,
        }
    }

    fn table(id: &str, host: &str, seated: usize) -> ListedTable {
        let mut seats = vec![seat(Some(host), SeatPlayer::Person)];
        for i in 1..4 {
            seats.push(if i < seated {
                seat(Some("Bo"), SeatPlayer::Person)
            } else {
                seat(None, SeatPlayer::Empty)
            });
        }
        ListedTable {
            table: id.into(),
            mode: Mode::Partnership,
            rules: "to 500 \u{b7} bags 10/\u{2212}100".into(),
            seats,
            started: false,
            rated: false,
            unrated: None,
            watchers: 0,
            code: None,
        }
    }

    fn state(tables: Vec<ListedTable>) -> LobbyState {
        let mut state = LobbyState::new(
            "here".into(),
            Player {
                name: "me".into(),
                ratings: Vec::new(),
            },
        );
        state.set_tables(tables, 0);
        state
    }

    #[test]
    fn a_table_is_one_numbered_line() {
        assert_eq!(
            table_line(1, &table("A", "u1", 2), false),
            "1. u1's table, partnership to 500, 2 of 4 seated."
        );
    }

    #[test]
    fn a_hostile_name_is_cleaned_and_the_line_bounded() {
        let evil = format!("\u{1b}[2J\u{200b}Eve{}", "x".repeat(10_000));
        let line = table_line(1, &table("A", &evil, 1), false);
        assert!(line.starts_with("1. [2JEvexxxx"), "{line}");
        assert!(line.chars().count() <= LINE_MAX);
        assert!(!line.contains('\u{1b}') && !line.contains('\u{200b}'));
        assert!(bounded(&"y".repeat(10_000)).chars().count() <= LINE_MAX);
    }

    #[test]
    fn words_are_commands() {
        assert_eq!(Command::from_line(""), Command::List);
        assert_eq!(Command::from_line("join 2"), Command::Join(2));
        assert_eq!(Command::from_line(" Watch 3 "), Command::Watch(3));
        assert_eq!(
            Command::from_line("quick cutthroat"),
            Command::Quick(Mode::Cutthroat)
        );
        assert_eq!(
            Command::from_line("open individual private"),
            Command::Open {
                mode: Some(Mode::Individual),
                public: false
            }
        );
        assert!(matches!(Command::from_line("join x"), Command::Unknown(_)));
        assert!(matches!(Command::from_line("join 0"), Command::Unknown(_)));
        assert!(matches!(
            Command::from_line("quick chess"),
            Command::Unknown(_)
        ));
        assert_eq!(Command::from_line("quit"), Command::Quit);
    }

    #[test]
    fn changes_are_said_short_and_not_too_often() {
        let t0 = Instant::now();
        let mut heard = Heard::default();
        let mut now = state(vec![table("A", "Ann", 1)]);
        heard.said_all(&now, t0);
        now.set_tables(vec![table("A", "Ann", 2), table("B", "Bob", 1)], 0);
        assert!(heard.changes(&now, t0 + Duration::from_secs(1)).is_empty());
        let said = heard.changes(&now, t0 + CHANGES_EVERY);
        assert_eq!(
            said,
            [
                "Now 1. Ann's table, partnership to 500, 2 of 4 seated.",
                "New: 2. Bob's table, partnership to 500, 1 of 4 seated."
            ]
        );
        let later = t0 + CHANGES_EVERY * 3;
        assert!(heard.changes(&now, later).is_empty(), "nothing new");
        let many: Vec<ListedTable> = (0..9).map(|i| table(&format!("T{i}"), "Cy", 1)).collect();
        now.set_tables(many, 0);
        let said = heard.changes(&now, later);
        assert_eq!(said.len(), CHANGES_MAX + 1, "{said:?}");
        assert!(
            said[CHANGES_MAX].starts_with("And 8 more changes"),
            "{said:?}"
        );
    }
}
