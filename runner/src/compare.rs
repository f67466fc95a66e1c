//! Compares the scheduled payload's results with the unscheduled one's, the
//! way `numpy.allclose` does: `|got - want| <= atol + rtol * |want|`.

use crate::tensor::Tensor;
use payload::types::ElementType;

/// Tolerances for one comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Absolute tolerance.
    pub atol: f64,
    /// Relative tolerance.
    pub rtol: f64,
}

/// The first element outside the tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Which result.
    pub result: usize,
    /// Its multi-dimensional index.
    pub index: Vec<i64>,
    /// The scheduled payload's value.
    pub got: f64,
    /// The unscheduled payload's value.
    pub want: f64,
}

/// How far apart two sets of results are.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Largest `|got - want|`.
    pub max_abs_diff: f64,
    /// Largest `|got - want| / |want|` over elements with `want != 0`.
    pub max_rel_diff: f64,
    /// The first element outside the tolerance, if any.
    pub mismatch: Option<Mismatch>,
    /// How many elements were compared.
    pub elements: usize,
    /// How many of them are NaN or infinite in both results (matched as
    /// equal, so the check says little about them).
    pub non_finite: usize,
}

impl Comparison {
    /// A note when some expected values are NaN or infinite: they match, but
    /// a check of such values proves little (random inputs can make a model
    /// non-finite: a negative variance under a square root).
    pub fn non_finite_note(&self) -> Option<String> {
        (self.non_finite > 0).then(|| {
            format!(
                "{} of {} results are NaN or infinite in both payloads and match only as such; \
                 give inputs that keep them finite (--inputs) for a check that means something",
                self.non_finite, self.elements
            )
        })
    }
}

/// The default tolerance for results like `expected` of element type
/// `element`: relative 1e-4 for f32 and 1e-9 for f64, absolute 1e-5 (f32)
/// or 1e-12 (f64) times the largest finite magnitude (at least 1), since
/// reassociated and fused sums round differently; exact for integers.
pub fn default_tolerance(element: ElementType, expected: &[Tensor]) -> Tolerance {
    let scale = expected
        .iter()
        .flat_map(|t| t.to_f64())
        .map(f64::abs)
        .filter(|v| v.is_finite())
        .fold(1.0, f64::max);
    let (rtol, atol) = match element {
        ElementType::F32 => (1e-4, 1e-5 * scale),
        ElementType::F64 => (1e-9, 1e-12 * scale),
        ElementType::I32 | ElementType::I64 | ElementType::I8 | ElementType::I1 => (0.0, 0.0),
    };
    Tolerance { atol, rtol }
}

fn unravel(mut flat: usize, shape: &[i64]) -> Vec<i64> {
    let mut index = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        let size = shape[d].max(1) as usize;
        index[d] = (flat % size) as i64;
        flat /= size;
    }
    index
}

/// Compares `got` with `want`, result by result. As numpy's
/// `allclose(equal_nan=True)`: NaN matches NaN only, and an infinity only
/// the same infinity.
pub fn compare(got: &[Tensor], want: &[Tensor], tolerance: Tolerance) -> Comparison {
    let mut comparison = Comparison {
        max_abs_diff: 0.0,
        max_rel_diff: 0.0,
        mismatch: None,
        elements: 0,
        non_finite: 0,
    };
    for (result, (g, w)) in got.iter().zip(want).enumerate() {
        for (flat, (a, b)) in g.to_f64().into_iter().zip(w.to_f64()).enumerate() {
            comparison.elements += 1;
            if !b.is_finite() && (a == b || (a.is_nan() && b.is_nan())) {
                comparison.non_finite += 1;
            }
            let diff = if a == b || (a.is_nan() && b.is_nan()) {
                0.0
            } else if !a.is_finite() || !b.is_finite() {
                f64::INFINITY
            } else {
                (a - b).abs()
            };
            comparison.max_abs_diff = comparison.max_abs_diff.max(diff);
            if b != 0.0 {
                comparison.max_rel_diff = comparison.max_rel_diff.max(diff / b.abs());
            }
            let within = diff == 0.0
                || (diff.is_finite() && diff <= tolerance.atol + tolerance.rtol * b.abs());
            if !within && comparison.mismatch.is_none() {
                comparison.mismatch = Some(Mismatch {
                    result,
                    index: unravel(flat, &g.ty.shape),
                    got: a,
                    want: b,
                });
            }
        }
    }
    comparison
}

#[cfg(test)]
mod tests {
    use super::*;
    use payload::types::{ElementType, TensorType};

    fn tensor(values: &[f32], shape: &[i64]) -> Tensor {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        Tensor::from_bytes(
            TensorType {
                element: ElementType::F32,
                shape: shape.to_vec(),
            },
            &bytes,
        )
        .unwrap()
    }

    #[test]
    fn finds_the_first_mismatch_and_its_index() {
        let want = tensor(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
        let got = tensor(&[1.0, 2.0, 3.0, 4.0, 5.5, 7.0], &[2, 3]);
        let c = compare(
            &[got],
            &[want],
            Tolerance {
                atol: 1e-6,
                rtol: 1e-6,
            },
        );
        assert_eq!(c.max_abs_diff, 1.0);
        assert!((c.max_rel_diff - 1.0 / 6.0).abs() < 1e-12);
        assert_eq!(
            c.mismatch,
            Some(Mismatch {
                result: 0,
                index: vec![1, 1],
                got: 5.5,
                want: 5.0
            })
        );
    }

    #[test]
    fn tolerances_and_nan() {
        let want = tensor(&[100.0, 0.0], &[2]);
        let close = tensor(&[100.001, 0.0], &[2]);
        assert!(compare(
            &[close],
            std::slice::from_ref(&want),
            Tolerance {
                atol: 0.0,
                rtol: 1e-4
            }
        )
        .mismatch
        .is_none());
        let nan = tensor(&[f32::NAN, 0.0], &[2]);
        let c = compare(
            &[nan],
            &[want],
            Tolerance {
                atol: 1.0,
                rtol: 1.0,
            },
        );
        assert_eq!(c.max_abs_diff, f64::INFINITY);
        assert_eq!(c.mismatch.map(|m| m.index), Some(vec![0]));
    }

    #[test]
    fn nan_matches_nan_and_infinity_the_same_infinity() {
        let tolerance = Tolerance {
            atol: 1e-5,
            rtol: 1e-4,
        };
        let want = tensor(&[f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0], &[4]);
        let same = compare(
            std::slice::from_ref(&want),
            std::slice::from_ref(&want),
            tolerance,
        );
        assert_eq!(same.mismatch, None);
        assert_eq!(same.max_abs_diff, 0.0);
        assert_eq!((same.non_finite, same.elements), (3, 4));
        assert!(same
            .non_finite_note()
            .unwrap()
            .starts_with("3 of 4 results"));
        for (position, value) in [
            (0, 1.0),
            (1, f32::NEG_INFINITY),
            (2, f32::NAN),
            (3, f32::NAN),
        ] {
            let mut values = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0];
            values[position] = value;
            let c = compare(
                &[tensor(&values, &[4])],
                std::slice::from_ref(&want),
                tolerance,
            );
            assert_eq!(c.mismatch.map(|m| m.index), Some(vec![position as i64]));
        }
    }
}
