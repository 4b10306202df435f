//! No hidden card leaves the server early. Two people play a whole game
//! over TLS (with blind nils bid whenever they are on offer, so cards are
//! passed in exchanges); each keeps every line it received, decrypted, in
//! order. With the deals the record reveals at the end, every message is
//! checked in turn: a card of another seat's hand may appear only once it
//! has been played (as the events this connection was sent say), or once it
//! was passed to this seat; the record's lines of a hand only once the hand
//! is over.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;
use spades::engine::{Card, CardSet, Event, Seat, SeatEvent};
use spades::net::server::{Server, ServerOptions};
use spades::protocol::ServerMessage;
use spades::record::read_games;
use support::checker::check_record;
use support::net::{Answerer, Client, play_out};

/// One hand as the record tells it.
#[derive(Default)]
struct Hand {
    dealt: Vec<CardSet>,
    /// Cards passed, by receiving seat.
    passed_to: HashMap<Seat, CardSet>,
    plays: Vec<(Seat, Card)>,
}

/// What a connection has been told of one hand so far.
#[derive(Default, Clone)]
struct Told {
    plays: usize,
    received: bool,
    over: bool,
}

/// Every card named anywhere in a JSON value.
pub(crate) fn cards_in(value: &Value, out: &mut Vec<Card>) {
    match value {
        Value::String(s) if s.len() == 2 => {
            if let Ok(card) = s.parse() {
                out.push(card);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| cards_in(v, out)),
        Value::Object(map) => map.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

fn hands_of(record: &str) -> HashMap<u32, Hand> {
    let games = read_games(record).unwrap();
    let mut hands: HashMap<u32, Hand> = HashMap::new();
    for (_, event) in &games[0].events {
        match event {
            Event::Deal {
                hand, hands: dealt, ..
            } => hands.entry(*hand).or_default().dealt = dealt.clone(),
            Event::Exchange {
                hand, to, cards, ..
            } => {
                hands
                    .entry(*hand)
                    .or_default()
                    .passed_to
                    .insert(*to, *cards);
            }
            Event::Play { hand, seat, card } => {
                hands.entry(*hand).or_default().plays.push((*seat, *card))
            }
            _ => {}
        }
    }
    hands
}

/// Checks, line by line, what the connection in `seat` received.
fn check_secrets(seat: Seat, received: &[String], record: &str) -> usize {
    let hands = hands_of(record);
    let mut told: HashMap<u32, Told> = HashMap::new();
    let mut exchanges = 0;
    for (n, line) in received.iter().enumerate() {
        let value: Value = serde_json::from_str(line).unwrap();
        let message: ServerMessage = serde_json::from_str(line).unwrap();
        let at = || format!("message {n}: {line}");
        // What this message says happened, first: the card it plays is
        // played, the cards passed to this seat are its own.
        if let ServerMessage::Event { event } = &message {
            match event {
                SeatEvent::Play {
                    hand,
                    seat: s,
                    card,
                } => {
                    let t = told.entry(*hand).or_default();
                    assert_eq!(
                        hands[hand].plays.get(t.plays),
                        Some(&(*s, *card)),
                        "the plays come as the record has them: {}",
                        at()
                    );
                    t.plays += 1;
                }
                SeatEvent::Exchange {
                    hand,
                    from,
                    to,
                    cards,
                } => {
                    if *from == seat || *to == seat {
                        assert_eq!(*cards, hands[hand].passed_to.get(to).copied(), "{}", at());
                        exchanges += 1;
                    } else {
                        assert_eq!(*cards, None, "another pair's cards: {}", at());
                    }
                    if *to == seat {
                        told.entry(*hand).or_default().received = true;
                    }
                }
                SeatEvent::Score { hand, .. } => told.entry(*hand).or_default().over = true,
                _ => {}
            }
        }
        let allowed = |hand: u32| -> CardSet {
            let h = &hands[&hand];
            let t = told.get(&hand).cloned().unwrap_or_default();
            let mut mine = h.dealt[seat.index()];
            for &(_, card) in &h.plays[..t.plays] {
                mine.insert(card);
            }
            if t.received {
                mine |= h.passed_to[&seat];
            }
            mine
        };
        let mut cards = Vec::new();
        cards_in(&value, &mut cards);
        let hand = match &message {
            ServerMessage::View { view, .. } | ServerMessage::Ask { view, .. } => {
                Some(view.hand_no)
            }
            ServerMessage::Event { event } => match event {
                SeatEvent::Dealt { hand, .. }
                | SeatEvent::Bid { hand, .. }
                | SeatEvent::Exchange { hand, .. }
                | SeatEvent::Play { hand, .. }
                | SeatEvent::Trick { hand, .. }
                | SeatEvent::Score { hand, .. } => Some(*hand),
                SeatEvent::End { .. } => None,
            },
            ServerMessage::Record { lines } => {
                for record_line in lines {
                    let record_line = serde_json::to_value(record_line).unwrap();
                    let mut found = Vec::new();
                    cards_in(&record_line, &mut found);
                    match record_line["hand"].as_u64() {
                        Some(h) => assert!(
                            told.get(&(h as u32)).is_some_and(|t| t.over),
                            "hand {h}'s record before the hand is over: {}",
                            at()
                        ),
                        None => assert!(found.is_empty(), "{}", at()),
                    }
                }
                continue;
            }
            _ => None,
        };
        let Some(hand) = hand else {
            assert!(cards.is_empty(), "cards where none belong: {}", at());
            continue;
        };
        let allowed = allowed(hand);
        for card in cards {
            assert!(
                allowed.contains(card),
                "seat {seat} was sent the {card} of another hand before it was played: {}",
                at()
            );
        }
    }
    exchanges
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_card_of_another_hand_is_sent_before_it_is_played() {
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        ..ServerOptions::default()
    })
    .unwrap();
    let (address, fp) = (server.address(), server.fingerprint());
    let rules = "mode = \"partnership\"\ntarget_score = 300\nlosing_score = -300\n\
                 [blind_nil]\nmin_deficit = 0\n";
    let mut host = Client::connect(address, fp).await;
    host.hello("Alice").await;
    let table = host.host(rules).await;
    let mut partner = Client::connect(address, fp).await;
    partner.hello("Bob").await;
    partner.join(&table.table).await.unwrap();
    host.start().await;
    let mut a = Answerer::new("normal", 11);
    a.always_blind_nil = true;
    let mut b = Answerer::new("normal", 12);
    let (alice, bob) = tokio::join!(play_out(&mut host, &mut a), play_out(&mut partner, &mut b));
    let record = alice.record_text();
    assert_eq!(record, bob.record_text());
    let report = check_record(&record);
    assert!(report.is_ok(), "{}", report.describe());
    let mut exchanges = 0;
    for (seat, client) in [(Seat::new(0), &host), (Seat::new(2), &partner)] {
        assert!(client.received.len() > 100);
        exchanges += check_secrets(seat, &client.received, &record);
    }
    assert!(exchanges > 0, "cards were passed in a blind-nil exchange");
    server.stop();
}
