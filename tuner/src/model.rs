//! The whole model, as the decisions measured on it after the search see
//! it: what is written for it, and whether a schedule plans on it.

use crate::records::short_hash;
use crate::{plans_cleanly, write, TaskResult};
use interpreter::pipeline::Parsed;
use schedule_lang::PayloadInfo;

/// The whole model the decisions after the search measure ([`crate::fusion`],
/// [`crate::producers`], [`crate::as_gemm`]): its description, name and text, the header its written
/// schedule starts with, and how to isolate some of its ops (by id, in
/// order) as a payload of their own ([`payload::isolate`]).
pub struct Model<'a> {
    pub info: &'a PayloadInfo,
    pub name: &'a str,
    pub text: &'a str,
    pub header: &'a write::Header,
    pub isolate: &'a dyn Fn(&[usize]) -> Result<String, String>,
    /// The model parsed once, to plan the schedules tried on it.
    pub parsed: &'a Parsed<'a>,
}

impl Model<'_> {
    /// The schedule written for `results`.
    pub fn schedule(&self, results: &[TaskResult]) -> String {
        write::schedule_text(self.info, results, self.header)
    }

    /// Whether `schedule` plans on the model with no error and no warning.
    pub fn plans(&self, schedule: &str) -> bool {
        plans_cleanly(schedule, self.parsed)
    }

    /// The model's key in the records.
    pub(crate) fn key(&self) -> String {
        format!("model {}", short_hash(self.text, 8))
    }
}
