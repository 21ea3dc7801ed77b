//! The [`main!`](macro@crate::main) macro, which makes a bench target's
//! `main`. It lives beside the harness it calls; `probe!`, which code under
//! test calls, lives in the light crate `yardstick-probe`.

/// The `main` of a bench target (`harness = false`): measures under
/// `cargo bench`, runs each probe once as a test under `cargo test`, and
/// exits with [`run_main`](crate::run_main)'s code.
///
/// ```
/// // benches/micro.rs, with `[[bench]] name = "micro" harness = false`
/// yardstick::main!(mycrate, other_crate);
/// # mod mycrate {} mod other_crate {}
/// # main(); // rustdoc wraps the example in a `main`: run the one it writes
/// ```
///
/// Name every library crate whose probes the bench runs. Probes register
/// through `inventory`, in a static the crate's code never mentions, and
/// rustc links only the dependencies a target names: a library that the
/// bench names nowhere is left out of the link, and its probes vanish
/// without an error (the run then has none of them, or none at all). For
/// each crate the macro writes `use mycrate as _;`, which names it; probes
/// in the bench file itself need no name (`yardstick::main!()`).
///
/// A bench runs the probes of one suite: `micro` unless it names another.
/// Probes that hold state or are whole processes say `suite: kernel` and
/// run in their own bench, judged as absolute times (kernel mode):
///
/// ```
/// // benches/kernel.rs, with `[[bench]] name = "kernel" harness = false`
/// yardstick::main!(suite: kernel, mycrate);
/// # mod mycrate {}
/// # main(); // rustdoc wraps the example in a `main`: run the one it writes
/// ```
///
/// Two crates add to what a bench does when it depends on them and names
/// them, as it names its probes' crates: `yardstick_report` draws its run
/// as one page (`--html`), and `yardstick_history` keeps its runs in a
/// SQLite history (`--record`, `--baseline=history`) instead of as files.
/// A bench that links neither refuses those options before it measures;
/// one that does not depend on them builds no plotting and no SQLite.
///
/// ```
/// yardstick::main!(mycrate, yardstick_report, yardstick_history);
/// # mod mycrate {} mod yardstick_report {} mod yardstick_history {}
/// # main(); // rustdoc wraps the example in a `main`: run the one it writes
/// ```
///
/// A bench may declare parameters of its own, which its probes read with
/// [`param`](crate::param) (see [`probe::param`](crate::probe::param)):
///
/// ```
/// yardstick::main!(
///     suite: kernel,
///     params: [node: i64 = "the node to render (default: the front page)"],
///     mycrate,
/// );
/// # mod mycrate {}
/// # main(); // rustdoc wraps the example in a `main`: run the one it writes
/// ```
#[macro_export]
macro_rules! main {
    (suite: $suite:ident, params: [$($params:tt)*] $(, $krate:ident)* $(,)?) => {
        $crate::main!(@main ::core::stringify!($suite), [$($params)*] $($krate)*);
    };
    (suite: $suite:ident $(, $krate:ident)* $(,)?) => {
        $crate::main!(@main ::core::stringify!($suite), [] $($krate)*);
    };
    (params: [$($params:tt)*] $(, $krate:ident)* $(,)?) => {
        $crate::main!(@main $crate::probe::DEFAULT_SUITE, [$($params)*] $($krate)*);
    };
    (@main $suite:expr, [$($name:ident: $kind:ty = $help:literal),* $(,)?] $($krate:ident)*) => {
        $(
            #[allow(unused_imports)]
            use $krate as _;
        )*
        fn main() {
            ::std::process::exit($crate::run_bench($suite, &[$(
                $crate::probe::Param {
                    name: ::core::stringify!($name),
                    kind: ::core::stringify!($kind),
                    help: $help,
                    check: $crate::probe::param::check_as::<$kind>,
                }
            ),*]));
        }
    };
    ($($krate:ident),* $(,)?) => {
        $crate::main!(@main $crate::probe::DEFAULT_SUITE, [] $($krate)*);
    };
}
