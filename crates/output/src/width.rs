//! How wide the printed table may be. On a terminal, or where `COLUMNS`
//! says, a table leaves out its least needed columns until it fits, and a
//! long line of prose wraps; a pipe or a CI log, which no one reads at a
//! fixed width, gets every column on one line, as a saved run has them.

use std::cell::Cell;

/// The narrowest width honoured: below it, a table of a probe's name and
/// median alone would not fit either, and nothing is left out.
const NARROWEST: usize = 40;

/// The width of the output: `COLUMNS` when set to a number, else the
/// terminal's when stdout is one, else none.
pub fn terminal() -> Option<usize> {
    let width = match std::env::var("COLUMNS") {
        Ok(v) => v.trim().parse::<usize>().ok(),
        Err(_) => stdout_columns(),
    };
    width.filter(|w| *w >= NARROWEST)
}

/// The columns of the terminal on stdout, if it is one.
#[cfg(unix)]
fn stdout_columns() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    // SAFETY: TIOCGWINSZ writes one `winsize` into the struct it is given,
    // which lives on this stack frame for the call.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let asked = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
    (asked == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(not(unix))]
fn stdout_columns() -> Option<usize> {
    None
}

thread_local! {
    /// The width tables render within, while [`within`] runs.
    static WIDTH: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Runs `render` with tables fitted to `width` (none: every column).
pub fn within<T>(width: Option<usize>, render: impl FnOnce() -> T) -> T {
    let before = WIDTH.with(|w| w.replace(width));
    let out = render();
    WIDTH.with(|w| w.set(before));
    out
}

/// The width tables render within now.
pub(crate) fn current() -> Option<usize> {
    WIDTH.with(Cell::get)
}

/// `text` with every line longer than `width` wrapped at spaces, each
/// continuation indented by two; a word longer than the width stays whole.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        if body.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        let mut current = String::new();
        for word in body.split(' ').filter(|w| !w.is_empty()) {
            let needed = current.chars().count() + 1 + word.chars().count();
            if !current.trim().is_empty() && needed > width {
                out.push_str(current.trim_end());
                out.push('\n');
                current = "  ".to_string();
            } else if !current.is_empty() && !current.ends_with(' ') {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push_str(current.trim_end());
        out.push_str(end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_at_spaces_and_short_ones_stay() {
        let text = "short\nyardstick micro · 2026-12-05 · rustc 1.95.0 · release · 2 CPUs\n";
        let wrapped = wrap(text, 30);
        assert_eq!(
            wrapped,
            "short\nyardstick micro · 2026-12-05 ·\n  rustc 1.95.0 · release · 2\n  CPUs\n"
        );
        assert!(wrapped.lines().all(|l| l.chars().count() <= 30));
        // A word wider than the line stays whole, on a line of its own.
        assert_eq!(wrap("a verylongword b", 5), "a\n  verylongword\n  b");
    }

    #[test]
    fn tables_fit_only_inside_within() {
        assert_eq!(current(), None);
        assert_eq!(within(Some(80), current), Some(80));
        assert_eq!(current(), None);
    }
}
