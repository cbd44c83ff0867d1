//! Durable atomic file writes, the one way this project puts a file in place (and takes one
//! away).
//!
//! A run is killed at any moment and machines lose power: a reader must find under a name
//! either the old content or all of the new, and a rename that returned must survive a crash.
//! So every write goes to a fresh temporary file in the same folder (a rename within one file
//! system is atomic), which is synced, renamed into place, and then the folder is synced so
//! that the rename itself is on disk.
//!
//! The file put in place has the permissions a plain `File::create` would give it (read and
//! write for all, less the process's umask), or the old file's where it replaces one: a bot
//! bundle or a record is handed to other users and served by other processes, and a temporary
//! file's owner-only mode must not leak into it.

use std::fs::File;
use std::io;
use std::path::Path;

/// Writes `bytes` to `path` durably and atomically.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |temporary| std::fs::write(temporary, bytes))
}

/// Puts a file at `path` durably and atomically; `write` fills the temporary file whose path
/// it is given (by path, for writers such as libtorch's that open files themselves). The
/// temporary name starts with a dot and ends in `.tmp`, so listings that look for real names
/// never see one; a failed or killed writer leaves at most such a file, never a partial file
/// under the real name.
pub fn write_with(path: &Path, write: impl FnOnce(&Path) -> io::Result<()>) -> io::Result<()> {
    let folder = folder_of(path);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let prefix = format!(".{}.", name.to_string_lossy());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    if let Some(permissions) = permissions_for(path) {
        builder.permissions(permissions);
    }
    let temporary = builder.tempfile_in(folder)?.into_temp_path();
    write(&temporary)?;
    File::open(&temporary)?.sync_all()?;
    temporary.persist(path).map_err(|err| err.error)?;
    File::open(folder)?.sync_all()
}

/// Removes the file at `path` durably: once this returns, the removal survives a crash. A file
/// that is already gone counts as removed, so an interrupted clean-up can simply be repeated.
pub fn remove(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error),
    }
    File::open(folder_of(path))?.sync_all()
}

/// The permissions the file at `path` should have: the old file's, or where there is none those
/// of a new file (0o666, which the kernel narrows by the umask as it creates it). `None` where
/// the platform has no such modes and the temporary file's own serve.
fn permissions_for(path: &Path) -> Option<std::fs::Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(match std::fs::metadata(path) {
            Ok(old) => old.permissions(),
            Err(_) => std::fs::Permissions::from_mode(0o666),
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The folder `path` lives in, whose entry for it a rename or removal changes.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn file_names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_real_name_appears_only_when_the_write_is_complete() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.bin");
        write_with(&target, |temporary| {
            fs::write(temporary, b"first half")?;
            let during = file_names(dir.path());
            assert_eq!(during.len(), 1, "{during:?}");
            assert!(during[0].starts_with(".target.bin.") && during[0].ends_with(".tmp"));
            let mut text = fs::read(temporary)?;
            text.extend_from_slice(b", second half");
            fs::write(temporary, text)
        })
        .unwrap();
        assert_eq!(file_names(dir.path()), ["target.bin"]);
        assert_eq!(fs::read(&target).unwrap(), b"first half, second half");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.bin");
        write(&target, b"old").unwrap();
        let result = write_with(&target, |temporary| {
            fs::write(temporary, b"half")?;
            Err(io::Error::other("writer died"))
        });
        assert_eq!(result.unwrap_err().to_string(), "writer died");
        assert_eq!(fs::read(&target).unwrap(), b"old");
        assert_eq!(file_names(dir.path()), ["target.bin"]);
    }

    /// A bundle written durably is readable by whoever could read a file the same process
    /// created plainly (the temporary file's owner-only mode used to stay on it), and a file
    /// rewritten keeps the mode its owner gave it.
    #[cfg(unix)]
    #[test]
    fn a_written_file_has_a_plain_files_mode_or_keeps_its_own() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.bin");
        fs::write(&plain, b"x").unwrap();
        let target = dir.path().join("target.bin");
        write(&target, b"new").unwrap();
        assert_eq!(mode(&target), mode(&plain));

        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        write(&target, b"rewritten").unwrap();
        assert_eq!(mode(&target), 0o640);
        assert_eq!(fs::read(&target).unwrap(), b"rewritten");
    }

    #[test]
    fn removing_twice_is_no_error() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.bin");
        write(&target, b"x").unwrap();
        remove(&target).unwrap();
        assert!(file_names(dir.path()).is_empty());
        remove(&target).unwrap();
    }

    #[test]
    fn a_folder_or_a_path_without_a_file_name_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write(dir.path(), b"x").is_err());
        assert!(dir.path().is_dir());
        assert!(file_names(dir.path()).is_empty());
        let err = write(Path::new("/"), b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }
}
