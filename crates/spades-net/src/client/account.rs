//! A player's side of accounts: signing in to a server that offers a
//! challenge (registering the player's name the first time, or moving the
//! account there from a key the player rotated away from), and moving the
//! account to a new key. The server's id in what is signed comes from
//! the fingerprint this client checked, never from the server's word.

use std::time::{Duration, Instant};

use super::{Connection, Incoming};
use crate::code::server_id;
use crate::ladder::UnixTime;
use crate::ladder::keys::{Challenge, Identity, Nonce, PublicKey};
use crate::protocol::account::{LadderState, ModeRating, hex, unhex};
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage};

/// How long a server may take over each answer while signing in.
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Signed in to a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    pub name: String,
    pub ratings: Vec<ModeRating>,
    /// The retired key the account was known by there, and moved from to
    /// this key while signing in.
    pub moved_from: Option<PublicKey>,
}

/// Why signing in failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignInError {
    /// The server refused (a name taken, a bad signature…), in its words.
    #[error("the server refused: {message}")]
    Refused { code: ErrorCode, message: String },
    /// No account has this key, and none was to be registered.
    #[error("this key has no account on that server")]
    NoAccount,
    #[error("{0}")]
    Lost(String),
}

/// What signing in needs: the player's key, and the name to register
/// when the key has no account yet (`None`: sign in only).
pub struct Credentials<'a> {
    pub identity: &'a Identity,
    pub register_as: Option<&'a str>,
    /// Keys the player rotated away from, newest first: where the key has
    /// no account, one of these may, and the account is moved to the key.
    pub retired: &'a [Identity],
}

/// Signs in when the server's `welcome` offers a challenge: `Ok(None)`
/// when it offers none (a server without a ladder).
pub fn sign_in(
    connection: &mut Connection,
    credentials: &Credentials<'_>,
) -> Result<Option<SignedIn>, SignInError> {
    match offered_challenge(connection)? {
        None => Ok(None),
        Some(nonce) => answer(connection, credentials, &nonce).map(Some),
    }
}

/// The challenge the server's `welcome` offers, if it offers one.
/// Whatever else the server said meanwhile is put back for the caller.
pub fn offered_challenge(connection: &mut Connection) -> Result<Option<String>, SignInError> {
    welcome_offer(connection).map(|offer| offer.challenge)
}

/// What a server's `welcome` offers: a challenge to sign in with, or
/// word that its ladder is unavailable (its database down).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub challenge: Option<String>,
    pub ladder_unavailable: bool,
}

/// The server's `welcome`, read. Whatever else the server said meanwhile
/// is put back for the caller.
pub fn welcome_offer(connection: &mut Connection) -> Result<Offer, SignInError> {
    let mut aside = Vec::new();
    let welcome = next(connection, &mut aside, |m| match m {
        ServerMessage::Welcome {
            challenge, ladder, ..
        } => Some(Offer {
            challenge: challenge.clone(),
            ladder_unavailable: *ladder == Some(LadderState::Unavailable),
        }),
        _ => None,
    });
    connection.put_back(aside);
    welcome
}

/// Signs in by signing `nonce`, the server's challenge, registering
/// `credentials.register_as` when the key has no account yet.
pub fn answer(
    connection: &mut Connection,
    credentials: &Credentials<'_>,
    nonce: &str,
) -> Result<SignedIn, SignInError> {
    let mut aside = Vec::new();
    let signed = answer_challenge(connection, credentials, nonce, &mut aside);
    connection.put_back(aside);
    signed
}

/// Signs in with `nonce`; on `no_account`, moves the account from a
/// retired key the server knows, or else registers, each with the fresh
/// challenge that follows a refusal.
fn answer_challenge(
    connection: &mut Connection,
    credentials: &Credentials<'_>,
    nonce: &str,
    aside: &mut Vec<Incoming>,
) -> Result<SignedIn, SignInError> {
    let fingerprint = connection.fingerprint().map(str::to_string);
    let sign = |identity: &Identity, nonce: &str| -> Result<String, SignInError> {
        let nonce = unhex::<32>(nonce).ok_or_else(|| {
            SignInError::Lost("the server's challenge is not 64 hex digits".into())
        })?;
        let challenge = Challenge {
            server: server_id(fingerprint.as_deref()),
            nonce: Nonce(nonce),
            expires: UnixTime(0),
        };
        Ok(hex(identity.answer(&challenge).signature.as_bytes()))
    };
    let fresh = |connection: &mut Connection, aside: &mut Vec<Incoming>| {
        next(connection, aside, |m| match m {
            ServerMessage::Challenge { nonce } => Some(nonce.clone()),
            _ => None,
        })
    };
    let identity = credentials.identity;
    let key = hex(identity.public_key().as_bytes());
    let mut nonce = nonce.to_string();
    let signers = std::iter::once(identity).chain(credentials.retired);
    for (tried, signer) in signers.enumerate() {
        if tried > 0 {
            nonce = fresh(connection, aside)?;
        }
        connection.send(ClientMessage::SignIn {
            key: hex(signer.public_key().as_bytes()),
            signature: sign(signer, &nonce)?,
        });
        match answered(connection, aside) {
            Err(SignInError::Refused {
                code: ErrorCode::NoAccount,
                ..
            }) => continue,
            Ok(signed) if tried > 0 => {
                let name = rotate_with(connection, signer, &identity.public_key(), aside)?;
                return Ok(SignedIn {
                    name,
                    moved_from: Some(signer.public_key()),
                    ..signed
                });
            }
            other => return other,
        }
    }
    let Some(name) = credentials.register_as else {
        return Err(SignInError::NoAccount);
    };
    let nonce = fresh(connection, aside)?;
    connection.send(ClientMessage::Register {
        name: name.to_string(),
        key,
        signature: sign(identity, &nonce)?,
    });
    answered(connection, aside)
}

/// The server's answer to a sign-in or registration.
fn answered(
    connection: &mut Connection,
    aside: &mut Vec<Incoming>,
) -> Result<SignedIn, SignInError> {
    next(connection, aside, |m| match m {
        ServerMessage::SignedIn { name, ratings } => Some(Ok(SignedIn {
            name: name.clone(),
            ratings: ratings.clone(),
            moved_from: None,
        })),
        ServerMessage::Error { code, message } => Some(Err(SignInError::Refused {
            code: *code,
            message: message.clone(),
        })),
        _ => None,
    })?
}

/// Moves the signed-in account to `new`, vouched for by the old key.
pub fn rotate(
    connection: &mut Connection,
    old: &Identity,
    new: &PublicKey,
) -> Result<String, SignInError> {
    let mut aside = Vec::new();
    let rotated = rotate_with(connection, old, new, &mut aside);
    connection.put_back(aside);
    rotated
}

/// `rotate`, keeping what else arrives in `aside`.
fn rotate_with(
    connection: &mut Connection,
    old: &Identity,
    new: &PublicKey,
    aside: &mut Vec<Incoming>,
) -> Result<String, SignInError> {
    let rotation = old.rotate_to(new);
    connection.send(ClientMessage::Rotate {
        key: hex(new.as_bytes()),
        signature: hex(rotation.signature.as_bytes()),
    });
    next(connection, aside, |m| match m {
        ServerMessage::Rotated { name } => Some(Ok(name.clone())),
        ServerMessage::Error { code, message } => Some(Err(SignInError::Refused {
            code: *code,
            message: message.clone(),
        })),
        _ => None,
    })?
}

/// Reads until `wanted` picks a message, keeping the others aside; the
/// connection's end or a silent server is an error.
pub fn next<T>(
    connection: &mut Connection,
    aside: &mut Vec<Incoming>,
    mut wanted: impl FnMut(&ServerMessage) -> Option<T>,
) -> Result<T, SignInError> {
    let by = Instant::now() + ANSWER_WAIT;
    loop {
        let left = by.saturating_duration_since(Instant::now());
        let Some(incoming) = connection.recv_timeout(left) else {
            return Err(SignInError::Lost("the server did not answer".into()));
        };
        match &incoming {
            Incoming::Message(message) => {
                if let Some(found) = wanted(message) {
                    return Ok(found);
                }
            }
            Incoming::Closed(why) => return Err(SignInError::Lost(why.clone())),
            Incoming::Unreadable(_) => {}
        }
        aside.push(incoming);
    }
}
