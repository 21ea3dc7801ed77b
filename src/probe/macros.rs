//! The [`probe!`](macro@crate::probe) macro: one call registers a probe.

/// Registers a probe. One call, in the file where the probe's work lives.
///
/// ```
/// fn words(n: usize) -> Vec<String> {
///     (0..n).rev().map(|i| format!("w{i:04}")).collect()
/// }
///
/// yardstick::probe! {
///     name: words_sort,
///     ops: 1000,
///     note: "1,000 words sorted",
///     setup: || Ok::<_, String>(words(1000)),
///     run: |words: &Vec<String>| { let mut w = words.clone(); w.sort(); w },
///     check: |_, sorted: &Vec<String>| {
///         if sorted.windows(2).all(|p| p[0] <= p[1]) { Ok(()) } else { Err("not sorted".into()) }
///     },
/// }
/// # fn main() {
/// #     let p = yardstick::probe::registered().unwrap();
/// #     assert!(p.iter().any(|p| p.name == "words_sort"));
/// # }
/// ```
///
/// - `setup` runs once, untimed, and returns `Result<State, impl Display>`.
/// - `run` is the timed work, one iteration; its result goes through
///   `black_box`. Its fingerprint (the row's `checksum`) is taken once,
///   untimed, of the result `check` sees: by its
///   [`Checksum`](crate::Checksum) if it has one, else by its `Hash`, else
///   none.
/// - `check` verifies one result before anything is timed.
/// - `note` is a string literal, or `|state| String` to describe the input.
#[macro_export]
macro_rules! probe {
    (
        name: $name:ident,
        ops: $ops:expr,
        note: $note:literal,
        setup: $setup:expr,
        run: $run:expr,
        check: $check:expr $(,)?
    ) => {
        $crate::probe!(@register $name, $ops, $crate::probe::Note::Fixed($note), $setup, $run, $check);
    };
    (
        name: $name:ident,
        ops: $ops:expr,
        note: $note:expr,
        setup: $setup:expr,
        run: $run:expr,
        check: $check:expr $(,)?
    ) => {
        $crate::probe!(@register $name, $ops, $crate::probe::Note::Computed($note), $setup, $run, $check);
    };
    (@register $name:ident, $ops:expr, $note:expr, $setup:expr, $run:expr, $check:expr) => {
        const _: () = {
            fn __yardstick_prepare()
                -> ::core::result::Result<::std::boxed::Box<dyn $crate::probe::Instance>, ::std::string::String>
            {
                $crate::probe::build::setup($setup)
                    .run($run)
                    .fingerprint($crate::probe!(@fingerprint))
                    .check($check)
                    .note($note)
                    .build()
            }
            $crate::inventory::submit! {
                $crate::probe::Probe {
                    name: ::core::stringify!($name),
                    ops: $ops,
                    file: ::core::file!(),
                    line: ::core::line!(),
                    prepare: __yardstick_prepare,
                }
            }
        };
    };
    // The result's fingerprint, chosen at its concrete type (see
    // `probe::fingerprint`).
    (@fingerprint) => {
        |out| {
            #[allow(unused_imports)]
            use $crate::probe::fingerprint::{ByChecksum as _, ByHash as _, Unfingerprinted as _};
            (&&&$crate::probe::fingerprint::Of(out)).fingerprint()
        }
    };
}
