//! The register tiles a reader can take over, measured after the search
//! when it measured none near the best ([`crate::producers`]): a reader is
//! tiled only as a register tile dividing the output.

use crate::candidate::{Candidate, RegisterTile};

/// Candidates with a register tile dividing the output measured after the
/// search when it measured none near the best, at most.
pub const DIVIDING_TILES_TRIED: usize = 6;

/// The candidates of `rest` (in rank order) to measure for a register tile
/// that `divides`, one per tile shape not among `measured` (the reader's
/// tiles set the loops around it), packed and unpacked tiles in turns so
/// that a family the cost model ranks low is tried too; at most
/// [`DIVIDING_TILES_TRIED`]. The same ones in every run, so a second `tune`
/// from the records measures nothing again.
pub fn dividing_tiles<'a>(
    rest: &'a [Candidate],
    measured: &[(RegisterTile, f64)],
    divides: impl Fn(&RegisterTile) -> bool,
) -> Vec<&'a Candidate> {
    let mut families: [Vec<&Candidate>; 2] = [Vec::new(), Vec::new()];
    for candidate in rest {
        let Some(tile) = candidate.tile.as_ref().filter(|t| divides(t)) else {
            continue;
        };
        let seen = |t: &RegisterTile| t.same_shape(tile);
        let family = &mut families[usize::from(tile.packed.is_some())];
        if measured.iter().any(|(t, _)| seen(t))
            || family.iter().any(|c| c.tile.as_ref().is_some_and(seen))
        {
            continue;
        }
        family.push(candidate);
    }
    let [unpacked, packed] = families;
    let mut out = Vec::new();
    for i in 0..unpacked.len().max(packed.len()) {
        out.extend(packed.get(i));
        out.extend(unpacked.get(i));
    }
    out.truncate(DIVIDING_TILES_TRIED);
    out
}
