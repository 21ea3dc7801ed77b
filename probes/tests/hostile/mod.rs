//! Templates shaped as an attacker would shape them: nesting that grows the
//! syntax tree, and loops that grow memory. Each is a function of its size,
//! so the test can try sizes far past the limits and the `template_limits`
//! example can search for the largest size that still renders.

/// How a shape should end: in an error at compile time or while
/// rendering, or rendered in bounded work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Compile,
    Render,
    Finish,
}

pub struct Shape {
    pub name: &'static str,
    pub stage: Stage,
    /// A size far past the limits: what the engine must withstand.
    pub hostile: usize,
    pub source: fn(usize) -> String,
}

fn nested(open: &str, middle: &str, close: &str, n: usize) -> String {
    format!("{}{middle}{}", open.repeat(n), close.repeat(n))
}

/// `$a` to `$d`: four levels of `n` references each to the one below,
/// `n` bytes of references a level and `n⁴` elements to walk.
fn shared_levels(n: usize) -> String {
    format!(
        "{{def $a=array(1)|repeat({n})}}{{def $b=array($a)|repeat({n})}}\
         {{def $c=array($b)|repeat({n})}}{{def $d=array($c)|repeat({n})}}"
    )
}

pub const SHAPES: &[Shape] = &[
    Shape {
        name: "a chain of pipes",
        stage: Stage::Compile,
        hostile: 25_000,
        source: |n| format!("{{1{}}}", "|sum(1)".repeat(n)),
    },
    Shape {
        name: "pipes each followed by an attribute",
        stage: Stage::Compile,
        hostile: 25_000,
        source: |n| format!("{{$h{}}}", "|extract(0).b".repeat(n)),
    },
    Shape {
        name: "parentheses",
        stage: Stage::Compile,
        hostile: 25_000,
        source: |n| format!("{{sum({})}}", nested("(", "1", ")", n)),
    },
    Shape {
        name: "calls",
        stage: Stage::Compile,
        hostile: 25_000,
        source: |n| format!("{{{}}}", nested("sum(", "1", ")", n)),
    },
    Shape {
        name: "indexes",
        stage: Stage::Compile,
        hostile: 25_000,
        source: |n| format!("{{{}}}", nested("$a[", "0", "]", n)),
    },
    Shape {
        name: "blocks",
        stage: Stage::Compile,
        hostile: 25_000,
        source: |n| nested("{if 1}", "x", "{/if}", n),
    },
    Shape {
        name: "a string doubled by concat",
        stage: Stage::Render,
        hostile: 40,
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
        hostile: 40,
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
        hostile: 200_000,
        source: |n| {
            format!(
                "{{def $a=array()}}{{for 1 to {n} as $i}}{{set $a=array($a)}}{{/for}}{{$a|count}}"
            )
        },
    },
    Shape {
        name: "64 KB printed in a loop",
        stage: Stage::Render,
        hostile: 200_000,
        source: |n| format!("{{def $s='x'|repeat(65536)}}{{for 1 to {n} as $i}}{{$s}}{{/for}}"),
    },
    Shape {
        name: "64 KB captured and kept in a loop",
        stage: Stage::Render,
        hostile: 200_000,
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
        hostile: 10_000,
        source: |n| format!("{{def $s='\\n'|repeat(65536)|repeat(16)}}{{$s|indent({n})|count}}"),
    },
    Shape {
        name: "text exploded into n × 64 KB characters",
        stage: Stage::Render,
        hostile: 256,
        source: |n| format!("{{def $s='x'|repeat(65536)|repeat({n})}}{{$s|explode('')|count}}"),
    },
    Shape {
        name: "a text squared by i18n",
        stage: Stage::Render,
        hostile: 8,
        source: |n| {
            format!(
                "{{def $s='%1%1'}}{}{{$s|count}}",
                "{set $s=$s|i18n('','',array($s))}\n".repeat(n)
            )
        },
    },
    Shape {
        name: "an attribute dump of n × n × n × n shared elements",
        stage: Stage::Render,
        hostile: 1_000,
        source: |n| format!("{}{{$d|attribute(show,4)|count}}", shared_levels(n)),
    },
    Shape {
        name: "n × 64 KB of quotes washed",
        stage: Stage::Render,
        hostile: 256,
        source: |n| format!("{{def $s='\"'|repeat(65536)|repeat({n})}}{{$s|wash|count}}"),
    },
    Shape {
        name: "one 64 KB text imploded n × 16 times",
        stage: Stage::Render,
        hostile: 4_096,
        source: |n| {
            format!(
                "{{def $s='x'|repeat(65536)}}{{def $a=array($s)|repeat(16)|repeat({n})}}\
                 {{$a|implode('')|count}}"
            )
        },
    },
    Shape {
        name: "an 8 MB string searched n times",
        stage: Stage::Render,
        hostile: 1_000_000,
        source: |n| {
            format!(
                "{{def $s='x'}}{}{{for 1 to {n} as $i}}{{if $s|contains('y')}}y{{/if}}{{/for}}",
                "{set $s=concat($s,$s)}".repeat(23)
            )
        },
    },
    Shape {
        name: "two values of n × n × n × n shared elements compared",
        stage: Stage::Finish,
        hostile: 1_000,
        source: |n| {
            format!(
                "{}{{def $e=array($c)|repeat({n})}}{{if eq($d,$e)}}equal{{/if}}\
                 {{if compare($d,$e)}}equal{{/if}}{{if $d|contains($c)}}in{{/if}}",
                shared_levels(n)
            )
        },
    },
];
