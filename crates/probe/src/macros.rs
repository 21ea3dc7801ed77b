//! The [`probe!`](macro@crate::probe) macro, which registers a probe.

/// Registers a probe. One call, in the file where the probe's work lives.
///
/// `name` and `run` are required; the other fields are optional, and the
/// fields come in any order:
///
/// | field | what it is | default |
/// |---|---|---|
/// | `name` | unique snake_case identifier, the row's key in saved runs | required |
/// | `run` | one iteration of the work, timed | required |
/// | `setup` | `\|\| -> Result<State, impl Display>`, once, untimed; an error fails the probe | no state |
/// | `setup_each` | makes a fresh input for every iteration, untimed | no input |
/// | `check` | verifies one result before anything is timed: `Ok(())` or `Err(String)` | unchecked |
/// | `ops` | operations one iteration stands for | `1` |
/// | `note` | a string literal, or `\|state\| String` | empty |
/// | `suite` | the bench that runs it: `kernel` for stateful probes | `micro` |
/// | `group` | the workload this probe is one implementation of | none |
/// | `variant` | the implementation's name within its group | none (required with `group`) |
/// | `role` | `reference` (one per group), `contender` or `floor` | `contender` |
///
/// The closures take what the probe has, in this order: `&state` when there
/// is a `setup`, then (for `run`) the input when there is a `setup_each`,
/// or (for `check`) `&result`:
///
/// | fields | `setup_each` | `run` | `check` |
/// |---|---|---|---|
/// | neither | | `\|\| work()` | `\|result\| ...` |
/// | `setup` | | `\|state\| work(state)` | `\|state, result\| ...` |
/// | `setup_each` | `\|\| input()` | `\|input\| work(input)` | `\|result\| ...` |
/// | both | `\|state\| input(state)` | `\|state, input\| work(state, input)` | `\|state, result\| ...` |
///
/// The smallest probe:
///
/// ```
/// yardstick_probe::probe! {
///     name: sum_of_squares,
///     run: || (1..=1000u64).map(|i| i * i).sum::<u64>(),
///     check: |total| if *total == 333_833_500 { Ok(()) } else { Err(format!("sum {total}")) },
/// }
/// # fn main() {
/// #     let p = yardstick_probe::registered().unwrap();
/// #     assert!(p.iter().any(|p| p.name == "sum_of_squares"));
/// # }
/// ```
///
/// With state built once, and a fresh input per iteration, so that sorting
/// does not time the clone of its input (a `setup_each` input is made
/// before the timed section and consumed by one iteration):
///
/// ```
/// fn words(n: usize) -> Vec<String> {
///     (0..n).rev().map(|i| format!("w{i:04}")).collect()
/// }
///
/// yardstick_probe::probe! {
///     name: words_sort,
///     ops: 1000,
///     note: "1,000 words sorted",
///     setup: || Ok::<_, String>(words(1000)),
///     setup_each: |words| words.clone(),
///     run: |_, mut w: Vec<String>| { w.sort(); w },
///     check: |_, sorted| {
///         if sorted.windows(2).all(|p| p[0] <= p[1]) { Ok(()) } else { Err("not sorted".into()) }
///     },
/// }
/// # fn main() {}
/// ```
///
/// - `run`'s result goes through `black_box`, so the optimiser cannot drop
///   the work, and is dropped inside the timed loop. Its fingerprint (the
///   row's `checksum`) is taken once, untimed, of the result `check` sees:
///   by its [`Checksum`](crate::Checksum) if it has one, else by its
///   `Hash`, else none. No type needs code of its own for that.
/// - Without `check` the probe is timed unverified and its note ends in
///   "(unchecked)": a probe that computes the wrong thing, or that the
///   optimiser emptied, is then timed instead of caught. Write one.
/// - Probes of one `group` are variants of one workload, ranked against
///   its reference in the run's `groups` table (`ranking` in a saved run): each variant's median,
///   its ratio to the reference paired round by round, both with 95 %
///   intervals, and a winner only where every other variant's paired
///   ratio to it lies wholly beyond a ±2 % equivalence margin. A
///   variant must give the reference's result (the same fingerprint): one
///   that does not fails the run, however fast, so a variant that skips
///   work is caught. To hold results of different types to one
///   equivalence, return (or implement [`Checksum`](crate::Checksum) for)
///   the same canonical form. A `floor` (a bare scan that builds nothing)
///   checks only itself and is never called the winner. The registry
///   refuses a group without exactly one reference, and variants with
///   different `ops`:
///
/// ```
/// fn sum(n: u64) -> u64 { (1..=n).sum() }
///
/// yardstick_probe::probe! {
///     name: sum_iterate,
///     group: sum_to_1000,
///     variant: iterate,
///     role: reference,
///     run: || sum(std::hint::black_box(1000)),
///     check: |s| if *s == 500_500 { Ok(()) } else { Err(format!("{s}")) },
/// }
///
/// yardstick_probe::probe! {
///     name: sum_formula,
///     group: sum_to_1000,
///     variant: formula,
///     run: || { let n = std::hint::black_box(1000u64); n * (n + 1) / 2 },
///     check: |s| if *s == 500_500 { Ok(()) } else { Err(format!("{s}")) },
/// }
/// # fn main() { assert!(yardstick_probe::registered().is_ok()); }
/// ```
///
/// - A misspelt, repeated or missing field is a compile error that names
///   it:
///
/// ```compile_fail
/// yardstick_probe::probe! { name: typo, run: || 1u8, chek: |_| Ok(()) }
/// # fn main() {}
/// ```
/// ```compile_fail
/// yardstick_probe::probe! { run: || 1u8 }
/// # fn main() {}
/// ```
/// ```compile_fail
/// yardstick_probe::probe! { name: no_run, ops: 2 }
/// # fn main() {}
/// ```
/// ```compile_fail
/// yardstick_probe::probe! { name: twice, run: || 1u8, run: || 2u8 }
/// # fn main() {}
/// ```
/// ```compile_fail
/// yardstick_probe::probe! { name: lonely, group: load, run: || 1u8 }
/// # fn main() {}
/// ```
/// ```compile_fail
/// yardstick_probe::probe! { name: odd_role, group: load, variant: a, role: judge, run: || 1u8 }
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! probe {
    // Every field read: the slots are [name] [ops] [note] [setup]
    // [setup_each] [run] [check] [suite] [group] [variant] [role].
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt) => {
        $crate::probe!(@done $n $o $t $s $e $r $c $u $g $v $l);
    };
    (@munch [] $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt name: $x:ident $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch [$x] $o $t $s $e $r $c $u $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt [] $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt ops: $x:expr $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n [$x] $t $s $e $r $c $u $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt [] $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt note: $x:literal $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o [$crate::Note::Fixed($x)] $s $e $r $c $u $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt [] $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt note: $x:expr $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o [$crate::Note::Computed($x)] $s $e $r $c $u $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt $t:tt [] $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt setup: $x:expr $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o $t [$x] $e $r $c $u $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt $t:tt $s:tt [] $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt setup_each: $x:expr $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o $t $s [$x] $r $c $u $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt [] $c:tt $u:tt $g:tt $v:tt $l:tt run: $x:expr $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o $t $s $e [$x] $c $u $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt [] $u:tt $g:tt $v:tt $l:tt check: $x:expr $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o $t $s $e $r [$x] $u $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt [] $g:tt $v:tt $l:tt suite: $x:ident $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o $t $s $e $r $c [$x] $g $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt [] $v:tt $l:tt group: $x:ident $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o $t $s $e $r $c $u [$x] $v $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt [] $l:tt variant: $x:ident $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o $t $s $e $r $c $u $g [$x] $l $($($rest)*)?);
    };
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt [] role: $x:ident $(, $($rest:tt)*)?) => {
        $crate::probe!(@munch $n $o $t $s $e $r $c $u $g $v [$x] $($($rest)*)?);
    };
    // A field that did not take: unknown, given twice, or a value that is
    // not one expression followed by a comma.
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt
        $field:ident : $($rest:tt)*) => {
        $crate::probe!(@wrong $field $n $o $t $s $e $r $c $u $g $v $l);
    };
    (@munch $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt $l:tt $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "probe!: expected `field: value,` pairs, found `",
            ::core::stringify!($($rest)*),
            "`"
        ));
    };
    (@wrong name [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice name); };
    (@wrong ops $n:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice ops); };
    (@wrong note $n:tt $o:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice note); };
    (@wrong setup $n:tt $o:tt $t:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice setup); };
    (@wrong setup_each $n:tt $o:tt $t:tt $s:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice setup_each); };
    (@wrong run $n:tt $o:tt $t:tt $s:tt $e:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice run); };
    (@wrong check $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice check); };
    (@wrong suite $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice suite); };
    (@wrong group $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice group); };
    (@wrong variant $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice variant); };
    (@wrong role $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt $g:tt $v:tt [$($x:tt)+] $($rest:tt)*) => { $crate::probe!(@twice role); };
    (@wrong suite $($rest:tt)*) => {
        ::core::compile_error!(
            "probe!: `suite` takes an identifier followed by a comma, such as `suite: kernel,`"
        );
    };
    (@wrong name $($rest:tt)*) => {
        ::core::compile_error!(
            "probe!: `name` takes a snake_case identifier followed by a comma, such as `name: words_sort,`"
        );
    };
    (@wrong note $($rest:tt)*) => {
        ::core::compile_error!(
            "probe!: `note` takes a string literal or a closure `|state| String`, followed by a comma"
        );
    };
    (@wrong group $($rest:tt)*) => {
        ::core::compile_error!(
            "probe!: `group` takes a snake_case identifier (the workload) followed by a comma, such as `group: settings_parse,`"
        );
    };
    (@wrong variant $($rest:tt)*) => {
        ::core::compile_error!(
            "probe!: `variant` takes a snake_case identifier (the implementation) followed by a comma, such as `variant: rust_ini,`"
        );
    };
    (@wrong role $($rest:tt)*) => {
        ::core::compile_error!(
            "probe!: `role` takes `reference` or `floor` followed by a comma"
        );
    };
    (@wrong ops $($rest:tt)*) => { $crate::probe!(@expression ops); };
    (@wrong setup $($rest:tt)*) => { $crate::probe!(@expression setup); };
    (@wrong setup_each $($rest:tt)*) => { $crate::probe!(@expression setup_each); };
    (@wrong run $($rest:tt)*) => { $crate::probe!(@expression run); };
    (@wrong check $($rest:tt)*) => { $crate::probe!(@expression check); };
    (@wrong $field:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "probe!: unknown field `",
            ::core::stringify!($field),
            "` (the fields are name, run, setup, setup_each, check, ops, note, suite, group, \
             variant and role)"
        ));
    };
    (@twice $field:ident) => {
        ::core::compile_error!(::core::concat!(
            "probe!: `", ::core::stringify!($field), "` is given twice"
        ));
    };
    (@expression $field:ident) => {
        ::core::compile_error!(::core::concat!(
            "probe!: `", ::core::stringify!($field),
            "` takes one expression (a closure, a function) followed by a comma"
        ));
    };
    (@done [] $($rest:tt)*) => {
        ::core::compile_error!("probe!: missing `name` (the probe's unique snake_case name)");
    };
    (@done $n:tt $o:tt $t:tt $s:tt $e:tt [] $($rest:tt)*) => {
        ::core::compile_error!("probe!: missing `run` (one iteration of the work, timed)");
    };
    (@done $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt [] [$v:ident] $l:tt) => {
        ::core::compile_error!("probe!: `variant` needs a `group` (the workload it implements)");
    };
    (@done $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt [] $v:tt [$l:ident]) => {
        ::core::compile_error!("probe!: `role` needs a `group` (the workload it implements)");
    };
    (@done $n:tt $o:tt $t:tt $s:tt $e:tt $r:tt $c:tt $u:tt [$g:ident] [] $l:tt) => {
        ::core::compile_error!(
            "probe!: `group` needs a `variant` (the implementation this probe times)"
        );
    };
    (@done [$name:ident] [$($ops:expr)?] $t:tt $s:tt $e:tt $r:tt $c:tt [$($suite:ident)?]
        [$($group:ident)?] [$($variant:ident)?] [$($role:ident)?]) => {
        const _: () = {
            fn __yardstick_prepare()
                -> ::core::result::Result<::std::boxed::Box<dyn $crate::Instance>, ::std::string::String>
            {
                $crate::probe!(@build $t $s $e $r $c)
            }
            $crate::inventory::submit! {
                $crate::Probe {
                    name: ::core::stringify!($name),
                    ops: $crate::probe!(@ops $($ops)?),
                    suite: $crate::probe!(@suite $($suite)?),
                    variant: $crate::probe!(@variant [$($group)?] [$($variant)?] [$($role)?]),
                    file: ::core::file!(),
                    line: ::core::line!(),
                    prepare: __yardstick_prepare,
                }
            }
        };
    };
    (@variant [] [] []) => { ::core::option::Option::None };
    (@variant [$group:ident] [$variant:ident] [$($role:ident)?]) => {
        ::core::option::Option::Some($crate::Variant {
            group: ::core::stringify!($group),
            name: ::core::stringify!($variant),
            role: $crate::probe!(@role $($role)?),
        })
    };
    (@role) => { $crate::Role::Contender };
    (@role reference) => { $crate::Role::Reference };
    (@role contender) => { $crate::Role::Contender };
    (@role floor) => { $crate::Role::Floor };
    (@role $other:ident) => {
        ::core::compile_error!(::core::concat!(
            "probe!: unknown role `", ::core::stringify!($other),
            "` (the roles are reference, contender and floor)"
        ))
    };
    (@suite) => { $crate::DEFAULT_SUITE };
    (@suite $suite:ident) => { ::core::stringify!($suite) };
    (@ops) => { 1 };
    (@ops $ops:expr) => { $ops };
    (@build [$($note:expr)?] $s:tt [$($each:expr)?] [$run:expr] []) => {
        $crate::probe!(@start $s)
            $(.setup_each($each))?
            .run($run)
            .fingerprint($crate::probe!(@fingerprint))
            .unchecked()
            $(.note($note))?
            .build()
    };
    (@build [$($note:expr)?] $s:tt [$($each:expr)?] [$run:expr] [$check:expr]) => {
        $crate::probe!(@start $s)
            $(.setup_each($each))?
            .run($run)
            .fingerprint($crate::probe!(@fingerprint))
            .check($check)
            $(.note($note))?
            .build()
    };
    (@start []) => { $crate::build::stateless() };
    (@start [$setup:expr]) => { $crate::build::setup($setup) };
    // The result's fingerprint, chosen at its concrete type (see
    // `probe::fingerprint`).
    (@fingerprint) => {
        |out| {
            #[allow(unused_imports)]
            use $crate::fingerprint::{ByChecksum as _, ByHash as _, Unfingerprinted as _};
            (&&&$crate::fingerprint::Of(out)).fingerprint()
        }
    };
    ($($fields:tt)*) => {
        $crate::probe!(@munch [] [] [] [] [] [] [] [] [] [] [] $($fields)*);
    };
}
