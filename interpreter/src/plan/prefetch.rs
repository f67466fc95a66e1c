//! `prefetch(inK, loop)`: Halide's `prefetch(input, loop, loop, 1)`. At the
//! start of each iteration of `loop` (an `scf.forall`), what the next
//! iteration reads of input K for the first time is prefetched. The planner
//! works out the region one iteration reads from the op's indexing map and
//! the forall's induction variables (offsets as affine maps, sizes, and how
//! far the region moves per iteration of the innermost variable), and
//! annotates the loop with it (`param.constant` and `annotate`,
//! `sched.prefetch_N`), so the script stays standalone; lowering inserts the
//! `memref.prefetch`es after bufferization (`runner::prefetch`).

use super::{comma_list, MaterializedLoop, Planner};
use payload::prefetch_lines::{elements_per_line, line_count, new_part, LINE_BYTES, MAX_LINES};
use payload::types::ElementType;
use schedule_lang::{Diagnostic, MapResult};

impl Planner<'_> {
    /// Plans the `prefetch`es of a stage at `the_loop`, now that the op is
    /// inside it (`region` is its tile there). The region of the input read in
    /// one iteration is worked out here, from the op's indexing map and the
    /// loop's induction variables, and the loop is annotated with it; lowering
    /// inserts the prefetches (`runner::prefetch`), after bufferization.
    pub(super) fn plan_prefetches(
        &mut self,
        func: usize,
        stage_index: usize,
        the_loop: &MaterializedLoop,
        region: &[Option<i64>],
    ) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let op = &self.payload.ops[stage.op];
        let name = self.stage_name(func, stage_index);
        for (index, prefetch) in stage.prefetches.iter().enumerate() {
            if prefetch.loop_name != the_loop.name
                || self.prefetched.contains(&(func, stage_index, index))
            {
                continue;
            }
            self.prefetched.push((func, stage_index, index));
            let at = &prefetch.loop_name;
            let fail = |why: String| {
                Diagnostic::error(
                    "prefetch-unplannable",
                    prefetch.span,
                    format!(
                        "cannot prefetch `in{}` of `{name}` at `{at}`: {why}",
                        prefetch.written
                    ),
                )
            };
            let operand = &op.operands[prefetch.operand];
            let Some(argument) = operand.argument else {
                let why = format!(
                    "`in{}` is not an argument of @{}, and only arguments are prefetched so far",
                    prefetch.written, op.function
                );
                self.errors
                    .push(fail(why).with_help("prefetch an input the function receives"));
                continue;
            };
            let Some(ivs) = &the_loop.ivs else {
                let why = format!(
                    "`{at}` is an `scf.for` (a sequential loop), and only `scf.forall` loops \
                     prefetch so far"
                );
                self.errors.push(fail(why).with_help(
                    "prefetch at a loop over a parallel dimension, such as the `compute_at` loop",
                ));
                continue;
            };
            if ivs.is_empty() {
                // In the remainder's single tile there is nothing to do: the
                // whole tiles before it prefetch (the last of them, its reads).
                if !self.in_remainder {
                    self.errors.push(fail(format!(
                        "`{at}` has one iteration, so there is no next one"
                    )));
                }
                continue;
            }
            if let Some(dynamic) = &the_loop.dynamic_loop {
                self.errors.push(
                    fail(format!(
                        "`{dynamic}`, in the same `scf.forall` as `{at}`, has a trip count that is \
                         not static (a split around it does not divide its extent), so the \
                         forall's bounds are dynamic"
                    ))
                    .with_help("choose split factors that divide the extents"),
                );
                continue;
            }
            // The op's dimension each induction variable tiles.
            let Some(dims) = ivs
                .iter()
                .map(|&(d, _)| self.corresponding_dim(the_loop.op, stage.op, d))
                .collect::<Option<Vec<usize>>>()
            else {
                self.errors.push(fail(format!(
                    "the loop was tiled from `{}`, whose dimensions do not map one to one to \
                     this op's",
                    self.payload.ops[the_loop.op].kind
                )));
                continue;
            };
            let names: Vec<&str> = stage.dims.iter().map(|d| d.name.as_str()).collect();
            match prefetch_region(op, prefetch.operand, region, &dims, ivs, &names, at) {
                Ok((_, _, shifts)) if shifts.iter().all(|&s| s == 0) => {
                    self.errors.push(
                        fail(format!("the next iteration of `{at}` reads the same part of `in{}`, so there is nothing new to prefetch", prefetch.written))
                            .with_help(format!("prefetch an input whose tile moves with `{at}`, or at a loop that moves it")),
                    );
                }
                Ok((offsets, sizes, shifts)) => {
                    let (part, lines) = new_lines(&operand.element, &sizes, &shifts);
                    if lines > MAX_LINES as u64 {
                        let part: Vec<String> = part.iter().map(i64::to_string).collect();
                        self.errors.push(
                            fail(format!(
                                "what the next iteration of `{at}` reads first of `in{}` ({} \
                                 elements) is {lines} cache lines, more than the {MAX_LINES} \
                                 prefetched at most per iteration",
                                prefetch.written,
                                part.join(" x ")
                            ))
                            .with_help(format!(
                                "prefetch at a loop inside `{at}`, whose iterations read less \
                                 (at most {} KiB)",
                                MAX_LINES as i64 * LINE_BYTES / 1024
                            )),
                        );
                        continue;
                    }
                    let value = format!("{{argument = {argument} : i64, offsets = [{}], sizes = array<i64: {}>, shifts = array<i64: {}>}}", offsets.join(", "), comma_list(&sizes), comma_list(&shifts));
                    self.annotate_prefetch
                        .push((the_loop.handle.clone(), value, prefetch.span));
                    self.transformed = true;
                }
                Err(why) => self.errors.push(fail(why)),
            }
        }
    }

    /// The dimension of op `to` that dimension `dim` of op `from` tiles:
    /// itself, or through the operand by which `from` reads `to`'s result.
    fn corresponding_dim(&self, from: usize, to: usize, dim: usize) -> Option<usize> {
        if from == to {
            return Some(dim);
        }
        let output = self.payload.ops[to].operands.iter().find(|o| o.is_init)?;
        let operand = self.payload.ops[from]
            .operands
            .iter()
            .find(|o| o.producer == Some(to))?;
        let position = operand.map.iter().position(|r| *r == MapResult::Dim(dim))?;
        match output.map.get(position)? {
            MapResult::Dim(d) => Some(*d),
            _ => None,
        }
    }

    /// Reports the prefetches of a stage that no materialized loop took.
    pub(super) fn report_unplanned_prefetches(&mut self, func: usize, stage_index: usize) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let name = self.stage_name(func, stage_index);
        for (index, prefetch) in stage.prefetches.iter().enumerate() {
            if !self.prefetched.contains(&(func, stage_index, index)) {
                self.errors.push(
                    Diagnostic::error(
                        "prefetch-unplannable",
                        prefetch.span,
                        format!(
                            "cannot prefetch `in{}` of `{name}` at `{}`: it is not a loop of the \
                             generated code (it has one iteration, stays inside the op, or is \
                             tiled together with the loops inside it)",
                            prefetch.written, prefetch.loop_name
                        ),
                    )
                    .with_help(
                        "prefetch at a loop that is materialized as an `scf.forall`: the \
                         innermost loop of a tiling run over parallel dimensions (e.g. the \
                         `compute_at` loop)",
                    ),
                );
            }
        }
    }

    /// Annotates the queued loops with their prefetch regions.
    pub(super) fn emit_prefetch_annotations(&mut self) {
        for (n, (handle, value, span)) in std::mem::take(&mut self.annotate_prefetch)
            .into_iter()
            .enumerate()
        {
            self.script.comment(format!(
                "prefetch: {} (inserted when lowering, at the start of each iteration)",
                self.source.slice(span)
            ));
            let attribute = format!("{}{n}", payload::attributes::PREFETCH_PREFIX);
            let at = self.at(span);
            self.script
                .annotate(&handle, &attribute, &value, "prefetch_region", at);
        }
    }
}

/// The part of a region (`sizes`, moving by `shifts`) that the next
/// iteration reads first, and how many cache lines lowering would prefetch
/// for it: elements of type `element` (as MLIR prints it; 4 bytes for a type
/// `run` does not pass, which lowering then reports).
fn new_lines(element: &str, sizes: &[i64], shifts: &[i64]) -> (Vec<i64>, u64) {
    let bytes = ElementType::from_mlir(element).map_or(4, |e| e.bytes() as i64);
    let (_, part) = new_part(sizes, shifts);
    let lines = line_count(&part, elements_per_line(bytes));
    (part, lines)
}

/// The region of input `operand` of `op` that one iteration of a forall reads:
/// per operand dimension, an affine map from the forall's induction variables
/// to the offset, the size, and how far the region moves from one iteration
/// of the innermost variable to the next. `region` is the op's tile in the
/// loop; `dims` the op dimension each variable tiles, with `ivs` giving the
/// tile sizes; `names` the op's dimension names. The op's other dimensions
/// must be whole there (offset 0).
type PrefetchRegion = (Vec<String>, Vec<i64>, Vec<i64>);
fn prefetch_region(
    op: &schedule_lang::PayloadOp,
    operand: usize,
    region: &[Option<i64>],
    dims: &[usize],
    ivs: &[(usize, i64)],
    names: &[&str],
    at: &str,
) -> Result<PrefetchRegion, String> {
    let variables: Vec<String> = (0..ivs.len()).map(|k| format!("d{k}")).collect();
    let mut offsets = Vec::new();
    let mut sizes = Vec::new();
    let mut shifts = Vec::new();
    for result in &op.operands[operand].map {
        let terms = match result {
            MapResult::Dim(d) => vec![(Some(*d), 1)],
            MapResult::Constant(c) => vec![(None, *c)],
            MapResult::Expression(text) => parse_sum(text).ok_or_else(|| format!("its index `{text}` is not a sum of dimensions, which is all prefetching handles so far"))?,
        };
        let mut offset: Vec<String> = Vec::new();
        let mut size = 1;
        let mut shift = 0;
        for (dim, coefficient) in terms {
            let Some(dim) = dim else {
                offset.push(coefficient.to_string());
                continue;
            };
            let tile = region.get(dim).copied().flatten().ok_or_else(|| {
                format!("the tile of `{}` there is partial or dynamic", names[dim])
            })?;
            size += coefficient * (tile - 1);
            match dims.iter().position(|&d| d == dim) {
                Some(k) => {
                    let stride = coefficient * ivs[k].1;
                    offset.push(if stride == 1 {
                        format!("d{k}")
                    } else {
                        format!("d{k} * {stride}")
                    });
                    if k + 1 == ivs.len() {
                        shift += stride;
                    }
                }
                None if Some(tile) == op.extents[dim] => {}
                None => {
                    return Err(format!(
                        "what it reads depends on `{}`, which a loop outside `{at}` tiles",
                        names[dim]
                    ))
                }
            }
        }
        offsets.push(format!(
            "affine_map<({}) -> ({})>",
            variables.join(", "),
            if offset.is_empty() {
                "0".to_string()
            } else {
                offset.join(" + ")
            }
        ));
        sizes.push(size);
        shifts.push(shift);
    }
    Ok((offsets, sizes, shifts))
}

/// Parses `d1 + d4`, `d2 * 3 + 1`: (dimension or none for a constant, coefficient) terms.
pub(super) fn parse_sum(text: &str) -> Option<Vec<(Option<usize>, i64)>> {
    text.split('+')
        .map(|term| {
            let term = term.trim();
            let dim = |t: &str| t.strip_prefix('d').and_then(|n| n.parse::<usize>().ok());
            if let Some(d) = dim(term) {
                return Some((Some(d), 1));
            }
            if let Some((left, right)) = term.split_once('*') {
                let (left, right) = (left.trim(), right.trim());
                return match (
                    dim(left),
                    right.parse::<i64>().ok(),
                    dim(right),
                    left.parse::<i64>().ok(),
                ) {
                    (Some(d), Some(c), _, _) | (_, _, Some(d), Some(c)) if c > 0 => {
                        Some((Some(d), c))
                    }
                    _ => None,
                };
            }
            term.parse::<i64>()
                .ok()
                .filter(|c| *c >= 0)
                .map(|c| (None, c))
        })
        .collect()
}
