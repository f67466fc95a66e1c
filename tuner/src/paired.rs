//! Two schedules of one payload (a whole model, or a fusion's ops) timed
//! as a pair, their calls interleaved, or read from the records that keep
//! such pairs under the model's key and the other schedule's hash.

use crate::records::short_hash;
use crate::{record, Session, Subject};

/// The whole model's seconds with schedule `base` and with `trial`, their
/// calls interleaved ([`crate::measure::Measurer::measure_pair`]): one
/// lucky or unlucky spell of a noisy machine must not decide. From the
/// records when they hold this pair (its failure too); recorded as a pair
/// (each under the model's key and the other's hash). The inner error: why
/// they could not be measured.
pub(crate) fn paired(
    model: &str,
    description: &str,
    (base, trial): (&str, &str),
    payload: &str,
    session: &mut Session<'_>,
) -> Result<Result<(f64, f64), String>, String> {
    // Comments (the payload's path in the header, each kind's times and
    // locations) change nothing measured: the records key and keep the
    // directives alone, so the same model tuned from another directory
    // finds its pairs there.
    let (base, trial) = (&directives(base), &directives(trial));
    let keys = [
        format!("{model} beside {}", short_hash(trial, 8)),
        format!("{model} beside {}", short_hash(base, 8)),
    ];
    let options = session.options;
    let recorded = |key: &str, text: &str| {
        let at = (options.cpu.as_str(), options.threads, options.warm);
        let record = session.records.find(at, key, Some(text))?;
        let seconds = record
            .seconds
            .ok_or_else(|| record.error.clone().unwrap_or_default());
        Some((seconds, record.took.unwrap_or(0.0)))
    };
    let found = [recorded(&keys[0], base), recorded(&keys[1], trial)];
    if let [Some((b, b_took)), Some((t, t_took))] = found {
        session.spent += b_took + t_took;
        session.last_pair = b_took + t_took;
        return Ok(match (b, t) {
            (Ok(b), Ok(t)) => Ok((b, t)),
            (Err(why), _) | (_, Err(why)) => Err(why),
        });
    }
    // A pair that could not be measured is recorded too, so that a second
    // `tune` decides the same; each of its records with half its time.
    let (outcome, took) =
        session.timed(|measurer| measurer.measure_pair(model, payload, (base, trial)));
    session.last_pair = took;
    let halves = [
        outcome.as_ref().map(|pair| pair.0),
        outcome.as_ref().map(|pair| pair.1),
    ];
    for ((key, text), m) in [(&keys[0], base), (&keys[1], trial)]
        .into_iter()
        .zip(halves)
    {
        let subject = Subject { key, description };
        let m = m.map_err(String::clone);
        session
            .records
            .add(record(&subject, options, Some(text), &m, took / 2.0))?;
    }
    Ok(outcome.map(|(b, t)| (b.seconds, t.seconds)))
}

/// `schedule` without its comment lines and blank lines.
fn directives(schedule: &str) -> String {
    schedule
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// What [`keep_faster`] kept.
pub(crate) struct Kept<T> {
    /// The items kept.
    pub kept: Vec<T>,
    /// Seconds with none and with all (one pair), or why not measured.
    pub together: Result<(f64, f64), String>,
    /// When they were tried one by one: the last pair that kept one.
    pub last_kept: Option<(f64, f64)>,
}

/// The whole-model policy of the producers and the GEMM forms: `all`
/// together against none, kept when faster; else one by one, in order,
/// while another pair ends before the session has spent `deadline`
/// seconds measuring, each against those kept so far and kept when
/// faster. `versus(session, base, trial)` times one pair.
pub(crate) fn keep_faster<T: Clone>(
    all: &[T],
    session: &mut Session<'_>,
    deadline: f64,
    mut versus: impl FnMut(&mut Session<'_>, &[T], &[T]) -> Result<Result<(f64, f64), String>, String>,
) -> Result<Kept<T>, String> {
    let together = versus(session, &[], all)?;
    let mut kept = match together {
        Ok((without, with)) if with < without => all.to_vec(),
        _ => Vec::new(),
    };
    let mut last_kept = None;
    if kept.is_empty() && all.len() > 1 {
        for item in all {
            if !session.pair_fits(deadline) {
                break;
            }
            let mut trial = kept.clone();
            trial.push(item.clone());
            if let Ok((base, seconds)) = versus(session, &kept, &trial)? {
                if seconds < base {
                    last_kept = Some((base, seconds));
                    kept = trial;
                }
            }
        }
    }
    Ok(Kept {
        kept,
        together,
        last_kept,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{Measurement, Measurer};
    use crate::records::Records;
    use crate::Options;
    use std::time::Duration;

    /// Counts what it is asked to measure; every schedule takes 1 ms.
    struct Counting(std::rc::Rc<std::cell::Cell<usize>>);

    impl Measurer for Counting {
        fn reference(&mut self, _: &str, _: &str) -> Result<Measurement, String> {
            self.measure("", "", "")
        }
        fn measure(&mut self, _: &str, _: &str, _: &str) -> Result<Measurement, String> {
            self.0.set(self.0.get() + 1);
            Ok(Measurement {
                seconds: 1e-3,
                calls: 3,
            })
        }
    }

    #[test]
    fn a_pair_is_found_again_whatever_its_comments_say() {
        let options = Options {
            budget: Duration::from_secs(1),
            threads: 1,
            lanes: 16,
            cpu: "test".to_string(),
            patience: 1,
            warm: true,
        };
        let mut records = Records::in_memory();
        let count = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut measurer = Counting(count.clone());
        let mut session = Session {
            options: &options,
            records: &mut records,
            measurer: &mut measurer,
            spent: 0.0,
            last_pair: 0.0,
        };
        let (a, b) = (
            "# for m.mlir\nfunc f = linalg.add (i)\n",
            "func f = linalg.add (i)\nf.vectorize(i)\n",
        );
        paired("model 1", "m.mlir", (a, b), "", &mut session)
            .unwrap()
            .unwrap();
        let took = session.last_pair;
        assert!(took > 0.0 && session.pair_fits(session.spent + 2.0 * took));
        assert!(!session.pair_fits(session.spent + took));
        session.last_pair = 0.0;
        let (a2, b2) = (
            "# for examples/m.mlir\n\nfunc f = linalg.add (i)\n",
            "# 1 op at examples/m.mlir:2:3\nfunc f = linalg.add (i)\nf.vectorize(i)\n",
        );
        paired("model 1", "examples/m.mlir", (a2, b2), "", &mut session)
            .unwrap()
            .unwrap();
        assert_eq!(count.get(), 2, "measured once, as a pair");
        assert_eq!(session.last_pair, took, "the time its records say it took");
        let c = "func f = linalg.add (i)\nf.vectorize(i, 8)\n";
        paired("model 1", "m.mlir", (a, c), "", &mut session)
            .unwrap()
            .unwrap();
        assert_eq!(count.get(), 4, "another schedule is another pair");
    }
}
