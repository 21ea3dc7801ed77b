//! What a worker process does (`--bench --worker`): prepares its probes,
//! greets, then answers one request line after another until its input
//! ends.
//!
//! The probes are set up, checked and timed the way a micro run does it,
//! with the same pieces: [`sample::verified`] before anything is timed,
//! panics quieted while they are caught, and all of a probe's work on a
//! fresh thread ([`on_fresh_thread`]: a fresh allocator arena, so the heap a
//! probe sees does not hang on what the worker allocated before).

use crate::error::Error;
use crate::measure::clock::Clock;
use crate::measure::inject::Injection;
use crate::measure::interleaved::on_fresh_thread;
use crate::measure::sample::{self, QuietPanics, guarded};
use crate::probe::{Instance, Probe};
use crate::worker::protocol::{Answer, Greeting, Offer, Request};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

/// Serves requests until end of input; returns the exit code. `min_batch`
/// overrides the batch the worker offers, as it does for a run.
pub(crate) fn serve(
    selected: &[&'static Probe],
    injection: &Injection,
    clock: &Clock,
    min_batch: Option<u64>,
    input: impl BufRead + Send,
    output: impl Write + Send,
) -> Result<i32, Error> {
    let _quiet = QuietPanics::install();
    on_fresh_thread(|| {
        let (server, greeting) = Server::prepare(selected, injection, clock, min_batch);
        server.serve(&greeting, input, output)
    })
}

/// A probe on the worker's side: ready, or failed for good.
type Slot = Result<Box<dyn Instance>, String>;

/// The worker's probes and what it times them with.
struct Server<'a> {
    /// Every selected probe by name.
    slots: BTreeMap<&'static str, Slot>,
    injection: &'a Injection,
    clock: &'a Clock,
}

impl<'a> Server<'a> {
    /// Sets up and checks every selected probe, picks its batch, and says
    /// what came of it.
    fn prepare(
        selected: &[&'static Probe],
        injection: &'a Injection,
        clock: &'a Clock,
        min_batch: Option<u64>,
    ) -> (Server<'a>, Greeting) {
        let mut slots = BTreeMap::new();
        let mut probes = Vec::new();
        let mut checksums = BTreeMap::new();
        for probe in selected {
            let (slot, offer, checksum) = offer(probe, clock, min_batch);
            slots.insert(probe.name, slot);
            probes.push(offer);
            if let Some(checksum) = checksum {
                checksums.insert(probe.name.to_string(), format!("{checksum:016x}"));
            }
        }
        let server = Server {
            slots,
            injection,
            clock,
        };
        (server, Greeting { probes, checksums })
    }

    /// Writes the greeting, then one answer per request line.
    fn serve(
        mut self,
        greeting: &Greeting,
        input: impl BufRead,
        mut output: impl Write,
    ) -> Result<i32, Error> {
        let io = |e: std::io::Error| Error::input(format!("worker: cannot answer: {e}"));
        writeln!(output, "{greeting}").map_err(io)?;
        output.flush().map_err(io)?;
        for line in input.lines() {
            let line =
                line.map_err(|e| Error::input(format!("worker: cannot read a request: {e}")))?;
            let answer = match Request::parse(&line) {
                Ok(request) => self.answer(&request),
                Err(message) => Answer::Error(message),
            };
            writeln!(output, "{answer}").map_err(io)?;
            output.flush().map_err(io)?;
        }
        Ok(0)
    }

    /// Runs one request. A probe that panics stays failed: it may hold
    /// broken state.
    fn answer(&mut self, request: &Request) -> Answer {
        let name = request.probe();
        let Some(slot) = self.slots.get_mut(name) else {
            return Answer::Error(format!("no probe `{name}` here"));
        };
        let instance = match slot {
            Ok(instance) => instance,
            Err(message) => return Answer::Error(message.clone()),
        };
        let result = guarded(|| match *request {
            Request::Warm { batch, count, .. } => {
                for _ in 0..count {
                    sample::unmeasured(instance.as_mut(), batch);
                }
                Answer::Warmed
            }
            Request::Time { batch, .. } => {
                let stretch = self.injection.stretch(name);
                Answer::Time(sample::sample(
                    self.clock,
                    name,
                    instance.as_mut(),
                    batch,
                    stretch,
                ))
            }
        });
        result.unwrap_or_else(|message| {
            *slot = Err(message.clone());
            Answer::Error(message)
        })
    }
}

/// Sets up and verifies one probe and picks its batch; a failure is kept
/// as the probe's state and named in its offer. Also the fingerprint of the
/// result the check saw.
fn offer(probe: &Probe, clock: &Clock, min_batch: Option<u64>) -> (Slot, Offer, Option<u64>) {
    let (slot, note, batch, checksum) = match sample::verified(probe) {
        Err(message) => (Err(message), String::new(), None, None),
        Ok(ready) => {
            let mut instance = ready.instance;
            let checksum = instance.checksum();
            let batch = match min_batch {
                Some(batch) => Ok(batch),
                None => guarded(|| sample::pick_batch(clock, probe.name, instance.as_mut())),
            };
            match batch {
                Ok(batch) => (Ok(instance), ready.note, Some(batch), checksum),
                Err(message) => (Err(message), ready.note, None, checksum),
            }
        }
    };
    let offer = Offer {
        name: probe.name.to_string(),
        ops: probe.ops,
        note,
        batch,
        error: slot.as_ref().err().cloned(),
    };
    (slot, offer, checksum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting() -> Result<Box<dyn Instance>, String> {
        struct Count;
        impl Instance for Count {
            fn note(&self) -> String {
                "counts".into()
            }
            fn verify(&mut self) -> Result<(), String> {
                Ok(())
            }
            fn checksum(&self) -> Option<u64> {
                Some(42)
            }
            fn run(&mut self, iterations: u64) {
                std::hint::black_box((0..iterations).map(std::hint::black_box).sum::<u64>());
            }
        }
        Ok(Box::new(Count))
    }

    fn broken() -> Result<Box<dyn Instance>, String> {
        Err("no input".into())
    }

    static COUNTING: Probe = Probe {
        name: "counting",
        ops: 3,
        suite: crate::probe::DEFAULT_SUITE,
        variant: None,
        file: file!(),
        line: line!(),
        prepare: counting,
    };
    static BROKEN: Probe = Probe {
        name: "broken",
        ops: 1,
        suite: crate::probe::DEFAULT_SUITE,
        variant: None,
        file: file!(),
        line: line!(),
        prepare: broken,
    };

    fn served(requests: &str, min_batch: Option<u64>) -> Vec<String> {
        let mut out = Vec::new();
        let injection = Injection::default();
        // A microsecond an iteration, whatever the machine's load.
        let clock = Clock::scripted("counting=0.001").unwrap();
        let code = serve(
            &[&COUNTING, &BROKEN],
            &injection,
            &clock,
            min_batch,
            requests.as_bytes(),
            &mut out,
        );
        assert!(matches!(code, Ok(0)));
        String::from_utf8_lossy(&out)
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn greeting_lists_ready_and_failed_probes() {
        let lines = served("", Some(20));
        let greeting = Greeting::parse(&lines[0]).unwrap_or_else(|e| panic!("{e}: {}", lines[0]));
        assert_eq!(greeting.probes.len(), 2);
        let counting = &greeting.probes[0];
        assert_eq!(
            (
                counting.name.as_str(),
                counting.ops,
                counting.batch,
                &counting.error
            ),
            ("counting", 3, Some(20), &None)
        );
        assert_eq!(greeting.probes[1].batch, None);
        assert_eq!(greeting.probes[1].error.as_deref(), Some("no input"));
        // Beside the offers, the fingerprint of each verified probe's result.
        assert!(
            lines[0].ends_with(r#","checksums":{"counting":"000000000000002a"}}"#),
            "{}",
            lines[0]
        );
    }

    #[test]
    fn without_min_batch_the_worker_picks_one() {
        let lines = served("", None);
        let greeting = Greeting::parse(&lines[0]).unwrap_or_else(|e| panic!("{e}: {}", lines[0]));
        // 1, 16, 256 iterations take less than a millisecond; 1,200 take
        // the 1.2 ms aimed at.
        assert_eq!(greeting.probes[0].batch, Some(1200));
    }

    #[test]
    fn every_request_gets_one_answer() {
        let lines = served(
            "warm counting 10 2\ntime counting 10\ntime broken 10\ntime nothing 1\ntime counting 0\nsing\n",
            Some(10),
        );
        assert_eq!(lines.len(), 7, "{lines:?}");
        assert_eq!(lines[1], "ok");
        let ms: f64 = lines[2]
            .parse()
            .unwrap_or_else(|e| panic!("{e}: {}", lines[2]));
        assert_eq!(ms, 0.001);
        assert_eq!(lines[3], "error no input");
        assert_eq!(lines[4], "error no probe `nothing` here");
        assert!(lines[5].starts_with("error bad numbers"), "{}", lines[5]);
        assert!(
            lines[6].starts_with("error unknown request"),
            "{}",
            lines[6]
        );
    }
}
