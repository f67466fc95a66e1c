//! The first decision made on the whole model: elementwise ops (batch
//! norms' steps, residual adds, activations) and transposes (a weight's,
//! then read in place by its matmul) inlined into the ops reading them
//! (Halide's default) where the schedule still checks: all of them unless
//! the model is more than 2% slower so than with none; else only those
//! every reader reads once per element (never recomputed), on the same
//! terms; then the rest kind by kind. Each comparison is one pair of whole
//! models timed with their calls interleaved ([`crate::paired`]), recorded
//! so that a second `tune` decides the same.

use crate::tasks::Task;
use crate::{paired, Model, Session, TaskResult};
use schedule_lang::{IteratorKind, MapResult, PayloadInfo};

/// The whole model's time with the elementwise kinds inlined and without.
pub struct Decision {
    /// Kinds of op inlined.
    pub inlined: usize,
    /// Seconds of the whole model with none and with every kind that
    /// checks inlined (one interleaved pair), and in the pair that decided
    /// the kinds kept.
    pub with: f64,
    pub without: f64,
    pub chosen: f64,
    /// Seconds with only the kinds read once per element inlined
    /// ([`read_once`]), when some are and some are not.
    pub read_once: Option<f64>,
}

/// Marks each elementwise generic's kind inlined where the schedule still
/// checks; measures the model with all of them against none (all kept
/// unless more than 2% slower), then only those read once per element
/// ([`read_once`]) against the better (kept if more than 2% faster than
/// all, or within 2% of none); when that is not all of them, tries the
/// others one by one while another pair ends before the session has spent
/// `deadline` seconds measuring ([`Session::pair_fits`]), and ends with the
/// set reached against the fastest set measured ([`choose`]). `None` when
/// no kind could be inlined.
pub fn inline_elementwise(
    model: &Model<'_>,
    results: &mut [TaskResult],
    session: &mut Session<'_>,
    deadline: f64,
) -> Result<Option<Decision>, String> {
    // Transposes the chains of the matmuls reading them were tuned with
    // inlined ([`Task::feeders`]) stay inlined, out of the decision.
    for i in 0..results.len() {
        if fed_to_tuned_readers(model.info, results, i) {
            results[i].inlined = true;
            let text = model.schedule(results);
            results[i].inlined = model.plans(&text);
            results[i].fed = results[i].inlined;
        }
    }
    let elementwise: Vec<usize> = (0..results.len())
        .filter(|&i| {
            let task = &results[i].task;
            let elementwise = task.kind == "linalg.generic" && !task.reduction.contains(&true);
            (elementwise || task.kind == "linalg.transpose")
                && results[i].conditions.is_some()
                && !results[i].inlined
        })
        .collect();
    let mut inlined = Vec::new();
    for &i in &elementwise {
        results[i].inlined = true;
        if model.plans(&model.schedule(results)) {
            inlined.push(i);
        } else {
            results[i].inlined = false;
        }
    }
    if inlined.is_empty() {
        return Ok(None);
    }
    let once: Vec<usize> = inlined
        .iter()
        .copied()
        .filter(|&i| read_once(model.info, &results[i].task))
        .collect();
    let mut trials = ModelTrials {
        model,
        key: model.key(),
        results: &mut *results,
        session,
        inlined: &inlined,
        deadline,
    };
    let outcome = choose(&inlined, &once, &mut trials);
    let kept = match &outcome {
        Ok(choice) => choice.kept.clone(),
        Err(_) => Vec::new(),
    };
    for &i in &inlined {
        results[i].inlined = kept.contains(&i);
    }
    let choice = outcome?;
    Ok(Some(Decision {
        inlined: choice.kept.len(),
        with: choice.with,
        without: choice.without,
        read_once: choice.read_once,
        chosen: choice.chosen,
    }))
}

/// What [`choose`] asks of the model: sets of inlined kinds timed as pairs.
trait Trials {
    /// The model's seconds with the kinds `base` inlined and with `trial`'s
    /// (one interleaved pair). The inner error: why they could not be timed.
    fn pair(
        &mut self,
        base: &[usize],
        trial: &[usize],
    ) -> Result<Result<(f64, f64), String>, String>;
    /// Whether another pair ends before the deadline.
    fn fits(&self) -> bool;
    /// Whether the schedule with the kinds `set` inlined plans.
    fn plans(&mut self, set: &[usize]) -> bool;
}

/// The kinds kept inlined and the figures of the pairs that chose them.
struct Choice {
    kept: Vec<usize>,
    with: f64,
    without: f64,
    read_once: Option<f64>,
    chosen: f64,
}

/// Chooses the kinds of `inlined` to keep inlined (`once`: those read once
/// per element), as [`inline_elementwise`] says. Each kind tried one by one
/// (each recomputed by a reader) is kept when the model is faster with it.
/// Steps timed in separate pairs can still end behind a set measured
/// earlier, each a little slower than its pair said (the transformer:
/// 8.3145 ms against 7.8212 with the kinds read once, when a step could
/// cost 1%; mobilenet_v2 on two threads, its batch norms' kinds split by
/// readers, 10.2 ms against 8.0): a last pair sets the set reached against
/// the fastest any pair measured, even past the deadline, since the set
/// reached is only a guess until then.
fn choose(inlined: &[usize], once: &[usize], trials: &mut impl Trials) -> Result<Choice, String> {
    let mut fastest: Option<(Vec<usize>, f64)> = None;
    let mut note = |set: &[usize], seconds: f64| {
        if fastest.as_ref().is_none_or(|(_, best)| seconds < *best) {
            fastest = Some((set.to_vec(), seconds));
        }
    };
    // Inlined unless measurably slower (Halide's default): 2% is within
    // this machine's noise. Most inlining first.
    let (without, with) = trials.pair(&[], inlined)??;
    note(&[], without);
    note(inlined, with);
    let (mut kept, mut chosen) = match with <= without * 1.02 {
        true => (inlined.to_vec(), with),
        false => (Vec::new(), without),
    };
    // Only the kinds read once, against the better of those two: taken
    // when all inlined is more than 2% slower, or none no faster.
    let mut read_once = None;
    if !once.is_empty() && once.len() < inlined.len() {
        if let Ok((base, seconds)) = trials.pair(&kept, once)? {
            note(&kept, base);
            note(once, seconds);
            read_once = Some(seconds);
            let taken = match kept.is_empty() {
                true => seconds <= base * 1.02,
                false => seconds * 1.02 < base,
            };
            if taken {
                (kept, chosen) = (once.to_vec(), seconds);
            }
        }
    }
    // Slower all together (an op recomputed per use in a matmul's loops):
    // the kinds not kept one by one, biggest first, each kept when the
    // model is faster: each is recomputed by a reader, so it must earn it.
    let rest: Vec<usize> = inlined
        .iter()
        .copied()
        .filter(|i| !kept.contains(i))
        .collect();
    let mut stepped = false;
    for i in rest {
        if !trials.fits() {
            break;
        }
        let mut trial = kept.clone();
        trial.push(i);
        if !trials.plans(&trial) {
            continue;
        }
        if let Ok((base, seconds)) = trials.pair(&kept, &trial)? {
            note(&kept, base);
            note(&trial, seconds);
            if seconds < base {
                (kept, chosen) = (trial, seconds);
                stepped = true;
            }
        }
    }
    let same = |a: &[usize], b: &[usize]| a.len() == b.len() && a.iter().all(|i| b.contains(i));
    if let Some((set, _)) = fastest.filter(|(set, _)| stepped && !same(set, &kept)) {
        if let Ok((base, seconds)) = trials.pair(&kept, &set)? {
            (kept, chosen) = match seconds < base {
                true => (set, seconds),
                false => (kept, base),
            };
        }
    }
    Ok(Choice {
        kept,
        with,
        without,
        read_once,
        chosen,
    })
}

/// [`Trials`] on the whole model: the schedules written with the kinds of
/// a set inlined, timed by [`paired`].
struct ModelTrials<'m, 'r, 's> {
    model: &'m Model<'m>,
    key: String,
    results: &'r mut [TaskResult],
    session: &'r mut Session<'s>,
    /// Every kind the decision is about.
    inlined: &'r [usize],
    deadline: f64,
}

impl ModelTrials<'_, '_, '_> {
    /// The schedule with the kinds of `set` inlined (and the others not).
    fn schedule(&mut self, set: &[usize]) -> String {
        for &i in self.inlined {
            self.results[i].inlined = set.contains(&i);
        }
        self.model.schedule(self.results)
    }
}

impl Trials for ModelTrials<'_, '_, '_> {
    fn pair(
        &mut self,
        base: &[usize],
        trial: &[usize],
    ) -> Result<Result<(f64, f64), String>, String> {
        let (base, trial) = (self.schedule(base), self.schedule(trial));
        let model = self.model;
        paired(
            &self.key,
            model.name,
            (&base, &trial),
            model.text,
            self.session,
        )
    }

    fn fits(&self) -> bool {
        self.session.pair_fits(self.deadline)
    }

    fn plans(&mut self, set: &[usize]) -> bool {
        let text = self.schedule(set);
        self.model.plans(&text)
    }
}

/// Whether result `i` is a kind of transpose whose every op is read only by
/// matmul-like ops of tasks tuned with their feeding transposes inlined
/// (and sped up).
fn fed_to_tuned_readers(info: &PayloadInfo, results: &[TaskResult], i: usize) -> bool {
    let task = &results[i].task;
    if task.kind != "linalg.transpose" {
        return false;
    }
    let tuned_with_feeders = |reader: usize| {
        results
            .iter()
            .any(|r| !r.task.feeders.is_empty() && r.best.is_some() && r.task.ops.contains(&reader))
    };
    // Each read directly (not through a reshape) as a matmul's input.
    task.ops.iter().all(|&op| {
        let one = [op];
        let reads: Vec<_> = info.reads_of(&one).collect();
        !reads.is_empty()
            && reads.iter().all(|(r, o)| {
                !o.is_init && o.via.is_empty() && r.multiply_accumulate && tuned_with_feeders(r.id)
            })
    })
}

/// Whether every op reading one of `task`'s ops reads each of its elements
/// once: an op with no reduction, through a map naming each of its
/// dimensions once (an elementwise reader). Inlined into a convolution or
/// a matmul, or broadcast along a reader's dimension, an op is recomputed
/// per use instead (mobilenet_v2's ReLU6 inside the 1x1 convolutions
/// reading it: 32.7 ms against 27.5 ms).
fn read_once(info: &PayloadInfo, task: &Task) -> bool {
    info.reads_of(&task.ops)
        .filter(|(_, o)| !o.is_init)
        .all(|(reader, operand)| {
            let elementwise = reader
                .iterators
                .iter()
                .all(|k| *k == IteratorKind::Parallel);
            let mut dims: Vec<usize> = operand
                .map
                .iter()
                .filter_map(|m| match m {
                    MapResult::Dim(d) => Some(*d),
                    _ => None,
                })
                .collect();
            dims.sort();
            dims.dedup();
            elementwise
                && operand.map.len() == reader.iterators.len()
                && dims.len() == operand.map.len()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each set's time from `cost`, the second of each pair timed `bias`
    /// seconds faster than it is (a pair's error), every pair asked for kept
    /// in order; pairs fit the deadline while fewer than `budget` were timed.
    struct Scripted<F: Fn(&[usize]) -> f64> {
        cost: F,
        bias: f64,
        budget: usize,
        pairs: Vec<(Vec<usize>, Vec<usize>)>,
    }

    impl<F: Fn(&[usize]) -> f64> Scripted<F> {
        fn new(cost: F) -> Self {
            Scripted {
                cost,
                bias: 0.0,
                budget: usize::MAX,
                pairs: Vec::new(),
            }
        }
    }

    impl<F: Fn(&[usize]) -> f64> Trials for Scripted<F> {
        fn pair(
            &mut self,
            base: &[usize],
            trial: &[usize],
        ) -> Result<Result<(f64, f64), String>, String> {
            self.pairs.push((base.to_vec(), trial.to_vec()));
            Ok(Ok(((self.cost)(base), (self.cost)(trial) - self.bias)))
        }

        fn fits(&self) -> bool {
            self.pairs.len() < self.budget
        }

        fn plans(&mut self, _: &[usize]) -> bool {
            true
        }
    }

    /// Seconds of a set: kind 0 (read once) saves 1 s, each of `step`'s
    /// kinds adds `step` seconds, and kind `worst`, when given, 5 s.
    fn cost(set: &[usize], step: f64, worst: Option<usize>) -> f64 {
        let once = if set.contains(&0) { 1.0 } else { 0.0 };
        let bad = if worst.is_some_and(|w| set.contains(&w)) {
            5.0
        } else {
            0.0
        };
        let others = set.iter().filter(|&&i| i != 0 && Some(i) != worst).count();
        10.0 - once + bad + step * others as f64
    }

    #[test]
    fn a_recomputed_kind_no_faster_is_not_kept() {
        // Each recomputed kind costs 0.08 s, under 1%: none is kept.
        let mut trials = Scripted::new(|set: &[usize]| cost(set, 0.08, None));
        let choice = choose(&[0, 1, 2, 3, 4], &[0], &mut trials).unwrap();
        assert_eq!(choice.kept, vec![0]);
        assert_eq!(choice.chosen, 9.0);
        assert_eq!(choice.without, 10.0);
        assert!((choice.with - 9.32).abs() < 1e-9, "{}", choice.with);
        assert_eq!(choice.read_once, Some(9.0));
        // None against all, all against the kinds read once, four steps;
        // no step kept, no last pair.
        assert_eq!(trials.pairs.len(), 6, "{:?}", trials.pairs);
    }

    #[test]
    fn kinds_kept_one_by_one_are_set_against_the_fastest_set_measured() {
        // Each recomputed kind costs 0.08 s, but each pair times its second
        // set 0.1 s fast: one by one they all go in, 0.32 s behind the
        // kinds read once, which the last pair finds again.
        let mut trials = Scripted::new(|set: &[usize]| cost(set, 0.08, None));
        trials.bias = 0.1;
        let choice = choose(&[0, 1, 2, 3, 4], &[0], &mut trials).unwrap();
        assert_eq!(choice.kept, vec![0]);
        assert_eq!(trials.pairs.len(), 7, "{:?}", trials.pairs);
        assert_eq!(trials.pairs[6], (vec![0, 1, 2, 3, 4], vec![0]));
    }

    #[test]
    fn the_last_pair_is_timed_past_the_deadline() {
        // The deadline leaves room for the steps only: the set they reach
        // is still set against the fastest.
        let mut trials = Scripted::new(|set: &[usize]| cost(set, 0.08, None));
        trials.bias = 0.1;
        trials.budget = 6;
        let choice = choose(&[0, 1, 2, 3, 4], &[0], &mut trials).unwrap();
        assert_eq!(trials.pairs.len(), 7, "{:?}", trials.pairs);
        assert_eq!(choice.kept, vec![0]);
    }

    #[test]
    fn steps_that_end_at_the_fastest_set_need_no_last_pair() {
        // Kinds 1 and 2 save 0.1 s each, kind 3 costs 5 s: inlined all
        // together the model is slower, one by one 1 and 2 are kept.
        let mut trials = Scripted::new(|set: &[usize]| cost(set, -0.1, Some(3)));
        let choice = choose(&[0, 1, 2, 3], &[0], &mut trials).unwrap();
        assert_eq!(choice.kept, vec![0, 1, 2]);
        assert!((choice.chosen - 8.8).abs() < 1e-9, "{}", choice.chosen);
        assert_eq!(trials.pairs.len(), 5, "{:?}", trials.pairs);
    }

    #[test]
    fn a_first_pair_that_cannot_be_timed_is_the_error() {
        struct Failing;
        impl Trials for Failing {
            fn pair(
                &mut self,
                _: &[usize],
                _: &[usize],
            ) -> Result<Result<(f64, f64), String>, String> {
                Ok(Err("the model did not compile".into()))
            }
            fn fits(&self) -> bool {
                true
            }
            fn plans(&mut self, _: &[usize]) -> bool {
                true
            }
        }
        let why = choose(&[0, 1], &[0], &mut Failing).err().unwrap();
        assert_eq!(why, "the model did not compile");
    }
}
