//! Protocol messages a real table made: views and asks read back as
//! written, and a server's word on time bounded.

use std::time::Duration;

use crate::bots::random::RandomBot;
use crate::engine::{Action, Decision, Mode, Phase, Rules, Seat};
use crate::fairness::Dealing;
use crate::protocol::timer::*;
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

/// Every view and ask of whole games, in every mode, reads back as
/// written: what a client rebuilds is what the table holds for it.
#[test]
fn views_and_asks_round_trip_through_json() {
    for mode in Mode::ALL {
        let players = (0..mode.players())
            .map(|i| {
                if i == 0 {
                    Player::Human
                } else {
                    Player::Bot(Box::new(RandomBot))
                }
            })
            .collect();
        let rules = Rules::classic(mode)
            .with(|r| {
                r.target_score = 150;
                r.losing_score = Some(-150);
            })
            .unwrap();
        let mut table = Table::new(rules, Dealing::Open(3), players);
        let you = Seat::new(0);
        let mut asks = 0;
        while table.phase() != Phase::Over && asks < 400 {
            table.run_bots().unwrap();
            if table.phase() == Phase::AwaitingDeal {
                table.deal_next_hand();
                continue;
            }
            let Some(turn) = table.human_turn() else {
                break;
            };
            let view = table.view(turn.seat);
            let legal = Legal::of(&view, turn.decision);
            let ask = ServerMessage::Ask {
                seat: turn.seat,
                decision: turn.decision,
                legal: legal.clone(),
                time_left: None,
                view: Box::new(view.clone()),
            };
            let back: ServerMessage = parse(&line(&ask)).unwrap();
            assert_eq!(back, ask, "{mode}");
            let action = legal.first(view.cards()).unwrap();
            assert!(legal.allows(&action, view.cards()));
            table.act(turn.seat, action).unwrap();
            for event in table.take_events(you) {
                let message = ServerMessage::Event { event };
                assert_eq!(parse::<ServerMessage>(&line(&message)).unwrap(), message);
            }
            asks += 1;
        }
        assert!(asks > 10, "{mode}: the person was asked");
    }
}
