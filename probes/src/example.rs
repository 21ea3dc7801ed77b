//! A small example probe that stays until the kernel probes land.

fn words(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("w{:05}", (i * 7919) % n)).collect()
}

yardstick::probe! {
    name: example_sort,
    ops: 1000,
    note: "1,000 words sorted",
    setup: || Ok::<_, String>(words(1000)),
    run: |w: &Vec<String>| {
        let mut w = w.clone();
        w.sort_unstable();
        w
    },
    check: |_, sorted: &Vec<String>| {
        if sorted.len() == 1000 && sorted.windows(2).all(|p| p[0] < p[1]) {
            Ok(())
        } else {
            Err("words not sorted".to_string())
        }
    },
}
