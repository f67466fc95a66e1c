//! The entry function of a payload and its tensor signature: which public
//! function `run` calls (`--entry`, or the only one), and the static tensor
//! types it takes and returns, checked before anything is compiled. Errors
//! are located at the function.

use crate::diagnostics::MlirMessage;
use crate::ffi::OpView;
use crate::types::{parse_tensor_type, TensorType};
use crate::PayloadError;

/// The entry function's tensor signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The function's symbol name.
    pub name: String,
    /// Argument types, in order.
    pub inputs: Vec<TensorType>,
    /// Result types, in order.
    pub results: Vec<TensorType>,
}

fn located(message: String, op: OpView<'_>, detail: impl Into<String>) -> PayloadError {
    let diagnostic = MlirMessage {
        severity: "error",
        location: op.location(),
        message: detail.into(),
        notes: Vec::new(),
    };
    PayloadError::input(message, vec![diagnostic])
}

/// Public functions with a body: the candidates for the entry point.
pub fn entry_candidates(root: OpView<'_>) -> Vec<(String, OpView<'_>)> {
    root.children()
        .into_iter()
        .filter(|op| op.name() == "func.func")
        .filter(|op| {
            op.string_attribute("sym_visibility")
                .is_none_or(|v| v == "public")
        })
        .filter(|op| !op.children().is_empty())
        .map(|op| (op.string_attribute("sym_name").unwrap_or_default(), op))
        .collect()
}

/// Functions the payload declares without a body (each with its location):
/// their code must come from a library linked into the JIT.
pub fn declared_functions(root: OpView<'_>) -> Vec<(String, String)> {
    root.children()
        .into_iter()
        .filter(|op| op.name() == "func.func" && op.children().is_empty())
        .map(|op| {
            (
                op.string_attribute("sym_name").unwrap_or_default(),
                op.location(),
            )
        })
        .collect()
}

/// Finds the entry function of `root` (`entry`, or the only public function)
/// and reads its signature. Errors are located at the function.
pub fn signature(
    root: OpView<'_>,
    payload_name: &str,
    entry: Option<&str>,
) -> Result<Signature, PayloadError> {
    let candidates = entry_candidates(root);
    let names: Vec<String> = candidates.iter().map(|(n, _)| format!("@{n}")).collect();
    let (name, function) = match entry {
        Some(wanted) => candidates
            .into_iter()
            .find(|(n, _)| n == wanted)
            .ok_or_else(|| {
                PayloadError::input(
                    format!(
                        "{payload_name}: no public function `@{wanted}` (it has: {})",
                        list_or_none(&names)
                    ),
                    Vec::new(),
                )
            })?,
        None => {
            if candidates.len() != 1 {
                let why = if candidates.is_empty() {
                    "has no public function to run".to_string()
                } else {
                    format!(
                        "has {} public functions: {}; choose one with --entry NAME",
                        candidates.len(),
                        names.join(", ")
                    )
                };
                return Err(PayloadError::input(
                    format!("{payload_name}: {why}"),
                    Vec::new(),
                ));
            }
            candidates.into_iter().next().expect("exactly one")
        }
    };
    let (inputs, results) = function
        .function_types()
        .ok_or_else(|| PayloadError::internal(format!("@{name} has no readable function type")))?;
    let parse = |types: Vec<String>, what: &str| -> Result<Vec<TensorType>, PayloadError> {
        types
            .iter()
            .enumerate()
            .map(|(i, text)| {
                parse_tensor_type(text).map_err(|why| {
                    located(
                        format!("{payload_name}: cannot run @{name}"),
                        function,
                        format!("{what} {i} of @{name}: {why}"),
                    )
                })
            })
            .collect()
    };
    let inputs = parse(inputs, "argument")?;
    let results = parse(results, "result")?;
    if results.is_empty() {
        return Err(located(
            format!("{payload_name}: cannot run @{name}"),
            function,
            format!("@{name} returns nothing; `run` compares and saves the returned tensors"),
        ));
    }
    Ok(Signature {
        name,
        inputs,
        results,
    })
}

fn list_or_none(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}
