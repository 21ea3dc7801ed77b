//! The floor of the catalogue's load: the same file scanned by quick-xml,
//! every event read and none kept, the parser's own cost that any loader
//! on it stands on.

use probes::i18n::fixture::FIXTURE;

/// The catalogue's file, and the tags a full scan must pass.
pub struct File {
    bytes: Vec<u8>,
    tags: usize,
}

fn file() -> Result<File, String> {
    let path = probes::fixtures::path(FIXTURE);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    // Every tag, declaration and comment opens with `<`, and each is one
    // event; the text between them adds more.
    let tags = memchr::memchr_iter(b'<', &bytes).count();
    Ok(File { bytes, tags })
}

/// Reads every event of the file and keeps nothing. The event is looked
/// at where the parser left it: moving it out of the result first copies
/// it with wider loads than the parser's stores, a store-forwarding stall
/// on every event that would make the floor look higher than it is.
fn bare_scan(bytes: &[u8]) -> Result<usize, String> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let mut events = 0usize;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => return Ok(events),
            Ok(ref event) => {
                std::hint::black_box(event);
                events += 1;
            }
            Err(e) => return Err(format!("not well-formed: {e}")),
        }
    }
}

yardstick_probe::probe! {
    name: i18n_load_scan,
    group: catalogue_load,
    variant: quick_xml_scan,
    role: floor,
    ops: 1,
    note: "the catalogue's file scanned by quick-xml, nothing kept: the floor of a load",
    setup: file,
    run: |f: &File| bare_scan(&f.bytes),
    check: |f: &File, events: &Result<usize, String>| {
        let events = *events.as_ref().map_err(Clone::clone)?;
        if events >= f.tags {
            Ok(())
        } else {
            Err(format!("{events} events for {} tags", f.tags))
        }
    },
}
