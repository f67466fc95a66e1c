//! What the schedule language needs to know about a payload, as plain data:
//! its structured ops, their iteration dimensions, static extents, indexing
//! maps and which op produces each operand. The `payload` crate fills it from
//! MLIR; this crate never links MLIR.

/// Kind of one iteration dimension of a structured op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IteratorKind {
    /// Independent iterations.
    Parallel,
    /// Iterations combine into one result.
    Reduction,
}

/// One result expression of an operand's indexing map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapResult {
    /// Exactly iteration dimension `d_i`.
    Dim(usize),
    /// A constant, as for broadcasts from a scalar shape.
    Constant(i64),
    /// Anything else (`d1 + d4`), printed as MLIR prints it.
    Expression(String),
}

impl MapResult {
    /// How many positions along its axis a tile reads, given the tile's
    /// extent along each iteration dimension: 1 for a constant, the extent
    /// of `d_i`, and for a sum of dimensions times positive coefficients (a
    /// window, `d2 * 2 + d5`) its span, `sum c * (extent - 1) + 1`. `None`
    /// when an extent it needs is unknown or the expression is another.
    pub fn footprint(&self, extent: impl Fn(usize) -> Option<i64>) -> Option<i64> {
        match self {
            MapResult::Dim(d) => extent(*d),
            MapResult::Constant(_) => Some(1),
            MapResult::Expression(text) => {
                let mut span = 1;
                for (dim, coefficient) in linear_terms(text)? {
                    let Some(dim) = dim else { continue };
                    if coefficient <= 0 {
                        return None;
                    }
                    span += coefficient * (extent(dim)? - 1);
                }
                Some(span)
            }
        }
    }
}

/// One operand of a structured op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperandInfo {
    /// The operand's indexing map results, one per operand dimension.
    pub map: Vec<MapResult>,
    /// The structured op (by [`PayloadOp::id`]) whose result this operand is, if any.
    pub producer: Option<usize>,
    /// The view ops between the producer and this operand
    /// (`tensor.extract_slice`, `tensor.pad`, reshapes), nearest this operand
    /// first; empty when the operand is the producer's result itself.
    pub via: Vec<String>,
    /// The position of the enclosing function's argument this operand is, if it is one.
    pub argument: Option<usize>,
    /// When the operand is a `tensor.pad`'s result: its static low and high
    /// padding, one amount per dimension (a convolution's or pool's padding).
    pub padding: Option<(Vec<i64>, Vec<i64>)>,
    /// True for `outs` (init) operands.
    pub is_init: bool,
    /// The operand's static shape, one size per axis, `None` for a dynamic
    /// size (empty for a scalar).
    pub shape: Vec<Option<i64>>,
    /// The element type as MLIR prints it (`f32`); the type itself for scalars.
    pub element: String,
}

impl OperandInfo {
    /// Whether the operand's index depends on iteration dimension `dim`:
    /// `Some(false)` only when every index is a constant, another
    /// dimension, or a sum of others; `None` for an index not understood.
    pub fn depends_on(&self, dim: usize) -> Option<bool> {
        let mut depends = false;
        for result in &self.map {
            depends |= match result {
                MapResult::Dim(d) => *d == dim,
                MapResult::Constant(_) => false,
                MapResult::Expression(text) => linear_terms(text)?
                    .iter()
                    .any(|(d, factor)| *d == Some(dim) && *factor != 0),
            };
        }
        Some(depends)
    }

    /// The operand's axes indexed by iteration dimension `dim` alone: the
    /// axis `pack(inK, loop, dim)` stores innermost when there is exactly one.
    pub fn axes_indexed_by(&self, dim: usize) -> Vec<usize> {
        (0..self.map.len())
            .filter(|&axis| self.map[axis] == MapResult::Dim(dim))
            .collect()
    }
}

/// One structured (linalg) op of the payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayloadOp {
    /// Position among all structured ops of the payload, in payload order.
    pub id: usize,
    /// The op name, e.g. `linalg.generic`.
    pub kind: String,
    /// The symbol name of the enclosing `func.func`.
    pub function: String,
    /// The `sched.name` string attribute, if the op carries one.
    pub name: Option<String>,
    /// Kind of each iteration dimension, in linalg order.
    pub iterators: Vec<IteratorKind>,
    /// Static extent of each iteration dimension, `None` when dynamic.
    pub extents: Vec<Option<i64>>,
    /// Inputs then inits.
    pub operands: Vec<OperandInfo>,
    /// Floating-point operations per iteration point (1 per add, multiply,
    /// max…, 2 per fused multiply-add), counted in the generalized body.
    pub flops_per_point: u64,
    /// The op's source location as MLIR prints it (`conv.mlir:13:16`), for notes.
    pub location: String,
    /// Whether the op computes `init + in0 * in1` per point (a contraction's
    /// body, inputs perhaps extended first): what an accelerator's kernel does.
    pub multiply_accumulate: bool,
    /// The op that combines the accumulator with the new value when the body
    /// yields `op(init, value)` (`arith.addf` for a sum or a matmul), if it does.
    pub combiner: Option<String>,
    /// Why MLIR's vectorizer cannot vectorize this reduction (`its result 1
    /// accumulates through arith.select, ...`), if it cannot.
    pub unvectorizable_reduction: Option<String>,
    /// The ops of its (generalized) body, in order, without the yield
    /// (`arith.mulf`, `arith.addf`).
    pub body: Vec<String>,
}

/// An input index expression with a stride along one dimension
/// ([`PayloadOp::strided_reads`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StridedRead<'a> {
    /// The operand's position.
    pub operand: usize,
    /// The expression (`d3 * 2 + d6`).
    pub index: &'a str,
    /// The dimension's coefficient in it.
    pub stride: i64,
    /// The other dimensions in it.
    pub others: Vec<usize>,
}

impl PayloadOp {
    /// The strides of its windows: for each input axis indexed by a parallel
    /// dimension times a stride plus a reduction dimension (`d2 * 2 + d5`),
    /// that stride; empty for an op without windows.
    pub fn strides(&self) -> Vec<i64> {
        self.windows()
            .into_iter()
            .map(|(stride, _)| stride)
            .collect()
    }

    /// The dilations of its windows (the reduction dimension's coefficient
    /// in each window axis); empty for an op without windows.
    pub fn dilations(&self) -> Vec<i64> {
        self.windows()
            .into_iter()
            .map(|(_, dilation)| dilation)
            .collect()
    }

    /// The inputs' index expressions in which dimension `dim` has a
    /// coefficient other than 1 (`d3 * 2 + d6` for `d3`: a stride-2 window).
    pub fn strided_reads(&self, dim: usize) -> Vec<StridedRead<'_>> {
        let mut reads = Vec::new();
        for (operand, o) in self.operands.iter().enumerate().filter(|(_, o)| !o.is_init) {
            for result in &o.map {
                let MapResult::Expression(index) = result else {
                    continue;
                };
                let Some(terms) = linear_terms(index) else {
                    continue;
                };
                let Some(&(_, stride)) = terms.iter().find(|(d, _)| *d == Some(dim)) else {
                    continue;
                };
                if stride != 1 {
                    let others = terms.iter().filter_map(|(d, _)| d.filter(|d| *d != dim));
                    reads.push(StridedRead {
                        operand,
                        index,
                        stride,
                        others: others.collect(),
                    });
                }
            }
        }
        reads
    }

    /// `(stride, dilation)` of each window axis of its inputs.
    fn windows(&self) -> Vec<(i64, i64)> {
        let mut windows = Vec::new();
        for operand in self.operands.iter().filter(|o| !o.is_init) {
            for result in &operand.map {
                let MapResult::Expression(text) = result else {
                    continue;
                };
                let Some(terms) = linear_terms(text) else {
                    continue;
                };
                let kind = |d: &Option<usize>| d.and_then(|d| self.iterators.get(d).copied());
                let parallel = terms
                    .iter()
                    .find(|(d, _)| kind(d) == Some(IteratorKind::Parallel));
                let reduction = terms
                    .iter()
                    .find(|(d, _)| kind(d) == Some(IteratorKind::Reduction));
                if let (2, Some(&(_, stride)), Some(&(_, dilation))) =
                    (terms.len(), parallel, reduction)
                {
                    windows.push((stride, dilation));
                }
            }
        }
        windows
    }

    /// One word per op of its body (`add`, `mul`, `max`, `exp`, `cmp`,
    /// `select`, ...): the op's name without its dialect and type suffix;
    /// `copy` for a generic whose body only yields (a copy, broadcast or
    /// transpose), as `ops` shows it and `where body == copy` selects it.
    pub fn body_words(&self) -> Vec<String> {
        if self.kind == "linalg.generic" && self.body.is_empty() {
            return vec!["copy".to_string()];
        }
        self.body.iter().map(|op| body_word(op)).collect()
    }

    /// How many parallel and reduction dimensions it has: what `[*]` binds
    /// by besides the kind.
    pub fn dimension_counts(&self) -> (usize, usize) {
        let parallel = self
            .iterators
            .iter()
            .filter(|k| **k == IteratorKind::Parallel)
            .count();
        (parallel, self.iterators.len() - parallel)
    }

    /// Its input `k` (`inK` in a schedule): the `k`-th operand that is not
    /// an init.
    pub fn input(&self, k: usize) -> Option<&OperandInfo> {
        self.operands.iter().filter(|o| !o.is_init).nth(k)
    }

    /// The element type of its (first) result, as MLIR prints it.
    pub fn element(&self) -> Option<&str> {
        self.operands
            .iter()
            .find(|o| o.is_init)
            .map(|o| o.element.as_str())
    }
}

/// `d2 * 2 + d5` as `[(2, 2), (5, 1)]`: each dimension with its
/// coefficient; `None` for anything but a sum of such terms.
pub(crate) fn linear_terms(text: &str) -> Option<Vec<(Option<usize>, i64)>> {
    text.split('+')
        .map(|term| {
            let mut factors = term.split('*').map(str::trim);
            let (first, second) = (factors.next()?, factors.next());
            if factors.next().is_some() {
                return None;
            }
            let dim = |t: &str| t.strip_prefix('d')?.parse::<usize>().ok();
            match second {
                None => match dim(first) {
                    Some(d) => Some((Some(d), 1)),
                    None => Some((None, first.parse().ok()?)),
                },
                Some(second) => match (dim(first), dim(second)) {
                    (Some(d), None) => Some((Some(d), second.parse().ok()?)),
                    (None, Some(d)) => Some((Some(d), first.parse().ok()?)),
                    _ => None,
                },
            }
        })
        .collect()
}

/// `arith.maximumf` as `max`, `math.exp` as `exp`, `arith.addi` as `add`.
fn body_word(op: &str) -> String {
    let name = op.rsplit('.').next().unwrap_or(op);
    let word = [
        ("maximum", "max"),
        ("minimum", "min"),
        ("maxnum", "max"),
        ("minnum", "min"),
    ]
    .iter()
    .find_map(|(prefix, word)| name.starts_with(prefix).then_some(*word));
    if let Some(word) = word {
        return word.to_string();
    }
    for suffix in ["si", "ui", "f", "i"] {
        if let Some(stem) = name.strip_suffix(suffix) {
            if [
                "add", "sub", "mul", "div", "rem", "neg", "max", "min", "cmp", "ext", "trunc",
                "floordiv", "ceildiv",
            ]
            .contains(&stem)
            {
                return stem.to_string();
            }
        }
    }
    name.to_string()
}

/// All structured ops of a payload module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PayloadInfo {
    /// The payload's name as shown to users (its path).
    pub name: String,
    /// Structured ops in payload order.
    pub ops: Vec<PayloadOp>,
    /// Names of the module's functions, in order.
    pub functions: Vec<String>,
}

impl PayloadInfo {
    /// Every operand (with its op) that is a result of one of the ops
    /// `producers` (by id), inits included, in payload order.
    pub fn reads_of<'a>(
        &'a self,
        producers: &'a [usize],
    ) -> impl Iterator<Item = (&'a PayloadOp, &'a OperandInfo)> + 'a {
        self.ops.iter().flat_map(move |op| {
            op.operands
                .iter()
                .filter(move |o| o.producer.is_some_and(|p| producers.contains(&p)))
                .map(move |o| (op, o))
        })
    }

    /// The kinds of the ops reading `op`'s result (through views), without
    /// their dialect (`conv_2d_nchw_fchw`), sorted, each once: what a
    /// `where reader == ...` condition compares.
    pub fn reader_kinds<'a>(&'a self, op: &'a PayloadOp) -> Vec<&'a str> {
        let mut kinds: Vec<&str> = self
            .reads_of(std::slice::from_ref(&op.id))
            .map(|(reader, _)| reader.kind.strip_prefix("linalg.").unwrap_or(&reader.kind))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }

    /// Where `op` is, as a user reads it (`model.mlir:16:10`): MLIR's
    /// `loc("-":16:10)` with the payload's own buffer named.
    pub fn place(&self, op: &PayloadOp) -> String {
        let plain = op
            .location
            .trim_start_matches("loc(")
            .trim_end_matches(')')
            .replace('"', "");
        match plain.strip_prefix("-:") {
            Some(line_column) => format!("{}:{line_column}", self.name),
            None => plain,
        }
    }

    /// How many ops of `kind` there are in `function`.
    pub fn count_in_function(&self, function: &str, kind: &str) -> usize {
        self.ops
            .iter()
            .filter(|op| op.function == function && op.kind == kind)
            .count()
    }

    /// Floating-point operations one call of `function` performs, counted
    /// statically; `None` when an op that computes has a dynamic extent.
    pub fn static_flops(&self, function: &str) -> Option<u64> {
        self.ops
            .iter()
            .filter(|op| op.function == function && op.flops_per_point > 0)
            .map(|op| {
                op.extents
                    .iter()
                    .try_fold(op.flops_per_point, |product, extent| {
                        extent.map(|e| product * e as u64)
                    })
            })
            .sum()
    }

    /// Position of `op` among the ops of its kind in its function.
    pub fn index_in_function(&self, op: &PayloadOp) -> usize {
        self.ops
            .iter()
            .filter(|o| o.function == op.function && o.kind == op.kind && o.id < op.id)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::MapResult;

    /// Extents of a tile: 14 output columns (`d3`), a window of 2 (`d5`).
    fn extent(dim: usize) -> Option<i64> {
        match dim {
            3 => Some(14),
            5 => Some(2),
            _ => None,
        }
    }

    #[test]
    fn a_window_reads_its_span_of_the_tile() {
        let window = MapResult::Expression("d3 * 2 + d5".to_string());
        assert_eq!(window.footprint(extent), Some(28));
        let dilated = MapResult::Expression("d3 + d5 * 3 + 1".to_string());
        assert_eq!(dilated.footprint(extent), Some(17));
        assert_eq!(MapResult::Dim(3).footprint(extent), Some(14));
        assert_eq!(MapResult::Constant(0).footprint(extent), Some(1));
    }

    #[test]
    fn an_unknown_extent_or_another_expression_has_no_footprint() {
        let unknown = MapResult::Expression("d3 * 2 + d4".to_string());
        assert_eq!(unknown.footprint(extent), None);
        let product = MapResult::Expression("d3 * d5".to_string());
        assert_eq!(product.footprint(extent), None);
        let negative = MapResult::Expression("d3 * -1 + d5".to_string());
        assert_eq!(negative.footprint(extent), None);
    }
}
