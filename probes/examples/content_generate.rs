//! Prints what generating the content store costs and what it holds: the
//! default shape (10,000 nodes, depth 6) or `NODES [DEPTH [SEED]]`, built
//! into a temporary folder, with its build time, file size, rows and
//! checksum. Run with `cargo run --release -p probes --example
//! content_generate [NODES [DEPTH [SEED]]]`.

use probes::content::{self, Shape};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut shape = Shape::default();
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    for (slot, value) in [&mut shape.nodes, &mut shape.depth, &mut shape.seed]
        .into_iter()
        .zip(args)
    {
        *slot = value;
    }
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("content.db");
    let start = Instant::now();
    let made = content::generate(&path, &shape)?;
    let took = start.elapsed();
    let size = std::fs::metadata(&path)?.len();
    println!(
        "{} nodes, depth {}, seed {}: built in {:.2} s, {:.1} MB",
        shape.nodes,
        shape.depth,
        shape.seed,
        took.as_secs_f64(),
        size as f64 / 1e6
    );
    println!(
        "rows: {} nodes, {} objects, {} attributes, {} aliases",
        made.nodes, made.objects, made.attributes, made.aliases
    );
    println!("checksum {}", content::checksum(&path)?);
    Ok(())
}
