//! `sched-apply explain`: the loop nests a schedule asks for and the loops
//! it made ([`interpreter::explain`]), as text or, with `--json`, as data.

use crate::files::{read, read_schedule};
use crate::{report_diagnostics, Exit};
use interpreter::pipeline::{self, Stop};
use std::path::Path;

/// Runs `sched-apply explain`.
pub(crate) fn explain(
    payload_path: &Path,
    schedule_path: Option<&Path>,
    machine: &crate::targets::MachineArgs,
    json: bool,
) -> Result<(), Exit> {
    let schedule_path = match schedule_path {
        Some(path) => path.to_path_buf(),
        None => crate::default_schedule(payload_path)?,
    };
    let schedule = read_schedule(&schedule_path)?;
    let payload_text = read(payload_path)?;
    let accelerators = machine.accelerators()?;
    let payload_name = payload_path.display().to_string();
    let outcome = pipeline::run(
        &schedule,
        &payload_name,
        &payload_text,
        Stop::ApplyNamingLoops,
        &machine.machine(&accelerators),
    )?;
    report_diagnostics(&outcome, &schedule, false)?;
    let explanation = interpreter::explain::explain(&outcome, &schedule).map_err(Exit::internal)?;
    let text = if json {
        serde_json::to_string_pretty(&explanation).expect("plain data serializes") + "\n"
    } else {
        explanation.render()
    };
    crate::files::print_text(&text)
}
