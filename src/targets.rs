//! `sched-apply targets`: the accelerators `accelerate` can name, built in
//! or described in a user's TOML file, with their native tile, element types
//! and roofs.

use crate::files::read_text;
use crate::Exit;
use interpreter::pipeline::Machine;
use microkernels::{builtin_targets, Target};
use schedule_lang::VectorUnit;
use std::path::PathBuf;

/// The flags that say what a schedule is checked and planned for.
#[derive(clap::Args, Clone, Debug)]
pub struct MachineArgs {
    /// An accelerator description (TOML) that `accelerate(NAME)` may name, besides the built-in ones.
    #[arg(long = "target", value_name = "FILE")]
    pub targets: Vec<PathBuf>,
    /// The CPU vector unit whose registers register tiles are counted in, for the
    /// `register-tile-spills` warning: host (this machine's), avx512 (32 registers of 64 bytes),
    /// avx2 (16 of 32) or sse (16 of 16). A schedule written for another machine is checked for it.
    #[arg(long, value_name = "UNIT", default_value = "host", value_parser = vector_unit)]
    pub vector_unit: VectorUnit,
}

impl MachineArgs {
    /// The accelerators the flags name, built-in ones besides (each file
    /// checked), to lend to [`MachineArgs::machine`].
    pub fn accelerators(&self) -> Result<Vec<Target>, Exit> {
        load(&self.targets)
    }

    /// The machine: the vector unit and `accelerators`.
    pub fn machine<'a>(&self, accelerators: &'a [Target]) -> Machine<'a> {
        Machine {
            vector_unit: self.vector_unit,
            accelerators,
        }
    }
}

/// `--vector-unit`'s value.
fn vector_unit(text: &str) -> Result<VectorUnit, String> {
    VectorUnit::named(text).ok_or_else(|| {
        format!(
            "no vector unit is named `{text}`; the names are {}",
            VectorUnit::NAMES.join(", ")
        )
    })
}

/// The built-in targets and those described in `files` (each checked),
/// with where each came from.
pub fn load_with_origins(files: &[PathBuf]) -> Result<Vec<(Target, String)>, Exit> {
    let mut targets: Vec<(Target, String)> = builtin_targets()
        .into_iter()
        .map(|target| (target, "built in".to_string()))
        .collect();
    for file in files {
        let name = file.display().to_string();
        let target = Target::from_toml(&name, &read_text(file, runner::files::SCHEDULE_LIMIT)?)
            .map_err(|error| Exit::input(format!("{error}\n")))?;
        if let Some((_, origin)) = targets.iter().find(|(t, _)| t.name == target.name) {
            return Err(Exit::input(format!(
                "{name}: error: target `{}` is already defined ({origin})\n",
                target.name
            )));
        }
        targets.push((target, name));
    }
    Ok(targets)
}

/// The targets `accelerate` may name: built in, and those in `files`.
pub fn load(files: &[PathBuf]) -> Result<Vec<Target>, Exit> {
    Ok(load_with_origins(files)?
        .into_iter()
        .map(|(t, _)| t)
        .collect())
}

/// Lists the built-in targets and those in `files` (each checked).
pub fn list(files: &[PathBuf]) -> Result<(), Exit> {
    let targets = load_with_origins(files)?;
    let mut text = String::from(
        "target     native tile  types (A x B -> C)                local memory  peak          bandwidth  from\n",
    );
    for (target, origin) in &targets {
        let tile = format!("{}x{}x{}", target.tile.m, target.tile.n, target.tile.k);
        let types: Vec<String> = target
            .types
            .iter()
            .map(|t| format!("{} x {} -> {}", t.a, t.b, t.c))
            .collect();
        text.push_str(&format!(
            "{:<10} {:<12} {:<33} {:<13} {:<13} {:<10} {origin}\n",
            target.name,
            tile,
            types.join(", "),
            format!("{} KiB", target.memory.local_bytes / 1024),
            format!("{:.1} GMAC/s", target.roofline.peak_macs_per_second / 1e9),
            format!(
                "{:.1} GB/s",
                target.roofline.bandwidth_bytes_per_second / 1e9
            ),
        ));
        text.push_str(&format!("{:<10} {}\n", "", target.summary));
    }
    crate::files::print_text(&text)
}
