use std::fmt;

/// Bad input from the user (a malformed move, position, option or file): the process exits
/// with status 2 and prints this one line, as for a command-line usage error.
#[derive(Debug)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}
