//! What the mbarrier analysis knows of a ring's count `n` modulo `m`
//! (`m` = 2K or K for a ring of K slots): the residues `n mod m` may have
//! on the paths that reach a point (step 2 of `super`).
//!
//! A join keeps the residues of both sides, so a count that differs
//! between paths by a multiple of K keeps its slot, and one that differs
//! by other amounts (the outer iterations of a loop that arrives 10 times
//! per iteration on a ring of 4 slots: counts 0, 10, 20, 30, residues 0,
//! 2, 4, 6 mod 8) keeps the few phases and slots it may be in, which step
//! 4 then decides one by one. Sets are kept for `m <= 64` (K <= 32); a
//! larger ring keeps one residue, or nothing.
//!
//! Invariant (soundness): the residue of `n` on every path to the point
//! is in the set.

/// The largest modulus kept as a set of residues (one bit each).
const MOST: i64 = 64;

/// `n mod m` is one of a set of residues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Residues {
    /// `n ≡ r (mod m)`, any `m >= 1`, `0 <= r < m`.
    One { m: i64, r: i64 },
    /// `n mod m` is one of the residues whose bit is set: `m <= 64`, at
    /// least two bits and not all `m`.
    Set { m: i64, bits: u64 },
}

impl Residues {
    /// `n ≡ r (mod m)`; `None` unless `m >= 1`.
    pub(super) fn one(m: i64, r: i64) -> Option<Residues> {
        (m >= 1).then(|| Residues::One {
            m,
            r: r.rem_euclid(m),
        })
    }

    /// The residues of `bits` mod `m` (`m <= 64`); `None` when that says
    /// nothing (every residue, or none: an unreachable point keeps no
    /// fact).
    fn of_bits(m: i64, bits: u64) -> Option<Residues> {
        let all = if m >= MOST { u64::MAX } else { (1u64 << m) - 1 };
        let bits = bits & all;
        match bits.count_ones() {
            0 => None,
            1 => Residues::one(m, i64::from(bits.trailing_zeros())),
            _ if bits == all => None,
            _ => Some(Residues::Set { m, bits }),
        }
    }

    /// The modulus.
    pub(super) fn modulus(self) -> i64 {
        match self {
            Residues::One { m, .. } | Residues::Set { m, .. } => m,
        }
    }

    /// The set as bits, for `m <= 64`.
    fn bits(self) -> Option<u64> {
        match self {
            Residues::One { m, r } if m <= MOST => Some(1u64 << r),
            Residues::One { .. } => None,
            Residues::Set { bits, .. } => Some(bits),
        }
    }

    /// True if `n` may be the count.
    pub(super) fn contains(self, n: i64) -> bool {
        match self {
            Residues::One { m, r } => n.rem_euclid(m) == r,
            Residues::Set { m, bits } => bits >> n.rem_euclid(m) & 1 == 1,
        }
    }

    /// The residues, ascending.
    pub(super) fn iter(self) -> impl Iterator<Item = i64> {
        let (one, bits) = match self {
            Residues::One { r, .. } => (Some(r), 0),
            Residues::Set { bits, .. } => (None, bits),
        };
        one.into_iter()
            .chain((0..MOST).filter(move |i| bits >> i & 1 == 1))
    }

    /// The residues of `n + c`.
    pub(super) fn shift(self, c: i64) -> Residues {
        match self {
            Residues::One { m, r } => Residues::One {
                m,
                r: (i128::from(r) + i128::from(c)).rem_euclid(i128::from(m)) as i64,
            },
            Residues::Set { m, bits } => {
                let c = c.rem_euclid(m);
                let moved = (0..m)
                    .filter(|i| bits >> i & 1 == 1)
                    .fold(0u64, |acc, i| acc | 1u64 << ((i + c) % m));
                Residues::Set { m, bits: moved }
            }
        }
    }

    /// The same fact modulo `k`, a divisor of `m`.
    fn fold(self, k: i64) -> Option<Residues> {
        if k < 1 || self.modulus() % k != 0 {
            return None;
        }
        match self {
            Residues::One { r, .. } => Residues::one(k, r),
            Residues::Set { .. } => {
                Residues::of_bits(k, self.iter().fold(0u64, |acc, i| acc | 1u64 << (i % k)))
            }
        }
    }

    /// What both sides of a join keep: the union of their residues, mod
    /// the modulus they share, else mod `k` (the ring's slots).
    pub(super) fn join(a: Option<Residues>, b: Option<Residues>, k: i64) -> Option<Residues> {
        let (a, b) = (a?, b?);
        if a == b {
            return Some(a);
        }
        if a.modulus() == b.modulus() {
            if let (Some(x), Some(y)) = (a.bits(), b.bits()) {
                return Residues::of_bits(a.modulus(), x | y);
            }
        }
        let (a, b) = (a.fold(k)?, b.fold(k)?);
        match (a.bits(), b.bits()) {
            _ if a == b => Some(a),
            (Some(x), Some(y)) => Residues::of_bits(k, x | y),
            _ => None,
        }
    }

    /// The widening of a loop header's residues `old` into `joined` (their
    /// join with the back edge's): where the set grew, the closure of
    /// `joined` under its differences, `{r0 + g·t mod m}` with `g` the gcd
    /// of `m` and the differences of its residues to the least one `r0`.
    /// A count that grows by the same amounts in every iteration has
    /// exactly those residues at the fixed point (`n0 + c·t mod m`), so
    /// nothing is lost there, and the set stops growing at once instead of
    /// one residue per round (it took 4 of a pipelined loop's 8 rounds).
    /// A superset of `joined`: sound.
    pub(super) fn widen(old: Option<Residues>, joined: Option<Residues>) -> Option<Residues> {
        let set = joined?;
        if old == joined {
            return joined;
        }
        let (m, bits) = (set.modulus(), set.bits()?);
        let r0 = i64::from(bits.trailing_zeros());
        let g = set.iter().fold(m, |g, r| gcd(g, r - r0));
        let closed = (0..m / g).fold(0u64, |acc, t| acc | 1u64 << ((r0 + g * t) % m));
        Residues::of_bits(m, closed)
    }

    /// One residue: `(m, r)` when the set is one residue mod `m`, or mod
    /// `k` once folded.
    pub(super) fn single(self, k: i64) -> Option<(i64, i64)> {
        match self {
            Residues::One { m, r } => Some((m, r)),
            Residues::Set { .. } => match self.fold(k)? {
                Residues::One { m, r } => Some((m, r)),
                Residues::Set { .. } => None,
            },
        }
    }
}

/// The greatest common divisor of `a` and `b` (nonnegative; `gcd(0, 0) = 0`).
fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::Residues;

    #[test]
    fn joins_keep_the_union_and_fold_to_the_slots() {
        // Counts 0, 10, 20, 30 on a ring of 4 slots: residues 0, 2, 4, 6
        // mod 8, every one even: slot parity unknown, `n mod 2` = 0.
        let joined = [0, 10, 20, 30]
            .iter()
            .map(|n| Residues::one(8, *n))
            .reduce(|a, b| Residues::join(a, b, 4))
            .unwrap()
            .unwrap();
        assert_eq!(joined.iter().collect::<Vec<_>>(), vec![0, 2, 4, 6]);
        assert!(joined.contains(14) && !joined.contains(15));
        assert_eq!(joined.single(4), None);
        assert_eq!(joined.single(2), Some((2, 0)));
        // 1 and 5 mod 8: the slot is 1 mod 4.
        let slot = Residues::join(Residues::one(8, 1), Residues::one(8, 5), 4).unwrap();
        assert_eq!(slot.single(4), Some((4, 1)));
        // Every residue: nothing known.
        let all = (0..8)
            .map(|n| Residues::one(8, n))
            .reduce(|a, b| Residues::join(a, b, 4));
        assert_eq!(all, Some(None));
    }

    #[test]
    fn shifts_rotate_and_large_rings_keep_one_residue() {
        let s = Residues::join(Residues::one(8, 6), Residues::one(8, 7), 4).unwrap();
        assert_eq!(s.shift(3).iter().collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(s.shift(-7).iter().collect::<Vec<_>>(), vec![0, 7]);
        // A ring of 100 slots: mod 200 one residue; two differ mod 100:
        // nothing.
        let big = Residues::join(Residues::one(200, 3), Residues::one(200, 103), 100);
        assert_eq!(big, Residues::one(100, 3));
        assert_eq!(
            Residues::join(Residues::one(200, 3), Residues::one(200, 4), 100),
            None
        );
    }

    #[test]
    fn widening_closes_under_differences() {
        // Counts 2, 3 mod 8 (one arrive per iteration): every residue.
        let grown = Residues::of_bits(8, 0b1100);
        assert_eq!(Residues::widen(Residues::one(8, 2), grown), None);
        // Counts 0, 2 mod 8 (two arrives per iteration): the even ones.
        let even = Residues::widen(Residues::one(8, 0), Residues::of_bits(8, 0b101));
        assert_eq!(even, Residues::of_bits(8, 0b0101_0101));
        // Counts 1, 5 mod 8: 1 and 5 only (nothing to add).
        let odd = Residues::of_bits(8, 0b10_0010);
        assert_eq!(Residues::widen(Residues::one(8, 1), odd), odd);
        // Unchanged: kept as it is.
        assert_eq!(Residues::widen(odd, odd), odd);
    }
}
