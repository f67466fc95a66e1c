//! Where `-o` writes: a regular file whole or not at all (a temporary
//! sibling with an unpredictable name, created exclusively, then a rename);
//! through a symbolic link of the user's own, its target; a file that is not
//! regular (a FIFO, a device such as /dev/null) in place, so it stays what it
//! is; never over the command's own inputs without `--force`. And what the
//! tool reads: bounded, so an endless stream is an error, not an OOM.

mod common;

use common::{sched_apply, stderr};

use std::process::Command;

#[test]
fn output_to_a_fifo_is_written_in_place_and_the_fifo_stays() {
    use std::os::unix::fs::FileTypeExt;
    // `-o /dev/null` once replaced /dev/null by a regular file (written to a
    // temporary sibling, then renamed over it); a FIFO shows the same case
    // without touching the machine's /dev.
    let directory = common::tempdir();
    let fifo = directory.join("out.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let applied = sched_apply(&[
        "tests/payloads/chain.mlir",
        "tests/fixtures/chain_compute_at.sched",
        "-o",
        fifo.to_str().unwrap(),
    ]);
    assert_eq!(applied.status.code(), Some(0), "{}", stderr(&applied));
    let written = reader.join().unwrap();
    assert!(written.contains("scf.forall"), "{written}");
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    let _ = std::fs::remove_dir_all(directory);
}

#[test]
fn output_through_a_symbolic_link_changes_its_target_and_keeps_the_link() {
    let directory = common::tempdir();
    let target = directory.join("target.mlir");
    let link = directory.join("link.mlir");
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let applied = sched_apply(&[
        "tests/payloads/chain.mlir",
        "tests/fixtures/chain_compute_at.sched",
        "-o",
        link.to_str().unwrap(),
    ]);
    assert_eq!(applied.status.code(), Some(0), "{}", stderr(&applied));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .contains("scf.forall"));
    let _ = std::fs::remove_dir_all(directory);
}

/// `-o FILE` for the chain fixture, with `extra` arguments after it.
fn apply_to(output: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "tests/payloads/chain.mlir",
        "tests/fixtures/chain_compute_at.sched",
        "-o",
        output.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    sched_apply(&args)
}

#[test]
fn a_planted_temporary_name_is_not_followed() {
    // The temporary's name was once fixed (`.NAME.sched-apply.tmp`): another
    // user who planted a link of that name in a shared directory made `-o`
    // overwrite the link's target.
    let directory = common::tempdir();
    let victim = directory.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, directory.join(".out.mlir.sched-apply.tmp")).unwrap();
    let applied = apply_to(&directory.join("out.mlir"), &[]);
    assert_eq!(applied.status.code(), Some(0), "{}", stderr(&applied));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::read_to_string(directory.join("out.mlir"))
        .unwrap()
        .contains("scf.forall"));
    let _ = std::fs::remove_dir_all(directory);
}

#[test]
fn a_symbolic_link_another_user_owns_is_not_written_through() {
    use std::os::unix::fs::MetadataExt;
    if std::fs::metadata("/proc/self").unwrap().uid() != 0 {
        println!("skipped: only root can give a link to another user here");
        return;
    }
    let directory = common::tempdir();
    let victim = directory.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let link = directory.join("out.mlir");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).unwrap();
    let applied = apply_to(&link, &[]);
    assert_eq!(applied.status.code(), Some(1), "{}", stderr(&applied));
    assert!(
        stderr(&applied).contains("is a symbolic link owned by another user"),
        "{}",
        stderr(&applied)
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let _ = std::fs::remove_dir_all(directory);
}

#[test]
fn the_output_never_replaces_an_input_without_force() {
    let directory = common::tempdir();
    let payload = directory.join("chain.mlir");
    std::fs::copy(common::root().join("tests/payloads/chain.mlir"), &payload).unwrap();
    let original = std::fs::read_to_string(&payload).unwrap();
    let apply_over_payload = |extra: &[&str]| {
        let mut args = vec![
            payload.to_str().unwrap(),
            "tests/fixtures/chain_compute_at.sched",
            "-o",
            payload.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        sched_apply(&args)
    };
    let refused = apply_over_payload(&[]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("the output is the input file")
            && stderr(&refused).contains("--force"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(std::fs::read_to_string(&payload).unwrap(), original);
    let forced = apply_over_payload(&["--force"]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    assert!(std::fs::read_to_string(&payload)
        .unwrap()
        .contains("scf.forall"));
    let _ = std::fs::remove_dir_all(directory);
}

#[test]
fn a_replaced_output_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let directory = common::tempdir();
    let output = directory.join("out.mlir");
    std::fs::write(&output, "old").unwrap();
    std::fs::set_permissions(&output, std::fs::Permissions::from_mode(0o600)).unwrap();
    let applied = apply_to(&output, &[]);
    assert_eq!(applied.status.code(), Some(0), "{}", stderr(&applied));
    let mode = std::fs::metadata(&output).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let _ = std::fs::remove_dir_all(directory);
}

#[test]
fn a_full_standard_output_is_an_error_of_the_environment() {
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args([
            "tests/payloads/chain.mlir",
            "tests/fixtures/chain_compute_at.sched",
        ])
        .current_dir(common::root())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("No space left on device"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_endless_stream_named_as_a_file_is_an_error_naming_the_limit() {
    for args in [
        vec!["tests/payloads/chain.mlir", "/dev/zero"],
        vec!["fmt", "/dev/zero"],
        vec!["targets", "--target", "/dev/zero"],
        vec![
            "run",
            "tests/payloads/chain.mlir",
            "tests/fixtures/chain_compute_at.sched",
            "--inputs",
            "/dev/zero,/dev/zero,/dev/zero",
        ],
    ] {
        let output = sched_apply(&args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("/dev/zero: error: cannot read the file: it holds more than"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_byte_order_mark_before_a_schedule_is_accepted() {
    let directory = common::tempdir();
    let schedule = directory.join("bom.sched");
    let text =
        std::fs::read_to_string(common::root().join("tests/fixtures/chain_compute_at.sched"))
            .unwrap();
    std::fs::write(&schedule, format!("\u{feff}{text}")).unwrap();
    let applied = sched_apply(&["tests/payloads/chain.mlir", schedule.to_str().unwrap()]);
    assert_eq!(applied.status.code(), Some(0), "{}", stderr(&applied));
    let _ = std::fs::remove_dir_all(directory);
}

/// A small filesystem of its own (tmpfs), unmounted when dropped.
struct TinyDisk(std::path::PathBuf);

impl TinyDisk {
    /// A 64 KiB tmpfs at `path`, or `None` where this user cannot mount one.
    fn mount(path: &std::path::Path) -> Option<Self> {
        std::fs::create_dir_all(path).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(path)
            .output()
            .ok()?;
        mounted
            .status
            .success()
            .then(|| TinyDisk(path.to_path_buf()))
    }
}

impl Drop for TinyDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_roofline_that_does_not_fit_on_the_disk_leaves_the_old_picture() {
    let directory = common::tempdir();
    let Some(disk) = TinyDisk::mount(&directory.join("tiny")) else {
        println!("skipped: this user cannot mount a small tmpfs to fill");
        return;
    };
    std::fs::write(disk.0.join("filler"), vec![0u8; 56_000]).unwrap();
    let svg = disk.0.join("r.svg");
    std::fs::write(&svg, "OLDSVG\n").unwrap();
    let output = sched_apply(&[
        "profile",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_tile.sched",
        "--run",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("cannot write the output"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), "OLDSVG\n");
    let left: Vec<_> = std::fs::read_dir(&disk.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "a temporary was left behind: {left:?}");
    drop(disk);
    let _ = std::fs::remove_dir_all(directory);
}

#[test]
fn saved_results_that_do_not_all_fit_change_no_file() {
    let directory = common::tempdir();
    let Some(disk) = TinyDisk::mount(&directory.join("tiny")) else {
        println!("skipped: this user cannot mount a small tmpfs to fill");
        return;
    };
    // Two 8 KiB results: room for the first one's temporary, not the second's.
    let payload = directory.join("two.mlir");
    std::fs::write(
        &payload,
        "#id = affine_map<(i, j) -> (i, j)>
func.func @two(%a: tensor<8x256xf32>) -> (tensor<8x256xf32>, tensor<8x256xf32>) {
  %e = tensor.empty() : tensor<8x256xf32>
  %d = linalg.add ins(%a, %a : tensor<8x256xf32>, tensor<8x256xf32>) outs(%e : tensor<8x256xf32>) -> tensor<8x256xf32>
  %s = linalg.mul ins(%a, %a : tensor<8x256xf32>, tensor<8x256xf32>) outs(%e : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %d, %s : tensor<8x256xf32>, tensor<8x256xf32>
}
",
    )
    .unwrap();
    let schedule = directory.join("two.sched");
    std::fs::write(&schedule, "func d = linalg.add (i, j)\n").unwrap();
    let outputs = disk.0.join("outs");
    std::fs::create_dir(&outputs).unwrap();
    std::fs::write(outputs.join("result0.npy"), "OLD0").unwrap();
    std::fs::write(outputs.join("result1.npy"), "OLD1").unwrap();
    std::fs::write(disk.0.join("filler"), vec![0u8; 40_000]).unwrap();
    let output = sched_apply(&[
        "run",
        payload.to_str().unwrap(),
        schedule.to_str().unwrap(),
        "--save-outputs",
        outputs.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(outputs.join("result0.npy")).unwrap(),
        "OLD0"
    );
    assert_eq!(
        std::fs::read_to_string(outputs.join("result1.npy")).unwrap(),
        "OLD1"
    );
    assert_eq!(
        std::fs::read_dir(&outputs).unwrap().count(),
        2,
        "a temporary was left"
    );
    drop(disk);
    let _ = std::fs::remove_dir_all(directory);
}
