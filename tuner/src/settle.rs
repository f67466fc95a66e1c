//! Which time a candidate keeps when it was timed more than once: a new
//! best is timed again ([`crate::retimed`]), and a third time when the two
//! disagree.

use crate::measure::Measurement;

/// Two timings of one candidate further apart than this (as a fraction of
/// the faster) are settled by a third.
pub const DISAGREE: f64 = 0.10;

/// Whether two timings of one candidate are further apart than [`DISAGREE`].
pub fn disagree(a: f64, b: f64) -> bool {
    (a - b).abs() > DISAGREE * a.min(b)
}

/// The time kept of a candidate's timings: the slower of two (they agree,
/// and the slower does not let noise crown it), the median of three (one
/// of the first two was hit by a spell of the shared machine).
pub fn settled(timings: &[Measurement]) -> Measurement {
    let mut sorted = timings.to_vec();
    sorted.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    match sorted.len() {
        3 => sorted[1],
        _ => sorted[sorted.len() - 1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(seconds: f64) -> Measurement {
        Measurement { seconds, calls: 3 }
    }

    #[test]
    fn two_timings_that_agree_keep_the_slower() {
        assert!(!disagree(0.0100, 0.0105));
        assert_eq!(settled(&[timed(0.0100), timed(0.0105)]).seconds, 0.0105);
    }

    #[test]
    fn a_spike_in_one_of_two_timings_is_outvoted_by_a_third() {
        // resnet18's stride-2 14x14 convolution on two threads.
        assert!(disagree(0.013055, 0.021176));
        let kept = settled(&[timed(0.013055), timed(0.021176), timed(0.013210)]);
        assert_eq!(kept.seconds, 0.013210);
        // A slow first timing is outvoted alike; a real slowdown is not.
        assert_eq!(
            settled(&[timed(0.03), timed(0.02), timed(0.021)]).seconds,
            0.021
        );
        assert_eq!(
            settled(&[timed(0.02), timed(0.03), timed(0.031)]).seconds,
            0.03
        );
    }
}
