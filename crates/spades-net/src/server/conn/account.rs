//! A connection's account, before it sits down: signing in or registering
//! by signing the challenge it was given, moving the account to a new key,
//! and the ladder. Keys and signatures are the client's text: read as hex
//! of their exact length, and never said back.

use std::sync::Arc;

use tokio::io::AsyncRead;

use super::Conn;
use crate::engine::Mode;
use crate::ladder::keys::{PublicKey, Rotation, SignIn, Signature};
use crate::protocol::account::{hex, unhex};
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage};
use crate::server::ladder::{Refused, Signed};
use crate::server::table::Who;

fn refusal(code: ErrorCode, message: &str) -> Refused {
    Refused {
        code,
        message: message.to_string(),
        spent: false,
    }
}

fn public_key(text: &str) -> Result<PublicKey, Refused> {
    unhex::<32>(text)
        .and_then(|bytes| PublicKey::from_bytes(&bytes))
        .ok_or_else(|| refusal(ErrorCode::BadMessage, "a key is 64 hex digits"))
}

fn signature(text: &str) -> Result<Signature, Refused> {
    unhex::<64>(text)
        .and_then(|bytes| Signature::from_bytes(&bytes))
        .ok_or_else(|| refusal(ErrorCode::BadMessage, "a signature is 128 hex digits"))
}

impl<R: AsyncRead + Unpin> Conn<R> {
    /// A fresh challenge for this connection, as the wire writes it; `None`
    /// on a server without a ladder.
    pub(super) async fn fresh_challenge(&mut self) -> Option<String> {
        let shared = Arc::clone(&self.shared);
        let challenge = shared.ladder.as_ref()?.challenge().await?;
        self.challenge = Some(challenge.nonce);
        Some(hex(&challenge.nonce.0))
    }

    /// The name this connection sits under: its account's once signed in,
    /// whatever its `hello` said.
    pub(super) fn name_at_table(&self, hello_name: &str) -> String {
        self.account
            .as_ref()
            .map_or_else(|| hello_name.to_string(), |a| a.name.shown().to_string())
    }

    /// Who this connection sits down as: its name at the table, and its
    /// account and ratings once signed in.
    pub(super) fn who(&self, hello_name: &str) -> Who {
        Who {
            name: self.name_at_table(hello_name),
            account: self.account.as_ref().map(|a| a.id),
            ratings: self.ratings.clone(),
        }
    }

    /// Whether this connection may sit down under its `hello` name: a
    /// guest (not signed in) on a server with a ladder may not take a
    /// registered name, nor one that could pass for it.
    pub(super) async fn may_sit_as(&mut self, hello_name: &str) -> Result<(), (ErrorCode, String)> {
        let shared = Arc::clone(&self.shared);
        let Some(ladder) = shared.ladder.as_ref() else {
            return Ok(());
        };
        if self.account.is_some() {
            return Ok(());
        }
        ladder
            .guest_may_use(hello_name.to_string())
            .await
            .map_err(|refused| (refused.code, refused.message))
    }

    /// Answers an account's or the ladder's message. A refusal that spent
    /// the challenge is followed by a fresh one, to try again.
    pub(super) async fn account(&mut self, message: ClientMessage) {
        if self.shared.ladder.is_none() {
            let why = "this server keeps no accounts nor ladder";
            return self.refuse(ErrorCode::NoLadder, why.into());
        }
        let answer = match message {
            ClientMessage::Register {
                name,
                key,
                signature,
            } => self.register(&name, &key, &signature).await,
            ClientMessage::SignIn { key, signature } => self.sign_in(&key, &signature).await,
            ClientMessage::Rotate { key, signature } => self.rotate(&key, &signature).await,
            ClientMessage::Ladder { mode } => self.ladder(mode).await,
            _ => return,
        };
        match answer {
            Ok(message) => self.say(&message),
            Err(refused) => {
                self.refuse(refused.code, refused.message);
                if refused.spent
                    && let Some(nonce) = self.fresh_challenge().await
                {
                    self.say(&ServerMessage::Challenge { nonce });
                }
            }
        }
    }

    /// The client's answer to its challenge.
    fn answer(&self, key: &str, signature_text: &str) -> Result<SignIn, Refused> {
        if self.account.is_some() {
            return Err(refusal(ErrorCode::BadMessage, "you are signed in already"));
        }
        let nonce = self.challenge.ok_or_else(|| Refused {
            code: ErrorCode::BadSignature,
            message: "no challenge to answer: sign the next one".into(),
            spent: true,
        })?;
        Ok(SignIn {
            key: public_key(key)?,
            nonce,
            signature: signature(signature_text)?,
        })
    }

    async fn register(
        &mut self,
        name: &str,
        key: &str,
        signature: &str,
    ) -> Result<ServerMessage, Refused> {
        let answer = self.answer(key, signature)?;
        let address = self.slot.address();
        if let Some(full) = self.shared.registrations_full(address) {
            return Err(refusal(ErrorCode::TooManyRegistrations, &full.message()));
        }
        let shared = Arc::clone(&self.shared);
        let ladder = shared.ladder.as_ref().ok_or_else(no_ladder)?;
        let signed = ladder.register(name.to_string(), answer).await?;
        self.shared.count_registration(address);
        Ok(self.signed(signed))
    }

    async fn sign_in(&mut self, key: &str, signature: &str) -> Result<ServerMessage, Refused> {
        let answer = self.answer(key, signature)?;
        let shared = Arc::clone(&self.shared);
        let ladder = shared.ladder.as_ref().ok_or_else(no_ladder)?;
        let signed = ladder.sign_in(answer).await?;
        Ok(self.signed(signed))
    }

    /// Signed in: the challenge is spent, the account kept.
    fn signed(&mut self, signed: Signed) -> ServerMessage {
        self.challenge = None;
        let name = signed.account.name.shown().to_string();
        self.account = Some(signed.account);
        self.ratings.clone_from(&signed.ratings);
        ServerMessage::SignedIn {
            name,
            ratings: signed.ratings,
        }
    }

    /// The signed-in account moves to a new key, which its key vouches
    /// for: signing in first proves the old key is at hand now.
    async fn rotate(&mut self, key: &str, signature_text: &str) -> Result<ServerMessage, Refused> {
        let Some(account) = &self.account else {
            let why = "sign in with the old key before moving to a new one";
            return Err(refusal(ErrorCode::NoAccount, why));
        };
        let rotation = Rotation {
            old: account.key,
            new: public_key(key)?,
            signature: signature(signature_text)?,
        };
        let shared = Arc::clone(&self.shared);
        let ladder = shared.ladder.as_ref().ok_or_else(no_ladder)?;
        let account = ladder.rotate(rotation).await?;
        let name = account.name.shown().to_string();
        self.account = Some(account);
        Ok(ServerMessage::Rotated { name })
    }

    async fn ladder(&mut self, mode: Mode) -> Result<ServerMessage, Refused> {
        let shared = Arc::clone(&self.shared);
        let ladder = shared.ladder.as_ref().ok_or_else(no_ladder)?;
        let you = self.account.as_ref().map(|a| a.id);
        let (rows, you) = ladder.standings(mode, you).await?;
        Ok(crate::protocol::within_line(rows, |rows| {
            ServerMessage::Ladder {
                mode,
                rows,
                you: you.clone(),
            }
        }))
    }
}

fn no_ladder() -> Refused {
    refusal(
        ErrorCode::NoLadder,
        "this server keeps no accounts nor ladder",
    )
}
