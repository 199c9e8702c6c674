//! The module's global allocator: the size-class heap of `crate::heap` over `memory.grow` (see there
//! for why it replaces std's dlmalloc).

use crate::heap::Heap;
use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;

/// The wasm page size.
const PAGE: usize = 65536;

/// Grows the linear memory by enough pages for `n` bytes; the new region starts at the old end.
fn grow(n: usize) -> Option<(usize, usize)> {
    let pages = n.div_ceil(PAGE);
    let old = core::arch::wasm32::memory_grow(0, pages);
    (old != usize::MAX).then(|| (old * PAGE, pages * PAGE))
}

/// The heap behind the global allocator.
struct Global(UnsafeCell<Heap>);

// SAFETY: the wasm module is single-threaded (no atomics/threads target feature is enabled).
unsafe impl Sync for Global {}

#[global_allocator]
static ALLOCATOR: Global = Global(UnsafeCell::new(Heap::new(grow)));

// SAFETY: single-threaded, and no allocation re-enters the allocator, so each call has the heap alone.
unsafe impl GlobalAlloc for Global {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        (*self.0.get()).alloc(layout.size(), layout.align())
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        (*self.0.get()).dealloc(block, layout.size(), layout.align())
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        (*self.0.get()).realloc(block, layout.size(), layout.align(), new_size)
    }
}
