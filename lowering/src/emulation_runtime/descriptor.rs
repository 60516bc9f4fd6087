//! Memref descriptors as the LLVM lowering lays them out, read by the
//! runtime functions that take memrefs (`apipe.copy`, `memref.dealloc`).

use super::MAX_RANK;

/// A memref descriptor as the LLVM lowering lays it out:
/// `{allocated, aligned, offset, sizes[rank], strides[rank]}`.
pub struct Descriptor {
    /// The aligned pointer.
    pub aligned: *mut u8,
    /// The offset in elements.
    pub offset: i64,
    /// The rank.
    pub rank: usize,
    /// The sizes (the first `rank`).
    pub sizes: [i64; MAX_RANK],
    /// The strides in elements (the first `rank`).
    pub strides: [i64; MAX_RANK],
}

impl Descriptor {
    /// Reads the descriptor at `raw`.
    ///
    /// # Safety
    /// `raw` points to a ranked descriptor of rank `rank` (at most
    /// [`MAX_RANK`], which `apipe-to-emulation` checks).
    pub unsafe fn read(rank: i64, raw: *const i64) -> Self {
        // Plain loops and comparisons: the runtime is on the hot path of
        // every copy, and workspace crates build without optimization in
        // the dev profile.
        let rank = if rank < 0 {
            0
        } else if rank as usize > MAX_RANK {
            MAX_RANK
        } else {
            rank as usize
        };
        let mut sizes = [0; MAX_RANK];
        let mut strides = [0; MAX_RANK];
        // SAFETY: the layout above; every field is 8 bytes on x86-64.
        unsafe {
            let mut d = 0;
            while d < rank {
                sizes[d] = *raw.add(3 + d);
                strides[d] = *raw.add(3 + rank + d);
                d += 1;
            }
            Self {
                aligned: *(raw.add(1) as *const *mut u8),
                offset: *raw.add(2),
                rank,
                sizes,
                strides,
            }
        }
    }

    /// Checks `indices` (the last one starting a run of `count` elements)
    /// against the sizes; `Err` describes the violation.
    pub fn check(&self, indices: &[i64], count: i64) -> Result<(), String> {
        let mut bad = count < 0;
        let mut d = 0;
        while d < self.rank {
            let (i, size) = (indices[d], self.sizes[d]);
            // The last index starts a run of `count` elements.
            let end = if d + 1 == self.rank {
                size - count
            } else {
                size - 1
            };
            bad |= i < 0 || i > end;
            d += 1;
        }
        if bad {
            Err(format!(
                "indices {:?} + {count} elements, sizes {:?}",
                &indices[..self.rank],
                &self.sizes[..self.rank]
            ))
        } else {
            Ok(())
        }
    }

    /// The address of the element at `indices` (`element_bytes` each).
    pub fn address(&self, indices: &[i64], element_bytes: usize) -> *mut u8 {
        let mut linear = self.offset;
        let mut d = 0;
        while d < indices.len() && d < self.rank {
            linear += indices[d] * self.strides[d];
            d += 1;
        }
        self.aligned
            .wrapping_offset(linear as isize * element_bytes as isize)
    }
}

/// The address of the element at `indices` of the memref `(rank,
/// descriptor)` and the byte step along its innermost dimension, if the
/// indices, with a run of `count` elements from the last one, lie inside its
/// sizes. The hot path of every copy: one pass over the descriptor, no
/// intermediate struct.
///
/// # Safety
/// `raw` points to a ranked descriptor of rank `rank`.
pub unsafe fn locate(
    rank: i64,
    raw: *const i64,
    indices: &[i64; MAX_RANK],
    count: i64,
    element_bytes: isize,
) -> Option<(*const u8, isize)> {
    if rank < 1 || rank > MAX_RANK as i64 || count < 0 {
        return None;
    }
    let rank = rank as usize;
    // SAFETY: the layout of `Descriptor`: 3 + 2 rank fields of 8 bytes on
    // x86-64. One slice: a debug build checks each raw read separately.
    let fields = unsafe { std::slice::from_raw_parts(raw, 3 + 2 * rank) };
    let mut linear = fields[2];
    let mut d = 0;
    while d < rank {
        let (i, size, stride) = (indices[d], fields[3 + d], fields[3 + rank + d]);
        let end = if d + 1 == rank {
            size - count
        } else {
            size - 1
        };
        if i < 0 || i > end {
            return None;
        }
        linear += i * stride;
        d += 1;
    }
    let aligned = fields[1] as usize as *const u8;
    let step = fields[2 + 2 * rank] as isize * element_bytes;
    Some((
        aligned.wrapping_offset(linear as isize * element_bytes),
        step,
    ))
}
