//! Measuring probes: one sample ([`sample`]), the interleaved rounds of a
//! micro run ([`interleaved`]) with the calibration loop ([`calibration`])
//! beside every sample, the clock they read ([`clock`]), the slowdown knob
//! ([`inject`]), the watchdog that stops a stuck probe ([`watchdog`]), and
//! counting under callgrind ([`callgrind`]).

pub mod calibration;
pub mod callgrind;
pub mod clock;
pub mod inject;
pub mod interleaved;
pub mod sample;
pub mod watchdog;
