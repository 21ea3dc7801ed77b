//! The forms `yardstick::probe!` takes: optional fields in any order, the
//! closure shapes each combination of `setup` and `setup_each` gives, the
//! unchecked note, and the fingerprint each kind of result gets without
//! code of its own. The misspelt, repeated and missing fields that must not
//! compile are the `compile_fail` examples of the macro's documentation.

use std::collections::BTreeMap;
use yardstick::Checksum;
use yardstick::probe::{Instance, Probe, registered};

fn squares() -> u64 {
    (1..=10u64).map(|i| i * i).sum()
}

fn check_squares(total: &u64) -> Result<(), String> {
    if *total == 385 {
        Ok(())
    } else {
        Err(format!("sum {total}"))
    }
}

// The least: a name and the work.
yardstick::probe! { name: bare, run: || (1..=10u64).map(|i| i * i).sum::<u64>() }

// Any order, functions for closures, no trailing comma.
yardstick::probe! {
    check: check_squares,
    run: squares,
    name: checked_stateless
}

yardstick::probe! {
    note: |words: &Vec<String>| format!("{} words", words.len()),
    name: stateful,
    ops: 2 * 50,
    run: |words| words.join(" ").len(),
    setup: || Ok::<_, String>(vec!["a".to_string(), "bc".to_string()]),
    check: |words, len| if *len == words.len() * 2 { Ok(()) } else { Err(format!("{len}")) },
}

// A fresh input per iteration, without and with state.
yardstick::probe! {
    name: each_stateless,
    setup_each: || vec![3u32, 1, 2],
    run: |mut v: Vec<u32>| { v.sort_unstable(); v },
    check: |v| if v == &[1, 2, 3] { Ok(()) } else { Err(format!("{v:?}")) },
}

yardstick::probe! {
    run: |_, mut w| { w.sort(); w },
    setup_each: |words: &Vec<String>| words.clone(),
    setup: || Ok::<_, String>(vec!["b".to_string(), "a".to_string()]),
    note: "2 words sorted",
    name: each_stateful,
}

// The six-field form of earlier releases, shuffled.
yardstick::probe! {
    check: |_, total: &u64| check_squares(total),
    run: |n: &u64| (1..=*n).map(|i| i * i).sum::<u64>(),
    setup: || Ok::<_, String>(10u64),
    note: "ten squares",
    ops: 10,
    name: six_fields,
}

/// A result with `Hash` and nothing else.
#[derive(Hash)]
struct Tally {
    right: usize,
    first_wrong: Option<usize>,
}

/// A result with neither `Hash` nor `Checksum`.
struct Opaque(#[allow(dead_code)] f64);

yardstick::probe! { name: hashed, run: || Tally { right: 3, first_wrong: None } }
yardstick::probe! { name: floats, run: || (0.5f64, vec![1.5f32], "x".to_string()) }
yardstick::probe! { name: opaque, run: || Opaque(1.0) }
yardstick::probe! { name: map, run: || BTreeMap::from([("a", 1.0f64)]) }
yardstick::probe! { name: failing_setup, setup: || Err::<u8, _>("no file"), run: |x: &u8| *x }

fn probe(name: &str) -> &'static Probe {
    let probes = registered().unwrap_or_else(|e| panic!("{e}"));
    match probes.into_iter().find(|p| p.name == name) {
        Some(p) => p,
        None => panic!("{name} is not registered"),
    }
}

/// `name` set up and checked, as the harness does before timing it.
fn verified(name: &str) -> Box<dyn Instance> {
    let mut instance = (probe(name).prepare)().unwrap_or_else(|e| panic!("{name}: {e}"));
    instance
        .verify()
        .unwrap_or_else(|e| panic!("{name}: check failed: {e}"));
    instance
}

#[test]
fn optional_fields_take_their_defaults() {
    let bare = verified("bare");
    assert_eq!(probe("bare").ops, 1);
    assert_eq!(bare.note(), "unchecked");
    assert_eq!(bare.checksum(), Some(385));
    let checked = verified("checked_stateless");
    assert_eq!(checked.note(), "");
    assert_eq!(checked.checksum(), Some(385));
}

#[test]
fn state_comes_first_in_every_closure() {
    let p = probe("stateful");
    assert_eq!(p.ops, 100);
    let mut s = verified("stateful");
    assert_eq!(s.note(), "2 words");
    assert_eq!(s.checksum(), Some(4));
    s.run(3);
    let six = verified("six_fields");
    assert_eq!(
        (six.note().as_str(), six.checksum()),
        ("ten squares", Some(385))
    );
    assert_eq!(probe("six_fields").ops, 10);
}

#[test]
fn each_iteration_gets_a_fresh_input() {
    let mut plain = verified("each_stateless");
    assert_eq!(plain.checksum(), Some(vec![1u32, 2, 3].checksum()));
    let mut sorted = verified("each_stateful");
    assert_eq!(sorted.note(), "2 words sorted (unchecked)");
    let expected = vec!["a".to_string(), "b".to_string()].checksum();
    assert_eq!(sorted.checksum(), Some(expected));
    for instance in [&mut plain, &mut sorted] {
        let chunk = instance.make_inputs(10);
        assert_eq!(chunk, 10);
        instance.run(chunk);
    }
}

#[test]
fn every_result_is_fingerprinted_without_code_of_its_own() {
    let hashed = verified("hashed").checksum();
    assert!(hashed.is_some());
    assert_eq!(hashed, verified("hashed").checksum(), "deterministic");
    let floats = verified("floats").checksum();
    assert_eq!(
        floats,
        Some((0.5f64, vec![1.5f32], "x".to_string()).checksum())
    );
    assert!(verified("map").checksum().is_some());
    // Neither `Hash` nor `Checksum`: it still compiles and runs, without a
    // fingerprint.
    let mut opaque = verified("opaque");
    assert_eq!(opaque.checksum(), None);
    opaque.run(2);
}

#[test]
fn a_failing_setup_fails_the_probe() {
    let err = (probe("failing_setup").prepare)().err();
    assert_eq!(err.as_deref(), Some("setup failed: no file"));
}
