//! Which cache lines a `prefetch` fetches per iteration: the part of the next
//! iteration's region the current one does not read, one line at a time.
//! Shared by the planner, which refuses a region of more lines than lowering
//! inserts (a located error), and by lowering (`runner::prefetch`), which
//! inserts them.

/// Bytes per cache line on the x86 hosts `run` targets.
pub const LINE_BYTES: i64 = 64;

/// At most this many lines are prefetched per iteration (more would be a
/// region far larger than a cache level, and as many instructions).
pub const MAX_LINES: usize = 1024;

/// Elements of `element_bytes` bytes per cache line (at least one).
pub fn elements_per_line(element_bytes: i64) -> i64 {
    (LINE_BYTES / element_bytes.max(1)).max(1)
}

/// The part of the next iteration's region the current one does not read,
/// as (start, sizes) within the region: when one dimension alone moves (by
/// a shift smaller than its size), the slab at its far end; otherwise the
/// whole region.
pub fn new_part(sizes: &[i64], shifts: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let moving: Vec<usize> = (0..sizes.len()).filter(|&r| shifts[r] != 0).collect();
    let mut start = vec![0; sizes.len()];
    let mut part = sizes.to_vec();
    if let [r] = moving.as_slice() {
        let (size, shift) = (sizes[*r], shifts[*r].abs());
        if shift < size {
            part[*r] = shift;
            if shifts[*r] > 0 {
                start[*r] = size - shift;
            }
        }
    }
    (start, part)
}

/// The lines to prefetch, as offsets from the region's start: every element
/// along the outer dimensions, one per cache line along the contiguous last
/// one (and its last element when the size is not a whole number of lines).
pub fn line_offsets(sizes: &[i64], line: i64) -> Vec<Vec<i64>> {
    let mut offsets: Vec<Vec<i64>> = vec![Vec::new()];
    for (r, &size) in sizes.iter().enumerate() {
        let along: Vec<i64> = if r + 1 == sizes.len() {
            let mut along: Vec<i64> = (0..size).step_by(line as usize).collect();
            if size % line != 0 {
                along.push(size - 1);
            }
            along
        } else {
            (0..size).collect()
        };
        offsets = offsets
            .iter()
            .flat_map(|prefix| {
                along
                    .iter()
                    .map(move |&a| [prefix.as_slice(), &[a]].concat())
            })
            .collect();
    }
    offsets
}

/// How many offsets [`line_offsets`] gives, counted without listing them
/// (saturating: a region of billions of lines is only compared with
/// [`MAX_LINES`]).
pub fn line_count(sizes: &[i64], line: i64) -> u64 {
    let Some((&last, outer)) = sizes.split_last() else {
        return 1;
    };
    let last = last.max(0) as u64;
    let line = line.max(1) as u64;
    let along = last.div_ceil(line) + u64::from(!last.is_multiple_of(line));
    outer.iter().fold(along, |count, &size| {
        count.saturating_mul(size.max(0) as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_sixteen_floats_along_the_last_dimension_and_its_last_element() {
        assert_eq!(
            line_offsets(&[2, 40], 16),
            vec![
                vec![0, 0],
                vec![0, 16],
                vec![0, 32],
                vec![0, 39],
                vec![1, 0],
                vec![1, 16],
                vec![1, 32],
                vec![1, 39]
            ]
        );
        assert_eq!(line_offsets(&[32], 16), vec![vec![0], vec![16]]);
    }

    #[test]
    fn the_count_is_the_number_of_offsets_listed() {
        for sizes in [
            vec![2, 40],
            vec![32],
            vec![3, 1, 17],
            vec![7, 16],
            vec![5, 0],
        ] {
            assert_eq!(
                line_count(&sizes, 16),
                line_offsets(&sizes, 16).len() as u64,
                "{sizes:?}"
            );
        }
        assert_eq!(line_count(&[i64::MAX, i64::MAX, 64], 16), u64::MAX);
    }

    #[test]
    fn only_the_slab_the_next_iteration_adds_when_one_dimension_moves() {
        assert_eq!(new_part(&[10, 40], &[8, 0]), (vec![2, 0], vec![8, 40]));
        assert_eq!(new_part(&[10, 40], &[12, 0]), (vec![0, 0], vec![10, 40]));
        assert_eq!(new_part(&[10, 40], &[8, 16]), (vec![0, 0], vec![10, 40]));
        assert_eq!(new_part(&[10, 40], &[-8, 0]), (vec![0, 0], vec![8, 40]));
    }
}
