//! Reading input: stdin or a file, as UTF-8, strictly unless `--lossy`.

use std::io::{self, Read, Write};
use std::path::Path;

use clap::Args;

use super::Fail;

#[derive(Args)]
pub(crate) struct InputOpts {
    /// Replace invalid UTF-8 with U+FFFD (and say so on stderr) instead of failing.
    #[arg(long)]
    pub(crate) lossy: bool,
    /// Largest text accepted, in bytes (default 1 MiB); a larger one is an error.
    #[arg(long, value_name = "BYTES")]
    pub(crate) max_input_bytes: Option<usize>,
}

impl InputOpts {
    /// All of stdin as UTF-8.
    pub(crate) fn read_stdin(&self) -> Result<String, Fail> {
        let mut bytes = Vec::new();
        io::stdin().lock().read_to_end(&mut bytes)?;
        self.decode(bytes, "input")
    }

    /// A whole file as UTF-8; errors name `flag`.
    pub(crate) fn read_file(&self, path: &Path, flag: &str) -> Result<String, Fail> {
        let bytes = std::fs::read(path)
            .map_err(|e| Fail::new(format!("{flag}: cannot read {}: {e}", path.display())))?;
        self.decode(bytes, &format!("{flag} {}", path.display()))
            .map_err(|e| match e {
                Fail::Message(m) => Fail::new(m),
                other => other,
            })
    }

    /// Invalid UTF-8 is an error naming the byte offset, unless `--lossy`, which replaces it
    /// and says so on stderr.
    fn decode(&self, bytes: Vec<u8>, what: &str) -> Result<String, Fail> {
        match String::from_utf8(bytes) {
            Ok(s) => Ok(s),
            Err(e) => {
                let offset = e.utf8_error().valid_up_to();
                if self.lossy {
                    let bytes = e.into_bytes();
                    let _ = writeln!(
                        io::stderr(),
                        "palisade: {what} is not valid UTF-8 (first bad byte at offset {offset}); \
                         replaced invalid sequences with U+FFFD"
                    );
                    Ok(String::from_utf8_lossy(&bytes).into_owned())
                } else {
                    Err(Fail::new(format!(
                        "{what} is not valid UTF-8: invalid byte at offset {offset} (use --lossy to replace)"
                    )))
                }
            }
        }
    }
}
