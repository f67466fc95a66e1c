//! The whole apply path on schedules that mostly make sense: the bytes are
//! decoded as choices (which payload, which func, which directive, which of
//! the func's current loops, which factor), not as text, so most inputs are
//! valid schedules that reach MLIR's transform interpreter, while libFuzzer's
//! coverage still steers the choices. Every linalg op of the payload is bound
//! to a func; directives track the loop names they create, as Halide does.
//! The answer must be a transformed payload or a located refusal: never a
//! panic, an abort, a hang, an internal failure or an unlocated error.
//! `SCHED_FUZZ_PRINT=1` prints the schedule each input decodes to.

#![no_main]

#[path = "driver.rs"]
mod driver;
#[path = "payloads.rs"]
mod payloads;

use interpreter::pipeline::{run, Stop};
use interpreter::Failure;
use libfuzzer_sys::fuzz_target;
use payloads::payloads;
use schedule_lang::{IteratorKind, PayloadInfo, SourceFile};

/// Reads choices from the fuzzer's bytes; past the end, every choice is 0.
struct Choices<'a>(&'a [u8]);

impl Choices<'_> {
    fn next(&mut self, count: usize) -> usize {
        let Some((&byte, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        byte as usize % count.max(1)
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One func: its name and the loops its current stage has, outermost first.
struct Func {
    name: String,
    loops: Vec<String>,
    inputs: usize,
}

/// Decodes a schedule for `info` from the choices.
fn schedule(info: &PayloadInfo, choices: &mut Choices) -> String {
    let mut text = String::new();
    let mut funcs: Vec<Func> = Vec::new();
    for (index, op) in info.ops.iter().enumerate() {
        let same_kind = info.ops[..index]
            .iter()
            .filter(|o| o.kind == op.kind && o.function == op.function)
            .count();
        let parallel: Vec<String> = (0..op.iterators.len())
            .filter(|&d| op.iterators[d] == IteratorKind::Parallel)
            .map(|d| format!("p{d}"))
            .collect();
        let reduction: Vec<String> = (0..op.iterators.len())
            .filter(|&d| op.iterators[d] != IteratorKind::Parallel)
            .map(|d| format!("r{d}"))
            .collect();
        let dims = if reduction.is_empty() {
            parallel.join(", ")
        } else {
            format!("{} | {}", parallel.join(", "), reduction.join(", "))
        };
        let name = format!("f{index}");
        let selector = format!("@{}:{}[{same_kind}]", op.function, op.kind);
        text += &format!("func {name} = {selector} ({dims})\n");
        let loops = (0..op.iterators.len())
            .map(|d| {
                if op.iterators[d] == IteratorKind::Parallel {
                    format!("p{d}")
                } else {
                    format!("r{d}")
                }
            })
            .collect();
        let inputs = op.operands.iter().filter(|o| !o.is_init).count();
        funcs.push(Func {
            name,
            loops,
            inputs,
        });
    }
    let factors = [1, 2, 3, 4, 5, 8, 16, 32];
    let mut fresh = 0;
    for _ in 0..24 {
        if choices.is_empty() || funcs.is_empty() {
            break;
        }
        let f = choices.next(funcs.len());
        let directive = choices.next(16);
        let func = &mut funcs[f];
        if func.loops.is_empty() {
            continue;
        }
        let l = choices.next(func.loops.len());
        let the_loop = func.loops[l].clone();
        let factor = factors[choices.next(factors.len())];
        let line = match directive {
            0 | 1 => {
                fresh += 1;
                let (outer, inner) = (format!("o{fresh}"), format!("i{fresh}"));
                func.loops.splice(l..=l, [outer.clone(), inner.clone()]);
                format!("split({the_loop}, {outer}, {inner}, {factor})")
            }
            2 => {
                let mut order = func.loops.clone();
                for i in (1..order.len()).rev() {
                    order.swap(i, choices.next(i + 1));
                }
                func.loops = order.iter().rev().cloned().collect();
                format!("reorder({})", order.join(", "))
            }
            3 => format!("vectorize({the_loop})"),
            4 => format!("vectorize({the_loop}, {factor})"),
            5 => format!("unroll({the_loop}, {factor})"),
            6 => format!("parallel({the_loop})"),
            7 if l + 1 < func.loops.len() => {
                fresh += 1;
                let fused = format!("g{fresh}");
                let inner = func.loops[l + 1].clone();
                func.loops.splice(l..=l + 1, [fused.clone()]);
                format!("fuse({inner}, {the_loop}, {fused})")
            }
            8 => format!("pack(in{}, {the_loop})", choices.next(func.inputs)),
            9 => format!("prefetch(in{}, {the_loop})", choices.next(func.inputs)),
            12 => "compute_inline()".to_string(),
            14 => format!("pipeline({the_loop}, {factor})"),
            15 => format!("buffer_at({the_loop})"),
            13 => {
                fresh += 1;
                let renamed = format!("u{fresh}");
                func.loops[l] = renamed.clone();
                format!("rfactor({the_loop}, {renamed})")
            }
            11 => {
                let target = ["hwacc16", "host"][choices.next(2)];
                if choices.next(2) == 0 {
                    format!("accelerate({target})")
                } else {
                    format!("accelerate({target}, {the_loop})")
                }
            }
            _ => {
                // compute_at a later func's loop (the consumer, when they chain).
                let consumer = f + 1 + choices.next(funcs.len().saturating_sub(f + 1));
                if consumer >= funcs.len() || funcs[consumer].loops.is_empty() {
                    continue;
                }
                let at = choices.next(funcs[consumer].loops.len());
                let line = format!(
                    "{}.compute_at({}, {})\n",
                    funcs[f].name, funcs[consumer].name, funcs[consumer].loops[at]
                );
                text += &line;
                continue;
            }
        };
        text += &format!("{}.{line}\n", funcs[f].name);
    }
    text
}

fuzz_target!(|data: &[u8]| {
    let mut choices = Choices(data);
    let payloads = payloads();
    let chosen = &payloads[choices.next(payloads.len())];
    let (name, text, info) = (&chosen.name, &chosen.text, &chosen.info);
    let source = SourceFile::new("fuzz.sched", schedule(info, &mut choices));
    // `SCHED_FUZZ_PRINT=1 apply_generated INPUT…` prints what each input
    // decodes to, as a `.sched` file with its payload (for fixtures), before
    // running it (so a crash shows its schedule too), then the outcome.
    let print = std::env::var_os("SCHED_FUZZ_PRINT").is_some();
    if print {
        eprintln!("# payload: {name}\n{}", source.text);
    }
    let outcome = run(
        &source,
        name,
        text,
        Stop::Apply,
        &microkernels::builtin_targets(),
    );
    if print {
        let result = if outcome.is_ok() {
            "applied"
        } else {
            "refused"
        };
        eprintln!("# outcome: {result}");
    }
    match outcome {
        Ok(_) => {}
        Err(Failure::Internal(message)) => {
            panic!("internal failure on {name}:\n{}\n{message}", source.text)
        }
        Err(Failure::Input(message)) => assert!(
            message.contains("fuzz.sched:") || message.contains(name.as_str()),
            "an unlocated refusal on {name}:\n{}\n{message}",
            source.text
        ),
    }
});
