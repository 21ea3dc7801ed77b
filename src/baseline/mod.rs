//! Which run a new run is judged against: a file named on the command line,
//! a committed baseline of this machine class or of counts ([`history`],
//! [`counts`]), and baselines pooled from several runs ([`pool`]).

pub mod counts;
pub mod history;
pub mod pool;
