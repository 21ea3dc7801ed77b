//! The [`process_probe!`](macro@crate::process_probe) macro, which
//! registers a probe whose unit is a whole child process.

/// Registers a process probe: work timed as a whole child process (see
/// [`probe::process`](crate::process)). One call, in the file where
/// the work lives.
///
/// `name` and `child` are required; `note` (a string literal), `suite`
/// (the bench that runs it, as for [`probe!`](macro@crate::probe)) and
/// `setup` are optional, in any order. `child` is a closure `|child: &mut
/// Child| -> Result<(), String>` that runs in a fresh copy of the bench
/// binary: it calls [`Child::ready`](crate::Child::ready) when the
/// process is ready (its `boot` time ends there) and may
/// [`report`](crate::Child::report) times it measured about itself.
/// An `Err` fails the probe with its message. `setup`, a closure `|| ->
/// Result<(), String>`, runs once in the parent before the first child,
/// untimed: what every child needs to find ready (a database made).
///
/// ```
/// yardstick_probe::process_probe! {
///     name: kernel,
///     note: "boot, then the first render",
///     child: |child| {
///         let started = std::time::Instant::now();
///         child.ready();
///         let page = format!("<p>{}</p>", 6 * 7);
///         child.report("render_cold", started.elapsed());
///         if page.len() == 9 { Ok(()) } else { Err(format!("rendered {page}")) }
///     },
/// }
/// # fn main() {}
/// ```
///
/// With a set-up in the parent, in the kernel suite:
///
/// ```
/// yardstick_probe::process_probe! {
///     suite: kernel,
///     name: reads_its_file,
///     setup: || std::fs::write(std::env::temp_dir().join("doc-input"), "42").map_err(|e| e.to_string()),
///     child: |child| {
///         let text = std::fs::read_to_string(std::env::temp_dir().join("doc-input"))
///             .map_err(|e| e.to_string())?;
///         child.ready();
///         if text == "42" { Ok(()) } else { Err(text) }
///     },
/// }
/// # fn main() {
/// #     let p = yardstick_probe::process::registered().unwrap();
/// #     let p = p.iter().find(|p| p.name == "reads_its_file").unwrap();
/// #     assert_eq!(p.suite, "kernel");
/// #     assert!((p.setup.unwrap())().is_ok());
/// # }
/// ```
///
/// A misspelt, repeated or missing field is a compile error that names it:
///
/// ```compile_fail
/// yardstick_probe::process_probe! { name: typo, chidl: |c| { c.ready(); Ok(()) } }
/// # fn main() {}
/// ```
/// ```compile_fail
/// yardstick_probe::process_probe! { child: |c| { c.ready(); Ok(()) } }
/// # fn main() {}
/// ```
/// ```compile_fail
/// yardstick_probe::process_probe! { name: no_child, note: "x" }
/// # fn main() {}
/// ```
/// ```compile_fail
/// yardstick_probe::process_probe! { name: twice, name: again, child: |c| { c.ready(); Ok(()) } }
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! process_probe {
    // The slots are [name] [note] [child] [suite] [setup].
    (@munch $n:tt $t:tt $c:tt $u:tt $p:tt) => {
        $crate::process_probe!(@done $n $t $c $u $p);
    };
    (@munch [] $t:tt $c:tt $u:tt $p:tt name: $v:ident $(, $($rest:tt)*)?) => {
        $crate::process_probe!(@munch [$v] $t $c $u $p $($($rest)*)?);
    };
    (@munch $n:tt [] $c:tt $u:tt $p:tt note: $v:literal $(, $($rest:tt)*)?) => {
        $crate::process_probe!(@munch $n [$v] $c $u $p $($($rest)*)?);
    };
    (@munch $n:tt $t:tt [] $u:tt $p:tt child: $v:expr $(, $($rest:tt)*)?) => {
        $crate::process_probe!(@munch $n $t [$v] $u $p $($($rest)*)?);
    };
    (@munch $n:tt $t:tt $c:tt [] $p:tt suite: $v:ident $(, $($rest:tt)*)?) => {
        $crate::process_probe!(@munch $n $t $c [$v] $p $($($rest)*)?);
    };
    (@munch $n:tt $t:tt $c:tt $u:tt [] setup: $v:expr $(, $($rest:tt)*)?) => {
        $crate::process_probe!(@munch $n $t $c $u [$v] $($($rest)*)?);
    };
    (@munch $n:tt $t:tt $c:tt $u:tt $p:tt $field:ident : $($rest:tt)*) => {
        $crate::process_probe!(@wrong $field $n $t $c $u $p);
    };
    (@munch $n:tt $t:tt $c:tt $u:tt $p:tt $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "process_probe!: expected `field: value,` pairs, found `",
            ::core::stringify!($($rest)*),
            "`"
        ));
    };
    (@wrong name [$($x:tt)+] $t:tt $c:tt $u:tt $p:tt) => { $crate::process_probe!(@twice name); };
    (@wrong note $n:tt [$($x:tt)+] $c:tt $u:tt $p:tt) => { $crate::process_probe!(@twice note); };
    (@wrong child $n:tt $t:tt [$($x:tt)+] $u:tt $p:tt) => { $crate::process_probe!(@twice child); };
    (@wrong suite $n:tt $t:tt $c:tt [$($x:tt)+] $p:tt) => { $crate::process_probe!(@twice suite); };
    (@wrong setup $n:tt $t:tt $c:tt $u:tt [$($x:tt)+]) => { $crate::process_probe!(@twice setup); };
    (@wrong suite $($rest:tt)*) => {
        ::core::compile_error!("process_probe!: `suite` takes an identifier followed by a comma");
    };
    (@wrong setup $($rest:tt)*) => {
        ::core::compile_error!("process_probe!: `setup` takes one closure followed by a comma");
    };
    (@wrong name $($rest:tt)*) => {
        ::core::compile_error!("process_probe!: `name` takes a snake_case identifier followed by a comma");
    };
    (@wrong note $($rest:tt)*) => {
        ::core::compile_error!("process_probe!: `note` takes a string literal followed by a comma");
    };
    (@wrong child $($rest:tt)*) => {
        ::core::compile_error!("process_probe!: `child` takes one closure followed by a comma");
    };
    (@wrong $field:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "process_probe!: unknown field `",
            ::core::stringify!($field),
            "` (the fields are name, child, note, suite and setup)"
        ));
    };
    (@twice $field:ident) => {
        ::core::compile_error!(::core::concat!(
            "process_probe!: `", ::core::stringify!($field), "` is given twice"
        ));
    };
    (@done [] $t:tt $c:tt $u:tt $p:tt) => {
        ::core::compile_error!("process_probe!: missing `name` (the probe's unique snake_case name)");
    };
    (@done $n:tt $t:tt [] $u:tt $p:tt) => {
        ::core::compile_error!("process_probe!: missing `child` (the closure the child process runs)");
    };
    (@done [$name:ident] [$($note:literal)?] [$child:expr] [$($suite:ident)?] [$($setup:expr)?]) => {
        const _: () = {
            fn __yardstick_child(
                child: &mut $crate::Child,
            ) -> ::core::result::Result<(), ::std::string::String> {
                let run: fn(&mut $crate::Child) -> ::core::result::Result<(), ::std::string::String> = $child;
                run(child)
            }
            $crate::inventory::submit! {
                $crate::ProcessProbe {
                    name: ::core::stringify!($name),
                    note: $crate::process_probe!(@note $($note)?),
                    suite: $crate::probe!(@suite $($suite)?),
                    file: ::core::file!(),
                    line: ::core::line!(),
                    child: __yardstick_child,
                    setup: $crate::process_probe!(@setup $($setup)?),
                }
            }
        };
    };
    (@setup) => { ::core::option::Option::None };
    (@setup $setup:expr) => {{
        let setup: fn() -> ::core::result::Result<(), ::std::string::String> = $setup;
        ::core::option::Option::Some(setup)
    }};
    (@note) => { "" };
    (@note $note:literal) => { $note };
    ($($fields:tt)*) => {
        $crate::process_probe!(@munch [] [] [] [] [] $($fields)*);
    };
}
