//! Binding: a handle to each stage's payload op. Each payload function the
//! schedule touches is matched once (`structured.match` on `func.func` by
//! name); the ops of each bound kind in it are matched together and, when
//! there are several, split into one handle each (`split_handle`) in payload
//! order, so `linalg.generic[1]` is the second handle.

use super::Planner;
use crate::script::ANY_OP;
use indexmap::IndexMap;
use schedule_lang::model::Placement;

/// The stages bound to one kind of op in one function: `(index among the
/// function's ops of that kind, func, stage)`.
type BoundStages = Vec<(usize, usize, usize)>;

impl Planner<'_> {
    /// Matches each function and splits the handles to its ops of each bound kind.
    pub(super) fn bind(&mut self) {
        let mut groups: IndexMap<(String, String), BoundStages> = IndexMap::new();
        for (func, model_func) in self.model.funcs.iter().enumerate() {
            if matches!(model_func.placement, Placement::Inline { .. }) {
                // Fused into its readers before the script runs: no op of its own.
                continue;
            }
            for (stage, s) in model_func.stages.iter().enumerate() {
                let op = &self.payload.ops[s.op];
                let index = self.payload.index_in_function(op);
                let key = (op.function.clone(), op.kind.clone());
                groups.entry(key).or_default().push((index, func, stage));
            }
        }
        for ((function, kind), bound) in &groups {
            let function_handle = self.match_function(function);
            let count = self.payload.count_in_function(function, kind);
            let short = kind.rsplit('.').next().unwrap_or(kind);
            for (_, func, stage) in bound {
                let span = self.model.funcs[*func].stages[*stage].span;
                let binding = self.source.slice(span);
                self.script
                    .comment(format!("{} = {binding}", self.stage_name(*func, *stage)));
            }
            let all = self.script.fresh(&format!("all_{short}"));
            self.script.op(
                format!(
                    "%{all} = transform.structured.match ops{{[\"{kind}\"]}} in \
                     %{function_handle} : ({ANY_OP}) -> {ANY_OP}"
                ),
                None,
            );
            if count == 1 {
                let (_, func, stage) = bound[0];
                self.stage_handles.insert((func, stage), all);
            } else {
                self.split_by_index(&all, count, short, bound);
            }
        }
        // Only once every kind is matched: a generalized convolution is one
        // more `linalg.generic`, which would shift the generics' indices.
        for bound in groups.values() {
            for &(_, func, stage) in bound {
                self.generalize_if_needed(func, stage);
            }
        }
        self.bind_views();
    }

    /// Splits the handle `all` to the `count` ops of one kind into one handle
    /// each, in payload order, naming the bound ones after their stages.
    fn split_by_index(&mut self, all: &str, count: usize, short: &str, bound: &BoundStages) {
        let mut names = Vec::new();
        for index in 0..count {
            match bound.iter().find(|(i, _, _)| *i == index) {
                Some((_, func, stage)) => {
                    let hint = self
                        .stage_name(*func, *stage)
                        .replace(".update()", "_update");
                    let name = self.script.fresh(&hint);
                    self.stage_handles.insert((*func, *stage), name.clone());
                    names.push(name);
                }
                None => names.push(self.script.fresh(&format!("other_{short}"))),
            }
        }
        let results: Vec<String> = names.iter().map(|n| format!("%{n}")).collect();
        let types = vec![ANY_OP; count].join(", ");
        self.script.op(
            format!(
                "{} = transform.split_handle %{all} : ({ANY_OP}) -> ({types})",
                results.join(", ")
            ),
            None,
        );
    }

    /// A vectorized stage bound to a named convolution or pooling op works
    /// on the op as a `linalg.generic` (`structured.generalize`): MLIR's
    /// vectorizer takes named convolutions only in 1-D forms with particular
    /// loops, while a generic convolution whose window loops are tiled to one
    /// vectorizes on any of its parallel loops once unit dimensions fold, as
    /// conv_layer does.
    fn generalize_if_needed(&mut self, func: usize, stage: usize) {
        let bound = &self.model.funcs[func].stages[stage];
        let vectorized = bound.loops.iter().any(|l| l.vectorize.is_some());
        if !vectorized || !is_named_window_op(&self.payload.ops[bound.op].kind) {
            return;
        }
        let handle = self.stage_handles[&(func, stage)].clone();
        let generic = self.script.fresh(&format!("{handle}_generic"));
        self.script.comment(format!(
            "{}: a named convolution or pooling op, vectorized as a linalg.generic",
            self.stage_name(func, stage)
        ));
        self.script.op(
            format!(
                "%{generic} = transform.structured.generalize %{handle} : ({ANY_OP}) -> {ANY_OP}"
            ),
            self.at(bound.span),
        );
        self.stage_handles.insert((func, stage), generic);
        self.generalized.push(bound.op);
    }

    /// The handle to payload function `function`, matched on first use.
    fn match_function(&mut self, function: &str) -> String {
        if let Some(handle) = self.function_handles.get(function) {
            return handle.clone();
        }
        let handle = self.script.fresh(&format!("func_{function}"));
        self.script.comment(format!("payload function @{function}"));
        self.script.op(
            format!(
                "%{handle} = transform.structured.match ops{{[\"func.func\"]}} \
                 attributes{{sym_name = \"{function}\"}} in %root : ({ANY_OP}) -> {ANY_OP}"
            ),
            None,
        );
        self.function_handles
            .insert(function.to_string(), handle.clone());
        handle
    }
}

/// Named convolution and pooling ops (`linalg.conv_2d_nchw_fchw`,
/// `linalg.depthwise_conv_2d_nhwc_hwc`, `linalg.pooling_nchw_max`, …, the
/// 1-D and 3-D forms): their input is read through a window (`oh + kh`).
pub(super) fn is_named_window_op(kind: &str) -> bool {
    ["linalg.conv_", "linalg.depthwise_conv_", "linalg.pooling_"]
        .iter()
        .any(|prefix| kind.starts_with(prefix))
}
