//! Builds the syntax tree: pairs block tags with their closing tags and
//! parses each known function's arguments in the shape it expects.
//!
//! Unknown function tags are common in real designs (extensions add their
//! own); one is a block when a matching close tag still follows, otherwise a
//! bodiless function. Their arguments are kept unparsed.

use std::collections::HashMap;

use super::ast::{Args, Node, Tag, Template};
use super::error::{LineIndex, Span, TemplateError};
use super::expr::Cursor;
use super::lexer::{LexError, Token, tokenize};

/// Deeper block nesting than any design needs; keeps later recursive passes
/// safe from hostile input.
const MAX_NESTING: usize = 200;

/// How a known function tag takes its arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Cond,
    Params,
    /// Parameters whose names may start with `$` (`{let $a=1}`).
    VarParams,
    Vars,
    Foreach,
    For,
}

/// The function tags the engine implements: whether each is a block, and
/// how its arguments are written.
fn known(name: &str) -> Option<(bool, Shape)> {
    Some(match name {
        "if" | "while" => (true, Shape::Cond),
        "elseif" => (false, Shape::Cond),
        "foreach" => (true, Shape::Foreach),
        "for" => (true, Shape::For),
        "switch" | "case" | "section" | "cache-block" | "delimiter" | "do" | "set-block"
        | "run-once" => (true, Shape::Params),
        "let" | "default" => (true, Shape::VarParams),
        "attribute_view_gui" | "node_view_gui" | "content_view_gui" => (false, Shape::Params),
        "else" | "section-else" | "section-exclude" | "section-include" | "include" | "break"
        | "continue" | "skip" => (false, Shape::Params),
        "def" | "set" | "undef" => (false, Shape::Vars),
        _ => return None,
    })
}

/// Parses `source` (named `file` in messages) into a syntax tree.
pub fn parse(file: &str, source: &str) -> Result<Template, TemplateError> {
    let lines = LineIndex::new(source);
    let error = |e: LexError| TemplateError::at(file, source, &lines, e.offset as u32, e.message);
    let tokens = tokenize(source).map_err(error)?;
    let nodes = build(source, &lines, &tokens).map_err(error)?;
    Ok(Template {
        file: file.to_string(),
        source: source.to_string(),
        lines,
        nodes,
    })
}

struct Open {
    tag: Tag,
    nodes: Vec<Node>,
}

fn lex_err<T>(offset: u32, message: String) -> Result<T, LexError> {
    Err(LexError {
        offset: offset as usize,
        message,
    })
}

fn build(src: &str, lines: &LineIndex, tokens: &[Token]) -> Result<Vec<Node>, LexError> {
    let text = |s: Span| &src[s.start as usize..s.end as usize];
    // Close tags of each name still ahead, to tell unknown blocks from
    // unknown bodiless functions.
    let mut closers_ahead: HashMap<&str, usize> = HashMap::new();
    for t in tokens {
        if let Token::Close { name, .. } = t {
            *closers_ahead.entry(text(*name)).or_default() += 1;
        }
    }
    let mut unknown_open: HashMap<&str, usize> = HashMap::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut top: Vec<Node> = Vec::new();

    for token in tokens {
        let nodes = match stack.last_mut() {
            Some(open) => &mut open.nodes,
            None => &mut top,
        };
        match *token {
            Token::Text(span) => nodes.push(Node::Text(span)),
            Token::Brace { ch, .. } => nodes.push(Node::Brace(ch)),
            Token::Output { expr, .. } => {
                let mut c = Cursor::new(src, expr);
                let e = c.expr()?;
                c.expect_end("the expression")?;
                nodes.push(Node::Output(Box::new(e)));
            }
            Token::Open {
                name,
                args,
                bodiless,
                tag,
            } => {
                let name_text = text(name);
                let (is_block, args, is_known) = match known(name_text) {
                    Some((block, shape)) => (block, parse_args(src, shape, args)?, true),
                    None => {
                        let ahead = closers_ahead.get(name_text).copied().unwrap_or(0);
                        let open = unknown_open.entry(name_text).or_default();
                        let block = !bodiless && ahead > *open;
                        if block {
                            *open += 1;
                        }
                        (block, Args::Raw(args), false)
                    }
                };
                let tag = Tag {
                    name: name_text.to_string(),
                    span: tag,
                    args,
                    body: None,
                    close_args: Vec::new(),
                    known: is_known,
                };
                if is_block && !bodiless {
                    if stack.len() >= MAX_NESTING {
                        return lex_err(tag.span.start, "blocks nested too deeply".into());
                    }
                    stack.push(Open {
                        tag,
                        nodes: Vec::new(),
                    });
                } else if is_block {
                    // `{if $x /}`: a block written without a body.
                    nodes.push(Node::Tag(Box::new(Tag {
                        body: Some(Vec::new()),
                        ..tag
                    })));
                } else {
                    nodes.push(Node::Tag(Box::new(tag)));
                }
            }
            Token::Close { name, args, tag } => {
                let name_text = text(name);
                if let Some(n) = closers_ahead.get_mut(name_text) {
                    *n = n.saturating_sub(1);
                }
                let Some(open) = stack.pop() else {
                    return lex_err(
                        tag.start,
                        format!("close tag {{/{name_text}}} without an open tag"),
                    );
                };
                if open.tag.name != name_text {
                    let (line, col) = lines.position(src, open.tag.span.start);
                    return lex_err(
                        tag.start,
                        format!(
                            "mismatched close tag {{/{name_text}}}: {{{}}} opened at {line}:{col} is still open",
                            open.tag.name
                        ),
                    );
                }
                if !open.tag.known
                    && let Some(n) = unknown_open.get_mut(name_text)
                {
                    *n = n.saturating_sub(1);
                }
                let close_args = if open.tag.known {
                    Cursor::new(src, args).params()?
                } else {
                    Vec::new()
                };
                let node = Node::Tag(Box::new(Tag {
                    body: Some(open.nodes),
                    close_args,
                    ..open.tag
                }));
                match stack.last_mut() {
                    Some(parent) => parent.nodes.push(node),
                    None => top.push(node),
                }
            }
        }
    }
    if let Some(open) = stack.last() {
        return lex_err(
            open.tag.span.start,
            format!(
                "unclosed block {{{}}}: no {{/{}}} follows",
                open.tag.name, open.tag.name
            ),
        );
    }
    Ok(top)
}

fn parse_args(src: &str, shape: Shape, args: Span) -> Result<Args, LexError> {
    let mut c = Cursor::new(src, args);
    let parsed = match shape {
        Shape::Cond => {
            if c.at_end() {
                return lex_err(args.end, "expected a condition".into());
            }
            let cond = c.expr()?;
            // `{if $list name=List loop=$list}`: dropped, but still parsed,
            // so a malformed leftover is a positioned error.
            c.params()?;
            Args::Cond(cond)
        }
        Shape::Params => Args::Params(c.params()?),
        Shape::VarParams => Args::Params(c.var_params()?),
        Shape::Vars => Args::Vars(c.assigns()?),
        Shape::Foreach => c.foreach()?,
        Shape::For => c.for_range()?,
    };
    c.expect_end("the arguments")?;
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(src: &str) -> (u32, u32, String) {
        let e = parse("t.tpl", src).unwrap_err();
        (e.line, e.column, e.message)
    }

    fn tag_names(nodes: &[Node]) -> String {
        nodes
            .iter()
            .map(|n| match n {
                Node::Tag(t) => match &t.body {
                    Some(b) => format!("{}[{}]", t.name, tag_names(b)),
                    None => t.name.clone(),
                },
                Node::Text(_) => "t".into(),
                Node::Output(_) => "o".into(),
                Node::Brace(c) => c.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn blocks_nest_and_intermediate_tags_stay_inline() {
        let t = parse("t", "{if 1}a{elseif 2}b{else}{$c}{/if}{ldelim}").unwrap();
        assert_eq!(tag_names(&t.nodes), "if[t elseif t else o] {");
    }

    #[test]
    fn unknown_tags_are_blocks_only_when_closed_later() {
        let t = parse("t", "{x a}{y}{x}b{/x}{z /}").unwrap();
        assert_eq!(tag_names(&t.nodes), "x[y x t] z");
        let t = parse("t", "{w}{w}{/w}").unwrap();
        assert_eq!(tag_names(&t.nodes), "w[w]");
    }

    #[test]
    fn do_while_reads_its_close_parameters() {
        let t = parse("t", "{do}x{/do while=$a}").unwrap();
        let Node::Tag(tag) = &t.nodes[0] else {
            panic!()
        };
        assert_eq!(tag.close_args[0].name, "while");
    }

    #[test]
    fn structural_errors_have_exact_positions() {
        let (l, c, m) = err("a\n  {if 1}\nb");
        assert_eq!((l, c), (2, 3));
        assert!(m.contains("unclosed block {if}"), "{m}");
        let (l, c, m) = err("{if 1}\n{foreach $a as $b}{/if}");
        assert_eq!((l, c), (2, 19));
        assert!(m.contains("mismatched close tag {/if}"), "{m}");
        let (l, c, m) = err("x{/section}");
        assert_eq!((l, c), (1, 2));
        assert!(m.contains("without an open tag"), "{m}");
        let (l, c, m) = err("{def $a='x}\n");
        assert_eq!((l, c, m.as_str()), (1, 9, "unterminated string"));
        let (l, c, _) = err("{if}");
        assert_eq!((l, c), (1, 4));
        let (l, c, m) = err("{foreach $a $b}");
        assert_eq!((l, c), (1, 13));
        assert!(m.contains("expected `as`"), "{m}");
        let (l, c, _) = err("{$a|wash(}");
        assert_eq!((l, c), (1, 9));
    }
}
