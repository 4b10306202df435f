//! A file that whole lines are appended to, and nothing less: a write the
//! disk refuses part way (a full disk) is cut back to the last whole
//! line, so a file is never left ending in half a line. The save, the
//! game's record and a server's outbox are all written through it, and a
//! file written again whole replaces the old one in one rename.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A file written at its end, a whole buffer at a time or not at all.
#[derive(Debug)]
pub struct WholeLines {
    file: File,
    /// Where the last whole write ended: the file is cut back to it when
    /// a write fails part way.
    end: u64,
    /// A failed write may have left bytes past `end` that could not be cut
    /// yet: they are cut before anything else is written.
    cut_due: bool,
    /// Each write waits until it is on the disk (`fsync`).
    sync: bool,
}

impl WholeLines {
    /// Writes on at the end of `file`, as it is now.
    pub fn at_end(mut file: File) -> io::Result<WholeLines> {
        let end = file.seek(SeekFrom::End(0))?;
        Ok(WholeLines {
            file,
            end,
            cut_due: false,
            sync: false,
        })
    }

    /// Each write waits until it is on the disk.
    pub fn synced(mut self) -> WholeLines {
        self.sync = true;
        self
    }

    /// Appends `bytes` whole, or leaves the file as it was and says why.
    pub fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        let written = self.try_append(bytes);
        if written.is_err() {
            self.cut_due = true;
            // Cut now if the disk lets us; else before the next write.
            let _ = self.cut_back();
        }
        written
    }

    fn try_append(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.cut_back()?;
        self.file.write_all(bytes)?;
        if self.sync {
            self.file.sync_data()?;
        }
        gone_check(&self.file)?;
        self.end += bytes.len() as u64;
        Ok(())
    }

    /// Cuts the file back to its last whole write, if one failed.
    fn cut_back(&mut self) -> io::Result<()> {
        if self.cut_due {
            self.file.set_len(self.end)?;
            self.file.seek(SeekFrom::Start(self.end))?;
            self.cut_due = false;
        }
        Ok(())
    }
}

/// Replaces `path` whole with `text`: written to `PATH.new` (opened with
/// `options`), on the disk, then renamed over `path`, so a crash leaves
/// the old file or the new one, whole; a failure leaves the old file and
/// no half-written `.new` beside it. The new file is returned open.
pub fn replace_whole(path: &Path, text: &[u8], options: &OpenOptions) -> io::Result<File> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".new");
    let temporary = PathBuf::from(temporary);
    let mut file = options
        .clone()
        .create(true)
        .truncate(true)
        .open(&temporary)?;
    let written = file
        .write_all(text)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temporary, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    sync_folder(path)?;
    Ok(file)
}

/// Makes a new name, a rename or a removal in `path`'s folder last through
/// a crash, where the system allows it.
pub fn sync_folder(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// A file removed while open (its folder deleted) still takes writes, and
/// loses them all when closed: that is a failure to say, not a success.
fn gone_check(file: &File) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if file.metadata()?.nlink() == 0 {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                "the file was removed while the game was played",
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// Each `write` is whole or nothing, so a writer above (the record's) can
/// hold what failed and write it again without doubling any of it.
impl Write for WholeLines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.append(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_is_appended_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "one\n").unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let mut lines = WholeLines::at_end(file).unwrap().synced();
        lines.append(b"two\n").unwrap();
        lines.write_all(b"three\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\nthree\n");
    }

    #[test]
    fn a_file_removed_while_open_is_a_failure() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut lines = WholeLines::at_end(File::create(&path).unwrap()).unwrap();
        lines.append(b"one\n").unwrap();
        std::fs::remove_dir_all(dir.path()).unwrap();
        let refused = lines.append(b"two\n").unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::NotFound);
    }
}
