use super::*;
use proptest::prelude::*;

/// `main` runs 10 instructions itself and calls `work` twice (300, its
/// callees included); `work` runs 200 itself and calls `leaf` (100);
/// `work'2` is `work` called from within itself (50 of its own).
const OUTPUT: &str = "# callgrind format
version: 1
creator: callgrind-3.19.0
positions: line
events: Ir

ob=(1) /bin/probe
fl=(1) src/main.rs
fn=(1) main
1 4
+2 6
cfl=(1)
cfn=(2) work
calls=2 10
* 300

fn=(2)
10 150
cfn=(3) leaf
calls=1 20
+1 100
cfn=(4) work'2
calls=1 10
* 50

fn=(4)
10 50

fn=(3)
20 100
totals: 310
";

fn find<'a>(f: &'a Functions, name: &str) -> &'a Function {
    f.top
        .iter()
        .find(|x| x.name == name)
        .unwrap_or_else(|| panic!("{name} kept"))
}

#[test]
fn own_costs_leave_out_calls_and_inclusive_ones_take_them_in() {
    let f = functions(OUTPUT, 1, 1).expect("a callgrind output");
    // `work` and `work'2` are one function: 150 + 50 of its own.
    assert_eq!(f.top.len(), 3);
    assert_eq!(f.top[0].name, "work");
    assert_eq!(find(&f, "work").own.instructions, Some(200.0));
    assert_eq!(find(&f, "main").own.instructions, Some(10.0));
    assert_eq!(find(&f, "leaf").own.instructions, Some(100.0));
    // Inclusive: its own and its calls' (a call to itself is its own).
    assert_eq!(find(&f, "main").inclusive.instructions, Some(310.0));
    assert_eq!(find(&f, "work").inclusive.instructions, Some(300.0));
    let own: f64 = f.top.iter().filter_map(|x| x.own.instructions).sum();
    assert_eq!(own, 310.0, "the own costs add up to the total");
    assert_eq!(f.other, Counted::default());
    // The calls, by place in `top`, costliest first.
    let named: Vec<(&str, &str, f64)> = f
        .calls
        .iter()
        .map(|c| {
            (
                f.top[c.caller].name.as_str(),
                f.top[c.callee].name.as_str(),
                c.inclusive.instructions.unwrap_or(0.0),
            )
        })
        .collect();
    assert_eq!(
        named,
        vec![("main", "work", 300.0), ("work", "leaf", 100.0)]
    );
}

#[test]
fn counts_are_per_iteration_of_the_batch() {
    let f = functions(OUTPUT, 10, 10).expect("a callgrind output");
    assert_eq!(find(&f, "work").own.instructions, Some(20.0));
    assert_eq!(find(&f, "main").inclusive.instructions, Some(31.0));
}

#[test]
fn the_cache_events_give_each_function_its_estimated_cycles() {
    let text = "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n\
                fn=(1) hot\n1 100 50 0 0 10 0 0 10\n\
                fn=(2) cold\n1 100\n";
    let f = functions(text, 1, 1).expect("a callgrind output");
    // `hot`: 150 accesses, 10 missed both levels: 140 + 35 × 10.
    assert_eq!(f.top[0].name, "hot");
    assert_eq!(f.top[0].own.estimated_cycles, Some(140.0 + 350.0));
    assert_eq!(f.top[0].own.ll_misses, Some(10.0));
    assert_eq!(f.top[1].own.estimated_cycles, Some(100.0));
}

#[test]
fn the_functions_kept_cover_most_of_the_count_and_the_rest_is_summed() {
    // One function of 10,000 and 300 of 1: the big one covers 97 %, so
    // 99 % takes some of the small ones too, and the rest are `other`.
    let mut text = String::from("events: Ir\nfn=(0) big\n1 10000\n");
    for i in 1..=300 {
        text.push_str(&format!("fn=({i}) small{i:03}\n1 1\n"));
    }
    let f = functions(&text, 1, 1).expect("a callgrind output");
    let kept: f64 = f.top.iter().filter_map(|x| x.own.instructions).sum();
    let total = 10_000.0 + 300.0;
    assert!(kept >= 0.99 * total && f.top.len() < 301, "{}", f.top.len());
    assert_eq!(kept + f.other.instructions.unwrap_or(0.0), total);
    // Equal costs keep the same ones each time: by name.
    assert_eq!(f.top[1].name, "small001");

    // Never more than MAX_FUNCTIONS, whatever the coverage.
    let mut flat = String::from("events: Ir\n");
    for i in 0..1000 {
        flat.push_str(&format!("fn=({i}) f{i}\n1 5\n"));
    }
    let f = functions(&flat, 1, 1).expect("a callgrind output");
    assert_eq!(f.top.len(), MAX_FUNCTIONS);
    assert_eq!(
        f.other.instructions,
        Some(5.0 * (1000 - MAX_FUNCTIONS) as f64)
    );
}

#[test]
fn a_caller_of_little_own_cost_is_kept_for_its_subtree() {
    // `zmain` costs 1 itself, sorting after 300 small functions of 1, and
    // calls `big`: its subtree is nearly everything, so it is kept.
    let mut text = String::from("events: Ir\nfn=(0) zmain\n1 1\ncfn=(1) big\ncalls=1 1\n1 10000\n");
    text.push_str("fn=(1)\n1 10000\n");
    for i in 2..=301 {
        text.push_str(&format!("fn=({i}) small{i:03}\n1 1\n"));
    }
    let f = functions(&text, 1, 1).expect("a callgrind output");
    assert_eq!(find(&f, "zmain").inclusive.instructions, Some(10_001.0));
    let kept: f64 = f.top.iter().filter_map(|x| x.own.instructions).sum();
    assert_eq!(kept + f.other.instructions.unwrap_or(0.0), 10_301.0);
    assert!(
        f.calls
            .iter()
            .any(|c| f.top[c.caller].name == "zmain" && f.top[c.callee].name == "big")
    );
}

#[test]
fn the_knob_s_extra_iterations_are_a_function_of_their_own() {
    // 12 iterations run for a batch of 10: 20 % injected.
    let f = functions(OUTPUT, 10, 12).expect("a callgrind output");
    // Each function per iteration run: `work`'s 200 over 12.
    assert_eq!(find(&f, "work").own.instructions, Some(200.0 / 12.0));
    let injected = find(&f, INJECTED).own.instructions.unwrap_or(0.0);
    assert!((injected - (310.0 / 10.0 - 310.0 / 12.0)).abs() < 1e-9);
    // The own costs still add up to the row's count, over the batch.
    let own: f64 = f.top.iter().filter_map(|x| x.own.instructions).sum();
    assert!((own - 31.0).abs() < 1e-9, "{own}");
}

#[test]
fn an_address_without_a_symbol_is_kept_as_callgrind_names_it() {
    let f = functions("events: Ir\nfn=(1) 0x000000000012abcd\n1 7\n", 1, 1).expect("read");
    assert_eq!(f.top[0].name, "0x000000000012abcd");
}

#[test]
fn what_cannot_be_followed_keeps_no_functions() {
    for bad in [
        "",
        "fn=(1) f\n1 5\n",                // no events
        "events: Ir\n1 5\n",              // a cost before any function
        "events: Ir\nfn=(1) f\n1 many\n", // not a number
        "events: Ir\nfn=(7)\n1 5\n",      // an id never defined
        "events: Ir\nfn=(1) f\n1 5 6\n",  // more costs than events
        "events: Ir\nfn=(1 f\n1 5\n",     // a broken id
    ] {
        assert_eq!(functions(bad, 1, 1), None, "{bad:?}");
    }
}

#[test]
fn recursion_marks_fold_and_other_quotes_stay() {
    assert_eq!(folded("work'2"), "work");
    assert_eq!(folded("work'12"), "work");
    assert_eq!(folded("it's"), "it's");
    assert_eq!(folded("'2"), "'2");
    assert_eq!(folded("f'"), "f'");
}

proptest! {
    /// No input makes the reader panic, and what it reads adds up.
    #[test]
    fn any_text_is_read_or_refused_without_a_panic(text in "\\PC{0,400}") {
        let _ = functions(&text, 3, 4);
    }

    #[test]
    fn any_lines_of_the_format_are_read_or_refused_without_a_panic(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw".to_string()),
                Just("positions: instr line".to_string()),
                "fn=\\([0-9]{1,2}\\)( [a-z']{0,6})?",
                "cfn=\\([0-9]{1,2}\\)( [a-z']{0,6})?",
                "calls=[0-9]{1,3} [0-9]{1,3}",
                "[+*-]?[0-9]{1,3}( [0-9]{1,20}){0,10}",
            ],
            0..40,
        ),
        batch in 0u64..10,
        extra in 0u64..3,
    ) {
        if let Some(f) = functions(&lines.join("\n"), batch, batch + extra) {
            prop_assert!(f.top.len() <= MAX_FUNCTIONS && f.calls.len() <= MAX_CALLS);
            for call in &f.calls {
                prop_assert!(f.at(call.caller).is_some() && f.at(call.callee).is_some());
            }
        }
    }
}
