//! The class autoload maps: how the kernel finds the file of a PHP class.
//!
//! The CMS generates class maps (`autoload/ezp_kernel.php` and, per
//! installation, an extension map and a test map): PHP files returning one
//! array literal of class name to path. On the first lookup the kernel's
//! autoloader reads them and joins them with PHP's `+` (the first map's
//! entry wins). `class_exists()` asks every registered autoloader in turn:
//! Composer's `ClassLoader` first (its class map, its PSR-4 prefixes with a
//! file check per candidate path, its PSR-0 fallbacks), then the kernel's.
//!
//! - [`read`]: the map reader ([`ClassMap`]) and its writer.
//! - [`lookup`]: the two loaders and the installation's file set.
//! - [`fixture`]: the generator of the fixture maps and of Composer's data
//!   (which has no format document: a class map, 300 PSR-4 prefixes and
//!   two PSR-0 fallbacks, made in code beside the maps; see there).

pub mod fixture;
pub mod lookup;
mod probe;
pub mod read;

pub use lookup::{Composer, Files, Kernel, class_exists};
pub use probe::checksum;
pub use read::{ClassMap, Entries, MapError, write};

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(text: &str) -> Result<Vec<(String, String)>, MapError> {
        let map = ClassMap::parse("m.php", text.as_bytes())?;
        Ok(map.iter().map(|(k, v)| (k.into(), v.into())).collect())
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn error(text: &str) -> (usize, usize, String) {
        let e = entries(text).unwrap_err();
        assert_eq!(e.file, "m.php");
        (e.line, e.column, e.what)
    }

    #[test]
    fn the_generators_layout_and_its_variants_read_alike() {
        let want = pairs(&[("A\\B", "vendor/a.php"), ("eZX", "kernel/x.php")]);
        let generated = write(want.iter().map(|(k, v)| (&**k, &**v)));
        assert_eq!(entries(&generated).unwrap(), want);
        for text in [
            "<?php return array('A\\\\B'=>'vendor/a.php','eZX'=>'kernel/x.php');",
            "<?php\n// c\n# c\n/** doc */\nRETURN\tArray (\n'A\\\\B'\n  =>\n\t'vendor/a.php' ,\n 'eZX' => 'kernel/x.php'\n) ;\n?>\n\n",
            "<?php return ['A\\\\B' => 'vendor/a.php', 'eZX' => 'kernel/x.php',];\n",
            "<?php return [ 'A\\B' => 'vendor/a.php', /* x */ 'eZX' => 'kernel/x.php' ] ; ?>",
        ] {
            assert_eq!(entries(text).unwrap(), want, "{text}");
        }
        assert_eq!(entries("<?php return array();").unwrap(), []);
    }

    #[test]
    fn escapes_are_the_formats_two_and_odd_keys_stay() {
        let got = entries(
            "<?php return array('$name Builder\\\\Namespace_\\\\string' => 'a\\'b\\\\c\\nd\\\\', 'x\\\\\\'' => '\\\\\\\\');",
        )
        .unwrap();
        assert_eq!(
            got,
            pairs(&[
                ("$name Builder\\Namespace_\\string", "a'b\\c\\nd\\"),
                ("x\\'", "\\\\")
            ])
        );
    }

    #[test]
    fn broken_maps_are_refused_where_they_break() {
        let (line, col, what) =
            error("<?php\nreturn array(\n  'A' => 'a.php',\n  'B' 'b.php',\n);");
        assert_eq!((line, col), (4, 7), "{what}");
        assert!(what.contains("`=>`"), "{what}");
        let (line, col, what) = error("<?php\nreturn array(\n  'A' => 'a.php,\n);");
        assert_eq!((line, col), (3, 10));
        assert!(what.contains("never ends"), "{what}");
        let (line, col, what) = error("<?php return array(\n'A' => 'a',\n  'A' => 'b');");
        assert_eq!((line, col), (3, 3));
        assert!(what.contains("`A` is named twice"), "{what}");
        assert!(
            error("<?php return array(\"A\" => 'a');")
                .2
                .contains("double-quoted")
        );
        assert!(
            error("<?php return array('A' => $vendorDir . '/a');")
                .2
                .contains("quoted path")
        );
        assert!(
            error("<?php return array('A' => 'a'")
                .2
                .contains("end of the file")
        );
        assert!(
            error("<?php return array('A' => 'a' 'B' => 'b');")
                .2
                .contains("`,`")
        );
        assert!(error("<?php return array('A' => 'a']);").2.contains("`]`"));
        assert!(
            error("<?php return array('A' => 'a'); echo 1;")
                .2
                .contains("after the array")
        );
        assert!(
            error("<?php return array(); ?>\nx")
                .2
                .contains("after `?>`")
        );
        assert!(error("return array();").2.contains("<?php"));
        assert!(error("<?php /* return array();").2.contains("comment"));
        let e = ClassMap::parse("m.php", b"<?php return array('\xff' => 'a');").unwrap_err();
        assert!(e.to_string().starts_with("m.php:1:21: "), "{e}");
    }

    #[test]
    fn lookups_are_exact() {
        let map =
            ClassMap::parse("m.php", b"<?php return array('eZDir' => 'lib/ezdir.php');").unwrap();
        assert_eq!(map.get("eZDir"), Some("lib/ezdir.php"));
        assert_eq!(map.get("ezdir"), None);
        assert_eq!(map.len(), 1);
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn reader_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
            let _ = ClassMap::parse("fuzz.php", &bytes);
        }

        #[test]
        fn reader_never_panics_on_map_pieces(pieces in prop::collection::vec(
            prop_oneof![
                Just("<?php".to_string()), Just("return".into()), Just("array(".into()),
                Just("[".into()), Just("]".into()), Just(")".into()), Just(";".into()),
                Just("=>".into()), Just(",".into()), Just("?>".into()), Just("/*".into()),
                Just("*/".into()), Just("//".into()), Just("#".into()), Just("\n".into()),
                "'[a-z\\\\']{0,4}'", "[ -~]{0,4}",
            ], 0..30)) {
            let text = pieces.join(" ");
            let _ = ClassMap::parse("fuzz.php", text.as_bytes());
        }

        #[test]
        fn a_written_map_reads_back(map in prop::collection::btree_map(
            "[A-Za-z_\\\\'$ \u{e9}]{1,12}", "[a-z/\\\\'.\u{2603}]{0,16}", 0..20)) {
            let text = write(map.iter().map(|(k, v)| (&**k, &**v)));
            let read = ClassMap::parse("w.php", text.as_bytes())
                .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            let got: Vec<(&str, &str)> = read.iter().collect();
            let want: Vec<(&str, &str)> = map.iter().map(|(k, v)| (&**k, &**v)).collect();
            prop_assert_eq!(got, want);
        }
    }
}
