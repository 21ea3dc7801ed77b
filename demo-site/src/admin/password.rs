//! The administrators' password: set by the site's owner, by option or
//! from a file, never a built-in default, and kept only as its Argon2 hash
//! (with a salt of its own), so that what the server keeps holds no
//! password to read back. (`--admin-password`'s text stays in the
//! process's arguments, which other users of the machine can read:
//! `--admin-password-file` is the option for a shared machine.)

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use std::path::Path;

/// The fewest characters a password may have.
const MIN_PASSWORD: usize = 12;

/// The password's Argon2 hash, in the PHC string form.
pub struct Password(String);

impl Password {
    /// The password in `path`: its one line, without its end.
    pub fn read(path: &Path) -> Result<Password, String> {
        let text = crate::secret::read_file(path, "--admin-password-file")?;
        let line = text.strip_suffix('\n').unwrap_or(&text);
        let line = line.strip_suffix('\r').unwrap_or(line);
        Password::of(line).map_err(|m| format!("--admin-password-file: {}: {m}", path.display()))
    }

    /// `password`, hashed; refused when too short to withstand guessing.
    pub fn of(password: &str) -> Result<Password, String> {
        if password.chars().count() < MIN_PASSWORD || password.contains(['\n', '\r']) {
            return Err(format!(
                "the password must be one line of at least {MIN_PASSWORD} characters"
            ));
        }
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| format!("no random salt: {e}"))?;
        let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
        let hash = Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map_err(|e| format!("cannot hash the password: {e}"))?;
        Ok(Password(hash.to_string()))
    }

    /// Whether `given` is the password (Argon2 compares in constant time).
    pub fn matches(&self, given: &str) -> bool {
        PasswordHash::new(&self.0).is_ok_and(|hash| {
            Argon2::default()
                .verify_password(given.as_bytes(), &hash)
                .is_ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_password_matches_and_no_clear_text_is_kept() {
        let p = Password::of("correct horse battery").unwrap();
        assert!(p.matches("correct horse battery"));
        assert!(!p.matches("correct horse batter"));
        assert!(!p.matches(""));
        assert!(p.0.starts_with("$argon2id$") && !p.0.contains("horse"));
        // Each hash has its own salt.
        assert_ne!(p.0, Password::of("correct horse battery").unwrap().0);
    }

    #[test]
    fn short_or_many_line_passwords_and_bad_files_are_refused() {
        assert!(Password::of("short").is_err());
        assert!(Password::of("twelve chars\nmore").is_err());
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pw");
        std::fs::write(&file, "a long enough password\n").unwrap();
        assert!(
            Password::read(&file)
                .unwrap()
                .matches("a long enough password")
        );
        std::fs::write(&file, "x".repeat(5000)).unwrap();
        let e = Password::read(&file).err().unwrap();
        assert!(
            e.starts_with("--admin-password-file: ") && e.contains("5000 bytes"),
            "{e}"
        );
        let e = Password::read(&dir.path().join("none")).err().unwrap();
        assert!(e.contains("cannot read"), "{e}");
    }
}
