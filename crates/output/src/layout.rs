//! Aligned plain-text tables and the number formats every report shares.

/// Column alignment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text: names, notes.
    Left,
    /// Figures, so that their units and decimal points line up.
    Right,
}

/// A table of text cells, laid out with one space-padded column each and no
/// trailing spaces (the last column is never padded).
pub struct Table {
    columns: Vec<(String, Align)>,
    rows: Vec<Vec<String>>,
    /// Columns that may be left out to fit the width, the first first.
    droppable: Vec<String>,
}

impl Table {
    /// A table of these columns, headed by their names.
    pub fn new(columns: &[(&str, Align)]) -> Table {
        Table {
            columns: columns.iter().map(|(h, a)| (h.to_string(), *a)).collect(),
            rows: Vec::new(),
            droppable: Vec::new(),
        }
    }

    /// Names the columns, by header, that may be left out where the table
    /// must fit a width ([`super::width`]), the least needed first.
    pub(crate) fn droppable(mut self, headers: &[&str]) -> Table {
        self.droppable = headers.iter().map(|h| h.to_string()).collect();
        self
    }

    /// Adds a row; every cell is cleaned (`text::clean`), so no cell can
    /// start a line of its own, and a cell starting `::` (a probe named
    /// `::error file=x::boom`) gets a visible mark before it: a table's
    /// line never reads as a GitHub workflow command, in a log or not.
    pub fn push(&mut self, row: Vec<String>) {
        let cell = |c: &String| {
            let c = crate::text::cleaned(c);
            if c.starts_with("::") {
                format!("{}{c}", crate::text::REPLACEMENT)
            } else {
                c
            }
        };
        self.rows.push(row.iter().map(cell).collect());
    }

    /// True before any row is pushed.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table, columns aligned, one line per row. Within a width
    /// ([`super::width::within`]) the droppable columns are left out, in
    /// their order, until every line fits, and a last line names them.
    pub fn render(&self) -> String {
        let mut widths: Vec<usize> = self
            .columns
            .iter()
            .map(|(h, _)| h.chars().count())
            .collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate().take(widths.len()) {
                widths[i] = widths[i].max(cell.chars().count());
            }
        }
        let mut shown = vec![true; self.columns.len()];
        let mut left_out = Vec::new();
        if let Some(limit) = super::width::current() {
            let line_width = |shown: &[bool]| {
                let kept: Vec<usize> = (0..widths.len()).filter(|i| shown[*i]).collect();
                kept.iter().map(|i| widths[*i]).sum::<usize>() + 2 * kept.len().saturating_sub(1)
            };
            for name in &self.droppable {
                if line_width(&shown) <= limit {
                    break;
                }
                let named = |i: &usize| shown[*i] && self.columns[*i].0 == *name;
                if let Some(i) = (0..self.columns.len()).find(named) {
                    shown[i] = false;
                    left_out.push(name.as_str());
                }
            }
        }
        let first = shown.iter().position(|s| *s).unwrap_or(0);
        let header: Vec<String> = self.columns.iter().map(|(h, _)| h.clone()).collect();
        let mut out = String::new();
        for row in std::iter::once(&header).chain(&self.rows) {
            let mut line = String::new();
            for (i, (_, align)) in self.columns.iter().enumerate() {
                if !shown[i] {
                    continue;
                }
                let cell = row.get(i).map_or("", String::as_str);
                let pad = widths[i].saturating_sub(cell.chars().count());
                if i > first {
                    line.push_str("  ");
                }
                match align {
                    Align::Left => {
                        line.push_str(cell);
                        line.extend(std::iter::repeat_n(' ', pad));
                    }
                    Align::Right => {
                        line.extend(std::iter::repeat_n(' ', pad));
                        line.push_str(cell);
                    }
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        if !left_out.is_empty() {
            out.push_str(&format!(
                "(left out to fit: {}; COLUMNS=0 shows every column)\n",
                left_out.join(", ")
            ));
        }
        out
    }
}

/// A check's baseline or current figure: a count (allocations,
/// instructions, errors) as the whole number it is (`7,444`, not `7444`
/// or `28.00`), any other figure with four significant digits.
pub fn check_value(metric: &crate::document::check::Figure, v: f64) -> String {
    use crate::document::check::Figure;
    let counted = metric.is_count() || *metric == Figure::Errors;
    if counted && v.fract() == 0.0 {
        thousands(v)
    } else if counted {
        significant(v, 6)
    } else {
        significant(v, 4)
    }
}

/// Milliseconds with four significant digits (`12.35`, `0.004521`).
pub fn ms(value: Option<f64>) -> String {
    match value {
        Some(v) => significant(v, 4),
        None => "-".to_string(),
    }
}

/// A number with `digits` significant digits, never in exponent form.
pub fn significant(v: f64, digits: i32) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "-".into()
        } else if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).clamp(0, 9) as usize;
    format!("{v:.decimals$}")
}

/// A count with thousands separators: 12,345.
pub fn thousands(v: f64) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    let rounded = v.round() as i128;
    let digits = rounded.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if rounded < 0 { format!("-{out}") } else { out }
}

/// A signed percentage with one decimal: `+12.3 %`.
pub fn change(pct: f64) -> String {
    if pct.is_infinite() {
        "new".to_string()
    } else {
        format!("{pct:+.1} %")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_without_trailing_spaces() {
        let mut t = Table::new(&[
            ("name", Align::Left),
            ("n", Align::Right),
            ("note", Align::Left),
        ]);
        t.push(vec!["a".into(), "100".into(), "".into()]);
        t.push(vec!["longer".into(), "5".into(), "x".into()]);
        let text = t.render();
        assert_eq!(text, "name      n  note\na       100\nlonger    5  x\n");
        assert!(text.lines().all(|l| !l.ends_with(' ')));
    }

    #[test]
    fn within_a_width_the_droppable_columns_go_first_and_are_named() {
        let mut t = Table::new(&[
            ("name", Align::Left),
            ("x", Align::Right),
            ("x", Align::Right),
            ("note", Align::Left),
        ])
        .droppable(&["note", "x"]);
        t.push(vec![
            "a".into(),
            "1".into(),
            "2".into(),
            "a long note".into(),
        ]);
        // Every column: 4 + 2 + 1 + 2 + 1 + 2 + 11 = 23 wide.
        assert_eq!(t.render(), "name  x  x  note\na     1  2  a long note\n");
        let fitted = super::super::width::within(Some(9), || t.render());
        assert_eq!(
            fitted,
            "name  x\na     2\n(left out to fit: note, x; COLUMNS=0 shows every column)\n"
        );
        // Wide enough: nothing goes.
        let wide = super::super::width::within(Some(23), || t.render());
        assert_eq!(wide, t.render());
    }

    #[test]
    fn no_line_of_a_table_is_a_workflow_command() {
        let mut t = Table::new(&[("probe", Align::Left), ("n", Align::Right)]);
        t.push(vec!["::error file=x::boom".into(), "1".into()]);
        let text = t.render();
        assert!(text.lines().all(|l| !l.starts_with("::")), "{text}");
        assert!(text.contains("\u{FFFD}::error file=x::boom"), "{text}");
    }

    #[test]
    fn number_formats() {
        assert_eq!(significant(12.3456, 4), "12.35");
        assert_eq!(significant(0.0045213, 4), "0.004521");
        assert_eq!(significant(12345.6, 4), "12346");
        assert_eq!(ms(None), "-");
        assert_eq!(thousands(1234567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(change(41.04), "+41.0 %");
        use crate::document::check::Figure;
        assert_eq!(check_value(&Figure::Allocs, 28.0), "28");
        assert_eq!(check_value(&Figure::Allocs, 7444.0), "7,444");
        assert_eq!(check_value(&Figure::Instructions, 1234.5), "1234.50");
        assert_eq!(
            check_value(&Figure::MedianPerCalibration, 0.19104),
            "0.1910"
        );
        assert_eq!(change(-3.0), "-3.0 %");
    }
}
