//! The note for a schedule `tune` measured on another CPU than this one
//! (`sched-apply run`, `check`, `explain` and `profile` print it, the Python
//! package warns): its tile sizes were chosen by timing them there, and may
//! be slow here without any other sign.

use crate::write::{tuned_on, TunedOn};
use schedule_lang::{Diagnostic, SourceFile, Span};

/// The note, rendered, when `schedule`'s header names a CPU other than this
/// one ([`crate::records::this_cpu`]); `None` for a schedule `tune` did not
/// write or wrote here.
pub fn note(schedule: &SourceFile) -> Option<String> {
    // Most schedules name no CPU: LLVM is asked for this one only if one does.
    let tuned = tuned_on(&schedule.text);
    if tuned.is_empty() {
        return None;
    }
    note_for(schedule, &tuned, &crate::records::this_cpu())
}

fn note_for(schedule: &SourceFile, tuned: &[TunedOn], here: &str) -> Option<String> {
    let other = tuned.iter().find(|tuned| tuned.cpu != here)?;
    let span = Span::new(other.offset, other.offset + other.cpu.len());
    let note = Diagnostic::note(
        "tuned-elsewhere",
        span,
        format!("tuned on {}; this CPU is {here}", other.cpu),
    )
    .with_label("where it was measured")
    .with_help(
        "its tiles were chosen by timing them there (another vector width, cache or number of FMA \
         units can make them slow here): `sched-apply tune PAYLOAD -o NEW.sched` times them on this CPU",
    );
    Some(note.render(schedule))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note_on(schedule: &SourceFile, here: &str) -> Option<String> {
        note_for(schedule, &tuned_on(&schedule.text), here)
    }

    const HEADER: &str =
        "# Written by `sched-apply tune` for m.mlir on znver1/6abae8f2 (one thread).\n\
                          func mm = linalg.matmul (i, j | k)\n";

    #[test]
    fn a_schedule_tuned_on_another_cpu_gets_a_note_at_its_name() {
        let schedule = SourceFile::new("m.sched", HEADER);
        let note = note_on(&schedule, "znver3/6763a6f3").expect("a note");
        assert!(
            note.starts_with(
                "m.sched:1:47: note: tuned on znver1/6abae8f2; this CPU is znver3/6763a6f3"
            ),
            "{note}"
        );
        assert!(
            note.contains("sched-apply tune PAYLOAD -o NEW.sched"),
            "{note}"
        );
    }

    #[test]
    fn a_schedule_tuned_here_or_written_by_hand_gets_none() {
        let schedule = SourceFile::new("m.sched", HEADER);
        assert_eq!(note_on(&schedule, "znver1/6abae8f2"), None);
        let by_hand = SourceFile::new(
            "h.sched",
            "# tuned on znver1 by hand\nfunc mm = linalg.matmul (i, j | k)\n",
        );
        assert_eq!(note_on(&by_hand, "znver3/6763a6f3"), None);
    }
}
