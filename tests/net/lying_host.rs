//! A host that lies: escape sequences in the record lines a server sends
//! are taken out before the joiner keeps its copy of the record.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use serde_json::Value;
use spades::net::client::Target;
use spades::net::server::{Server, ServerOptions};
use spades::protocol::ClientMessage;

use crate::chat::record_strings;
use crate::play::{host, join, play_until};

/// Sets the window title, clears the screen, colours by the one-byte CSI,
/// turns the line round and breaks it.
const HOSTILE: &str = "x\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{202e}\u{2028}y";

/// A record line's header as a lying host sends it: every text field it
/// keeps as it is holds `HOSTILE`.
fn lie(line: &str) -> String {
    let mut message: Value = serde_json::from_str(line).unwrap();
    if message["type"] == "record" {
        for record in message["lines"].as_array_mut().unwrap() {
            if record["event"] == "game" {
                record["rules_source"] = HOSTILE.into();
                record["difficulty"] = format!("exec:{HOSTILE}").into();
            }
        }
    }
    message.to_string()
}

/// Forwards each connection to `server`, every line the server sends
/// passed through `lie`.
fn lying_proxy(server: SocketAddr) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let mut client = client.unwrap();
            let upstream = TcpStream::connect(server).unwrap();
            let (mut from_client, mut to_server) =
                (client.try_clone().unwrap(), upstream.try_clone().unwrap());
            std::thread::spawn(move || std::io::copy(&mut from_client, &mut to_server));
            std::thread::spawn(move || {
                for line in BufReader::new(upstream).lines() {
                    let Ok(line) = line else { break };
                    if writeln!(client, "{}", lie(&line)).is_err() {
                        break;
                    }
                }
            });
        }
    });
    address
}

fn plain(address: SocketAddr) -> Target {
    Target {
        address: address.to_string(),
        trust: spades::net::code::Trust::Plain,
    }
}

#[test]
fn escape_sequences_a_host_sends_in_the_record_are_cleaned_from_the_joiners_copy() {
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        ..ServerOptions::default()
    })
    .unwrap();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut ann = host(&plain(server.address()), "mode = \"partnership\"\n");
    let table = ann.seat_token().0;
    let bob = join(&plain(lying_proxy(server.address())), "Bob", &table);
    ann.until(|w| w.state.seating.as_ref().is_some_and(|l| l.can_start));
    ann.connection.send(ClientMessage::Start {});
    let (mut ann, mut bob) = (ann.started(ann_dir.path()), bob.started(bob_dir.path()));
    play_until(&mut [&mut ann, &mut bob], |apps| {
        apps.iter().all(|a| a.view().hand_no >= 2)
    });
    let kept = record_strings(bob_dir.path());
    let shown: Vec<&String> = kept.iter().filter(|s| s.contains("pwned")).collect();
    // The lie reached the joiner, and was kept cleaned.
    assert_eq!(shown.len(), 2, "{kept:?}");
    for s in kept {
        assert!(
            !s.chars().any(spades::outside::hidden),
            "the joiner kept {s:?}"
        );
    }
}
