//! Properties of the parser and the formatter: printing a tree and parsing it
//! back gives the same tree; formatting is idempotent; no input makes the
//! parser panic.

use proptest::prelude::*;
use schedule_lang::ast::*;
use schedule_lang::{format, parse, Span};

fn ident(name: String) -> Ident {
    Ident {
        name,
        span: Span::default(),
    }
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("x".to_string()),
        Just("xo".to_string()),
        "[a-z][a-z0-9_]{0,6}"
    ]
    .prop_filter("not a keyword", |n| n != "func" && n != "update")
}

fn comment() -> impl Strategy<Value = Comment> {
    (
        prop_oneof![Just("#"), Just("//")],
        "[ a-zA-Z0-9_.,()]{0,20}",
    )
        .prop_map(|(marker, text)| Comment {
            text: format!("{marker}{text}").trim_end().to_string(),
            span: Span::default(),
        })
}

fn selector() -> impl Strategy<Value = Selector> {
    prop_oneof![
        (
            proptest::option::of(name()),
            "linalg\\.[a-z_]{1,8}",
            proptest::option::of(0u32..5),
            any::<bool>()
        )
            .prop_map(|(function, kind, index, every)| Selector::Op {
                function: function.map(ident),
                kind: ident(kind),
                index: if every {
                    None
                } else {
                    index.map(|i| (i, Span::default()))
                },
                every,
                span: Span::default(),
            }),
        "[a-z0-9_]{1,6}".prop_map(|name| Selector::Named {
            name,
            span: Span::default()
        }),
    ]
}

fn filter() -> impl Strategy<Value = Filter> {
    let comparison = prop_oneof![
        Just(Comparison::Eq),
        Just(Comparison::Ne),
        Just(Comparison::Lt),
        Just(Comparison::Le),
        Just(Comparison::Gt),
        Just(Comparison::Ge),
    ];
    let value = prop_oneof![
        (-3i64..600).prop_map(|v| FilterValue::Int(v, Span::default())),
        name().prop_map(|n| FilterValue::Name(ident(n))),
    ];
    (name(), comparison, value).prop_map(|(subject, comparison, value)| Filter {
        subject: ident(subject),
        comparison,
        value,
        span: Span::default(),
    })
}

fn definition() -> impl Strategy<Value = Definition> {
    (
        selector(),
        proptest::collection::vec(name(), 0..4),
        proptest::collection::vec(name(), 0..3),
        proptest::collection::vec(filter(), 0..3),
    )
        .prop_map(|(selector, dims, reduction, filters)| Definition {
            selector,
            dims: dims.into_iter().map(ident).collect(),
            reduction_dims: reduction.into_iter().map(ident).collect(),
            filters,
            span: Span::default(),
        })
}

fn argument() -> impl Strategy<Value = Arg> {
    prop_oneof![
        name().prop_map(|n| Arg::Name(ident(n))),
        (-3i64..200).prop_map(|value| Arg::Int {
            value,
            span: Span::default()
        })
    ]
}

fn directive() -> impl Strategy<Value = Directive> {
    (
        name(),
        proptest::collection::vec(argument(), 0..5),
        proptest::collection::vec(comment(), 0..2),
        proptest::option::of(comment()),
        any::<bool>(),
    )
        .prop_map(|(name, args, leading, trailing, starts_line)| Directive {
            name: ident(name),
            args,
            leading,
            trailing,
            span: Span::default(),
            starts_line,
        })
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        (
            name(),
            definition(),
            proptest::option::of(definition()),
            proptest::option::of(comment()),
            any::<bool>()
        )
            .prop_map(
                |(name, pure, update, trailing, default)| Item::Func(Box::new(FuncDecl {
                    default,
                    name: ident(name),
                    pure,
                    update,
                    trailing,
                    span: Span::default(),
                }))
            ),
        (name(), proptest::collection::vec(directive(), 1..4)).prop_map(
            |(func, mut directives)| {
                directives[0].leading.clear();
                directives[0].starts_line = false;
                // As parsed: a call after comments, or after a line a
                // trailing comment ends, begins a line.
                for i in 1..directives.len() {
                    if !directives[i].leading.is_empty() || directives[i - 1].trailing.is_some() {
                        directives[i].starts_line = true;
                    }
                }
                Item::Chain(Chain {
                    func: ident(func),
                    directives,
                    span: Span::default(),
                })
            }
        ),
        comment().prop_map(Item::Comment),
        Just(Item::Blank),
    ]
}

/// Files as the parser produces them: no blank line first, last, or twice in a row.
fn file() -> impl Strategy<Value = ScheduleFile> {
    proptest::collection::vec(item(), 0..8).prop_map(|items| {
        let mut kept: Vec<Item> = Vec::new();
        for item in items {
            let blank = item == Item::Blank;
            if blank && (kept.is_empty() || kept.last() == Some(&Item::Blank)) {
                continue;
            }
            kept.push(item);
        }
        while kept.last() == Some(&Item::Blank) {
            kept.pop();
        }
        ScheduleFile { items: kept }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if std::env::var("SCHED_LONG_TESTS").is_ok() { 5000 } else { 300 }))]

    #[test]
    fn print_then_parse_is_the_identity(tree in file()) {
        let text = format(&tree);
        let (mut parsed, errors) = parse(&text);
        prop_assert!(errors.is_empty(), "errors on printed text:\n{text}\n{errors:?}");
        erase_spans(&mut parsed);
        prop_assert_eq!(parsed, tree, "text:\n{}", text);
    }

    #[test]
    fn formatting_is_idempotent(tree in file()) {
        let once = format(&tree);
        let (parsed, _) = parse(&once);
        prop_assert_eq!(format(&parsed), once);
    }

    #[test]
    fn the_parser_never_panics(text in "(func|update|linalg\\.[a-z]+|[a-z]{1,4}|[0-9]{1,3}|[().,|=\\[\\]@:\"#/ \n-]){0,40}") {
        let (_, errors) = parse(&text);
        for error in &errors {
            let span = error.span.expect("syntax errors are located");
            prop_assert!(span.end as usize <= text.len());
        }
    }

    #[test]
    fn the_parser_never_panics_on_any_text(text in any::<String>()) {
        let _ = parse(&text);
    }
}

#[test]
fn fixtures_and_example_round_trip() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths: Vec<_> = std::fs::read_dir(root.join("tests/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.push(root.join("examples/halide_conv/conv.sched"));
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut first, errors) = parse(&text);
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        let printed = format(&first);
        let (mut second, errors) = parse(&printed);
        assert!(errors.is_empty());
        erase_spans(&mut first);
        erase_spans(&mut second);
        assert_eq!(first, second, "{}", path.display());
    }
}
