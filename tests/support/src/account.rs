//! A player's account over the protocol client, for the load runs
//! (`examples/ladder_load`): arriving at a server that keeps a ladder,
//! registering or signing in by signing its challenge, and staying in its
//! lobby. Every step returns what went wrong instead of panicking, since a
//! load run counts refusals (a full server) rather than failing on them.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use spades::ladder::UnixTime;
use spades::ladder::keys::{Challenge, Identity, Nonce};
use spades::net::code::server_id;
use spades::protocol::account::{ModeRating, hex, unhex};
use spades::protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};

use crate::net::Client;

/// How long any one answer may take before the server is called stuck.
const PATIENCE: Duration = Duration::from_secs(30);

/// The next message within `PATIENCE`, or why there is none.
pub async fn next(client: &mut Client) -> Result<ServerMessage, String> {
    match client.next_within(PATIENCE).await {
        Ok(Some(message)) => Ok(message),
        Ok(None) => Err("the server closed the connection".into()),
        Err(()) => Err(format!("no answer within {PATIENCE:?}")),
    }
}

/// Sends `message`, or says why it could not be sent.
pub async fn send(client: &mut Client, message: &ClientMessage) -> Result<(), String> {
    let line = spades::protocol::line(message);
    client
        .send_raw(line.as_bytes())
        .await
        .map_err(|e| format!("cannot send {}: {e}", line.trim_end()))
}

/// A connection from `from` that said hello: the client and the challenge
/// its welcome offered.
pub async fn arrive(
    address: SocketAddr,
    fingerprint: &str,
    from: IpAddr,
    name: &str,
) -> Result<(Client, String), String> {
    let mut client = Client::connect_from(address, from, Some(fingerprint))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let hello = ClientMessage::Hello {
        protocol: PROTOCOL_VERSION,
        name: name.to_string(),
    };
    send(&mut client, &hello).await?;
    match next(&mut client).await? {
        ServerMessage::Welcome {
            challenge: Some(nonce),
            ..
        } => Ok((client, nonce)),
        ServerMessage::Welcome { .. } => Err("the server keeps no ladder".into()),
        ServerMessage::Error { code, message } => Err(format!("{code:?}: {message}")),
        other => Err(format!("hello was answered with {other:?}")),
    }
}

/// `identity`'s signature of the challenge `nonce` from the server of
/// `fingerprint`, as a client sends it.
pub fn signed(fingerprint: &str, identity: &Identity, nonce: &str) -> Result<String, String> {
    let challenge = Challenge {
        server: server_id(Some(fingerprint)),
        nonce: Nonce(unhex::<32>(nonce).ok_or("a nonce is 64 hex digits")?),
        expires: UnixTime(0),
    };
    Ok(hex(identity.answer(&challenge).signature.as_bytes()))
}

/// Registers `name` for `identity` (`register`) or signs in with it,
/// answering `nonce`: the account's name and ratings, or the refusal.
pub async fn answer(
    client: &mut Client,
    fingerprint: &str,
    identity: &Identity,
    nonce: &str,
    register: Option<&str>,
) -> Result<(String, Vec<ModeRating>), String> {
    let key = hex(identity.public_key().as_bytes());
    let signature = signed(fingerprint, identity, nonce)?;
    let message = match register {
        Some(name) => ClientMessage::Register {
            name: name.to_string(),
            key,
            signature,
        },
        None => ClientMessage::SignIn { key, signature },
    };
    send(client, &message).await?;
    loop {
        match next(client).await? {
            ServerMessage::SignedIn { name, ratings } => return Ok((name, ratings)),
            ServerMessage::Error { code, message } => return Err(format!("{code:?}: {message}")),
            _ => {}
        }
    }
}

/// Keeps a connection as a player in the lobby keeps it: answers every
/// `ping`, and with `browsing` looks at the list of tables each time
/// (at most once in 20 seconds, well inside the listing's limit), as a
/// lobby screen refreshes it; that also keeps a connection that sits at
/// no table from being closed as idle. Returns why it ended.
pub async fn stay(mut client: Client, browsing: bool) -> String {
    loop {
        // Long past the server's ping: only a stuck server waits this long.
        let message = match client.next_within(4 * PATIENCE).await {
            Ok(Some(message)) => message,
            Ok(None) => return "the server closed the connection".into(),
            Err(()) => return "no ping from the server".into(),
        };
        client.received.clear();
        if let ServerMessage::Ping {} = message {
            let mut lines = spades::protocol::line(&ClientMessage::Pong {});
            if browsing {
                lines.push_str(&spades::protocol::line(&ClientMessage::Tables {
                    mode: None,
                }));
            }
            if let Err(e) = client.send_raw(lines.as_bytes()).await {
                return format!("pong: {e}");
            }
        }
    }
}
