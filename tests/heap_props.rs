//! Property tests of the size-class heap (`src/heap.rs`, the wasm module's global allocator) on real
//! memory: random sequences of allocations, frees and resizes, every block checked for alignment,
//! overlap with any live block and its contents (each block is filled with its own byte and checked
//! when it is resized or freed). Also: a freed block is reused before the heap grows.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use mcp_tasks_wasm::heap::{class_of, class_size, Heap};
use proptest::prelude::*;
use std::cell::Cell;
use std::collections::BTreeMap;

thread_local! {
    /// Bytes handed out by `grow` on this thread.
    static GROWN: Cell<usize> = const { Cell::new(0) };
}

/// Leaked, 16-aligned regions from the system allocator, 64 KiB steps like `memory.grow`.
fn grow(n: usize) -> Option<(usize, usize)> {
    let len = n.div_ceil(65536) * 65536;
    let region: &'static mut [u128] = vec![0u128; len / 16].leak();
    GROWN.with(|g| g.set(g.get() + len));
    Some((region.as_mut_ptr() as usize, len))
}

#[derive(Debug, Clone)]
enum Op {
    Alloc { size: usize, align: usize },
    Free(usize),
    Realloc(usize, usize),
}

fn size() -> impl Strategy<Value = usize> {
    prop_oneof![8 => 1usize..200, 3 => 200usize..5000, 1 => 5000usize..300_000]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (size(), prop_oneof![Just(1usize), Just(2), Just(4), Just(8), Just(16), Just(32), Just(128)])
            .prop_map(|(size, align)| Op::Alloc { size, align }),
        3 => any::<usize>().prop_map(Op::Free),
        2 => (any::<usize>(), size()).prop_map(|(i, s)| Op::Realloc(i, s)),
    ]
}

/// A live block: start, size, align, fill byte.
type Live = Vec<(usize, usize, usize, u8)>;

fn check_fill(start: usize, len: usize, fill: u8) {
    let bytes = unsafe { std::slice::from_raw_parts(start as *const u8, len) };
    assert!(bytes.iter().all(|&b| b == fill), "block at {start:#x} lost its contents");
}

fn fill(start: usize, len: usize, byte: u8) {
    unsafe { std::ptr::write_bytes(start as *mut u8, byte, len) };
}

fn assert_no_overlap(live: &Live) {
    let mut by_start = BTreeMap::new();
    for &(s, n, _, _) in live {
        by_start.insert(s, n);
    }
    assert_eq!(by_start.len(), live.len(), "two live blocks share a start");
    let mut end = 0;
    for (&s, &n) in &by_start {
        assert!(s >= end, "block at {s:#x} overlaps the one before (ends {end:#x})");
        end = s + n;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// Blocks are aligned, disjoint, keep their contents through resizes, and frees are accepted.
    #[test]
    fn blocks_are_aligned_disjoint_and_keep_their_contents(ops in proptest::collection::vec(op(), 1..300)) {
        let mut heap = Heap::new(grow);
        let mut live: Live = Vec::new();
        let mut next_fill = 1u8;
        for op in ops {
            match op {
                Op::Alloc { size, align } => {
                    let p = unsafe { heap.alloc(size, align) } as usize;
                    prop_assert!(p != 0);
                    prop_assert_eq!(p % align, 0, "alignment {}", align);
                    next_fill = next_fill.wrapping_add(1).max(1);
                    fill(p, size, next_fill);
                    live.push((p, size, align, next_fill));
                }
                Op::Free(i) if !live.is_empty() => {
                    let (p, size, align, f) = live.swap_remove(i % live.len());
                    check_fill(p, size, f);
                    unsafe { heap.dealloc(p as *mut u8, size, align) };
                }
                Op::Realloc(i, new_size) if !live.is_empty() => {
                    let i = i % live.len();
                    let (p, size, align, f) = live[i];
                    let q = unsafe { heap.realloc(p as *mut u8, size, align, new_size) } as usize;
                    prop_assert!(q != 0);
                    prop_assert_eq!(q % align, 0);
                    check_fill(q, size.min(new_size), f);
                    fill(q, new_size, f);
                    live[i] = (q, new_size, align, f);
                }
                _ => {}
            }
            assert_no_overlap(&live);
        }
        for (p, size, align, f) in live {
            check_fill(p, size, f);
            unsafe { heap.dealloc(p as *mut u8, size, align) };
        }
    }
}

/// A freed block is the next one its class hands out, so a steady alloc/free pattern stops growing.
#[test]
fn freed_blocks_are_reused_before_the_heap_grows() {
    let mut heap = Heap::new(grow);
    let sizes = [1usize, 8, 24, 40, 64, 65, 100, 1000, 4096, 70_000];
    for &s in &sizes {
        let a = unsafe { heap.alloc(s, 8) };
        unsafe { heap.dealloc(a, s, 8) };
        let b = unsafe { heap.alloc(s, 8) };
        assert_eq!(a, b, "size {s}: the freed block is reused");
        unsafe { heap.dealloc(b, s, 8) };
    }
    let before = GROWN.with(Cell::get);
    for round in 0..1000 {
        let blocks: Vec<_> = sizes.iter().map(|&s| (unsafe { heap.alloc(s + round % 3, 8) }, s + round % 3)).collect();
        for (p, s) in blocks {
            unsafe { heap.dealloc(p, s, 8) };
        }
    }
    assert_eq!(GROWN.with(Cell::get), before, "a steady pattern does not grow the heap");
}

/// A resize within the block's class keeps the block; across classes it moves.
#[test]
fn a_resize_within_the_class_keeps_the_block() {
    let mut heap = Heap::new(grow);
    let p = unsafe { heap.alloc(65, 8) };
    assert_eq!(class_size(class_of(65).unwrap()), 80);
    assert_eq!(unsafe { heap.realloc(p, 65, 8, 80) }, p);
    let q = unsafe { heap.realloc(p, 80, 8, 81) };
    assert_ne!(q, p);
}

/// Exhausted memory is a null block, never a panic, and the heap keeps working afterwards.
#[test]
fn exhausted_memory_is_null() {
    fn none(_: usize) -> Option<(usize, usize)> {
        None
    }
    let mut heap = Heap::new(none);
    assert!(unsafe { heap.alloc(10, 8) }.is_null());
    assert!(unsafe { heap.alloc(10, 64) }.is_null());
    assert!(unsafe { heap.alloc(usize::MAX - 4, 8) }.is_null());
    assert!(unsafe { heap.alloc(usize::MAX - 4, 16) }.is_null());
    assert!(unsafe { heap.alloc((1 << (usize::BITS - 2)) + 1, 8) }.is_null(), "above the largest class");
    assert_eq!(class_size(class_of(1 << (usize::BITS - 2)).unwrap()), 1 << (usize::BITS - 2));
}

/// Memory freed by one kind of block serves the next kind: blocks of a larger class are split for a
/// smaller one before the heap grows (the pattern of a wait: its call part freed, poll state made).
#[test]
fn freed_memory_of_one_class_serves_another() {
    let mut heap = Heap::new(grow);
    let big: Vec<_> = (0..10_000).map(|_| unsafe { heap.alloc(488, 8) }).collect();
    for &p in &big {
        unsafe { heap.dealloc(p, 488, 8) };
    }
    let before = GROWN.with(Cell::get);
    let mut small = Vec::new();
    for i in 0..20_000 {
        let (size, align) = if i % 2 == 0 { (224, 16) } else { (17, 8) };
        let p = unsafe { heap.alloc(size, align) };
        assert_eq!(p as usize % align, 0);
        small.push(p);
    }
    let grown = GROWN.with(Cell::get) - before;
    assert!(grown <= 65536, "20 000 small blocks fit in the 10 000 freed big ones (grew {grown} bytes)");
}
