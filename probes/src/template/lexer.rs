//! Splits a template into text and tags, and applies the whitespace rule.
//!
//! Tags are found without understanding expressions: a tag runs from `{`
//! to the first `}` that no backslash escapes, which is what lets designs
//! put anything (JavaScript, CSS) into `{literal}` blocks and keeps a broken
//! expression from swallowing the rest of the file.
//!
//! The whitespace rule lives here because it is lexical: one line break
//! right after and one right before a function tag, a comment or a
//! `{literal}` marker disappears, so block tags written on lines of their
//! own leave no blank lines behind. Output tags and `{ldelim}`/`{rdelim}`
//! keep their surroundings.

use super::error::Span;

/// One lexical piece of a template.
#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    /// Literal text, a byte range of the source (after whitespace trimming).
    Text(Span),
    /// `{expr}`: the expression's range inside the braces.
    Output { expr: Span, tag: Span },
    /// `{name args}` or `{name args /}`.
    Open {
        name: Span,
        args: Span,
        bodiless: bool,
        tag: Span,
    },
    /// `{/name args}` (only `{/do while=...}` carries arguments).
    Close { name: Span, args: Span, tag: Span },
    /// `{ldelim}` or `{rdelim}`: a literal brace.
    Brace { ch: char, tag: Span },
}

impl Token {
    /// Whether the whitespace rule eats a line break next to this token.
    fn trims(&self) -> bool {
        matches!(self, Token::Open { .. } | Token::Close { .. })
    }
}

/// A lexing failure: where it happened and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub offset: usize,
    pub message: String,
}

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, LexError> {
    Err(LexError {
        offset,
        message: message.into(),
    })
}

/// Characters allowed in identifiers: tag names, variables, operators.
pub fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

struct Lexer<'s> {
    src: &'s str,
    tokens: Vec<Token>,
    /// The last thing emitted trims whitespace after it (a comment or a
    /// literal marker counts although it leaves no token).
    after_trimmer: bool,
}

/// Splits `src` into tokens.
pub fn tokenize(src: &str) -> Result<Vec<Token>, LexError> {
    let mut lx = Lexer {
        src,
        tokens: Vec::new(),
        after_trimmer: false,
    };
    lx.run()?;
    Ok(lx.tokens)
}

impl<'s> Lexer<'s> {
    fn run(&mut self) -> Result<(), LexError> {
        let bytes = self.src.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            let Some(rel) = memchr::memchr(b'{', &bytes[pos..]) else {
                self.text(pos, bytes.len());
                break;
            };
            let open = pos + rel;
            self.text(pos, open);
            pos = self.tag(open)?;
        }
        Ok(())
    }

    /// Emits text, dropping a leading line break after a trimming tag.
    fn text(&mut self, start: usize, end: usize) {
        let mut start = start;
        if self.after_trimmer {
            start += newline_at_start(&self.src[start..end]);
        }
        self.after_trimmer = false;
        if start < end {
            self.tokens.push(Token::Text(Span::new(start, end)));
        }
    }

    /// Drops one trailing line break from text right before a trimming tag.
    fn trim_before(&mut self) {
        if let Some(Token::Text(span)) = self.tokens.last_mut() {
            let text = &self.src[span.start as usize..span.end as usize];
            let cut = newline_at_end(text);
            if cut > 0 {
                span.end -= cut as u32;
                if span.start == span.end {
                    self.tokens.pop();
                }
            }
        }
    }

    fn emit(&mut self, token: Token) {
        let trims = token.trims();
        if trims {
            self.trim_before();
        }
        self.tokens.push(token);
        self.after_trimmer = trims;
    }

    /// Marks a comment or literal marker: trims like a function tag.
    fn trimmer_without_token(&mut self) {
        self.trim_before();
        self.after_trimmer = true;
    }

    /// Lexes the tag starting at `open`; returns the offset after it.
    fn tag(&mut self, open: usize) -> Result<usize, LexError> {
        let bytes = self.src.as_bytes();
        if bytes.get(open + 1) == Some(&b'*') {
            let Some(rel) = memchr::memmem::find(&bytes[open + 2..], b"*}") else {
                return err(open, "unterminated comment: no `*}` follows");
            };
            self.trimmer_without_token();
            return Ok(open + 2 + rel + 2);
        }
        let close = find_tag_end(bytes, open + 1).ok_or(LexError {
            offset: open,
            message: "unterminated tag: no `}` follows".into(),
        })?;
        let tag = Span::new(open, close + 1);
        let content_start = open + 1 + leading_ws(&bytes[open + 1..close]);
        let content = &self.src[content_start..close];
        if content.trim_end().is_empty() {
            return err(open, "empty tag `{}`: write `{ldelim}` for a literal brace");
        }
        let first = content.as_bytes()[0];
        if first == b'/' {
            let name_start = content_start + 1;
            let name_end = name_start + ident_len(&bytes[name_start..close]);
            if name_end == name_start {
                return err(name_start, "close tag without a name");
            }
            let args_end = close - trailing_ws(&bytes[name_end..close]);
            self.check_name_end(name_end, close)?;
            self.emit(Token::Close {
                name: Span::new(name_start, name_end),
                args: Span::new(name_end, args_end.max(name_end)),
                tag,
            });
            return Ok(close + 1);
        }
        if is_output(content.as_bytes()) {
            let end = close - trailing_ws(&bytes[content_start..close]);
            self.emit(Token::Output {
                expr: Span::new(content_start, end),
                tag,
            });
            return Ok(close + 1);
        }
        let name_end = content_start + ident_len(&bytes[content_start..close]);
        if name_end == content_start {
            return err(
                content_start,
                format!(
                    "bad tag: `{}` starts neither an expression nor a function name",
                    content.chars().next().unwrap_or(' ')
                ),
            );
        }
        let mut args_end = close - trailing_ws(&bytes[name_end..close]);
        let bodiless = args_end > name_end && bytes[args_end - 1] == b'/';
        if bodiless {
            args_end -= 1;
            args_end -= trailing_ws(&bytes[name_end..args_end]);
        }
        if !bodiless {
            self.check_name_end(name_end, close)?;
        } else if name_end < args_end {
            self.check_name_end(name_end, args_end)?;
        }
        let name = &self.src[content_start..name_end];
        match name {
            "literal" => {
                let body_start = close + 1;
                let Some(rel) = memchr::memmem::find(&bytes[body_start..], b"{/literal}") else {
                    return err(open, "unterminated {literal}: no `{/literal}` follows");
                };
                self.trimmer_without_token();
                self.text(body_start, body_start + rel);
                self.trimmer_without_token();
                Ok(body_start + rel + "{/literal}".len())
            }
            "ldelim" | "rdelim" => {
                let ch = if name == "ldelim" { '{' } else { '}' };
                self.emit(Token::Brace { ch, tag });
                Ok(close + 1)
            }
            _ => {
                self.emit(Token::Open {
                    name: Span::new(content_start, name_end),
                    args: Span::new(name_end, args_end.max(name_end)),
                    bodiless,
                    tag,
                });
                Ok(close + 1)
            }
        }
    }

    /// A function name runs to whitespace; anything else glued to it is a
    /// malformed name rather than a silently different tag.
    fn check_name_end(&self, name_end: usize, limit: usize) -> Result<(), LexError> {
        match self.src.as_bytes().get(name_end) {
            Some(b) if name_end < limit && !b.is_ascii_whitespace() => {
                let ch = self.src[name_end..].chars().next().unwrap_or('?');
                err(name_end, format!("bad tag name: unexpected `{ch}`"))
            }
            _ => Ok(()),
        }
    }
}

/// The first `}` after `from` that no backslash escapes.
fn find_tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut pos = from;
    loop {
        let rel = memchr::memchr(b'}', bytes.get(pos..)?)?;
        let at = pos + rel;
        if at > 0 && bytes[at - 1] == b'\\' {
            pos = at + 1;
            continue;
        }
        return Some(at);
    }
}

/// Whether tag content opens with an expression rather than a function
/// name: `$`, a quote, a digit, `-digit` or `identifier(`.
fn is_output(content: &[u8]) -> bool {
    match content.first() {
        Some(b'$' | b'\'' | b'"') => true,
        Some(b) if b.is_ascii_digit() => true,
        Some(b'-') => content.get(1).is_some_and(u8::is_ascii_digit),
        Some(_) => {
            let n = ident_len(content);
            n > 0 && content.get(n) == Some(&b'(')
        }
        None => false,
    }
}

fn ident_len(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&b| is_ident_byte(b)).count()
}

fn leading_ws(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_whitespace()).count()
}

fn trailing_ws(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count()
}

/// Length of one line break at the start of `s` (`\r\n` counts as one).
fn newline_at_start(s: &str) -> usize {
    if s.starts_with("\r\n") {
        2
    } else if s.starts_with('\n') {
        1
    } else {
        0
    }
}

fn newline_at_end(s: &str) -> usize {
    if s.ends_with("\r\n") {
        2
    } else if s.ends_with('\n') {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders tokens back to a compact description for assertions.
    fn show(src: &str) -> Vec<String> {
        tokenize(src)
            .unwrap()
            .iter()
            .map(|t| {
                let s = |sp: &Span| &src[sp.start as usize..sp.end as usize];
                match t {
                    Token::Text(sp) => format!("T{:?}", s(sp)),
                    Token::Output { expr, .. } => format!("O{}", s(expr)),
                    Token::Open {
                        name,
                        args,
                        bodiless,
                        ..
                    } => format!(
                        "F{}[{}]{}",
                        s(name),
                        s(args),
                        if *bodiless { "/" } else { "" }
                    ),
                    Token::Close { name, args, .. } => format!("C{}[{}]", s(name), s(args)),
                    Token::Brace { ch, .. } => format!("B{ch}"),
                }
            })
            .collect()
    }

    #[test]
    fn classifies_output_and_function_tags() {
        assert_eq!(
            show("a{$x}{'s'}{-1}{concat(1)}{if $x}{/if}{include uri='x' /}"),
            [
                "T\"a\"",
                "O$x",
                "O's'",
                "O-1",
                "Oconcat(1)",
                "Fif[ $x]",
                "Cif[]",
                "Finclude[ uri='x']/",
            ]
        );
    }

    #[test]
    fn brace_escaped_by_backslash_stays_in_tag() {
        assert_eq!(show(r"{'a\}b'}x"), [r"O'a\}b'", "T\"x\""]);
    }

    #[test]
    fn whitespace_rule_drops_one_newline_each_side() {
        assert_eq!(
            show("a\n{if 1}\nb\n{/if}\n\nc"),
            ["T\"a\"", "Fif[ 1]", "T\"b\"", "Cif[]", "T\"\\nc\""]
        );
        // a lone newline between two tags is dropped once
        assert_eq!(show("{if 1}\n{/if}"), ["Fif[ 1]", "Cif[]"]);
        // two newlines between tags: both go
        assert_eq!(show("{if 1}\n\n{/if}"), ["Fif[ 1]", "Cif[]"]);
        assert_eq!(show("{if 1}\n\n\n{/if}"), ["Fif[ 1]", "T\"\\n\"", "Cif[]"]);
        // spaces before a tag are kept, so its newline is not adjacent
        assert_eq!(show("x\n  {if 1}"), ["T\"x\\n  \"", "Fif[ 1]"]);
        // \r\n is one newline
        assert_eq!(show("x\r\n{if 1}\r\ny"), ["T\"x\"", "Fif[ 1]", "T\"y\""]);
        // output tags and braces keep their newlines
        assert_eq!(show("x\n{$a}\n"), ["T\"x\\n\"", "O$a", "T\"\\n\""]);
        assert_eq!(show("x\n{ldelim}\n"), ["T\"x\\n\"", "B{", "T\"\\n\""]);
    }

    #[test]
    fn comments_and_literals_trim_like_function_tags() {
        assert_eq!(show("a\n{* c } *}\nb"), ["T\"a\"", "T\"b\""]);
        assert_eq!(
            show("x\n{literal}\n{a}{$b}\n{/literal}\ny"),
            ["T\"x\"", "T\"{a}{$b}\"", "T\"y\""]
        );
    }

    #[test]
    fn errors_carry_offsets() {
        let e = tokenize("ab{$x").unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(e.message.contains("unterminated tag"));
        let e = tokenize("ab\n{* x").unwrap_err();
        assert_eq!((e.offset, e.message.contains("comment")), (3, true));
        let e = tokenize("{literal}abc").unwrap_err();
        assert_eq!(e.offset, 0);
        let e = tokenize("a{}").unwrap_err();
        assert_eq!(e.offset, 1);
        let e = tokenize("a{#x}").unwrap_err();
        assert_eq!(e.offset, 2);
        let e = tokenize("{if:x}").unwrap_err();
        assert_eq!(e.offset, 3);
    }
}
