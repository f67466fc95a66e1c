//! Where `-o` writes: a regular file whole or not at all (a temporary
//! sibling, then a rename); through a symbolic link, its target; a file that
//! is not regular (a FIFO, a device such as /dev/null) in place, so it stays
//! what it is.

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
