//! Measuring in this process: a schedule measured again while its program
//! is kept (the last two) is not compiled again, and a pair shares what the
//! last pair compiled.

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
