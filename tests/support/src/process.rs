//! Programs a test starts, never left running when it fails.

/// A child process killed and reaped when dropped, unless it has exited:
/// a failed test leaves no server or bot behind (one would hold the test
/// run's output open).
pub struct Reaped(pub std::process::Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// A `spades serve` started by `serve`, and where it says it is.
pub struct Served {
    pub process: Reaped,
    /// The address it listens on.
    pub address: std::net::SocketAddr,
    /// What a host gives `--server` to open a table there.
    pub server: String,
    /// Its output, kept open: a server writing to a closed pipe would fail.
    _output: std::io::BufReader<std::process::ChildStdout>,
    /// Its data folder, its ladder's database in it: a test's own, never
    /// the player's, and gone with the test.
    _data: tempfile::TempDir,
}

/// `spades serve` on a free loopback port with `args` added; returns once
/// it has said where it listens. What it says later is not read.
pub fn serve(args: &[&str]) -> Served {
    use std::io::BufRead;
    let data = tempfile::tempdir().expect("a data folder for the server");
    let serve = std::process::Command::new(crate::spades_bin())
        .args(["serve", "--listen", "127.0.0.1", "--port", "0"])
        .args(args)
        .env("XDG_DATA_HOME", data.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spades serve starts");
    let mut process = Reaped(serve);
    let stdout = process.0.stdout.take().expect("its output is piped");
    let mut said = std::io::BufReader::new(stdout);
    let mut address = None;
    let mut line = String::new();
    loop {
        line.clear();
        let read = said.read_line(&mut line).expect("its output is read");
        assert!(read > 0, "spades serve said nothing of where it listens");
        if let Some(at) = line.split("listening on ").nth(1) {
            let at = at.split_whitespace().next().unwrap_or_default();
            address = Some(at.parse().expect("an address after `listening on`"));
        }
        if let Some(server) = line.split("--server ").nth(1) {
            let address = address.expect("the address before the --server line");
            let server = server.trim().to_string();
            return Served {
                process,
                address,
                server,
                _output: said,
                _data: data,
            };
        }
    }
}
