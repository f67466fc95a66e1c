//! Static counts of a payload (scheduled or not), for `sched-apply profile`
//! and its roofline: floating-point operations and off-chip bytes, per
//! payload op (by source location) and in total.
//!
//! The payload is bufferized as `run` bufferizes it (results computed in
//! arguments or out-parameters), its remaining linalg ops are generalized,
//! and every op is counted as the loop nest executes it, through the trip
//! counts of the `scf.for`, `scf.forall` and `scf.parallel` loops around it:
//! - FLOPs: float `arith` ops and `math.fma` on scalars or vectors (an FMA
//!   counts 2), `vector.contract` (2 per multiply-add), vector reductions, and
//!   linalg ops (their body's FLOPs per iteration point);
//! - off-chip bytes: the loads and stores of buffers that are function
//!   arguments (results included, as out-parameters), through any view of
//!   them; a buffer the function allocates is on-chip (local). A linalg op
//!   reads each input once per iteration point, and writes its outputs once
//!   per point (reading them too when it reduces), with no cache assumed.
//!
//! A loop whose trip count is not a constant (a partial tile's `affine.min`,
//! a dynamic size), or code under an `scf.if`, makes the counts of the ops in
//! it unknown (`None`): never guessed.

use crate::passes::run_passes;
use payload::describe::{flops_of, parse_maps};
use payload::ffi::OpView;
use payload::{new_context, parse_module, PayloadError};
use schedule_lang::MapResult;

/// A count that may be unknown (a trip count that is not a constant).
pub type Count = Option<u128>;

/// What some ops do in one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Floating-point operations.
    pub flops: Count,
    /// Bytes loaded from function arguments.
    pub bytes_read: Count,
    /// Bytes stored to function arguments (and results).
    pub bytes_written: Count,
}

impl Counts {
    /// Nothing counted.
    pub const ZERO: Counts = Counts {
        flops: Some(0),
        bytes_read: Some(0),
        bytes_written: Some(0),
    };

    /// Off-chip bytes, read and written.
    pub fn bytes(&self) -> Count {
        Some(self.bytes_read? + self.bytes_written?)
    }

    /// FLOPs per off-chip byte; `None` when either is unknown or no byte moves.
    pub fn intensity(&self) -> Option<f64> {
        let bytes = self.bytes()?;
        let flops = self.flops?;
        (bytes > 0).then(|| flops as f64 / bytes as f64)
    }

    /// Adds `other` (unknown stays unknown).
    pub fn add(&mut self, other: Counts) {
        let sum = |a: Count, b: Count| Some(a? + b?);
        self.flops = sum(self.flops, other.flops);
        self.bytes_read = sum(self.bytes_read, other.bytes_read);
        self.bytes_written = sum(self.bytes_written, other.bytes_written);
    }
}

/// The counts of one call of a payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Per source location of the ops counted (`(line, column)` in the
    /// payload, the location the payload op had, or for an op a rewrite
    /// made, that of the nearest op around it that has one), in first-seen
    /// order; ops with no file location anywhere around are under `None`.
    pub by_location: Vec<(Option<(usize, usize)>, Counts)>,
    /// All ops together.
    pub total: Counts,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            by_location: Vec::new(),
            total: Counts::ZERO,
        }
    }
}

/// Counts the ops of the entry function of `text` (a payload on tensors):
/// `entry`, or its only public function.
pub fn profile(
    payload_name: &str,
    text: &str,
    entry: Option<&str>,
) -> Result<Profile, PayloadError> {
    let context = new_context();
    let mut module = parse_module(&context, payload_name, text)?;
    let signature = payload::signature::signature(OpView::of_module(&module), payload_name, entry)?;
    crate::lowering::bufferize(&context, &mut module, &signature, payload_name)?;
    // As lowering's first step does: fold the self-copies bufferization
    // leaves (an output tile written back onto itself), which never run.
    run_passes(
        &context,
        &mut module,
        "builtin.module(func.func(canonicalize))",
        payload_name,
    )?;
    payload::transform::apply_script(&context, &mut module, payload::describe::GENERALIZE_SCRIPT)
        .map_err(|e| PayloadError::internal(format!("could not generalize for counting: {e:?}")))?;
    let mut profile = Profile::default();
    for function in OpView::of_module(&module).children() {
        if function.name() == "func.func"
            && function.string_attribute("sym_name") == Some(signature.name.clone())
        {
            walk(function, function, Some(1), None, &mut profile);
        }
    }
    Ok(profile)
}

/// For each linalg op of `text`, in payload order (the ids of
/// [`payload::describe::describe`]): its own location and those of the ops in
/// its body, which vectorized code keeps.
pub fn op_locations(
    payload_name: &str,
    text: &str,
) -> Result<Vec<Vec<(usize, usize)>>, PayloadError> {
    let context = new_context();
    let module = parse_module(&context, payload_name, text)?;
    fn collect(op: OpView<'_>, out: &mut Vec<Vec<(usize, usize)>>) {
        for child in op.children() {
            if child.name().starts_with("linalg.") {
                let mut locations: Vec<(usize, usize)> =
                    line_column(&child.location()).into_iter().collect();
                locations.extend(
                    child
                        .children()
                        .into_iter()
                        .filter_map(|body_op| line_column(&body_op.location())),
                );
                out.push(locations);
            } else {
                collect(child, out);
            }
        }
    }
    let mut out = Vec::new();
    collect(OpView::of_module(&module), &mut out);
    Ok(out)
}

/// Counts the ops in `op`'s regions, each run `times` times per call. An op
/// with no payload location (one a rewrite pattern made) is attributed to
/// `around`, the location of the nearest op around it that has one (the
/// loop tiling made from the payload op).
fn walk(
    op: OpView<'_>,
    function: OpView<'_>,
    times: Count,
    around: Option<(usize, usize)>,
    profile: &mut Profile,
) {
    for child in op.children() {
        let location = line_column(&child.location()).or(around);
        let name = child.name();
        let inner = match name.as_str() {
            "scf.for" | "scf.forall" => {
                payload::loops::iterations(child).and_then(|t| u128::try_from(t).ok())
            }
            "scf.parallel" => parallel_trips(child),
            "scf.if" | "scf.while" | "affine.for" | "affine.parallel" | "affine.if" => None,
            _ => Some(1),
        };
        let here = counts_of(child, function);
        if here != Counts::ZERO {
            let scaled = Counts {
                flops: scale(here.flops, times),
                bytes_read: scale(here.bytes_read, times),
                bytes_written: scale(here.bytes_written, times),
            };
            record(profile, location, scaled);
        }
        let opaque = name.starts_with("linalg.") || name == "vector.contract";
        if !opaque {
            let times = times.zip(inner).map(|(a, b)| a * b);
            walk(child, function, times, location, profile);
        }
    }
}

/// Zero stays zero whatever the multiplier; anything else times an unknown is unknown.
fn scale(count: Count, times: Count) -> Count {
    match count {
        Some(0) => Some(0),
        _ => Some(count? * times?),
    }
}

fn record(profile: &mut Profile, location: Option<(usize, usize)>, counts: Counts) {
    profile.total.add(counts);
    match profile.by_location.iter_mut().find(|(l, _)| *l == location) {
        Some((_, existing)) => existing.add(counts),
        None => profile.by_location.push((location, counts)),
    }
}

/// The first `"file":line:column` in a printed location, as `(line, column)`
/// ([`payload::diagnostics::file_line_column`]).
pub fn line_column(text: &str) -> Option<(usize, usize)> {
    payload::diagnostics::file_line_column(text).map(|(_, line, column)| (line, column))
}

fn trips(lower: i64, upper: i64, step: i64) -> Option<u128> {
    (step > 0).then(|| ((upper - lower).max(0) as u128).div_ceil(step as u128))
}

fn parallel_trips(op: OpView<'_>) -> Count {
    let count = op.operand_count() / 3;
    let mut product = 1;
    for d in 0..count {
        product *= trips(
            op.operand_constant(d)?,
            op.operand_constant(count + d)?,
            op.operand_constant(2 * count + d)?,
        )?;
    }
    Some(product)
}

/// `vector<4x16xf32>` → (64, "f32"); a scalar type → (1, itself);
/// `memref<8x16xf32, …>` → (128, "f32"); `None` for a dynamic shape.
fn elements(type_text: &str) -> Option<(u128, String)> {
    let Some((_, inner)) = type_text.split_once('<') else {
        return Some((1, type_text.trim().to_string()));
    };
    let shape = inner.split([',', '>']).next().unwrap_or("");
    let mut parts: Vec<&str> = shape.split('x').map(str::trim).collect();
    let element = parts.pop().unwrap_or("").to_string();
    let mut product = 1u128;
    for part in parts {
        product *= part.parse::<u128>().ok()?;
    }
    Some((product, element))
}

fn element_bytes(element: &str) -> u128 {
    match element {
        "f64" | "i64" | "index" => 8,
        "f16" | "bf16" | "i16" => 2,
        "i8" | "i1" => 1,
        _ => 4,
    }
}

/// Bytes of a value of `type_text` (vector or scalar), when `off_chip`.
fn bytes_if(off_chip: bool, type_text: &str) -> Count {
    if !off_chip {
        return Some(0);
    }
    let (count, element) = elements(type_text)?;
    Some(count * element_bytes(&element))
}

/// How many times each element a `vector.transfer_read` loads appears in
/// its vector: the product of the vector dimensions its permutation map
/// broadcasts (results `0`), which read no memory of their own.
fn broadcast_factor(op: OpView<'_>, vector_type: &str) -> u128 {
    let Some(map) = op.attribute_text("permutation_map") else {
        return 1;
    };
    let Some(shape) = shape_of(vector_type) else {
        return 1;
    };
    let results = map
        .rsplit_once("-> (")
        .map_or("", |(_, r)| r.trim_end_matches(['>', ')']));
    results
        .split(',')
        .zip(&shape)
        .filter(|(result, _)| result.trim() == "0")
        .map(|(_, size)| size.unwrap_or(1).max(1) as u128)
        .product()
}

/// What one execution of `op` does (its loops' trips aside).
fn counts_of(op: OpView<'_>, function: OpView<'_>) -> Counts {
    let name = op.name();
    let lanes = |type_text: &str| elements(type_text).map(|(count, _)| count);
    let off_chip = |index: usize| op.operand_root_argument(index, function).is_some();
    let result = op.result_types().into_iter().next().unwrap_or_default();
    let mut counts = Counts::ZERO;
    match name.as_str() {
        "vector.transfer_read" => {
            counts.bytes_read =
                bytes_if(off_chip(0), &result).map(|bytes| bytes / broadcast_factor(op, &result));
        }
        "vector.load" | "vector.maskedload" | "memref.load" => {
            counts.bytes_read = bytes_if(off_chip(0), &result);
        }
        "vector.transfer_write" | "vector.store" | "vector.maskedstore" => {
            counts.bytes_written = bytes_if(off_chip(1), &op.operand_type(0));
        }
        "memref.store" => counts.bytes_written = bytes_if(off_chip(1), &op.operand_type(0)),
        "memref.copy" => {
            counts.bytes_read = bytes_if(off_chip(0), &op.operand_type(0));
            counts.bytes_written = bytes_if(off_chip(1), &op.operand_type(1));
        }
        "vector.contract" => counts.flops = contract_flops(op),
        "vector.reduction" | "vector.multi_reduction" => counts.flops = lanes(&op.operand_type(0)),
        "math.fma" | "vector.fma" => counts.flops = lanes(&result).map(|l| 2 * l),
        "linalg.generic" => counts = linalg_counts(op, function),
        _ => {
            let per_lane = flops_of(&name) as u128;
            if per_lane > 0 {
                counts.flops = lanes(&result).map(|l| per_lane * l);
            }
        }
    }
    counts
}

/// Iteration points of an op with indexing maps over operands of static
/// shapes: the product of each dimension's extent, read off the first
/// operand that indexes it with a plain dimension.
fn points(op: OpView<'_>, maps: &[Vec<MapResult>], dims: usize) -> Count {
    let mut extents = vec![None; dims];
    for (index, map) in maps.iter().enumerate() {
        let Some(shape) = shape_of(&op.operand_type(index)) else {
            continue;
        };
        for (position, result) in map.iter().enumerate() {
            if let (MapResult::Dim(d), Some(Some(size))) = (result, shape.get(position)) {
                if *d < dims && extents[*d].is_none() {
                    extents[*d] = Some(*size as u128);
                }
            }
        }
    }
    extents.into_iter().product()
}

/// Static sizes of a shaped type (`None` entries for `?`).
fn shape_of(type_text: &str) -> Option<Vec<Option<i64>>> {
    let (_, inner) = type_text.split_once('<')?;
    let shape = inner.split([',', '>']).next().unwrap_or("");
    let mut parts: Vec<&str> = shape.split('x').map(str::trim).collect();
    parts.pop();
    Some(parts.iter().map(|p| p.parse().ok()).collect())
}

/// The number of dimensions of the first map in `text`: `(d0, d1, d2) -> …`.
fn domain_size(text: &str) -> usize {
    text.find("affine_map<(")
        .and_then(|start| text[start + 12..].split(')').next())
        .map_or(0, |domain| {
            domain.split(',').filter(|d| !d.trim().is_empty()).count()
        })
}

fn contract_flops(op: OpView<'_>) -> Count {
    let text = op.attribute_text("indexing_maps")?;
    let maps = parse_maps(&text)?;
    let dims = domain_size(&text);
    points(op, &maps, dims).map(|p| 2 * p)
}

fn linalg_counts(op: OpView<'_>, function: OpView<'_>) -> Counts {
    let unknown = Counts {
        flops: None,
        bytes_read: None,
        bytes_written: None,
    };
    let Some(text) = op.attribute_text("indexing_maps") else {
        return unknown;
    };
    let Some(maps) = parse_maps(&text) else {
        return unknown;
    };
    let dims = domain_size(&text);
    let Some(points) = points(op, &maps, dims) else {
        return unknown;
    };
    let reduces = op
        .attribute_text("iterator_types")
        .is_some_and(|t| t.contains("reduction"));
    let inputs = op
        .i32_array_attribute("operandSegmentSizes")
        .and_then(|s| s.first().copied())
        .unwrap_or(0)
        .max(0) as usize;
    let per_point: u128 = op
        .children()
        .into_iter()
        .map(|body_op| flops_of(&body_op.name()) as u128)
        .sum();
    let mut counts = Counts {
        flops: Some(per_point * points),
        ..Counts::ZERO
    };
    for index in 0..op.operand_count().min(maps.len()) {
        let element = shape_of(&op.operand_type(index))
            .and_then(|_| elements(&op.operand_type(index)))
            .map(|(_, e)| e)
            .unwrap_or_else(|| op.operand_type(index));
        let off_chip = op.operand_root_argument(index, function).is_some();
        let bytes = if off_chip {
            points * element_bytes(&element)
        } else {
            0
        };
        if index < inputs {
            counts.bytes_read = counts.bytes_read.map(|b| b + bytes);
        } else {
            counts.bytes_written = counts.bytes_written.map(|b| b + bytes);
            if reduces {
                counts.bytes_read = counts.bytes_read.map(|b| b + bytes);
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matmul(m: usize, n: usize, k: usize) -> String {
        format!(
            "func.func @mm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>, %c: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{\n  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>\n  return %r : tensor<{m}x{n}xf32>\n}}\n"
        )
    }

    #[test]
    fn a_matmul_counts_two_flops_per_multiply_add_and_each_access() {
        let profile = profile("mm.mlir", &matmul(8, 16, 32), None).unwrap();
        let points = 8 * 16 * 32;
        assert_eq!(profile.total.flops, Some(2 * points));
        // A and B read per point; C read and written per point (a reduction).
        assert_eq!(profile.total.bytes_read, Some(3 * 4 * points));
        assert_eq!(profile.total.bytes_written, Some(4 * points));
        assert_eq!(profile.by_location.len(), 1);
        assert_eq!(profile.by_location[0].0, Some((2, 8)));
    }

    #[test]
    fn locations_are_read_from_printed_ones() {
        assert_eq!(line_column("loc(\"conv.mlir\":13:16)"), Some((13, 16)));
        assert_eq!(
            line_column("loc(fused[\"a.mlir\":2:3, \"b\"])"),
            Some((2, 3))
        );
        assert_eq!(line_column("loc(unknown)"), None);
    }

    #[test]
    fn element_counts_of_types() {
        assert_eq!(elements("vector<4x16xf32>"), Some((64, "f32".to_string())));
        assert_eq!(elements("f64"), Some((1, "f64".to_string())));
        assert_eq!(
            elements("memref<8x16xf32, strided<[16, 1], offset: ?>>"),
            Some((128, "f32".to_string()))
        );
        assert_eq!(elements("memref<?x16xf32>"), None);
    }
}
