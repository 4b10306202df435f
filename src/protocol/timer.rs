//! The turn timer as the protocol tells a seat of it: how long an `ask`
//! has before a bot of the table answers it (`time_left_ms`), and, on the
//! `view` that follows, what that bot did (`timed_out`). Both are keys a
//! client before them ignores; both are read leniently, since a server's
//! word on time is only advice: a value that is not what the protocol
//! says is dropped, never taken for the whole message being unreadable.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};

use crate::engine::{Action, Decision, Seat};

/// The longest time an ask is given, the longest turn timer a server
/// takes (`--turn-timer 3600`): more from a server is read as this, so a
/// hostile number can neither overflow a clock nor stall the countdown.
pub const MAX_TIME_LEFT: Duration = Duration::from_secs(3600);

/// How long an ask has before a bot answers it, in milliseconds as sent;
/// counted by the receiver from when it read the ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TimeLeft(u64);

impl TimeLeft {
    pub fn new(left: Duration) -> TimeLeft {
        TimeLeft(u64::try_from(left.as_millis()).unwrap_or(u64::MAX))
    }

    /// The time left, never more than `MAX_TIME_LEFT`.
    pub fn duration(self) -> Duration {
        Duration::from_millis(self.0).min(MAX_TIME_LEFT)
    }
}

/// The turn timer ran out on an ask: a bot of the table answered it with
/// `action`, for `seat` (the player's own, or the dummy's when they
/// declare), the decision being `decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimedOut {
    pub seat: Seat,
    pub decision: Decision,
    pub action: Action,
}

/// A key read as `T` when it is one, and as absent when it is anything
/// else: the rest of the message still reads.
pub(super) fn lenient<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::random::RandomBot;
    use crate::engine::{Mode, Rules};
    use crate::fairness::Dealing;
    use crate::protocol::{Legal, ServerMessage, line, parse};
    use crate::table::{Player, Table};

    /// `message` as a line whose `key` holds the JSON text `value`.
    fn with_key(message: &ServerMessage, key: &str, value: &str) -> String {
        let mut json: serde_json::Value = serde_json::from_str(&line(message)).unwrap();
        json[key] = serde_json::from_str(value).unwrap_or(serde_json::Value::String(value.into()));
        json.to_string()
    }

    /// `text` read as a server message both ways a client reads one: from
    /// the line, and from the JSON value it cleaned first; the two agree.
    fn read(text: &str) -> Result<ServerMessage, String> {
        let parsed = parse::<ServerMessage>(text);
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let from_value = serde_json::from_value::<ServerMessage>(value).map_err(|e| e.to_string());
        assert_eq!(parsed, from_value, "{text}");
        parsed
    }

    /// An ask whose `time_left_ms` is hostile or malformed still reads,
    /// the time dropped or bounded; a view's `timed_out` likewise.
    #[test]
    fn a_servers_word_on_time_is_bounded_and_never_breaks_a_message() {
        let players = (0..4)
            .map(|i| match i {
                0 => Player::Human,
                _ => Player::Bot(Box::new(RandomBot)),
            })
            .collect();
        let mut table = Table::new(Rules::classic(Mode::Partnership), Dealing::Open(1), players);
        table.run_bots().unwrap();
        let turn = table.human_turn().expect("seat 0 is asked");
        let view = table.view(turn.seat);
        let ask = ServerMessage::Ask {
            seat: turn.seat,
            decision: turn.decision,
            legal: Legal::of(&view, turn.decision),
            time_left: Some(TimeLeft::new(Duration::from_secs(60))),
            view: Box::new(view.clone()),
        };
        let left = |text: &str| match read(&with_key(&ask, "time_left_ms", text)) {
            Ok(ServerMessage::Ask { time_left, .. }) => time_left.map(TimeLeft::duration),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(left("15000"), Some(Duration::from_secs(15)));
        assert_eq!(left("0"), Some(Duration::ZERO));
        assert_eq!(left("18446744073709551615"), Some(MAX_TIME_LEFT));
        assert_eq!(left("3600001"), Some(MAX_TIME_LEFT));
        for bad in ["-1", "1.5", "\"soon\"", "null", "[1]", "{}"] {
            assert_eq!(left(bad), None, "{bad}");
        }
        let shown = ServerMessage::View {
            timed_out: None,
            view: Box::new(view),
        };
        let told = |text: &str| match read(&with_key(&shown, "timed_out", text)) {
            Ok(ServerMessage::View { timed_out, .. }) => timed_out,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(
            told(r#"{"seat":0,"decision":"play","action":{"play":"7D"}}"#),
            Some(TimedOut {
                seat: Seat::new(0),
                decision: Decision::Play,
                action: Action::Play("7D".parse().unwrap()),
            })
        );
        for bad in [
            r#"{"seat":9,"decision":"play","action":{"play":"7D"}}"#,
            r#"{"seat":0,"decision":"nap","action":{"play":"7D"}}"#,
            r#"{"seat":0,"decision":"play","action":{"play":"1Z"}}"#,
            r#""a bot played""#,
        ] {
            assert_eq!(told(bad), None, "{bad}");
        }
    }
}
