//! A user's library: two functions and, beside them, the probes that time
//! them. The probes compile into the library through yardstick's light
//! crate, `yardstick-probe`, which adds only `inventory`.

/// Words of `n` letters, `count` of them, in a fixed order.
pub fn words(count: usize, n: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            (0..n)
                .map(|k| char::from(b'a' + ((i * 7 + k * 3) % 26) as u8))
                .collect()
        })
        .collect()
}

/// The number of distinct words.
pub fn distinct(words: &[String]) -> usize {
    let mut sorted: Vec<&String> = words.iter().collect();
    sorted.sort();
    sorted.dedup();
    sorted.len()
}

yardstick_probe::probe! {
    name: user_words,
    ops: 1000,
    run: || words(1000, 8),
    check: |w| if w.len() == 1000 { Ok(()) } else { Err(format!("{} words", w.len())) },
}

yardstick_probe::probe! {
    name: user_distinct,
    ops: 1000,
    note: "distinct words among 1,000",
    setup: || Ok::<_, String>(words(1000, 8)),
    run: |w| distinct(w),
    check: |_, n| if *n == 26 { Ok(()) } else { Err(format!("{n} distinct")) },
}
