//! The input-size limit shared by fencing, scanning and screening.
//!
//! Over the limit is an error naming the size and the limit, never a silent cut. A caller may
//! ask for truncation instead; the cut is then reported as a finding covering the part that
//! was not looked at.

use crate::error::{Error, Result};
use crate::finding::{Finding, Kind, Severity};

/// Default largest input accepted: 1 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 1 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InputLimit {
    pub(crate) max_bytes: usize,
    pub(crate) truncate: bool,
}

impl Default for InputLimit {
    fn default() -> Self {
        InputLimit {
            max_bytes: DEFAULT_MAX_INPUT_BYTES,
            truncate: false,
        }
    }
}

impl InputLimit {
    /// The part of `text` to work on, and the truncation finding when it was cut. The cut is
    /// on a char boundary at or below the limit.
    pub(crate) fn apply<'a>(
        &self,
        text: &'a str,
        severity: Severity,
    ) -> Result<(&'a str, Option<Finding>)> {
        if text.len() <= self.max_bytes {
            return Ok((text, None));
        }
        if !self.truncate {
            return Err(Error::InputTooLarge {
                size: text.len(),
                limit: self.max_bytes,
            });
        }
        let mut cut = self.max_bytes;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let finding = Finding::new(
            "input.truncated",
            Kind::Truncated,
            severity,
            cut..text.len(),
            format!(
                "The input is {} bytes; only the first {cut} were checked, as the caller asked \
                 (limit {} bytes). The rest was not looked at.",
                text.len(),
                self.max_bytes
            ),
        );
        Ok((&text[..cut], Some(finding)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_limit_is_an_error_unless_truncating() {
        let strict = InputLimit {
            max_bytes: 3,
            truncate: false,
        };
        assert!(matches!(
            strict.apply("abcd", Severity::Block),
            Err(Error::InputTooLarge { size: 4, limit: 3 })
        ));
        let cut = InputLimit {
            max_bytes: 3,
            truncate: true,
        };
        let (text, finding) = cut.apply("aéb", Severity::Block).unwrap();
        assert_eq!(text, "aé");
        assert_eq!(finding.unwrap().span(), 3..4);
        let (text, finding) = cut.apply("ab", Severity::Block).unwrap();
        assert_eq!((text, finding), ("ab", None));
    }
}
