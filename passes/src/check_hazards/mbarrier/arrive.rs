//! Step 3: `apipe.mbarrier_arrive_copies`, `apipe.bulk_copy` and
//! `apipe.mbarrier_expect_tx` (the slot an arrive must hit, a slot skipped
//! ahead, the transaction bytes of the next phase).

use super::*;

impl<'c: 'a, 'a> Analysis<'c, 'a> {
    /// Step 3.
    pub(super) fn arrive(&mut self, op: &OperationRef<'c, 'a>, state: &mut State) {
        let ring = value_key(op.operand(0).unwrap());
        let Some(&Ring { slots: k, in_order }) = self.rings.get(&ring) else {
            return;
        };
        // An arrive `j` slots ahead of the ring's next one: `j` skipped
        // groups first (`Skew`).
        if let Some(j) = self.skipped(op, state, ring) {
            for _ in 0..j {
                state.arrive(ring);
                let skew = &mut state.rings.get_mut(&ring).unwrap().skew;
                skew.insert(1 % k);
                skew.by = Some(op_key(op));
            }
        }
        let r = state.rings[&ring].clone();
        if self.quiet == 0 {
            // The group's number, if this arrive arms the same one on every
            // visit (a loop followed iteration by iteration visits it once
            // per iteration, each with another number): `Facts::index`
            // arms it then.
            let number = r.n.as_exact();
            let known = self.facts.numbers.entry(op_key(op)).or_insert(number);
            if *known != number {
                *known = None;
            }
            self.facts.arrive_rings.insert(op_key(op), ring);
            // The values equal to the count here: the group's number.
            let mut now: Vec<usize> = state
                .vals
                .iter()
                .filter(|(_, v)| state.rel(v, ring).as_exact() == Some(0))
                .map(|(k, _)| *k)
                .collect();
            now.sort_unstable();
            match self.facts.counts.get_mut(&op_key(op)) {
                Some(old) => old.retain(|k| now.contains(k)),
                None => {
                    self.facts.counts.insert(op_key(op), now);
                }
            }
        }
        let base = self.next_slot(op, state, ring, 1, ("arrives on", "it arms group"));
        if let Some(Some(base)) = base {
            self.arm(GroupName::Value(ring, base), op);
        }
        // The slot's previous group exists once K groups were armed.
        if base.is_some() && r.done > k && r.n.hi >= k {
            // The walk still runs (it names the reads this exposes), but
            // without the ring's reuse proof (`guard_value`).
            self.facts.reuse_unproved = true;
            if in_order {
                // One thread's arrivals count in order (each triggers once
                // every earlier copy of the thread landed, PTX ISA
                // 9.7.9.25.3), so the previous group's arrival completes
                // the slot's previous phase first: no error. Only a wait
                // on this group before that phase completes returns at
                // once (step 4).
                state.rings.get_mut(&ring).unwrap().reused = true;
            } else {
                self.error_then_walk(
                    op,
                    &format!(
                        "reuses its slot too early: on some path the slot's previous group ({k} groups back) may not be complete in this thread, so its arrival would count on the previous phase; wait for that group before this arrive"
                    ),
                );
            }
        }
        // Step 3: the bytes this thread expected on the group are the bytes
        // its bulk copies complete there.
        if r.tx != Itv::exact(0) {
            self.error(op, &format!("arrives on a group whose transaction bytes do not balance in this thread: on some path the bytes expected (apipe.mbarrier_expect_tx) minus those its bulk copies complete on the slot are {}, so the phase completes early or never", r.tx.show()));
        }
        state.rings.get_mut(&ring).unwrap().tx = Itv::exact(0);
        state.arrive(ring);
    }

    /// Step 3 for `apipe.bulk_copy` and `apipe.mbarrier_expect_tx`: on the
    /// slot of the ring's next group, whose previous phase is complete;
    /// then the bytes expected (+) or completed (-) on it.
    pub(super) fn transaction(&mut self, op: &OperationRef<'c, 'a>, state: &mut State) {
        let bulk = ops::is(op, ops::BULK_COPY);
        let Some(ring) = ring_operand(op).map(value_key) else {
            return;
        };
        let Some(&Ring { slots: k, .. }) = self.rings.get(&ring) else {
            return;
        };
        let (slot, words) = if bulk {
            (3, ("completes its bytes on", "its bytes count on group"))
        } else {
            (1, ("expects bytes on", "its bytes count on group"))
        };
        let ok = self.next_slot(op, state, ring, slot, words).is_some();
        if ok && state.rings[&ring].done > k {
            self.error(
                op,
                &format!(
                    "uses its slot too early: on some path the slot's previous group ({k} groups back) may not be complete in this thread, so its bytes would count on the previous phase; wait for that group first"
                ),
            );
        }
        let bytes = if bulk {
            transfer_bytes(op).map(|b| -b)
        } else {
            attributes::integer(op, "bytes")
        };
        let r = state.rings.get_mut(&ring).unwrap();
        r.tx = match bytes {
            Some(b) => r.tx.shift(b),
            None => Itv::TOP,
        };
    }

    /// Step 3: `j` in `[1, min(K, 9))` when the slot of the arrive `op` is `(n + j)
    /// mod K` on every path, `n` being the ring's count: a constant slot
    /// and `n mod K` known, or the slot of a count `n - δ`
    /// ([`Val::slot_of`]) with `δ ≢ 0 (mod K)`. `None` when the slot is the
    /// next one or not known so.
    pub(super) fn skipped(
        &self,
        op: &OperationRef<'c, 'a>,
        state: &State,
        ring: usize,
    ) -> Option<i64> {
        let r = state.rings.get(&ring)?;
        let k = r.slots;
        let slot = self.get(state, op.operand(1).ok()?);
        if state.masks(slot, ring).index & 1 == 1 {
            return None;
        }
        let j = match (slot.slot_of.get(&ring), self.constant_slot(state, slot, k)) {
            (Some(&(d, 0)), _) => (-d).rem_euclid(k),
            (_, Some(s)) if (0..k).contains(&s) => {
                let ns = r.counts();
                let mut js: Vec<i64> = match ns {
                    Some(ns) if !ns.is_empty() => {
                        ns.iter().map(|n| (s - n).rem_euclid(k)).collect()
                    }
                    _ => r
                        .residues()?
                        .iter()
                        .map(|x| (s - x).rem_euclid(k))
                        .collect(),
                };
                js.sort_unstable();
                js.dedup();
                match js.as_slice() {
                    [j] => *j,
                    _ => return None,
                }
            }
            _ => return None,
        };
        // A few skipped groups (a dropped arrive or two), not a jump
        // across a large ring.
        (j > 0 && j <= Skew::MAX as i64).then_some(j)
    }

    /// Steps 3: whether the slot operand `slot` of `op` is the slot of the
    /// ring's next group (n mod K) on every path; `None` after an error,
    /// `Some(base)` with the count value it is `base mod K` of, if any.
    /// `words`: the op's verb ("arrives on") and its tie to the group ("it
    /// arms group").
    pub(super) fn next_slot(
        &mut self,
        op: &OperationRef<'c, 'a>,
        state: &State,
        ring: usize,
        slot: usize,
        words: (&str, &str),
    ) -> Option<Option<usize>> {
        let (verb, tie) = words;
        let k = self.rings[&ring].slots;
        let slot = self.get(state, op.operand(slot).unwrap());
        let r = &state.rings[&ring];
        // CUTLASS-style state: an index whose offset 0 holds (`pipe`).
        let pipelined = state.masks(slot, ring).index & 1 == 1;
        // `x mod K` of a count `x = n_r`: the op's group is group `x` (a
        // value that may carry it on).
        let count = slot_base(state, slot, k)
            .filter(|b| state.rel(state.val(*b), ring).as_exact() == Some(0));
        if pipelined || k == 1 && slot.range.as_exact() == Some(0) {
            // Slot n mod K on every path.
            return Some(count);
        }
        if let Some(s) = slot.range.as_exact().filter(|s| !(0..k).contains(s)) {
            self.error(
                op,
                &format!("{verb} slot {s}, outside its ring of {k} slots"),
            );
            return None;
        }
        if let Some(s) = self.constant_slot(state, slot, k) {
            match r.counts() {
                Some(ns) => {
                    if let Some(n) = ns.iter().find(|n| n.rem_euclid(k) != s) {
                        self.error(
                            op,
                            &format!(
                                "{verb} slot {s}, but on some path {tie} {n} of its ring, whose slot is {} (of {k}): the slot is out of step with the ring's arrivals",
                                n.rem_euclid(k)
                            ),
                        );
                        return None;
                    }
                    return Some(count);
                }
                None => match r.residue() {
                    // The count known mod K (or 2K): its slot.
                    Some((_, x)) if x.rem_euclid(k) == s => return Some(count),
                    Some((m, x)) => {
                        self.error(
                            op,
                            &format!(
                                "{verb} slot {s}, but on every path {tie} x of its ring with x mod {m} = {x}, whose slot is {} (of {k}): the slot is out of step with the ring's arrivals",
                                x.rem_euclid(k)
                            ),
                        );
                        return None;
                    }
                    None => {
                        self.error(op, &format!("{verb} the constant slot {s}, but the number of earlier arrives on its ring ({}) is not known here", r.n.show()));
                        return None;
                    }
                },
            }
        }
        // The slot of a count `n - δ` with `δ ≡ 0 (mod K)` (a slot moved
        // back to the ring's next one: `((x mod K) + 1) mod K` of `x = n - 1`).
        if slot
            .slot_of
            .get(&ring)
            .is_some_and(|&(d, c)| c == 0 && d.rem_euclid(k) == 0)
        {
            return Some(count);
        }
        if let Some(base) = slot_base(state, slot, k) {
            let d = state.rel(state.val(base), ring);
            if d.as_exact() == Some(0) {
                return Some(Some(base));
            }
            self.error(op, &format!("{verb} a slot that is not provably the ring's next slot (the number of earlier arrives on it, mod {k}): expected {} of the ring's count", slot_form(k, "count")));
            return None;
        }
        if matches!(slot.shape, Shape::And { .. } | Shape::Rem { .. }) {
            self.error(op, &format!("{verb} a slot that is not provably the ring's next slot (the number of earlier arrives on it, mod {k}): expected {} of the ring's count", slot_form(k, "count")));
        } else {
            self.error(op, &format!("{verb} a slot that apipe-check-hazards cannot relate to the ring's arrivals: expected a constant, {} of the ring's count, or a slot index advanced as `index + 1 == {k} ? 0 : index + 1` once per arrive", slot_form(k, "count")));
        }
        None
    }

    /// The value of a slot operand when it is a constant on every path
    /// (mod K).
    pub(super) fn constant_slot(&self, state: &State, slot: &Val, k: i64) -> Option<i64> {
        if let Some(s) = slot.range.as_exact() {
            return Some(s);
        }
        slot_base(state, slot, k)
            .and_then(|base| state.val(base).range.as_exact())
            .map(|x| remu(x, k))
    }
}

/// The bytes an `apipe.bulk_copy` moves: `elements` times the width of
/// the source's element type (whole bytes), if known.
pub(super) fn transfer_bytes(op: &OperationRef) -> Option<i64> {
    crate::cp_async::copy_bytes(op)
        .ok()
        .and_then(|b| i64::try_from(b).ok())
}
