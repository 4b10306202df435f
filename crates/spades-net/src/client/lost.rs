//! Why a connection could not be made or was lost, in the player's words.
//! The system's and the TLS library's own texts are not shown: they are
//! written for programmers (one ends in a link to the library's manual),
//! and a server's failure can put anything in them. Each failure is told
//! by its kind, in one short sentence of ours.

use std::io;

/// Why the connection to a server ended while it was in use.
pub fn while_talking(e: &io::Error) -> String {
    if let Some(tls) = tls_error(e) {
        return format!("the secure connection failed: {}", tls_words(tls));
    }
    match e.kind() {
        // A TLS connection ended without its goodbye: the server's
        // program stopped (or was killed), or the network cut it.
        io::ErrorKind::UnexpectedEof => "the server stopped answering".into(),
        io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionAborted
        | io::ErrorKind::BrokenPipe => "the connection was cut".into(),
        io::ErrorKind::TimedOut => "the server or the network stopped answering".into(),
        kind => format!("the connection failed ({})", kind_words(kind)),
    }
}

/// Why `address` could not be reached.
pub fn reaching(address: &str, e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::ConnectionRefused => {
            format!("nothing answers at {address}: no server listens there now")
        }
        io::ErrorKind::TimedOut => format!("{address} does not answer"),
        kind => format!("cannot reach {address} ({})", kind_words(kind)),
    }
}

/// Why a TLS handshake failed, when it is not the connection's fault.
pub fn handshake(e: &io::Error) -> String {
    match tls_error(e) {
        Some(tls) => tls_words(tls),
        None => while_talking(e),
    }
}

fn tls_error(e: &io::Error) -> Option<&rustls::Error> {
    e.get_ref()?.downcast_ref::<rustls::Error>()
}

/// A TLS failure in words: ours where the refusal is ours (the pinned
/// certificate checked in `tls`), else by its kind alone.
fn tls_words(e: &rustls::Error) -> String {
    use rustls::CertificateError as Cert;
    match e {
        // Only our own verifier says `General`: its words are ours.
        rustls::Error::General(ours) => crate::outside::clean(ours),
        rustls::Error::InvalidCertificate(why) => match why {
            Cert::NotValidForName | Cert::NotValidForNameContext { .. } => {
                "its certificate is made for another name".into()
            }
            Cert::UnknownIssuer => {
                "its certificate is signed by no authority this system trusts".into()
            }
            Cert::Expired | Cert::ExpiredContext { .. } => "its certificate has expired".into(),
            _ => "its certificate is not one this system accepts".into(),
        },
        rustls::Error::AlertReceived(_) => "the server refused the secure connection".into(),
        _ => "the secure connection could not be agreed".into(),
    }
}

/// An error's kind as the standard library names it ("connection reset"):
/// its words, not the system's message, bounded and free of links.
fn kind_words(kind: io::ErrorKind) -> String {
    let words = kind.to_string();
    crate::outside::clean(&words.chars().take(60).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the TLS library says when a server vanishes, link and all:
    /// never shown as it is.
    #[test]
    fn a_foreign_errors_text_is_never_shown() {
        let raw = "peer closed connection without sending TLS close_notify: \
                   https://docs.rs/rustls/latest/rustls/manual/_03_howto/index.html#unexpected-eof";
        let eof = io::Error::new(io::ErrorKind::UnexpectedEof, raw);
        assert_eq!(while_talking(&eof), "the server stopped answering");
        let odd = io::Error::other(format!("{raw}\u{1b}[2J"));
        let said = while_talking(&odd);
        assert!(!said.contains("http") && !said.contains('\u{1b}'), "{said}");
        assert!(said.len() < 80, "{said}");
        let tls = io::Error::new(
            io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        );
        assert_eq!(
            handshake(&tls),
            "its certificate is signed by no authority this system trusts"
        );
        let refused = io::Error::new(io::ErrorKind::ConnectionRefused, "os error 111");
        assert_eq!(
            reaching("127.0.0.1:9", &refused),
            "nothing answers at 127.0.0.1:9: no server listens there now"
        );
    }
}
