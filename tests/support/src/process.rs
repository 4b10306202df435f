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
