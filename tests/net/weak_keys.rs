//! Keys and signatures no honest player has, through a real server: the
//! identity point as a key, with a signature that holds for every message
//! (R the identity, S zero), registers and signs in as nobody; an account
//! is never moved to such a key.

use spades::ladder::keys::Identity;
use spades::protocol::ClientMessage;
use spades::protocol::ErrorCode;
use spades::protocol::ServerMessage;
use spades::protocol::account::hex;

use crate::ladder::{arrive, fresh_challenge, key, registered, server, sign_in_with, signed};

/// The identity point's encoding: y = 1, x = 0.
fn identity_point() -> [u8; 32] {
    let mut point = [0; 32];
    point[0] = 1;
    point
}

/// A signature every key of small order "makes" over every message: R the
/// identity point, S zero.
fn constant_signature() -> String {
    let mut signature = [0; 64];
    signature[..32].copy_from_slice(&identity_point());
    hex(&signature)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_identity_point_neither_registers_nor_signs_in() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let (mut client, _) = arrive(&server, "Mallory").await;
    client
        .send(&ClientMessage::Register {
            name: "Mallory".into(),
            key: hex(&identity_point()),
            signature: constant_signature(),
        })
        .await;
    let refused = client
        .until(|m| match m {
            ServerMessage::SignedIn { .. } => Some(Err("registered".to_string())),
            ServerMessage::Error { code, message } => Some(Ok((*code, message.clone()))),
            _ => None,
        })
        .await
        .expect("refused");
    assert_eq!(refused.0, ErrorCode::BadSignature, "{}", refused.1);
    assert!(refused.1.contains("small order"), "{}", refused.1);
    fresh_challenge(&mut client).await;
    assert_eq!(
        sign_in_with(&mut client, hex(&identity_point()), constant_signature()).await,
        Err(ErrorCode::BadSignature)
    );
    // Every encoding of the same point: x's sign set, y written as p + 1.
    let mut negative = identity_point();
    negative[31] = 0x80;
    let mut p_plus_one = [0xff; 32];
    p_plus_one[0] = 0xee;
    p_plus_one[31] = 0x7f;
    for weak in [negative, p_plus_one] {
        fresh_challenge(&mut client).await;
        let mut signature = [0; 64];
        signature[..32].copy_from_slice(&weak);
        assert_eq!(
            sign_in_with(&mut client, hex(&weak), hex(&signature)).await,
            Err(ErrorCode::BadSignature)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_is_never_moved_to_a_key_of_small_order() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let ann: Identity = registered(&server, "Ann").await;
    let (mut client, nonce) = arrive(&server, "Ann").await;
    let signature = signed(&server, &ann, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&ann), signature).await,
        Ok("Ann".into())
    );
    let weak = spades::ladder::keys::PublicKey::from_bytes(&identity_point()).unwrap();
    let rotation = ann.rotate_to(&weak);
    client
        .send(&ClientMessage::Rotate {
            key: hex(&identity_point()),
            signature: hex(rotation.signature.as_bytes()),
        })
        .await;
    let answer = client
        .until(|m| match m {
            ServerMessage::Rotated { .. } => Some(Err("moved")),
            ServerMessage::Error { code, .. } => Some(Ok(*code)),
            _ => None,
        })
        .await;
    assert_eq!(answer, Ok(ErrorCode::BadSignature));
    // Ann's own key still signs in.
    let (mut again, nonce) = arrive(&server, "Ann").await;
    let signature = signed(&server, &ann, &nonce);
    assert_eq!(
        sign_in_with(&mut again, key(&ann), signature).await,
        Ok("Ann".into())
    );
}
