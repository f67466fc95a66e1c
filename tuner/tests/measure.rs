//! Measuring in this process: a schedule measured again while its program
//! is kept (the last two) is not compiled again, a pair shares what the
//! last pair compiled, and a schedule announced as next is compiled (and
//! checked) on another core; an unscheduled op slower than a second per
//! call is timed by the call that computed its results.

use tuner::measure::{InProcess, Measurer};

const ADD: &str = r#"
func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.add ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
"#;

fn schedule(chain: &str) -> String {
    format!("func t = linalg.add (i, j)\nt{chain}\n")
}

#[test]
fn a_pair_compiles_only_the_schedule_the_last_pair_did_not() {
    let mut measurer = InProcess::new(1, 0.0, true);
    let (a, b, c) = (
        schedule(".vectorize(j)"),
        schedule(".split(j, jo, ji, 16).vectorize(ji)"),
        schedule(".split(i, io, ii, 4).vectorize(j)"),
    );
    let (x, y) = measurer.measure_pair("add", ADD, (&a, &b)).unwrap();
    assert!(x.seconds > 0.0 && y.seconds > 0.0);
    // The unscheduled op (the results' reference), then a and b.
    assert_eq!(measurer.compiles(), 3);
    let (y, z) = measurer.measure_pair("add", ADD, (&b, &c)).unwrap();
    assert!(y.seconds > 0.0 && z.seconds > 0.0);
    assert_eq!(measurer.compiles(), 4, "b was kept from the first pair");
    // a was the least recently used of the three: compiled again.
    measurer.measure("add", ADD, &a).unwrap();
    assert_eq!(measurer.compiles(), 5);
    measurer.measure("add", ADD, &a).unwrap();
    assert_eq!(measurer.compiles(), 5);
    // The same schedule of another task is another program.
    measurer.measure("other", ADD, &a).unwrap();
    assert_eq!(measurer.compiles(), 7, "its reference, then a");
}

#[test]
fn a_slow_reference_is_measured_by_the_call_that_computed_its_results() {
    // Any call counts as slow here: the reference is its first call alone;
    // normally timed, three calls at least. Candidates are still checked
    // against the results that call computed.
    let mut measurer = InProcess::new(1, 0.0, true);
    measurer.slow_reference = 0.0;
    assert_eq!(measurer.reference("add", ADD).unwrap().calls, 1);
    let measured = measurer
        .measure("add", ADD, &schedule(".vectorize(j)"))
        .unwrap();
    assert!(measured.calls >= 3 && measured.seconds > 0.0);
    let mut usual = InProcess::new(1, 0.0, true);
    assert!(usual.reference("add", ADD).unwrap().calls >= 3);
}

/// A one-thread measurer that compiles ahead; `None` (the test skipped,
/// saying so) when this process may use one core only.
fn compiling_ahead() -> Option<InProcess> {
    let measurer = InProcess::new(1, 0.0, true);
    if !measurer.compiles_ahead() {
        eprintln!("skipped: this process may use one core, so nothing is compiled ahead");
        return None;
    }
    Some(measurer)
}

#[test]
fn an_announced_schedule_is_compiled_on_another_core_and_checked_as_any() {
    let Some(mut measurer) = compiling_ahead() else {
        return;
    };
    let a = schedule(".vectorize(j)");
    measurer.measure("add", ADD, &a).unwrap();
    assert_eq!(measurer.compiled_ahead(), 0, "a was not announced");
    let b = schedule(".split(j, jo, ji, 16).vectorize(ji)");
    measurer.upcoming("add", ADD, &b);
    let measured = measurer.measure("add", ADD, &b).unwrap();
    assert!(measured.seconds > 0.0);
    assert_eq!(measurer.compiled_ahead(), 1);
    assert_eq!(measurer.compiles(), 3, "the reference, a, then b once");
    // A schedule that cannot apply fails as it does when compiled here.
    let wrong = schedule(".split(k, ko, ki, 4)");
    let here = measurer.measure("add", ADD, &wrong).unwrap_err();
    measurer.upcoming("add", ADD, &wrong);
    let there = measurer.measure("add", ADD, &wrong).unwrap_err();
    assert_eq!(measurer.compiled_ahead(), 2);
    assert_eq!(here, there);
}

#[test]
fn a_pair_compiles_its_second_schedule_on_another_core() {
    let Some(mut measurer) = compiling_ahead() else {
        return;
    };
    let (a, b) = (
        schedule(".vectorize(j)"),
        schedule(".split(i, io, ii, 4).vectorize(j)"),
    );
    measurer.measure_pair("add", ADD, (&a, &b)).unwrap();
    assert_eq!((measurer.compiles(), measurer.compiled_ahead()), (3, 1));
}
