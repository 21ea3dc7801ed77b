//! The kernel's database layer against rusqlite used directly: the
//! `db_query` probe's query (node 2, joined to its object and class)
//! through `ContentStore::node`, and the same SELECT prepared once and run
//! on a plain connection, mapped to a `Node` by the same function: what
//! differs is the store's own layer (its lock, its statement cache, its
//! error mapping).
//!
//! `cargo run --release -p probes --example kernel_speed [ROUNDS]`
//!
//! Rounds alternate the two sides so that both meet the same machine
//! state; each round times a batch of 2,000 queries; the figures are the
//! medians per query and their ratio.

use std::hint::black_box;
use std::time::Instant;

use probes::content::{ContentStore, FRONT_PAGE, NODE_SELECT, Node};
use rusqlite::{Connection, OpenFlags};

const BATCH: u32 = 2000;

fn direct(conn: &Connection) -> rusqlite::Result<Node> {
    let sql = format!("{NODE_SELECT} WHERE n.node_id = ?1");
    conn.prepare_cached(&sql)?
        .query_row([FRONT_PAGE], Node::from_row)
}

/// Nanoseconds per call of `f`, over one batch.
fn per_call<T>(mut f: impl FnMut() -> T) -> f64 {
    let start = Instant::now();
    for _ in 0..BATCH {
        black_box(f());
    }
    start.elapsed().as_nanos() as f64 / f64::from(BATCH)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = std::env::args().nth(1).map_or(Ok(31), |a| a.parse())?;
    let path = probes::kernel::fixture()?;
    let store = ContentStore::open(&path)?;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(&path, flags)?;
    // Both sides give the same node before anything is timed.
    let kernel = store.node(FRONT_PAGE)?.ok_or("no front page")?;
    if kernel != direct(&conn)? {
        return Err("the two sides disagree".into());
    }
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let a = || per_call(|| store.node(FRONT_PAGE));
        let b = || per_call(|| direct(&conn));
        if round % 2 == 0 {
            ours.push(a());
            theirs.push(b());
        } else {
            theirs.push(b());
            ours.push(a());
        }
    }
    let median = |v: &[f64]| yardstick::stats::median(v).unwrap_or(0.0);
    let (k, d) = (median(&ours), median(&theirs));
    println!(
        "db_query, node {FRONT_PAGE} joined to its object and class, {rounds} rounds of {BATCH}:"
    );
    println!("  through the kernel (ContentStore::node)  {k:>8.0} ns");
    println!("  rusqlite directly, same SELECT           {d:>8.0} ns");
    println!("  ratio kernel / direct                    {:>8.2}", k / d);
    Ok(())
}
