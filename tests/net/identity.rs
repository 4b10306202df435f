//! A server's identity as players meet it: `spades serve` keeps its
//! certificate and key in its data folder and is the same server after a
//! restart; a damaged file of it is named, never replaced; one an
//! authority signed (`--cert`, `--key`) lets players name the server by
//! its host and port alone, checked the web's way.

use std::path::{Path, PathBuf};

use spades::ladder::keys::Identity;
use support::process::serve;

/// The fingerprint in a `FINGERPRINT@HOST:PORT` a server printed.
fn fingerprint(server: &str) -> String {
    server.split('@').next().unwrap().to_string()
}

/// `spades serve` with `--db` in `folder`, stopped once it has said where
/// it listens: the server it printed.
fn serve_once(folder: &Path) -> String {
    let db = folder.join("ladder.sqlite");
    let served = serve(&["--db", db.to_str().unwrap()]);
    served.server.clone()
}

#[test]
fn a_restarted_server_has_the_same_fingerprint() {
    let folder = tempfile::tempdir().unwrap();
    let first = serve_once(folder.path());
    let again = serve_once(folder.path());
    assert_eq!(fingerprint(&first), fingerprint(&again));
    assert_eq!(fingerprint(&first).len(), 26, "{first}");
    // Another folder is another server.
    let elsewhere = tempfile::tempdir().unwrap();
    assert_ne!(
        fingerprint(&serve_once(elsewhere.path())),
        fingerprint(&first)
    );
}

#[cfg(unix)]
#[test]
fn the_kept_certificate_and_key_are_the_servers_alone_in_a_folder_made_for_them() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("not").join("yet");
    serve_once(&folder);
    for file in ["tls-cert.pem", "tls-key.pem"] {
        let mode = std::fs::metadata(folder.join(file))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{file}");
    }
    let key = std::fs::read_to_string(folder.join("tls-key.pem")).unwrap();
    assert!(key.starts_with("-----BEGIN PRIVATE KEY-----"), "{key}");
}

/// `spades serve` with its ladder in `folder`, run to its end: its exit
/// code and what it said on stderr.
fn serve_refused(folder: &Path) -> (Option<i32>, String) {
    let output = std::process::Command::new(support::spades_bin())
        .args(["serve", "--listen", "127.0.0.1", "--port", "0", "--db"])
        .arg(folder.join("ladder.sqlite"))
        .env("XDG_DATA_HOME", folder)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_damaged_or_missing_certificate_file_is_named_and_never_replaced() {
    let folder = tempfile::tempdir().unwrap();
    serve_once(folder.path());
    let cert = folder.path().join("tls-cert.pem");
    let key = folder.path().join("tls-key.pem");
    let kept_key = std::fs::read(&key).unwrap();
    let kept_cert = std::fs::read(&cert).unwrap();

    std::fs::write(&cert, b"-----BEGIN CERTIFICATE-----\n!!!!\n").unwrap();
    let (code, said) = serve_refused(folder.path());
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains(&cert.display().to_string()), "{said}");
    assert_eq!(std::fs::read(&key).unwrap(), kept_key);

    std::fs::write(&cert, &kept_cert).unwrap();
    std::fs::write(&key, b"garbage").unwrap();
    let (code, said) = serve_refused(folder.path());
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains(&key.display().to_string()), "{said}");

    // Another server's key with this certificate: they do not belong.
    let other = tempfile::tempdir().unwrap();
    serve_once(other.path());
    std::fs::copy(other.path().join("tls-key.pem"), &key).unwrap();
    let (code, said) = serve_refused(folder.path());
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains(&cert.display().to_string()), "{said}");

    std::fs::remove_file(&key).unwrap();
    let (code, said) = serve_refused(folder.path());
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains(&key.display().to_string()), "{said}");
    assert_eq!(std::fs::read(&cert).unwrap(), kept_cert);
    assert!(!key.exists());
}

/// A certificate authority of the test's own, and a certificate it signed
/// for `localhost`: the authority's PEM, the chain's and the key's, written
/// in `folder`.
fn authority_and_certificate(folder: &Path) -> (PathBuf, PathBuf, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let authority = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&key, &authority)
        .unwrap();
    let paths = (
        folder.join("authority.pem"),
        folder.join("chain.pem"),
        folder.join("key.pem"),
    );
    std::fs::write(&paths.0, authority.pem()).unwrap();
    std::fs::write(&paths.1, format!("{}{}", leaf.pem(), authority.pem())).unwrap();
    std::fs::write(&paths.2, key.serialize_pem()).unwrap();
    (paths.0, paths.1, paths.2)
}

/// `spades ARGS` with the data folder `home`, trusting the authorities
/// in `roots` alone: whether it succeeded, and what it said.
fn spades_trusting(args: &[&str], home: &Path, roots: &Path) -> (bool, String) {
    let output = std::process::Command::new(support::spades_bin())
        .args(args)
        .env("XDG_DATA_HOME", home)
        .env("SSL_CERT_FILE", roots)
        .env("SSL_CERT_DIR", home)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), said)
}

/// `spades ladder SERVER` with a data folder of its own (no key).
fn ladder_by(server: &str, roots: &Path) -> (bool, String) {
    let home = tempfile::tempdir().unwrap();
    spades_trusting(&["ladder", server], home.path(), roots)
}

/// Registers `name` with `identity` at the server `FINGERPRINT@HOST:PORT`
/// prints, over a connection pinned to that fingerprint.
fn register_pinned(served: &support::process::Served, identity: &Identity, name: &str) {
    use support::account::{answer, arrive};
    let fingerprint = fingerprint(&served.server);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let from = "127.0.0.1".parse().unwrap();
        let (mut client, nonce) = arrive(served.address, &fingerprint, from, name)
            .await
            .unwrap();
        let (got, _) = answer(&mut client, &fingerprint, identity, &nonce, Some(name))
            .await
            .unwrap();
        assert_eq!(got, name);
    });
}

#[test]
fn a_certificate_from_an_authority_lets_players_name_the_server_by_host_and_port() {
    let folder = tempfile::tempdir().unwrap();
    let (authority, chain, key) = authority_and_certificate(folder.path());
    let served = serve(&[
        "--cert",
        chain.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
    ]);
    let port = served.address.port();
    // The name the certificate is for, checked against the authority.
    let (ok, said) = ladder_by(&format!("localhost:{port}"), &authority);
    assert!(ok, "{said}");
    assert!(said.contains("no rated partnership games"), "{said}");
    // Another name for the same machine: not the one the certificate is
    // made for, refused.
    let (ok, said) = ladder_by(&format!("127.0.0.1:{port}"), &authority);
    assert!(!ok, "{said}");
    assert!(said.contains("is not the server it names"), "{said}");
    // An authority this client does not trust: refused.
    let elsewhere = tempfile::tempdir().unwrap();
    let (other, _, _) = authority_and_certificate(elsewhere.path());
    let (ok, said) = ladder_by(&format!("localhost:{port}"), &other);
    assert!(!ok, "{said}");
    // The fingerprint it prints still pins the same certificate.
    let (ok, said) = ladder_by(&served.server, &other);
    assert!(ok, "{said}");
    // A player registered over the pinned code signs in over the name:
    // the sign-in names the server by the certificate the client checked.
    let ann = Identity::generate().unwrap();
    register_pinned(&served, &ann, "Ann");
    let home = tempfile::tempdir().unwrap();
    let (ok, said) = spades_trusting(
        &["account", "import", &ann.export()],
        home.path(),
        &authority,
    );
    assert!(ok, "{said}");
    let by_name = format!("localhost:{port}");
    let (ok, said) = spades_trusting(&["ladder", &by_name], home.path(), &authority);
    assert!(ok, "{said}");
    assert!(
        said.contains("Ann: no rated partnership games yet"),
        "{said}"
    );
}

#[test]
fn a_data_folder_that_cannot_be_made_is_named() {
    let root = tempfile::tempdir().unwrap();
    // A file where the folder should be: not even root can make it.
    let blocked = root.path().join("blocked");
    std::fs::write(&blocked, b"a file").unwrap();
    let (code, said) = serve_refused(&blocked);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains(&blocked.display().to_string()), "{said}");
    assert!(said.contains("is not a folder"), "{said}");
    // Its parent a file: the folder cannot be made.
    let under = blocked.join("data");
    let (code, said) = serve_refused(&under);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains(&under.display().to_string()), "{said}");
}
