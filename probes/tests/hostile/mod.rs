//! Templates shaped as an attacker would shape them: nesting that grows the
//! syntax tree, and loops that grow memory. Each is a function of its size,
//! so the test can try sizes far past the limits and the `template_limits`
//! example can search for the largest size that still renders.

/// How a shape should end: at compile time or while rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Compile,
    Render,
}

pub struct Shape {
    pub name: &'static str,
    pub stage: Stage,
    pub source: fn(usize) -> String,
}

fn nested(open: &str, middle: &str, close: &str, n: usize) -> String {
    format!("{}{middle}{}", open.repeat(n), close.repeat(n))
}

pub const SHAPES: &[Shape] = &[
    Shape {
        name: "a chain of pipes",
        stage: Stage::Compile,
        source: |n| format!("{{1{}}}", "|sum(1)".repeat(n)),
    },
    Shape {
        name: "pipes each followed by an attribute",
        stage: Stage::Compile,
        source: |n| format!("{{$h{}}}", "|extract(0).b".repeat(n)),
    },
    Shape {
        name: "parentheses",
        stage: Stage::Compile,
        source: |n| format!("{{sum({})}}", nested("(", "1", ")", n)),
    },
    Shape {
        name: "calls",
        stage: Stage::Compile,
        source: |n| format!("{{{}}}", nested("sum(", "1", ")", n)),
    },
    Shape {
        name: "indexes",
        stage: Stage::Compile,
        source: |n| format!("{{{}}}", nested("$a[", "0", "]", n)),
    },
    Shape {
        name: "blocks",
        stage: Stage::Compile,
        source: |n| nested("{if 1}", "x", "{/if}", n),
    },
    Shape {
        name: "a string doubled by concat",
        stage: Stage::Render,
        source: |n| {
            format!(
                "{{def $s='0123456789abcdef'}}{}{{$s|count}}",
                "{set $s=concat($s,$s)}\n".repeat(n)
            )
        },
    },
    Shape {
        name: "an array doubled by merge",
        stage: Stage::Render,
        source: |n| {
            format!(
                "{{def $a=array(1,2,3,4)}}{}{{$a|count}}",
                "{set $a=$a|merge($a)}\n".repeat(n)
            )
        },
    },
    Shape {
        name: "an array nested in a loop",
        stage: Stage::Render,
        source: |n| {
            format!(
                "{{def $a=array()}}{{for 1 to {n} as $i}}{{set $a=array($a)}}{{/for}}{{$a|count}}"
            )
        },
    },
    Shape {
        name: "64 KB printed in a loop",
        stage: Stage::Render,
        source: |n| format!("{{def $s='x'|repeat(65536)}}{{for 1 to {n} as $i}}{{$s}}{{/for}}"),
    },
    Shape {
        name: "64 KB captured and kept in a loop",
        stage: Stage::Render,
        source: |n| {
            format!(
                "{{def $l=array() $s='x'|repeat(65536)}}{{for 1 to {n} as $i}}\
                 {{set-block variable=c}}{{$s}}{{/set-block}}{{set $l=$l|append($c)}}{{/for}}{{$l|count}}"
            )
        },
    },
    Shape {
        name: "lines indented n times",
        stage: Stage::Render,
        source: |n| format!("{{def $s='\\n'|repeat(65536)|repeat(16)}}{{$s|indent({n})|count}}"),
    },
    Shape {
        name: "text exploded into n × 64 KB characters",
        stage: Stage::Render,
        source: |n| format!("{{def $s='x'|repeat(65536)|repeat({n})}}{{$s|explode('')|count}}"),
    },
];
