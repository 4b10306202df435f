//! TLS for table connections. A server presents the certificate its
//! `Certificate` names (made by itself, or an operator's); a client
//! accepts exactly the certificate whose fingerprint its table code
//! carries, and no other.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, ServerConfig, SignatureScheme};

use super::certificate::{Certificate, CertificateError, MADE_FOR};
use super::code::{fingerprint, same_secret};

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A server's TLS setup and the fingerprint its table codes carry.
pub struct ServerTls {
    pub config: Arc<ServerConfig>,
    pub fingerprint: String,
}

/// The server setup that presents the certificate `certificate` names.
pub fn server(certificate: &Certificate) -> Result<ServerTls, CertificateError> {
    let identity = certificate.identity()?;
    let own = identity
        .chain
        .first()
        .ok_or_else(|| certificate.unusable(rustls::Error::NoCertificatesPresented))?;
    let fingerprint = fingerprint(own);
    let config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| CertificateError::Make(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(identity.chain, identity.key)
        .map_err(|e| certificate.unusable(e))?;
    Ok(ServerTls {
        config: Arc::new(config),
        fingerprint,
    })
}

/// A client setup that trusts only the certificate with `fingerprint`.
pub fn client(fingerprint: &str) -> Result<Arc<ClientConfig>, String> {
    let provider = provider();
    let verifier = Pinned {
        fingerprint: fingerprint.to_ascii_uppercase(),
        provider: provider.clone(),
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// A client setup that trusts a certificate for the server's name signed
/// by an authority this system trusts, as a web browser does: the
/// system's authorities (`SSL_CERT_FILE` and `SSL_CERT_DIR` name others).
pub fn client_by_authority() -> Result<Arc<ClientConfig>, String> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = rustls::RootCertStore::empty();
    let (_, _) = roots.add_parsable_certificates(found.certs);
    if roots.is_empty() {
        let why = found
            .errors
            .first()
            .map_or_else(String::new, |e| format!(" ({e})"));
        return Err(format!(
            "this system trusts no certificate authority{why}: give the server's code with \
             its fingerprint, FINGERPRINT@HOST:PORT"
        ));
    }
    let config = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// `host` as the name a certificate must be made for.
pub fn name_of(host: &str) -> Result<ServerName<'static>, String> {
    ServerName::try_from(host.to_string())
        .map_err(|_| format!("`{host}` is not a host name a certificate can be made for"))
}

/// The server name a client asks for.
pub fn server_name() -> ServerName<'static> {
    ServerName::try_from(MADE_FOR).expect("a valid DNS name")
}

/// Trusts the one certificate whose fingerprint the table code gave, as
/// an SSH client trusts a known host key; the handshake's signatures are
/// still checked against it.
#[derive(Debug)]
struct Pinned {
    fingerprint: String,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if same_secret(&fingerprint(end_entity), &self.fingerprint) {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(
                "the server's certificate is not the one in the table code".into(),
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    use tokio::net::{TcpListener, TcpStream};

    /// A handshake with the pinned fingerprint succeeds and carries a
    /// line; one with another server's fingerprint fails.
    #[test]
    fn a_client_trusts_only_the_certificate_in_its_code() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let tls = server(&Certificate::Fresh).unwrap();
            let other = server(&Certificate::Fresh).unwrap();
            assert_ne!(tls.fingerprint, other.fingerprint);
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let acceptor = tokio_rustls::TlsAcceptor::from(tls.config.clone());
            tokio::spawn(async move {
                loop {
                    let (socket, _) = listener.accept().await.unwrap();
                    if let Ok(mut stream) = acceptor.accept(socket).await {
                        let _ = stream.write_all(b"hello\n").await;
                        let _ = stream.shutdown().await;
                    }
                }
            });
            let connect = |fp: String| async move {
                let connector = tokio_rustls::TlsConnector::from(client(&fp).unwrap());
                let socket = TcpStream::connect(addr).await.unwrap();
                let stream = connector.connect(server_name(), socket).await?;
                let mut line = String::new();
                BufReader::new(stream).read_line(&mut line).await?;
                Ok::<String, std::io::Error>(line)
            };
            assert_eq!(connect(tls.fingerprint.clone()).await.unwrap(), "hello\n");
            assert!(connect(other.fingerprint.clone()).await.is_err());
        });
    }
}
