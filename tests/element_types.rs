//! Tensors of the narrow element types `run` passes: `i1`, one byte per
//! element holding 0 or 1 (numpy's `bool`), and `i8`, in and out through
//! `.npy` files, checked against values computed here.

mod common;

use payload::types::{ElementType, TensorType};
use runner::tensor::Tensor;

/// The mask payload's ops tiled and unrolled where they read or write `i1`
/// tensors along the tile; `sel` reads one flag per row, broadcast across
/// its vectors, and is vectorized.
const SCHEDULE: &str = "\
func pos = linalg.generic[0] (i, j)
func all = linalg.generic[1] (i | r)
func sel = linalg.generic[2] (i, j)
func signed = linalg.generic[3] (i, j)
pos.split(j, jo, ji, 16).unroll(ji)
all.split(r, ro, ri, 16).unroll(ri)
sel.split(j, jo, ji, 16).vectorize(ji)
signed.split(j, jo, ji, 32).unroll(ji)
";

#[test]
fn bool_and_int8_tensors_pass_in_and_out_as_numpy_stores_them() {
    let directory = common::tempdir();
    let tensor = |element, seed| {
        Tensor::random(
            TensorType {
                element,
                shape: vec![8, 64],
            },
            seed,
        )
    };
    let mut x = tensor(ElementType::F32, 1);
    let mut keep = tensor(ElementType::I1, 2);
    let q = tensor(ElementType::I8, 3);
    // Row 3 all kept and positive, so one row's `and` is true.
    for j in 0..64 {
        let at = 3 * 64 + j;
        keep.buffer.bytes_mut()[at] = 1;
        x.buffer.bytes_mut()[4 * at..4 * at + 4].copy_from_slice(&0.5f32.to_le_bytes());
    }
    let schedule = directory.join("mask.sched");
    std::fs::write(&schedule, SCHEDULE).unwrap();
    let out = common::run_on_npy(
        &directory,
        ("tests/payloads/mask.mlir", schedule.to_str().unwrap()),
        &[("x", &x), ("keep", &keep), ("q", &q)],
        &["--check"],
    );
    let result = |i: usize| {
        let path = out.join(format!("result{i}.npy"));
        runner::npy::read(&std::fs::read(path).unwrap()).unwrap()
    };
    let (x, keep, q) = (x.to_f64(), keep.to_f64(), q.to_f64());
    let kept = |at: usize| keep[at] == 1.0;
    let positive: Vec<bool> = (0..512).map(|at| x[at] > 0.0 && kept(at)).collect();
    let (pos, all, sel, signed) = (result(0), result(1), result(2), result(3));
    assert_eq!(pos.ty.element, ElementType::I1);
    assert_eq!(signed.ty.element, ElementType::I8);
    // Each bool one byte, 0 or 1, as numpy's `bool` reads it.
    let bits: Vec<bool> = pos.buffer.bytes().iter().map(|&b| b == 1).collect();
    assert!(pos.buffer.bytes().iter().all(|&b| b <= 1));
    assert_eq!(bits, positive);
    let rows: Vec<f64> = (0..8)
        .map(|i| f64::from(u8::from(positive[i * 64..i * 64 + 64].iter().all(|&p| p))))
        .collect();
    assert_eq!(all.to_f64(), rows);
    assert_eq!(rows[3], 1.0);
    let selected: Vec<f64> = (0..512)
        .map(|at| if rows[at / 64] == 1.0 { x[at] } else { 0.0 })
        .collect();
    assert_eq!(sel.to_f64(), selected);
    let negated: Vec<f64> = (0..512)
        .map(|at| if kept(at) { q[at] } else { -q[at] })
        .collect();
    assert_eq!(signed.to_f64(), negated);
}
