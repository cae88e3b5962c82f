//! A per-thread memo of what the matching view makes of a non-ASCII character.
//!
//! Computing it takes the compatibility decomposition, combining-mark and look-alike lookups
//! and a lowercase mapping per part; a ticket uses few distinct characters many times, so the
//! view looks each one up here first. Only characters whose decomposition holds no whitespace
//! are kept (whitespace joins the run around it, which depends on the neighbours).

use std::cell::RefCell;

const SLOTS: usize = 1024;
/// Longer replacements (a few ligatures) are computed each time.
const CHARS_MAX: usize = 4;

/// The view's replacement of one character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mapped {
    len: u8,
    chars: [char; CHARS_MAX],
    /// Whether a visible part ends the pending whitespace run (even when it maps to nothing).
    pub(super) flushes: bool,
}

impl Mapped {
    /// The replacement `s`, if it is short enough to keep.
    pub(super) fn new(s: &str, flushes: bool) -> Option<Mapped> {
        let mut m = Mapped {
            len: 0,
            chars: ['\0'; CHARS_MAX],
            flushes,
        };
        for c in s.chars() {
            *m.chars.get_mut(usize::from(m.len))? = c;
            m.len += 1;
        }
        Some(m)
    }

    /// Whether this is `c`'s replacement by itself: the view then copies `c` as it is, in the
    /// run of text around it (its bytes map to the original one to one).
    pub(super) fn is_own_view(&self, c: char) -> bool {
        self.flushes && self.chars() == [c]
    }

    /// The replacement's characters.
    pub(super) fn chars(&self) -> &[char] {
        &self.chars[..usize::from(self.len)]
    }
}

/// The memo's table: a direct-mapped cache of [`SLOTS`] characters.
pub(super) struct Memo {
    keys: Vec<u32>,
    values: Vec<Mapped>,
}

impl Memo {
    fn new() -> Memo {
        Memo {
            keys: vec![u32::MAX; SLOTS],
            values: vec![
                Mapped {
                    len: 0,
                    chars: ['\0'; CHARS_MAX],
                    flushes: false,
                };
                SLOTS
            ],
        }
    }

    /// The remembered replacement of `c` in the view with (`fold`) or without case folding.
    pub(super) fn get(&self, c: char, fold: bool) -> Option<Mapped> {
        let k = key(c, fold);
        let s = slot(k);
        (self.keys[s] == k).then(|| self.values[s])
    }

    /// Remembers the replacement of `c`.
    pub(super) fn put(&mut self, c: char, fold: bool, mapped: Mapped) {
        let k = key(c, fold);
        let s = slot(k);
        self.keys[s] = k;
        self.values[s] = mapped;
    }
}

thread_local! {
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// Code points use 21 bits: the view's case mode takes bit 31, and `u32::MAX` is no key.
fn key(c: char, fold: bool) -> u32 {
    c as u32 | (u32::from(fold) << 31)
}

fn slot(key: u32) -> usize {
    (key ^ (key >> 10) ^ (key >> 31)) as usize % SLOTS
}

/// Runs `f` with this thread's memo, borrowed once for a whole view (a thread-local access
/// per character cost about fifty instructions); `None` if it is already borrowed.
pub(super) fn with<R>(f: impl FnOnce(Option<&mut Memo>) -> R) -> R {
    MEMO.with(|cell| match cell.try_borrow_mut() {
        Ok(mut guard) => f(Some(guard.get_or_insert_with(Memo::new))),
        Err(_) => f(None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_short_replacements_apart_by_mode() {
        let a = Mapped::new("e", true);
        let b = Mapped::new("E", true);
        let mut memo = Memo::new();
        memo.put('Ε', true, a.unwrap_or_else(|| unreachable!()));
        memo.put('Ε', false, b.unwrap_or_else(|| unreachable!()));
        assert_eq!(memo.get('Ε', true), a);
        assert_eq!(memo.get('Ε', false), b);
        assert_eq!(Mapped::new("abcde", true), None);
    }

    #[test]
    fn a_nested_borrow_runs_without_the_memo() {
        let inner = with(|outer| {
            assert!(outer.is_some());
            with(|inner| inner.is_some())
        });
        assert!(!inner);
    }
}
