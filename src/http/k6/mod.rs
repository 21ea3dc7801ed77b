//! `--tool=k6`: HTTP load handed to k6, and its per-request output read
//! back as yardstick's own samples (work in progress: the reader of k6's
//! output and the operator's manifest are here; the script, the
//! segments, the command and `collect` follow).

pub mod manifest;
pub mod output;
