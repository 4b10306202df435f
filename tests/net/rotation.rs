//! `spades account rotate` on one server keeps the old key, so the account
//! on another server moves to the new key at the next sign-in there,
//! with its name and rating.

use std::path::PathBuf;

use spades::engine::Mode;
use spades::ladder::keys::Identity;
use spades::net::server::Server;
use spades::protocol::ErrorCode;
use support::net::{Answerer, play_out};

use crate::ladder::{
    SHORT, arrive, key, ladder_rows, ranked_server, register, sign_in_with, signed, spades,
};

fn code(server: &Server) -> String {
    format!(
        "{}@127.0.0.1:{}",
        server.fingerprint().unwrap(),
        server.address().port()
    )
}

/// `spades ARGS` with the data folder `home`, off the test's threads
/// (the servers answer it meanwhile); what it said, having succeeded.
async fn run(args: &[&str], home: &std::path::Path) -> String {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let home: PathBuf = home.to_path_buf();
    let out = tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        spades(&args, &home)
    })
    .await
    .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    said
}

/// Whether `identity` signs in on `server`, as which name.
async fn signs_in(server: &Server, identity: &Identity) -> Result<String, ErrorCode> {
    let (mut client, nonce) = arrive(server, "x").await;
    let signature = signed(server, identity, &nonce);
    sign_in_with(&mut client, key(identity), signature).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotation_on_one_server_moves_the_account_on_another_at_its_next_sign_in() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (
        ranked_server(&dir.path().join("a.sqlite"), &[SHORT]),
        ranked_server(&dir.path().join("b.sqlite"), &[SHORT]),
    );
    let home = tempfile::tempdir().unwrap();
    let exported = run(&["account", "export"], home.path()).await;
    let old = Identity::import(&exported).unwrap();
    for at in [&a, &b] {
        let (mut client, nonce) = arrive(at, "Ann").await;
        let got = register(at, &mut client, &old, "Ann", &nonce).await;
        assert_eq!(got, Ok("Ann".into()));
    }
    // A rated game on B.
    let (mut client, nonce) = arrive(&b, "Ann").await;
    let signature = signed(&b, &old, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&old), signature).await,
        Ok("Ann".into())
    );
    client
        .host("mode = \"partnership\"\ntarget_score = 100\nlosing_score = -100\n")
        .await;
    client.start().await;
    play_out(&mut client, &mut Answerer::new("normal", 7)).await;
    let before = ladder_rows(&b, Mode::Partnership).await;
    assert_eq!((before[0].name.as_str(), before[0].games), ("Ann", 1));
    // The player's program meets both servers, then rotates on A.
    run(&["ladder", &code(&b)], home.path()).await;
    run(&["ladder", &code(&a)], home.path()).await;
    let said = run(&["account", "rotate", &code(&a)], home.path()).await;
    assert!(said.contains(&code(&b)), "{said}");
    assert!(!said.contains(&code(&a)), "{said}");
    let exported = run(&["account", "export"], home.path()).await;
    let new = Identity::import(&exported).unwrap();
    assert_ne!(key(&new), key(&old));
    assert_eq!(signs_in(&a, &new).await, Ok("Ann".into()));
    assert_eq!(signs_in(&b, &new).await, Err(ErrorCode::NoAccount));

    // The next sign-in on B, with the new key, moves the account there.
    let said = run(&["ladder", &code(&b)], home.path()).await;
    assert!(said.contains("Ann's rated partnership games"), "{said}");
    assert_eq!(signs_in(&b, &new).await, Ok("Ann".into()));
    assert_eq!(signs_in(&b, &old).await, Err(ErrorCode::NoAccount));
    let after = ladder_rows(&b, Mode::Partnership).await;
    assert_eq!(after, before);
    let shown = run(&["account", "show"], home.path()).await;
    assert!(!shown.contains(&code(&b)), "{shown}");
    assert!(
        shown.contains("no server this machine signed in to still knows it"),
        "{shown}"
    );
}
