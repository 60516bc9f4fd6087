//! Step 4: `apipe.mbarrier_wait` (the group a wait names, the proof that
//! its phase is reached, and what it completes).

use super::*;

impl<'c: 'a, 'a> Analysis<'c, 'a> {
    /// Step 4.
    pub(super) fn wait(&mut self, op: &OperationRef<'c, 'a>, state: &mut State) {
        let ring = value_key(op.operand(0).unwrap());
        let Some(&Ring { slots: k, .. }) = self.rings.get(&ring) else {
            return;
        };
        let slot = self.get(state, op.operand(1).unwrap());
        let parity = self.get(state, op.operand(2).unwrap());
        // The parity `((x div K) & 1) != 0` of a count x that may be
        // negative here reads `2^64 + x` unless K is a power of two: it
        // names no phase of x ([`unsigned_is_floor`]).
        let parity_not_floor = matches!(parity.shape, Shape::Bit { base, k: kk, .. }
            if !unsigned_is_floor(state, state.val(base), kk));
        let unshaped;
        let parity = if parity_not_floor {
            unshaped = Val {
                shape: Shape::None,
                ..parity.clone()
            };
            &unshaped
        } else {
            parity
        };
        let r = state.rings[&ring].clone();
        let constant_parity = parity.range.as_exact().or_else(|| match parity.shape {
            Shape::Bit { base, k: kk, set } if kk == k => state
                .val(base)
                .range
                .as_exact()
                .map(|x| ((divu(x, k) & 1 == 1) == set) as i64),
            _ => None,
        });
        // A slot `x mod K` (`x & (K - 1)`, `arith.remui x, K`; any value
        // when K = 1) and parity `((x div K) & 1) != 0` (or `== 0`) of one
        // count x whose δ is known: its group directly.
        let slot_count = |pbase: usize| {
            slot_base(state, slot, k)
                .or((k == 1 && slot.range.as_exact() == Some(0)).then_some(pbase))
        };
        let symbolic = match parity.shape {
            Shape::Bit {
                base: pbase,
                k: kk,
                set,
            } if kk == k && slot_count(pbase).is_some() => {
                let base = slot_count(pbase).unwrap();
                let (vb, vp) = (state.val(base), state.val(pbase));
                let (db, dp) = (state.rel(vb, ring), state.rel(vp, ring));
                // The parity's count may be another one on the same slot:
                // `x - m·K` (trial 79: the acquire `slot = c mod K`,
                // parity of `c - K`, before re-arming slot c's).
                let same_slot = match (db.as_exact(), dp.as_exact()) {
                    (Some(b), Some(p)) => (p - b).rem_euclid(k) == 0,
                    _ => false,
                };
                (db != Itv::TOP && (base == pbase || same_slot)).then(|| {
                    if set {
                        dp
                    } else {
                        dp.shift(k)
                    }
                })
            }
            _ => None,
        };
        let mut name_number = None;
        let name = match (parity.shape, symbolic) {
            (
                Shape::Bit {
                    base: pbase,
                    set: true,
                    ..
                },
                Some(_),
            ) if slot_count(pbase) == Some(pbase) => Some(GroupName::Value(ring, pbase)),
            _ => match (r.n.as_exact(), symbolic) {
                (Some(n), Some(d)) => d.as_exact().map(|d| GroupName::Number(ring, n - d)),
                _ => None,
            },
        };
        if let Some(s) = slot.range.as_exact().filter(|s| !(0..k).contains(s)) {
            self.error(
                op,
                &format!("waits on slot {s}, outside its ring of {k} slots"),
            );
            return self.unproved(op);
        }
        let constants = (
            self.constant_slot(state, slot, k),
            constant_parity,
            r.counts(),
        );
        // A CUTLASS-style (index, phase) pair (`pipe`): the offsets both
        // masks share.
        let pipelined = state.masks(slot, ring).index & state.masks(parity, ring).phase;
        let distance: Option<Itv> = match (symbolic, constants) {
            (Some(d), _) => Some(d),
            (None, (Some(s), Some(p), Some(ns))) if ns.len() == 1 => {
                let g = latest_group(ns[0], s, p, k);
                name_number = Some(GroupName::Number(ring, g));
                Some(Itv::exact(ns[0] - g))
            }
            (None, (Some(s), Some(p), Some(ns))) => ns
                .iter()
                .map(|n| Itv::exact(n - latest_group(*n, s, p, k)))
                .reduce(Itv::join),
            _ if pipelined != 0 => {
                let d = pipe::offsets(pipelined, k)
                    .map(|e| Itv::exact(pipe::distance(e, k)))
                    .reduce(Itv::join);
                if let (Some(n), Some(d)) = (r.n.as_exact(), d.and_then(Itv::as_exact)) {
                    name_number = Some(GroupName::Number(ring, n - d));
                }
                d
            }
            // The count known mod 2K: the distance of the latest group of
            // that slot and parity depends on `n mod 2K` only.
            (None, (Some(s), Some(p), None)) => match r.representatives(0) {
                Some(ns) => ns
                    .into_iter()
                    .map(|n| Itv::exact(n - latest_group(n, s, p, k)))
                    .reduce(Itv::join),
                None => {
                    self.error(op, &format!("waits on a constant slot and parity, but the number of earlier arrives on its ring ({}) is not known here", r.n.show()));
                    return self.unproved(op);
                }
            },
            // A constant slot s and the parity of a count `x` (exact `δ`)
            // known mod K: the group named is `x - x mod K + s`, in x's
            // phase (`!= 0`) or the phase before (`== 0`).
            (None, (Some(s), None, _))
                if matches!(parity.shape, Shape::Bit { base, k: kk, .. } if kk == k && {
                    let x = state.val(base);
                    let d = state.rel(x, ring);
                    d.as_exact().is_some() && r.count_mod(d, k).is_some()
                }) =>
            {
                let Shape::Bit { base, set, .. } = parity.shape else {
                    unreachable!()
                };
                let d = state.rel(state.val(base), ring);
                let x = r.count_mod(d, k).unwrap();
                let within = d.shift(x - s.rem_euclid(k));
                Some(if set { within } else { within.shift(k) })
            }
            _ => None,
        };
        let distance = distance.or_else(|| split_on_slot(state, ring, slot, parity));
        // A slot's phases differ to the hardware by parity only: a group
        // `2K·j + e` back (1 <= e <= 2K, on every path) has the slot and
        // parity of the group `e` back, so the wait is one on that group
        // (for e <= K it waits for a newer group than it names, which is
        // enough; trial 78: such waits were reported as deadlocks).
        let mut aliased = String::new();
        let (distance, name) = match distance {
            Some(d)
                if d.lo > 2 * k && d.hi < INF && (d.lo - 1) / (2 * k) == (d.hi - 1) / (2 * k) =>
            {
                let e = d.shift(-2 * k * ((d.lo - 1) / (2 * k)));
                name_number =
                    r.n.as_exact()
                        .zip(e.as_exact())
                        .map(|(n, e)| GroupName::Number(ring, n - e));
                aliased = format!(" (its count names the group {} groups old, which has the same slot and parity: a slot's phases differ by parity only)", d.show());
                // A name by value names the older group, complete too.
                (Some(e), name.filter(|n| matches!(n, GroupName::Value(..))))
            }
            d => (d, name),
        };
        self.name(op, name.or(name_number));
        let Some(d) = distance else {
            let negative = |v: &Val| match v.shape {
                Shape::Rem { base, k: kk } | Shape::Div { base, k: kk } => {
                    kk == k && !unsigned_is_floor(state, state.val(base), k)
                }
                _ => false,
            };
            if negative(slot) || parity_not_floor {
                self.error(op, &format!("waits on a slot or parity of a count that may be negative on some path: `arith.remui` and `arith.divui` read it as 2^64 + x, which names another slot or phase unless K ({k}) is a power of two; guard the wait so that the count is at least 0"));
                return self.unproved(op);
            }
            self.error(op, &format!("waits on a slot and parity that apipe-check-hazards cannot relate to its ring's arrivals: expected slot {} and parity {} (or `== 0`, the phase before) of one count x of the ring, constants, or a CUTLASS-style (index, phase) pair advanced once per arrive (`index + 1 == {k} ? 0 : index + 1`, the phase flipped on the wrap)", slot_form(k, "x"), parity_form(k, "x")));
            return self.unproved(op);
        };
        if state.rings[&ring].skew.hits(d, k) {
            let by = state.rings[&ring].skew.by.and_then(|key| {
                ops::nested_ops(&self.function)
                    .into_iter()
                    .find(|o| op_key(o) == key)
                    .map(|o| apipe_dialect::location::describe(o.location()))
            });
            let by = by.map_or_else(String::new, |at| format!(" (at {at})"));
            self.error(op, &format!("waits on a slot that an earlier arrive skipped: that arrive's slot was ahead of its ring's next one{by} (the count it was given ran ahead of the ring's arrives), so on some path this slot has completed one phase fewer than its ring's count says and the parity names another phase; the group it names is {} groups old on its ring of {k} slots", d.show()));
            return self.unproved(op);
        }
        if d.lo < 1 {
            // `d = n - g` is at most 0: the ring's arrives reach the named
            // group `1 - d` arrives later (trial 88: "-4 groups old").
            let ahead = 1i64.saturating_sub(d.lo);
            let ahead = match (d.lo, d.hi) {
                (lo, _) if lo <= -INF => "an unknown number of".to_string(),
                (lo, hi) if lo == hi => format!("{ahead}"),
                _ => format!("up to {ahead}"),
            };
            self.error(op, &format!("can deadlock: on some path the phase it waits for is not armed yet: the group it names is {ahead} arrive(s) of its ring ahead of the ring's count there (its arrive comes after the wait)"));
            return self.unproved(op);
        }
        if d.hi > k {
            let newer = d.shift(-k);
            let done = state.rings[&ring].done;
            // The slot's latest group is complete on every path, or on some
            // path it does not exist (its phase before phase 0 counts as
            // complete): the slot's current phase has the parity waited
            // for, and no arrive before the wait completes it.
            let complete = done <= newer.lo || r.n.lo < newer.hi;
            if d.lo <= k || d.hi > 2 * k || complete {
                if d.lo > k && d.hi <= 2 * k {
                    self.error(op, &format!("can deadlock: on some path the group it names is {} groups old on its ring of {k} slots, and the slot's latest group ({} groups old) is complete there or not armed yet, so the slot's current phase has the parity it waits for and completes only with an arrive that comes after this wait (phase bit out of step){aliased}", d.show(), newer.show()));
                } else {
                    self.error(op, &format!("can deadlock: on some path the group it names is {} groups old on its ring of {k} slots, so its slot was armed again since and the parity names a later phase (phase bit out of step); guard the wait with `count - x <= {k}`{aliased}", d.show()));
                }
                return self.unproved(op);
            }
            // The parity names the phase the slot completed before its
            // latest group armed it again: on hardware the wait returns at
            // once while that group is in flight. It completes the named
            // group (and older ones) only, so the walk reports each read of
            // the newer group's data as a read-after-write race.
            self.soft_error(op, &format!("waits for a phase that has already completed: its parity names the group {} groups old on its ring of {k} slots, and the slot was armed again since by a group {} groups old that this wait does not wait for, so it returns at once while that group's copies are in flight (reads of their data race with them; were they to land first, it would block on a phase no arrive arms); wait with the other parity{aliased}", d.show(), newer.show()));
        }
        // After an in-order ring reused a slot early (step 3), the slot's
        // previous group (`δ_g + K` back) may still be in flight: its
        // phase is then the current one, of the other parity, and the
        // wait returns at once. It proves nothing; the walk reports the
        // reads it leaves exposed.
        if r.reused && r.done > d.lo + k && r.n.hi >= d.lo + k {
            if self.quiet == 0 {
                self.facts.early.insert(op_key(op));
            }
            self.name(op, None);
            return self.unproved(op);
        }
        let single = state.rings.len() == 1;
        let rs = state.rings.get_mut(&ring).unwrap();
        rs.done = rs.done.min(d.hi);
        // One ring: every group is a group of it, so the groups committed
        // after g are `δ_g - 1` on each path. Several: the most over
        // `hist` (which does not follow which path gave which δ; beyond
        // K + 1 groups back, unknown).
        let mut pending: Option<i64> = Some(-1);
        if single {
            pending = Some(d.hi - 1);
        } else {
            for age in d.lo..=d.hi {
                let h = rs.hist.get((age - 1) as usize).copied().unwrap_or(Itv::TOP);
                pending = match pending {
                    Some(p) if h.hi < INF && h.lo > -INF => Some(p.max(h.hi)),
                    _ => None,
                };
                if pending.is_none() {
                    break;
                }
            }
        }
        if let Some(p) = pending {
            self.complete_earlier_groups(state, ring, p);
        }
        // Several rings: the same from what is known complete on every
        // ring, sharper when the named group's followers vary over the
        // paths (a ring whose prologue arrives apart from the other ring's:
        // fewer groups follow it in the first iteration than later). One
        // ring: `d.hi - 1` is exact already.
        let pending = match (
            pending,
            (!single).then(|| pending_after_done(state)).flatten(),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.record(op, pending);
    }

    /// Step 4 across rings: a wait on `ring` that completes every copy with
    /// more than `pending` groups committed after it completed the phase
    /// of a group whose arrival came after every earlier arrival of the
    /// thread, on any ring. With in-order rings only ([`Ring::in_order`]:
    /// one thread, whose arrivals count in the order of its arrives, as
    /// docs/mbarrier.md states), each such earlier arrival has counted: on
    /// every other ring, the groups with more than `pending` groups
    /// committed after them on every path are complete.
    pub(super) fn complete_earlier_groups(&self, state: &mut State, ring: usize, pending: i64) {
        if !self.rings.values().all(|r| r.in_order) {
            return;
        }
        for (key, rs) in state.rings.iter_mut() {
            if *key == ring {
                continue;
            }
            // Older groups have more groups committed after them: scan from
            // the oldest the history keeps.
            let mut oldest_pending = None;
            for d in (1..=rs.hist.len()).rev() {
                if rs.hist[d - 1].lo > pending {
                    oldest_pending = Some(d as i64);
                } else {
                    break;
                }
            }
            if let Some(d) = oldest_pending {
                rs.done = rs.done.min(d);
            }
        }
    }
}

/// Step 4 by cases: the distance of the group a wait names when its slot
/// is that of a count (moved or not, [`Val::slot_of`]) and its parity that
/// of another count `x` (`Shape::Bit`), both at exact distances: for each
/// value the ring's `n` may have (few, or one per residue `n mod 2K` may have), the
/// latest group of that slot and parity; their join. `None` when `n` is
/// not known well enough or a count may be negative.
pub(super) fn split_on_slot(state: &State, ring: usize, slot: &Val, parity: &Val) -> Option<Itv> {
    let r = state.rings.get(&ring)?;
    let k = r.slots;
    let &(ds, 0) = slot.slot_of.get(&ring)? else {
        return None;
    };
    let Shape::Bit { base, k: kk, set } = parity.shape else {
        return None;
    };
    let dp = state.rel(state.val(base), ring).as_exact()?;
    if kk != k || r.n.lo.saturating_sub(ds.max(dp)) < 0 {
        return None;
    }
    // The slot of the parity's count x (`((x mod K) + 0) mod K`, `(x + K)
    // mod K`: counts that differ by a multiple of K share their slot):
    // group x in its own phase, or the phase before, whatever `n` is.
    if (ds - dp).rem_euclid(k) == 0 {
        let d = Itv::exact(dp);
        return Some(if set { d } else { d.shift(k) });
    }
    // Else a representative count per residue, larger than both
    // distances.
    let counts = r.counts().or_else(|| r.representatives(ds.max(dp)))?;
    counts
        .into_iter()
        .map(|n| {
            let s = (n - ds).rem_euclid(k);
            let p = (((n - dp).div_euclid(k).rem_euclid(2) == 1) == set) as i64;
            Itv::exact(n - latest_group(n, s, p, k))
        })
        .reduce(Itv::join)
}

/// How a slot `x mod K` of the count `x` is written, for messages.
pub(super) fn slot_form(k: i64, x: &str) -> String {
    if k & (k - 1) == 0 {
        format!("`{x} & {}`", k - 1)
    } else {
        format!("`{x} mod {k}` (`arith.remui`)")
    }
}

/// How the parity of the phase of the count `x` is written, for messages.
pub(super) fn parity_form(k: i64, x: &str) -> String {
    if k & (k - 1) == 0 {
        format!("`({x} & {k}) != 0`")
    } else {
        format!("`(({x} div {k}) & 1) != 0`")
    }
}

/// Every value of `n` when there are few (at most 4K, and 4096), else
/// `None`.
pub(super) fn enumerate(n: Itv, k: i64) -> Option<Vec<i64>> {
    // At most 4K values, and never more than 4096 whatever K is.
    let most = k.saturating_mul(4).min(4096);
    (n.hi < INF && n.lo > -INF && n.hi - n.lo <= most).then(|| (n.lo..=n.hi).collect())
}

/// The latest group g < n (possibly negative: a phase before phase 0) of
/// slot s whose phase `g div K` has parity p (step 4).
pub(super) fn latest_group(n: i64, s: i64, p: i64, k: i64) -> i64 {
    // The latest group of slot s is at most K - 1 back; if its phase has
    // the other parity, the one K before it (one phase earlier) has p. In
    // O(1): a loop back over up to 2K groups took seconds for a ring of
    // 2^31 slots (fuzz smoke, seed 1).
    let n = i128::from(n);
    let (s, p, k) = (i128::from(s), i128::from(p), i128::from(k));
    let slot = n - 1 - (n - 1 - s).rem_euclid(k);
    let g = if slot.div_euclid(k).rem_euclid(2) == p.rem_euclid(2) {
        slot
    } else {
        slot - k
    };
    i64::try_from(g).unwrap_or(i64::MIN)
}

#[cfg(test)]
mod tests {
    use super::latest_group;

    /// The closed form against the definition: the latest g < n of slot s
    /// whose phase `g div K` has parity p.
    #[test]
    fn latest_group_is_the_latest_of_its_slot_and_parity() {
        for k in 1..=5i64 {
            for n in -12..=30i64 {
                for s in 0..k {
                    for p in 0..2 {
                        let expected = (n - 2 * k - 2..n)
                            .rev()
                            .find(|g| g.rem_euclid(k) == s && g.div_euclid(k).rem_euclid(2) == p)
                            .unwrap();
                        assert_eq!(
                            latest_group(n, s, p, k),
                            expected,
                            "n {n} s {s} p {p} k {k}"
                        );
                    }
                }
            }
        }
        // A ring of 2^31 slots: at once, not 2^32 steps back.
        let k = 1i64 << 31;
        assert_eq!(latest_group(3, 1, 1, k), 1 - k);
    }
}

/// The least `pending` that the groups known complete allow (step 4): a
/// copy completes when more than `pending` groups (of any ring) were
/// committed after its own group, so `pending` must be at least 1 more
/// than the followers of every group not known complete. On each ring the
/// oldest such group is the one at ring distance `done - 1` (every group at
/// distance `>= done` is complete), and older groups have more followers:
/// `pending = 1 + max over rings of hist[done - 2].hi`, and at least 0: a
/// copy that no arrive has closed yet (count 0) is in no phase. `None` where a ring's oldest such group is beyond its
/// history or its followers are unbounded.
fn pending_after_done(state: &State) -> Option<i64> {
    let mut most = 0;
    for (_, r) in state.rings.iter() {
        if r.done >= INF {
            return None;
        }
        if r.done <= 1 {
            continue;
        }
        let followers = *r.hist.get((r.done - 2) as usize)?;
        // `[INF, INF]`: no such group on any path.
        if followers.lo >= INF {
            continue;
        }
        if followers.hi >= INF || followers.lo <= -INF {
            return None;
        }
        most = most.max(followers.hi + 1);
    }
    Some(most)
}
