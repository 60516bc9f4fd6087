//! CUTLASS-style pipeline state in the mbarrier check (docs/mbarrier.md,
//! "Checking"): a slot index and a phase bit carried by hand through
//! `scf.for` iter_args and advanced with `index + 1 == K ? 0 : index + 1`
//! and `phase ^= 1` on the wrap (CUTLASS's `PipelineState {index, phase}`),
//! instead of a count of arrives.
//!
//! Such a pair names a **virtual count** x: `index = x mod K` and
//! `phase = (x div K) mod 2`, and (slot, parity) on hardware tells x only
//! modulo 2K. So each value is abstracted, per ring of K slots (2K <= 128),
//! by **masks of offsets**: bit δ (0 <= δ < 2K) set means that on every
//! path the value is that function of `x = n - δ (mod 2K)`, n being the
//! ring's arrives so far. The masks under-approximate: every set bit holds
//! on every path (a join intersects them), so a wait whose index mask and
//! phase mask share a bit e names, on every path, the latest group
//! `g < n` with `g ≡ n - e (mod 2K)`: `n - g = ((e - 1) mod 2K) + 1`.
//!
//! Which op is an increment, a wrap, a select or a flip is decided by the
//! access module's recogniser (`crate::access::slot`), shared with the
//! access forms that fold a slot index carried the same way.
//!
//! # Algorithm
//! 1. A constant c gets the masks of every δ that fits c for every arrive
//!    count n the state allows (few n only): index `x mod K = c`, phase
//!    `(x div K) mod 2 = c`, increment `x mod K + 1 = c`, wrap
//!    `(x mod K = K - 1) = c`.
//! 2. `index + 1` gives the increment mask of `index`; `inc == K` (or
//!    `index == K - 1`) the wrap mask; `select(wrap, 0, inc)` and
//!    `inc mod K` the index of `x + 1` (the mask rotated by -1);
//!    `phase ^ wrap` and `select(wrap, phase ^ 1, phase)` the phase of
//!    `x + 1`; `phase ^ 1` and `phase == 0` the phase of `x + K` (rotated by
//!    K); `phase != 0` the phase itself (an `index` phase made `i1`).
//! 3. An arrive on the ring rotates every mask of it by +1 (n grows, x
//!    stays).
//!
//! Invariant: a set bit δ of a mask holds on every path reaching the point,
//! so masks only shrink at joins and loops reach a fixed point.

/// The masks of one value relative to one ring (bit δ: see the module
/// doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Masks {
    /// The value is `x mod K`.
    pub index: u128,
    /// The value is `(x div K) mod 2`.
    pub phase: u128,
    /// The value is `x mod K + 1`.
    pub inc: u128,
    /// The value is `x mod K == K - 1` (1 or 0).
    pub wrap: u128,
}

impl Masks {
    /// True if no bit is set.
    pub fn is_empty(&self) -> bool {
        *self == Masks::default()
    }

    /// Bitwise intersection (the join of step 1's invariant).
    pub fn meet(&self, o: &Masks) -> Masks {
        Masks {
            index: self.index & o.index,
            phase: self.phase & o.phase,
            inc: self.inc & o.inc,
            wrap: self.wrap & o.wrap,
        }
    }

    /// Bitwise union (two facts that both hold).
    pub fn union(&self, o: &Masks) -> Masks {
        Masks {
            index: self.index | o.index,
            phase: self.phase | o.phase,
            inc: self.inc | o.inc,
            wrap: self.wrap | o.wrap,
        }
    }

    /// Every mask rotated by `by` (step 3: `by = 1` per arrive).
    pub fn rotate(&self, k: i64, by: i64) -> Masks {
        Masks {
            index: rotate(self.index, k, by),
            phase: rotate(self.phase, k, by),
            inc: rotate(self.inc, k, by),
            wrap: rotate(self.wrap, k, by),
        }
    }
}

/// True if rings of `k` slots are followed (2K offsets fit a mask).
pub(super) fn supported(k: i64) -> bool {
    (1..=64).contains(&k)
}

fn full(k: i64) -> u128 {
    if k >= 64 {
        u128::MAX
    } else {
        (1u128 << (2 * k)) - 1
    }
}

/// `m` with bit δ moved to `δ + by (mod 2K)`.
pub(super) fn rotate(m: u128, k: i64, by: i64) -> u128 {
    let width = 2 * k;
    let by = by.rem_euclid(width);
    if by == 0 {
        return m;
    }
    ((m << by) | (m >> (width - by))) & full(k)
}

thread_local! {
    /// [`of_constant`]'s answers per (constant, K, residues of the counts
    /// mod 2K): the joins of a loop's fixed point ask for the masks of the
    /// same constants at the same counts in every round (they were 5% of
    /// the checker on the mbarrier form).
    static CONSTANT_MASKS: std::cell::RefCell<rustc_hash::FxHashMap<(i64, i64, u128), Masks>> =
        Default::default();
}

/// Step 1: the masks of the constant `c` when the ring's arrive count is
/// any of `ns` (K = `k` slots, at most 64: [`supported`]).
///
/// Every mask tests a function of `x mod 2K` (`x mod K`, `(x div K) mod
/// 2`), so the answer depends on the counts modulo 2K only: it is computed
/// once per set of residues.
pub(super) fn of_constant(c: i64, ns: &[i64], k: i64) -> Masks {
    // x mod K is in [0, K - 1], x mod K + 1 in [1, K], a phase or a wrap
    // bit in {0, 1}: no other constant has a mask.
    if c < 0 || c > k.max(1) || !supported(k) {
        return Masks::default();
    }
    let residues = ns
        .iter()
        .fold(0u128, |set, n| set | 1u128 << n.rem_euclid(2 * k));
    CONSTANT_MASKS.with(|answers| {
        *answers
            .borrow_mut()
            .entry((c, k, residues))
            .or_insert_with(|| of_constant_at(c, residues, k))
    })
}

/// [`of_constant`] for the counts whose residues mod 2K are the set bits
/// of `residues`.
fn of_constant_at(c: i64, residues: u128, k: i64) -> Masks {
    let mut m = Masks::default();
    let ns: Vec<i64> = (0..2 * k).filter(|r| residues >> r & 1 == 1).collect();
    for delta in 0..2 * k {
        let fits = |f: &dyn Fn(i64) -> bool| ns.iter().all(|n| f(n - delta));
        let bit = 1u128 << delta;
        if fits(&|x| x.rem_euclid(k) == c) {
            m.index |= bit;
        }
        if fits(&|x| x.div_euclid(k).rem_euclid(2) == c) {
            m.phase |= bit;
        }
        if fits(&|x| x.rem_euclid(k) + 1 == c) {
            m.inc |= bit;
        }
        if fits(&|x| (x.rem_euclid(k) == k - 1) as i64 == c) {
            m.wrap |= bit;
        }
    }
    m
}

/// The offsets set in `m`, ascending.
pub(super) fn offsets(m: u128, k: i64) -> impl Iterator<Item = i64> {
    (0..2 * k).filter(move |d| m >> d & 1 == 1)
}

/// The ring distance `n - g` of the group named by offset `e`: the latest
/// `g < n` with `g ≡ n - e (mod 2K)`, in `[1, 2K]`.
pub(super) fn distance(e: i64, k: i64) -> i64 {
    (e - 1).rem_euclid(2 * k) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_at_one_count() {
        // K = 2, n = 0: index 0 fits x ≡ 0 (mod 2): δ in {0, 2}.
        let m = of_constant(0, &[0], 2);
        assert_eq!(m.index, 0b0101);
        // phase 0 fits x div 2 even: x ≡ 0, 1 (mod 4): δ in {0, 3}.
        assert_eq!(m.phase, 0b1001);
        // After one arrive the same x has δ + 1.
        assert_eq!(rotate(m.index, 2, 1), 0b1010);
        assert_eq!(rotate(m.phase, 2, 1), 0b0011);
    }

    #[test]
    fn distances() {
        assert_eq!(distance(1, 4), 1);
        assert_eq!(distance(4, 4), 4);
        assert_eq!(distance(0, 4), 8);
        assert_eq!(distance(7, 4), 7);
    }
}
