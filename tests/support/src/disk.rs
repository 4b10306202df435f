//! A small disk of a test's own, to fill up: a tmpfs mounted on a
//! temporary folder (tests run as root here and in CI; root writes past
//! any permission, never past a full disk).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A tmpfs of `size` mounted on a folder of its own, unmounted when
/// dropped. `None` (with a loud warning) where mounting is refused, unless
/// `SPADES_REQUIRE_TMPFS=1` (as CI sets) makes that a failure.
pub struct SmallDisk {
    path: PathBuf,
    /// The folder mounted on, when the disk made its own.
    _own: Option<tempfile::TempDir>,
}

impl SmallDisk {
    pub fn mount(size: &str) -> Option<SmallDisk> {
        let own = tempfile::Builder::new()
            .prefix("spades-disk")
            .tempdir()
            .expect("a folder");
        let mut disk = SmallDisk::mount_at(own.path(), size)?;
        disk._own = Some(own);
        Some(disk)
    }

    /// A disk mounted on `path` (made if missing): a program's data folder.
    pub fn mount_at(path: &Path, size: &str) -> Option<SmallDisk> {
        std::fs::create_dir_all(path).expect("the folder to mount on");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(path)
            .output();
        let refused = match mounted {
            Ok(out) if out.status.success() => {
                return Some(SmallDisk {
                    path: path.to_path_buf(),
                    _own: None,
                });
            }
            Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
            Err(e) => e.to_string(),
        };
        let required = std::env::var("SPADES_REQUIRE_TMPFS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "SPADES_REQUIRE_TMPFS=1 but a tmpfs could not be mounted: {refused}"
        );
        // Past the harness's capture: a skip is seen in every run.
        let _ = writeln!(
            io::stderr(),
            "SKIPPED: a tmpfs could not be mounted ({refused}): writing on a full disk was \
             NOT tested. Run as root, or set SPADES_REQUIRE_TMPFS=1 to make this a failure."
        );
        None
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Fills the disk until a write is refused; the filler file is
    /// returned, to be removed when there is to be room again.
    pub fn fill(&self) -> PathBuf {
        let filler = self.path().join("filler");
        let mut file = std::fs::File::create(&filler).expect("the filler");
        let block = [0u8; 4096];
        while file.write_all(&block).is_ok() {}
        // The last bytes too, so not even a short line fits.
        while file.write_all(&block[..1]).is_ok() {}
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.path).status();
    }
}
