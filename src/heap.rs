//! A small size-class heap: the wasm module's global allocator (installed in `wasm::alloc`), kept
//! here, target-independent, so the native property tests (tests/heap_props.rs) exercise the very
//! code that ships.
//!
//! Why not std's dlmalloc: it is ~5 KB of the module (≈ 2 KB gzip), and this library's allocation
//! pattern (many small, short-lived blocks of a few recurring sizes; buffers that grow by doubling)
//! suits segregated free lists well. talc was tried and cost +40 % CPU per wait; this heap is a
//! handful of instructions per call.
//!
//! Design: sizes are rounded up to a class (8, 16, … 64 in steps of 8, then four classes per power of
//! two: 80, 96, 112, 128, 160, …), so a block wastes at most 25 % above 64 bytes and no header is
//! stored. Each class keeps a LIFO free list threaded through its free blocks. A class with an empty
//! list carves one block from the bump region; when that is used up, it splits a free block of a
//! larger class (the rest filed under the largest class it holds — so memory freed by one kind of
//! block serves the next kind, as a coalescing allocator's would), and only then grows the region
//! through the supplied `grow` function (on wasm, `memory.grow`). Blocks are never merged or returned
//! to the system — the wasm memory never shrinks anyway. Memory per wait (10 000 concurrent waits):
//! 826–832 B of wasm memory, against 910 B with dlmalloc, because the machines keep no idle buffers
//! and a `callAndAwait` machine is one block for its whole life (blocks freed in bulk of a size no
//! later request takes would otherwise sit unused: 1455 B per wait when they did).
//! Alignment: every block is 8-aligned, blocks of classes that are multiples of 16 are 16-aligned, and
//! a request aligned above 16 (nothing in this crate makes one) is served from a padded block with
//! the real start stored just below the aligned address.

use core::ptr;

/// Classes up to 64 bytes, in steps of 8.
const SMALL_CLASSES: usize = 8;
/// Number of classes: the largest is 2^(bits − 2) bytes (1 GiB on wasm32), so every class size fits a
/// `usize`; a bigger request is refused (null), as memory that big could not be had anyway.
pub const CLASSES: usize = SMALL_CLASSES + 4 * (usize::BITS as usize - 8);
/// The alignment every class guarantees when its size is a multiple of 16.
const MAX_CLASS_ALIGN: usize = 16;

/// The class index of a request of `size` bytes (`size` ≥ 1), or `None` when no class is that large.
pub fn class_of(size: usize) -> Option<usize> {
    if size <= 64 {
        return Some(size.saturating_sub(1) / 8);
    }
    let m = size - 1;
    let p = usize::BITS - 1 - m.leading_zeros(); // 2^p ≤ m < 2^(p+1), p ≥ 6
    let q = m >> (p - 2); // 4..=7
    let index = SMALL_CLASSES + (p as usize - 6) * 4 + (q - 4);
    (index < CLASSES).then_some(index)
}

/// The block size of class `index`.
pub fn class_size(index: usize) -> usize {
    if index < SMALL_CLASSES {
        return (index + 1) * 8;
    }
    let i = index - SMALL_CLASSES;
    let p = i / 4 + 6;
    (i % 4 + 5) << (p - 2)
}

/// Where fresh memory comes from: `grow(n)` returns the start of a new region of at least `n` bytes
/// (8-aligned), and the region's length, or `None` when memory is exhausted.
pub type Grow = fn(usize) -> Option<(usize, usize)>;

/// The heap's state. Not thread-safe: the wasm module is single-threaded.
pub struct Heap {
    free: [usize; CLASSES],
    bump: usize,
    end: usize,
    grow: Grow,
}

impl Heap {
    /// An empty heap that takes memory from `grow`.
    pub const fn new(grow: Grow) -> Heap {
        Heap { free: [0; CLASSES], bump: 0, end: 0, grow }
    }

    /// A block of at least `size` bytes aligned to `align` (a power of two), or null.
    ///
    /// # Safety
    /// The heap must be the only user of the memory `grow` hands out.
    pub unsafe fn alloc(&mut self, size: usize, align: usize) -> *mut u8 {
        if align > MAX_CLASS_ALIGN {
            return self.alloc_overaligned(size, align);
        }
        let Some(class) = class_for(size, align) else { return ptr::null_mut() };
        let Some(head) = self.free.get_mut(class) else { return ptr::null_mut() };
        if *head != 0 {
            let block = *head;
            *head = ptr::read(block as *const usize);
            return block as *mut u8;
        }
        self.carve(class)
    }

    /// Returns a block to its class.
    ///
    /// # Safety
    /// `block` came from [`Heap::alloc`] or [`Heap::realloc`] on this heap with the same `size` and
    /// `align`, and is not used afterwards.
    pub unsafe fn dealloc(&mut self, block: *mut u8, size: usize, align: usize) {
        if align > MAX_CLASS_ALIGN {
            let start = ptr::read((block as usize - core::mem::size_of::<usize>()) as *const usize);
            return self.dealloc(start as *mut u8, size + align, 8);
        }
        let Some(head) = class_for(size, align).and_then(|c| self.free.get_mut(c)) else { return };
        ptr::write(block as *mut usize, *head);
        *head = block as usize;
    }

    /// Resizes a block: the same block when the new size falls in its class, else a new one with the
    /// contents copied (null, the old block untouched, when memory is exhausted).
    ///
    /// # Safety
    /// As [`Heap::dealloc`] for `block`, `size` and `align`.
    pub unsafe fn realloc(&mut self, block: *mut u8, size: usize, align: usize, new_size: usize) -> *mut u8 {
        if align <= MAX_CLASS_ALIGN
            && class_for(size, align).is_some()
            && class_for(size, align) == class_for(new_size, align)
        {
            return block;
        }
        let fresh = self.alloc(new_size, align);
        if !fresh.is_null() {
            ptr::copy_nonoverlapping(block, fresh, size.min(new_size));
            self.dealloc(block, size, align);
        }
        fresh
    }

    /// A block aligned above 16: a padded class block, its start stored in the word below the result.
    unsafe fn alloc_overaligned(&mut self, size: usize, align: usize) -> *mut u8 {
        let Some(padded) = size.checked_add(align) else { return ptr::null_mut() };
        let start = self.alloc(padded, 8);
        if start.is_null() {
            return start;
        }
        let aligned = round_up(start as usize + core::mem::size_of::<usize>(), align);
        ptr::write((aligned - core::mem::size_of::<usize>()) as *mut usize, start as usize);
        aligned as *mut u8
    }

    /// A fresh block for `class`: from the bump region, else split off a free block of a larger
    /// class (the rest filed as a free block), else from newly grown memory.
    unsafe fn carve(&mut self, class: usize) -> *mut u8 {
        let size = class_size(class);
        let align = class_align(size);
        let start = round_up(self.bump, align);
        if start.checked_add(size).is_some_and(|e| e <= self.end) {
            self.bump = start + size;
            return start as *mut u8;
        }
        if let Some(block) = self.split_larger(class) {
            return block as *mut u8;
        }
        let Some((region, len)) = (self.grow)(size + align) else { return ptr::null_mut() };
        if region != self.end {
            self.file(self.bump, self.end - self.bump); // not contiguous: the old tail becomes a free block
            self.bump = region;
        }
        self.end = region + len;
        let start = round_up(self.bump, align);
        self.bump = start + size;
        start as *mut u8
    }

    /// A block for `class` cut from the first free block of a larger class (one that is 16-aligned
    /// when `class` needs it); the rest of that block is filed as a free block.
    unsafe fn split_larger(&mut self, class: usize) -> Option<usize> {
        let size = class_size(class);
        let aligned16 = class_align(size) == MAX_CLASS_ALIGN;
        for c in class + 1..CLASSES {
            let bigger = class_size(c);
            if aligned16 && class_align(bigger) != MAX_CLASS_ALIGN {
                continue;
            }
            let head = self.free.get_mut(c)?;
            if *head != 0 {
                let block = *head;
                *head = ptr::read(block as *const usize);
                self.file(block + size, bigger - size);
                return Some(block);
            }
        }
        None
    }

    /// Files the free range `start..start + len` (8-aligned) under the largest class it holds, with
    /// that class's alignment; whatever is left over is given up.
    unsafe fn file(&mut self, start: usize, len: usize) {
        let (start, len) = if len >= 64 {
            let aligned = round_up(start, MAX_CLASS_ALIGN);
            (aligned, len - (aligned - start))
        } else {
            (start, len)
        };
        let Some(mut class) = class_of(len) else { return };
        if class_size(class) > len {
            let Some(below) = class.checked_sub(1) else { return }; // under 8 bytes
            class = below;
        }
        while class > 0 && start % MAX_CLASS_ALIGN != 0 && class_align(class_size(class)) == MAX_CLASS_ALIGN {
            class -= 1;
        }
        if let Some(head) = self.free.get_mut(class) {
            ptr::write(start as *mut usize, *head);
            *head = start;
        }
    }
}

/// The alignment of a class's blocks: 16 for sizes that are multiples of 16, else 8.
fn class_align(size: usize) -> usize {
    if size % MAX_CLASS_ALIGN == 0 {
        MAX_CLASS_ALIGN
    } else {
        8
    }
}

/// The class serving `size` bytes at `align` ≤ 16: 16-aligned requests go to a class that is a
/// multiple of 16 (whose blocks are carved 16-aligned).
fn class_for(size: usize, align: usize) -> Option<usize> {
    let size = size.max(1);
    if align == MAX_CLASS_ALIGN {
        return class_of(size.checked_add(MAX_CLASS_ALIGN - 1)? & !(MAX_CLASS_ALIGN - 1));
    }
    class_of(size)
}

/// `n` rounded up to a multiple of `align` (a power of two).
fn round_up(n: usize, align: usize) -> usize {
    (n + align - 1) & !(align - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_every_size_with_at_most_a_quarter_wasted_above_64() {
        let mut last = 0;
        for size in 1..=1 << 20 {
            let c = class_of(size).unwrap_or(usize::MAX);
            let s = class_size(c);
            assert!(s >= size, "{size} → class {c} of {s}");
            assert!(c >= last, "classes grow with the size");
            if c > 0 {
                assert!(class_size(c - 1) < size, "{size}: the class below ({}) would fit", class_size(c - 1));
            }
            if size > 64 {
                assert!(s * 4 <= size * 5 + 4 * 16, "{size} → {s} wastes more than a quarter");
                assert_eq!(s % 16, 0, "classes above 64 are multiples of 16");
            }
            last = c;
        }
        assert_eq!(class_size(class_of(80).unwrap_or(0)), 80);
        assert_eq!(class_size(class_of(81).unwrap_or(0)), 96);
        assert_eq!(class_size(class_of(129).unwrap_or(0)), 160);
    }
}
