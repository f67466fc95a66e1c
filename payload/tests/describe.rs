//! Describing real payloads: kinds, dimensions, extents, producers.

use schedule_lang::{IteratorKind, MapResult};

const CONV: &str = include_str!("../../examples/halide_conv/conv.mlir");

#[test]
fn describes_conv_layer() {
    let context = payload::new_context();
    let module = payload::parse_module(&context, "conv.mlir", CONV).unwrap();
    let info = payload::describe(&context, &module, "conv.mlir").unwrap();
    let kinds: Vec<&str> = info.ops.iter().map(|op| op.kind.as_str()).collect();
    assert_eq!(
        kinds,
        ["linalg.broadcast", "linalg.generic", "linalg.generic"]
    );
    let conv = &info.ops[1];
    assert_eq!(
        conv.iterators
            .iter()
            .filter(|k| **k == IteratorKind::Reduction)
            .count(),
        3
    );
    assert_eq!(
        conv.extents,
        [
            Some(5),
            Some(80),
            Some(100),
            Some(128),
            Some(3),
            Some(3),
            Some(128)
        ]
    );
    assert_eq!(
        conv.operands[1].map[1],
        MapResult::Expression("d1 + d4".into())
    );
    assert_eq!(
        conv.operands[2].producer,
        Some(0),
        "the conv's init is the broadcast"
    );
    assert!(conv.operands[2].is_init);
    assert_eq!(
        info.ops[2].operands[1].producer,
        Some(1),
        "relu reads the conv"
    );
    assert_eq!(info.functions, ["conv"]);
}

#[test]
fn counts_flops_statically() {
    let context = payload::new_context();
    let module = payload::parse_module(&context, "conv.mlir", CONV).unwrap();
    let info = payload::describe(&context, &module, "conv.mlir").unwrap();
    let per_point: Vec<u64> = info.ops.iter().map(|op| op.flops_per_point).collect();
    assert_eq!(
        per_point,
        [0, 2, 1],
        "broadcast copies; conv multiplies and adds; relu takes a max"
    );
    let conv = 2 * 5 * 80 * 100 * 128 * 3 * 3 * 128;
    let relu = 5 * 80 * 100 * 128;
    assert_eq!(info.static_flops("conv"), Some(conv + relu));
    assert_eq!(info.static_flops("no_such_function"), Some(0));
}
