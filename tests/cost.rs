//! What reading a template costs as it grows, counted by a global allocator: every shape that
//! amplified its input (issue 22) is generated at sizes 1×, 2×, 4× and 8×, read through the
//! library as `toscana check` reads it, and its diagnostics rendered as `check` prints them.
//!
//! - A shape whose cost should follow its size must cost as much more from 4× to 8× as from 1×
//!   to 2× for each step of size, within [`LINEAR`]: the ratio of the two slopes is 1 for linear
//!   growth (whatever the fixed cost of the dialect's profiles), a little more for `n log n`,
//!   and 4 for quadratic growth. Both the bytes allocated in all (the work) and the most bytes
//!   live at once (the memory) are judged.
//! - A shape that grows past any linear bound (aliases of aliases, doubling `concat`s, nested
//!   substitutions) must be stopped by its limit, lowered here to keep the test quick: the
//!   limit's diagnostic is reported, and the bytes live at once stay below a bound that follows
//!   the limit, not the shape.
//!
//! Allocations are counted, not time: the counts are the same on every machine. One test runs
//! every shape in turn, since the counters are global to the process.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use toscana::back::{Backend, builtin, graphviz};
use toscana::diag::{Diagnostics, MessageFormat};
use toscana::limits::Limits;
use toscana::pipeline::{ReadOptions, read};
use toscana::source::InputArg;

mod shapes;
use shapes::*;

/// The allocator of this test binary: the system's, counting.
struct Counting;

static ALLOCATED: AtomicU64 = AtomicU64::new(0);
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);

fn grew(bytes: usize) {
    ALLOCATED.fetch_add(bytes as u64, Ordering::Relaxed);
    let live = LIVE.fetch_add(bytes as i64, Ordering::Relaxed) + bytes as i64;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes as i64, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size);
        shrank(layout.size());
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most the cost of a step of size may grow from 1×-2× to 4×-8×: 1 for linear growth, with
/// room for a logarithmic factor and for what allocators round; quadratic growth is 4.
const LINEAR: f64 = 2.0;

/// What one read cost: bytes allocated in all, and the most live at once beyond what was live
/// when it started.
#[derive(Debug, Clone, Copy)]
struct Cost {
    allocated: u64,
    peak: u64,
}

/// Reads `text` (written to `name` in `dir`) as `check` does (and, with `diagram`, draws it as
/// `toscana dot` does), renders its diagnostics, and returns the cost and the codes reported.
fn measure(
    dir: &Path,
    name: &str,
    text: &str,
    limits: &Limits,
    diagram: bool,
) -> (Cost, Vec<String>) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let options = ReadOptions {
        input: Some(InputArg::Path(path)),
        limits: limits.clone(),
        report_open_requirements: true,
        ..ReadOptions::default()
    };
    let start_allocated = ALLOCATED.load(Ordering::Relaxed);
    let start_live = LIVE.load(Ordering::Relaxed);
    PEAK.store(start_live, Ordering::Relaxed);
    let codes = {
        let mut diags = Diagnostics::new();
        let mut read = read(&options, &mut diags);
        if let (true, Some(topology)) = (diagram, &read.topology) {
            let backend = Backend::load(
                builtin("graphviz"),
                None,
                &mut read.sources,
                limits,
                &mut diags,
            )
            .expect("the built-in backend loads");
            let files = graphviz::render(
                &backend,
                topology,
                &read.sources,
                &graphviz::DotOptions::default(),
                &mut diags,
            );
            assert!(!files.is_empty(), "{name}: no diagram");
        }
        let shown = diags.finish();
        let mut out = Vec::new();
        toscana::diag::emit(
            &mut out,
            &shown,
            &read.sources,
            MessageFormat::Human,
            false,
            limits.max_diagnostic_bytes,
        )
        .unwrap();
        shown.iter().map(|d| d.code.to_string()).collect()
    };
    let cost = Cost {
        allocated: ALLOCATED.load(Ordering::Relaxed) - start_allocated,
        peak: (PEAK.load(Ordering::Relaxed) - start_live).max(0) as u64,
    };
    (cost, codes)
}

/// A shape: a name, the file name it is written as (its extension picks the reader), how to
/// make it at size `n`, the size at 1×, and whether it is drawn too.
struct Shape {
    name: &'static str,
    file: &'static str,
    template: Template,
    base: usize,
    diagram: bool,
}

/// How a shape is made at size `n`.
enum Template {
    /// One file's text.
    Text(fn(usize) -> String),
    /// The entry's text, with the files it imports written into the folder given.
    Files(fn(&Path, usize) -> String),
}

impl Shape {
    fn text(&self, dir: &Path, n: usize) -> String {
        match self.template {
            Template::Text(make) => make(n),
            Template::Files(make) => make(dir, n),
        }
    }
}

/// Shapes whose cost must follow their size.
const LINEAR_SHAPES: &[Shape] = &[
    Shape {
        name: "a plain YAML list",
        file: "t.yaml",
        template: Template::Text(plain_list),
        base: 20_000,
        diagram: false,
    },
    Shape {
        name: "a get_property chain through node templates",
        file: "t.yaml",
        template: Template::Text(property_chain_of_nodes),
        base: 200,
        diagram: false,
    },
    Shape {
        name: "a get_property chain through one template's properties",
        file: "t.yaml",
        template: Template::Text(property_chain_of_properties),
        base: 200,
        diagram: false,
    },
    Shape {
        name: "a get_property chain each node reads onward",
        file: "t.yaml",
        template: Template::Text(reversed_property_chain),
        base: 200,
        diagram: false,
    },
    Shape {
        name: "a hosting chain, drawn",
        file: "t.yaml",
        template: Template::Text(hosting_chain),
        base: 200,
        diagram: true,
    },
    Shape {
        // From 1,000 nodes on: below that the solver's and the model's fixed costs (about 5 MB)
        // hide the per-node cost, and the first steps look cheaper than they are.
        name: "a Variability4TOSCA hosting chain (current language), resolved by the solver",
        file: "t.yaml",
        template: Template::Text(variable_hosting_chain),
        base: 1_000,
        diagram: false,
    },
    Shape {
        name: "a TOSCA 2.0 $get_property chain",
        file: "t.yaml",
        template: Template::Text(property_chain_2_0),
        base: 200,
        diagram: false,
    },
    Shape {
        name: "a $union of two lists",
        file: "t.yaml",
        template: Template::Text(union_of_lists),
        base: 2_000,
        diagram: false,
    },
    Shape {
        name: "a derived_from chain (past the type depth)",
        file: "t.yaml",
        template: Template::Text(derivation_chain),
        base: 250,
        diagram: false,
    },
    Shape {
        name: "TOSCA 2.0 counts that check pairs",
        file: "t.yaml",
        template: Template::Text(counted),
        base: 2_000,
        diagram: false,
    },
    Shape {
        name: "a syntax error at the end of a long line",
        file: "t.yaml",
        template: Template::Text(long_line),
        base: 70_000,
        diagram: false,
    },
    Shape {
        name: "type errors that quote 64 KiB values",
        file: "t.yaml",
        template: Template::Text(quoted_values),
        base: 8,
        diagram: false,
    },
    Shape {
        name: "distinct pattern constraints",
        file: "t.yaml",
        template: Template::Text(distinct_patterns),
        base: 50,
        diagram: false,
    },
    Shape {
        name: "one expensive pattern constraint, repeated",
        file: "t.yaml",
        template: Template::Text(one_expensive_pattern),
        base: 25,
        diagram: false,
    },
];

/// A shape a limit must stop: the limit's code and what the bytes live at once may reach.
struct Stopped {
    shape: Shape,
    code: &'static str,
    peak: u64,
}

/// The limits the stopped shapes run under: low, so the debug build is quick.
fn low_limits() -> Limits {
    Limits {
        max_alias_bytes: 1 << 20,
        max_alias_expansion: 10_000,
        max_computed_bytes: 1 << 20,
        max_regex_bytes: 16 << 20,
        max_substituted_nodes: 2_000,
        max_representations: 10_000,
        ..Limits::default()
    }
}

const MIB: u64 = 1 << 20;

fn stopped_shapes() -> Vec<Stopped> {
    vec![
        Stopped {
            shape: Shape {
                name: "aliases of one long scalar",
                file: "t.yaml",
                template: Template::Text(alias_copies),
                base: 4,
                diagram: false,
            },
            code: "yaml::alias-budget",
            peak: 16 * MIB,
        },
        Stopped {
            shape: Shape {
                name: "aliases of aliases",
                file: "t.yaml",
                template: Template::Text(alias_bomb),
                base: 2,
                diagram: false,
            },
            code: "yaml::alias-budget",
            peak: 16 * MIB,
        },
        Stopped {
            shape: Shape {
                name: "concat chains that double",
                file: "t.yaml",
                template: Template::Text(doubling_concat),
                base: 6,
                diagram: false,
            },
            code: "tosca::limit",
            peak: 16 * MIB,
        },
        Stopped {
            shape: Shape {
                name: "$concat chains that double",
                file: "t.yaml",
                template: Template::Text(doubling_concat_2_0),
                base: 6,
                diagram: false,
            },
            code: "tosca::limit",
            peak: 16 * MIB,
        },
        Stopped {
            shape: Shape {
                name: "Variability4TOSCA expressions that double",
                file: "t.yaml",
                template: Template::Text(doubling_expressions),
                base: 6,
                diagram: false,
            },
            code: "variability::limit",
            peak: 16 * MIB,
        },
        Stopped {
            shape: Shape {
                name: "Variability4TOSCA value expressions (current language) that double",
                file: "t.yaml",
                template: Template::Text(doubling_value_expressions),
                base: 6,
                diagram: false,
            },
            code: "variability::limit",
            peak: 16 * MIB,
        },
        Stopped {
            shape: Shape {
                name: "counts whose sum overflows",
                file: "t.yaml",
                template: Template::Text(overflowing_counts),
                base: 1,
                diagram: false,
            },
            code: "tosca::limit",
            peak: 16 * MIB,
        },
        Stopped {
            shape: Shape {
                name: "distinct patterns past the regex size limit",
                file: "t.yaml",
                template: Template::Text(expensive_patterns),
                base: 2,
                diagram: false,
            },
            code: "tosca::limit",
            peak: 64 * MIB,
        },
        Stopped {
            shape: Shape {
                name: "nested substitutions",
                file: "top.yaml",
                template: Template::Files(|dir, fan| nested_substitutions(dir, 4, fan)),
                base: 2,
                diagram: false,
            },
            code: "tosca::limit",
            peak: 64 * MIB,
        },
    ]
}

#[test]
fn every_amplifying_shape_costs_in_proportion_to_its_size_or_stops_at_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let limits = Limits::default();
    for shape in LINEAR_SHAPES {
        let costs: Vec<Cost> = [1, 2, 4, 8]
            .iter()
            .map(|k| {
                let text = shape.text(dir.path(), shape.base * k);
                measure(dir.path(), shape.file, &text, &limits, shape.diagram).0
            })
            .collect();
        for (what, f) in [
            (
                "bytes allocated",
                (|c: &Cost| c.allocated) as fn(&Cost) -> u64,
            ),
            ("bytes live at once", |c: &Cost| c.peak),
        ] {
            let step = |from: usize, to: usize, sizes: f64| {
                (f(&costs[to]) as f64 - f(&costs[from]) as f64).max(1.0) / sizes
            };
            let growth = step(2, 3, 4.0) / step(0, 1, 1.0);
            eprintln!(
                "{}: {what} {:?}, a step of size costs {growth:.2} times as much at 4×-8× as at 1×-2×",
                shape.name,
                costs.iter().map(f).collect::<Vec<_>>(),
            );
            if growth > LINEAR {
                failures.push(format!(
                    "{}: {what}: a step of size costs {growth:.2} times as much at 4×-8× as at 1×-2×",
                    shape.name
                ));
            }
        }
    }
    let low = low_limits();
    for s in stopped_shapes() {
        let mut codes = Vec::new();
        for k in [1, 2, 4, 8] {
            let text = s.shape.text(dir.path(), s.shape.base * k);
            let (cost, found) = measure(dir.path(), s.shape.file, &text, &low, false);
            eprintln!(
                "{} at {k}×: {} bytes allocated, {} live at once",
                s.shape.name, cost.allocated, cost.peak
            );
            if cost.peak > s.peak {
                failures.push(format!(
                    "{} at {k}×: {} bytes live at once, more than {}",
                    s.shape.name, cost.peak, s.peak
                ));
            }
            codes = found;
        }
        if !codes.iter().any(|c| c == s.code) {
            failures.push(format!(
                "{} at 8×: no {} diagnostic ({codes:?})",
                s.shape.name, s.code
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
