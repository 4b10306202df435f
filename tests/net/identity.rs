//! A server's identity as players meet it: `spades serve` keeps its
//! certificate and key in its data folder and is the same server after a
//! restart; a damaged file of it is named, never replaced.

use std::path::Path;

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
