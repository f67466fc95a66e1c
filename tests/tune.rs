//! `sched-apply tune` on a small model: the schedule it writes checks, is
//! canonical, applies and computes what the unscheduled payload does; a
//! second run with the same records measures nothing again and writes the
//! same file (the budget is ample, so each kind stops by `--patience`
//! alike in both runs). The tests tune one at a time, each measurement
//! lasts at least 20 ms and a kind stops after 8 candidates without a
//! better one: side by side on two cores, with 1-10 ms measurements and 4
//! candidates, the noise sometimes decided that no candidate beat this
//! 32x64x64 matmul unscheduled (and the test found no `mm0`).

mod common;

use common::{sched_apply, stderr, tempdir};

const PAYLOAD: &str = "tests/payloads/mlp_small.mlir";

/// Held by each test while it tunes: tuning side by side on two cores, the
/// tests' measurements disturbed one another.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn tune(records: &str, output: &str) -> std::process::Output {
    sched_apply(&[
        "tune",
        PAYLOAD,
        "--budget",
        "2m",
        "--patience",
        "6",
        "--min-seconds",
        "0.02",
        "--records",
        records,
        "-o",
        output,
    ])
}

#[test]
fn the_tuned_schedule_checks_applies_and_computes_the_same() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempdir();
    let records = scratch.join("records.jsonl");
    let records = records.to_str().unwrap();
    let first = scratch.join("first.sched");
    let first = first.to_str().unwrap();
    let output = tune(records, first);
    assert!(output.status.success(), "{}", stderr(&output));
    let schedule = std::fs::read_to_string(first).unwrap();
    // Both matmuls are one kind of op, bound by one func and scheduled.
    assert!(
        schedule.contains("func mm0 = linalg.matmul[*] (i, j | k)\n"),
        "{schedule}"
    );
    assert!(
        schedule.contains("mm0.") && schedule.contains(".vectorize("),
        "{schedule}"
    );
    assert!(schedule.contains("2 ops matmul 32x64x64"), "{schedule}");

    for args in [
        vec!["check", first, "--payload", PAYLOAD, "--deny-warnings"],
        vec!["fmt", "--check", first],
    ] {
        let output = sched_apply(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert!(!stderr(&output).contains("tuned on"), "{}", stderr(&output));
    }
    // The same file as if tuned on another CPU: a note naming both, not a
    // warning (`--deny-warnings` passes).
    let schedule = std::fs::read_to_string(first).unwrap();
    let (header, rest) = schedule.split_once('\n').unwrap();
    let (before, cpu) = header.rsplit_once(" on ").unwrap();
    let moved = format!(
        "{before} on elsewhere/00000000 ({}\n{rest}",
        cpu.split_once(" (").unwrap().1
    );
    let elsewhere = scratch.join("elsewhere.sched");
    std::fs::write(&elsewhere, moved).unwrap();
    let elsewhere = elsewhere.to_str().unwrap();
    let output = sched_apply(&["check", elsewhere, "--payload", PAYLOAD, "--deny-warnings"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let here = cpu.split_once(" (").unwrap().0;
    assert!(
        stderr(&output).contains(&format!(
            "note: tuned on elsewhere/00000000; this CPU is {here}"
        )),
        "{}",
        stderr(&output)
    );
    let output = sched_apply(&["run", PAYLOAD, first, "--check", "--no-cache"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("check: ok"));

    let lines = std::fs::read_to_string(records).unwrap();
    let measured = lines.lines().count();
    assert!(measured > 3, "{lines}");
    for line in lines.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["version"], 2);
        assert!(
            record["seconds"].is_number() || record["error"].is_string(),
            "{line}"
        );
        // What the measurement took, which a second run spends instead.
        assert!(record["took"].as_f64().is_some_and(|t| t > 0.0), "{line}");
    }

    // Again with the same records: nothing measured again, the same file.
    let second = scratch.join("second.sched");
    let second = second.to_str().unwrap();
    let output = tune(records, second);
    assert!(output.status.success(), "{}", stderr(&output));
    let report = stderr(&output);
    let (before, after) = report.split_once(" candidates measured (").expect(&report);
    let count = before.rsplit(' ').next().unwrap();
    assert!(
        after.starts_with(&format!("{count} from the records")),
        "{report}"
    );
    assert_eq!(std::fs::read_to_string(second).unwrap(), schedule);
    assert_eq!(
        std::fs::read_to_string(records).unwrap().lines().count(),
        measured
    );
}

#[test]
fn bad_flags_and_records_are_reported() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let output = sched_apply(&["tune", PAYLOAD, "--budget", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("the budget must be positive"),
        "{}",
        stderr(&output)
    );
    let output = sched_apply(&["tune", PAYLOAD, "--budget", "3 weeks"]);
    assert!(
        stderr(&output).contains("is not a unit"),
        "{}",
        stderr(&output)
    );

    let scratch = tempdir();
    let records = scratch.join("records.jsonl");
    std::fs::write(&records, "not json\n{\"version\": 99}\n").unwrap();
    let output = sched_apply(&[
        "tune",
        PAYLOAD,
        "--budget",
        "1m",
        "--patience",
        "8",
        "--min-seconds",
        "0.02",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("2 lines of the records are not records of this version"),
        "{}",
        stderr(&output)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("func mm0 = linalg.matmul[*]"));
}

/// A schedule already at `-o` is kept: only the ops it does not bind are
/// tuned, their funcs added after it; `--retune` writes a new one.
#[test]
fn an_existing_schedule_is_kept_and_extended() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempdir();
    let path = scratch.join("mine.sched");
    // Named as the tuner names its first generic: the added one takes
    // another name.
    let mine = "# mine\nfunc g0 = linalg.matmul[*] (i, j | k)\ng0.split(j, jo, ji, 16).reorder(ji, k, jo, i).vectorize(ji)\n";
    std::fs::write(&path, mine).unwrap();
    let path = path.to_str().unwrap();
    let args = [
        "--budget",
        "1m",
        "--patience",
        "8",
        "--min-seconds",
        "0.02",
        "-o",
        path,
    ];
    let output = sched_apply(&[&["tune", PAYLOAD][..], &args].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let extended = std::fs::read_to_string(path).unwrap();
    assert!(extended.starts_with(mine), "{extended}");
    assert!(
        extended.contains("# Added by `sched-apply tune`"),
        "{extended}"
    );
    assert_eq!(extended.matches("linalg.matmul").count(), 1, "{extended}");
    assert_eq!(extended.matches("func g0 =").count(), 1, "{extended}");
    assert!(extended.contains("func g0_ = linalg.generic"), "{extended}");
    let output = sched_apply(&["check", path, "--payload", PAYLOAD]);
    assert!(output.status.success(), "{}", stderr(&output));

    let output = sched_apply(&[&["tune", PAYLOAD, "--retune"][..], &args].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let retuned = std::fs::read_to_string(path).unwrap();
    assert!(!retuned.contains("# mine") && retuned.contains("func mm0 = linalg.matmul[*]"));

    std::fs::write(
        path,
        "func mm = linalg.matmul[*] (i, j | k)\nmm.split(q, qo, qi, 4)\n",
    )
    .unwrap();
    let output = sched_apply(&[&["tune", PAYLOAD][..], &args].concat());
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("pass --retune"),
        "{}",
        stderr(&output)
    );
}

/// A matmul reading a transposed weight is tuned with the transpose inlined
/// (each candidate reads the weight in place), and the written schedule
/// inlines it: checked and run against the unscheduled payload.
#[test]
fn a_weights_transpose_is_inlined_into_the_matmul_tuned_with_it() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempdir();
    let output = scratch.join("linear.sched");
    let output = output.to_str().unwrap();
    let payload = "tests/payloads/transpose_matmul.mlir";
    let tuned = sched_apply(&[
        "tune",
        payload,
        "--budget",
        "1m",
        "--patience",
        "8",
        "--min-seconds",
        "0.02",
        "-o",
        output,
    ]);
    assert!(tuned.status.success(), "{}", stderr(&tuned));
    let schedule = std::fs::read_to_string(output).unwrap();
    assert!(
        schedule.contains("func tr0 = linalg.transpose[*] (i, j)\n")
            && schedule.contains("\ntr0.compute_inline()\n"),
        "{schedule}"
    );
    assert!(schedule.contains("func mm0 = linalg.matmul"), "{schedule}");
    let run = sched_apply(&["run", payload, output, "--check", "--no-cache"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(String::from_utf8_lossy(&run.stdout).contains("check: ok"));
}

/// `--list-kinds` names the kinds of op by their records key; `--kind KEY`
/// tunes that one alone (no whole-model decision), its measurements in the
/// records: one worker's part of `scripts/tune_ray.py`.
#[test]
fn one_kind_is_listed_and_tuned_alone_by_its_key() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let output = sched_apply(&["tune", PAYLOAD, "--list-kinds"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let kinds: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // The matmuls, the bias add, and the two ReLUs apart: one read by the
    // second matmul, the other the result (an elementwise op's readers are
    // part of its kind).
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    let matmul = kinds
        .iter()
        .find(|k| k["op"].as_str().unwrap().starts_with("linalg.matmul"))
        .unwrap();
    assert_eq!(matmul["ops"], 2);
    let key = matmul["task"].as_str().unwrap();

    let scratch = tempdir();
    let records = scratch.join("records.jsonl");
    let schedule = scratch.join("kind.sched");
    let output = sched_apply(&[
        "tune",
        PAYLOAD,
        "--kind",
        key,
        "--budget",
        "30s",
        "--patience",
        "4",
        "--min-seconds",
        "0.02",
        "--records",
        records.to_str().unwrap(),
        "-o",
        schedule.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !stderr(&output).contains("whole model"),
        "{}",
        stderr(&output)
    );
    let written = std::fs::read_to_string(&schedule).unwrap();
    assert_eq!(written.matches("\nfunc ").count(), 1, "{written}");
    assert!(written.contains("func mm0 = linalg.matmul[*]"), "{written}");
    let records = std::fs::read_to_string(&records).unwrap();
    assert!(records.lines().count() > 1);
    for line in records.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["task"], key, "{line}");
    }

    // A kind the schedule at -o binds is kept as written, not tuned.
    std::fs::write(
        &schedule,
        "func mm = linalg.matmul[*] (i, j | k)\nmm.reorder(j, k, i).vectorize(j)\n",
    )
    .unwrap();
    let output = sched_apply(&[
        "tune",
        PAYLOAD,
        "--kind",
        key,
        "-o",
        schedule.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("is bound by the schedule being kept")
            && stderr(&output).contains("--retune"),
        "{}",
        stderr(&output)
    );

    let output = sched_apply(&["tune", PAYLOAD, "--kind", "0123456789abcdef"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("has no kind of op `0123456789abcdef` to tune")
            && stderr(&output).contains("--list-kinds"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn kinds_the_planner_refuses_every_candidate_of_say_so() {
    // Three generics of the mask payload read or write `i1` tensors along
    // every loop a candidate vectorizes: none plans, and the comment says
    // why each is left unscheduled. The fourth reads one `i1` flag per row
    // (broadcast): its candidates are timed on `i1` inputs.
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempdir();
    let output_path = scratch.join("mask.sched");
    let output_path = output_path.to_str().unwrap();
    let records = scratch.join("records.jsonl");
    let payload = "tests/payloads/mask.mlir";
    let output = sched_apply(&[
        "tune",
        payload,
        "--budget",
        "30s",
        "--records",
        records.to_str().unwrap(),
        "-o",
        output_path,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let schedule = std::fs::read_to_string(output_path).unwrap();
    let refused = schedule
        .lines()
        .filter(|l| {
            l.contains(": the planner accepts none of its candidates; at tests/payloads/mask.mlir:")
        })
        .count();
    assert_eq!(refused, 3, "{schedule}");
    let select = schedule
        .lines()
        .find(|l| l.ends_with("at tests/payloads/mask.mlir:28:10"))
        .expect(&schedule);
    assert!(select.contains("unscheduled 0."), "{schedule}");
    let output = sched_apply(&["run", payload, output_path, "--check", "--no-cache"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("check: ok"));
}
