//! `--tool=k6`: HTTP load handed to k6, and its per-request output read
//! back as yardstick's own samples (work in progress: the reader of k6's
//! output; the script, the segments and the cluster hand-off follow).

pub mod output;
