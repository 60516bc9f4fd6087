//! Step 2 for `arith` ops: the range, ring distances, shape and slot of each
//! `index`/`i1` value, and the helpers that read counts modulo the ring.

use super::*;

impl<'c: 'a, 'a> Analysis<'c, 'a> {
    /// Step 2: `arith.addi`, `subi`, `andi`, `cmpi`, `select`, `xori`,
    /// `remui`, `divui`.
    pub(super) fn arith(&self, op: &OperationRef<'c, 'a>, name: &str, state: &State) -> Val {
        if name == "arith.select" {
            let [c, a, b] = [0, 1, 2].map(|i| op.operand_at(i).map(|v| self.get(state, v)));
            let (Some(c), Some(a), Some(b)) = (c, a, b) else {
                return Val::top();
            };
            let range = match c.range.as_exact() {
                Some(0) => b.range,
                Some(_) => a.range,
                None => a.range.join(b.range),
            };
            return Val {
                range,
                ..Val::top()
            };
        }
        let (Ok(a), Ok(b)) = (op.operand(0), op.operand(1)) else {
            return Val::top();
        };
        let (va, vb) = (self.get(state, a), self.get(state, b));
        let (ka, kb) = (va.range.as_exact(), vb.range.as_exact());
        match name {
            "arith.addi" => {
                let mut v = Val {
                    range: va.range.add(vb.range),
                    ..Val::top()
                };
                if let Some(k) = kb {
                    v.rel = rels(state, va, -k);
                    v.slot_of = moved(&va.slot_of, k);
                } else if let Some(k) = ka {
                    v.rel = rels(state, vb, -k);
                    v.slot_of = moved(&vb.slot_of, k);
                }
                v
            }
            "arith.subi" => {
                let mut v = Val {
                    range: va.range.add(vb.range.neg()),
                    shape: Shape::Diff {
                        a: value_key(a),
                        b: value_key(b),
                    },
                    ..Val::top()
                };
                if let Some(k) = kb {
                    v.rel = rels(state, va, k);
                }
                // a - b = δ_b - δ_a for counts of one ring.
                for r in state.rings.keys() {
                    let (da, db) = (state.rel(va, *r), state.rel(vb, *r));
                    if da != Itv::TOP && db != Itv::TOP {
                        if let Some(m) = v.range.meet(db.add(da.neg())) {
                            v.range = m;
                        }
                    }
                }
                v
            }
            "arith.xori" => Val {
                range: match (ka, kb) {
                    (Some(x), Some(y)) => Itv::exact(x ^ y),
                    _ if is_i1(a) => Itv { lo: 0, hi: 1 },
                    _ => Itv::TOP,
                },
                ..Val::top()
            },
            "arith.remui" | "arith.divui" => {
                let Some(k) = kb.filter(|k| *k > 0) else {
                    return Val::top();
                };
                let rem = name == "arith.remui";
                // A count known mod k: its remainder (step 2).
                let known = (rem && ka.is_none())
                    .then(|| count_residue(state, va, k, true))
                    .flatten();
                Val {
                    slot_of: if rem {
                        slots_of_count(state, va, k, true)
                    } else {
                        RingMap::new()
                    },
                    range: match ka {
                        Some(x) if x >= 0 && rem => Itv::exact(x % k),
                        Some(x) if x >= 0 => Itv::exact(x / k),
                        _ if known.is_some() => Itv::exact(known.unwrap()),
                        _ if rem => Itv { lo: 0, hi: k - 1 },
                        _ => Itv::TOP,
                    },
                    shape: if rem {
                        Shape::Rem {
                            base: value_key(a),
                            k,
                        }
                    } else {
                        Shape::Div {
                            base: value_key(a),
                            k,
                        }
                    },
                    ..Val::top()
                }
            }
            "arith.andi" => {
                let (base, mask, vbase) = match (ka, kb) {
                    (_, Some(m)) => (a, m, &va),
                    (Some(m), None) => (b, m, &vb),
                    _ => return Val::top(),
                };
                Val {
                    slot_of: if mask > 0 && (mask + 1) & mask == 0 {
                        slots_of_count(state, vbase, mask + 1, false)
                    } else {
                        RingMap::new()
                    },
                    range: match vbase.range.as_exact() {
                        Some(x) => Itv::exact(x & mask),
                        None if mask >= 0 => match masked_count(state, vbase, mask) {
                            Some(x) => Itv::exact(x),
                            None => Itv { lo: 0, hi: mask },
                        },
                        None => Itv::TOP,
                    },
                    shape: Shape::And {
                        base: value_key(base),
                        mask,
                    },
                    ..Val::top()
                }
            }
            "arith.cmpi" => {
                let predicate = attributes::integer(op, "predicate").unwrap_or(-1);
                // eq 0, ne 1, ult 6, ule 7, ugt 8, uge 9 (arith::CmpIPredicate).
                let shape = match (predicate, va.shape, kb) {
                    // `((x div k) & 1) != 0`: the parity of x's phase for
                    // any k.
                    // `arith.divui` of a count that may be negative divides
                    // `2^64 + x`: another parity unless k is a power of two.
                    // The wait that reads the parity checks that x is a
                    // floor there (a guard around it may prove x >= 0).
                    (0 | 1, Shape::And { base, mask: 1 }, Some(0))
                        if matches!(state.val(base).shape, Shape::Div { .. }) =>
                    {
                        let Shape::Div { base, k } = state.val(base).shape else {
                            unreachable!()
                        };
                        Shape::Bit {
                            base,
                            k,
                            set: predicate == 1,
                        }
                    }
                    (0 | 1, Shape::And { base, mask }, Some(0))
                        if mask > 0 && mask & (mask - 1) == 0 =>
                    {
                        Shape::Bit {
                            base,
                            k: mask,
                            set: predicate == 1,
                        }
                    }
                    (6 | 7, shape, Some(c)) if c >= 1 || predicate == 7 && c >= 0 => {
                        let bound = if predicate == 7 { c } else { c - 1 };
                        match shape {
                            Shape::Diff { a, b } => Shape::Le {
                                a,
                                b: Some(b),
                                bound,
                            },
                            _ => Shape::Le {
                                a: value_key(a),
                                b: None,
                                bound,
                            },
                        }
                    }
                    // `x >=u c` (`x >u c - 1`), `x >u c`: the else region
                    // of a guard `scf.if (c >=u K)` around an acquire.
                    (8 | 9, _, Some(c)) if c >= 1 || predicate == 8 && c >= 0 => Shape::Gt {
                        a: value_key(a),
                        bound: if predicate == 9 { c - 1 } else { c },
                    },
                    _ => Shape::None,
                };
                let range = match (ka, kb) {
                    (Some(x), Some(y)) => match predicate {
                        0 => Itv::exact((x == y) as i64),
                        1 => Itv::exact((x != y) as i64),
                        2 => Itv::exact((x < y) as i64),
                        3 => Itv::exact((x <= y) as i64),
                        4 => Itv::exact((x > y) as i64),
                        5 => Itv::exact((x >= y) as i64),
                        6 => Itv::exact(((x as u64) < (y as u64)) as i64),
                        7 => Itv::exact(((x as u64) <= (y as u64)) as i64),
                        8 => Itv::exact(((x as u64) > (y as u64)) as i64),
                        9 => Itv::exact(((x as u64) >= (y as u64)) as i64),
                        _ => Itv { lo: 0, hi: 1 },
                    },
                    _ => Itv { lo: 0, hi: 1 },
                };
                Val {
                    range,
                    shape,
                    ..Val::top()
                }
            }
            _ => Val::top(),
        }
    }

    /// The pipeline-state masks of the result of `op` (`pipe`, step 2): the
    /// op's step as the access module names it ([`slot::step`]), on the
    /// masks of its operands.
    pub(super) fn pipe(&self, op: &OperationRef<'c, 'a>, state: &State) -> RingMap<Masks> {
        let operands: Vec<&Val> = op.operands().map(|v| self.get(state, v)).collect();
        let constants: Vec<Option<i64>> = operands.iter().map(|v| v.range.as_exact()).collect();
        let Some(step) = slot::step(op, &constants) else {
            return RingMap::new();
        };
        state.pipe_map(|r, k| {
            let m = |i: usize| {
                operands
                    .get(i)
                    .map_or_else(Masks::default, |v| state.masks(v, r))
            };
            let next = |mask: u128| pipe::rotate(mask, k, -1);
            let mut out = Masks::default();
            match step {
                // index + 1.
                Step::Increment { x } => out.inc = m(x).index,
                Step::Compare { x, c, equal } => {
                    if equal && c == k {
                        out.wrap |= m(x).inc;
                    }
                    if equal && c == k - 1 {
                        out.wrap |= m(x).index;
                    }
                    if c == 0 {
                        // phase != 0 is the phase; == 0 the other parity.
                        out.phase = if equal {
                            pipe::rotate(m(x).phase, k, k)
                        } else {
                            m(x).phase
                        };
                    }
                }
                Step::Select { zero } => {
                    let (w, a, b) = (m(0), m(1), m(2));
                    // select(wrap, 0, index + 1): the index of x + 1.
                    if zero == Some(1) {
                        out.index = next(w.wrap & b.inc);
                    }
                    // select(wrap, phase ^ 1, phase): the phase of x + 1.
                    out.phase = next(w.wrap & b.phase & pipe::rotate(a.phase, k, k));
                }
                Step::Flip { x } => out.phase = pipe::rotate(m(x).phase, k, k),
                // phase ^ wrap: the phase of x + 1.
                Step::Xor => {
                    let (a, b) = (m(0), m(1));
                    out.phase = next(a.phase & b.wrap) | next(b.phase & a.wrap);
                }
                // (index + 1) mod K: the index of x + 1.
                Step::Remainder { c } if c == k => {
                    out.index = next(m(0).inc) | m(0).index;
                }
                Step::Remainder { .. } => {}
            }
            out
        })
    }
}

/// `δ_r + shift` of `v` for every ring r it relates to (recorded, or from
/// its range).
pub(super) fn rels(state: &State, v: &Val, shift: i64) -> RingMap<Itv> {
    state
        .rings
        .keys()
        .filter_map(|r| {
            let d = state.rel(v, *r);
            (d != Itv::TOP).then(|| (*r, d.shift(shift)))
        })
        .collect()
}

/// `x mod m` of a count `x` of some ring (a value `n - δ` with exact
/// `δ`) whose `n` is known mod a multiple of `m` ([`RingState::residue`]);
/// `unsigned`: only where `x >= 0` on every path (`arith.remui`).
pub(super) fn count_residue(state: &State, x: &Val, m: i64, unsigned: bool) -> Option<i64> {
    if unsigned && !nonnegative(state, x) {
        return None;
    }
    state
        .rings
        .iter()
        .find_map(|(key, ring)| ring.count_mod(state.rel(x, *key), m))
}

/// [`Val::slot_of`] of `x mod k`, per ring of `k` slots: `x` a count of a ring of K = `k` slots
/// (exact `δ`; `unsigned`, for `arith.remui`: `x >= 0` on every path or
/// `k` a power of two, which divides `2^64`), or
/// `x = (y mod k) + c` with `0 <= c < k` (a slot moved by `c`: that of the
/// count `y + c`).
pub(super) fn slots_of_count(
    state: &State,
    x: &Val,
    k: i64,
    unsigned: bool,
) -> RingMap<(i64, i64)> {
    state
        .rings
        .iter()
        .filter(|(_, r)| r.slots == k)
        .filter_map(|(key, _)| {
            if let Some(&(d, c)) = x.slot_of.get(key) {
                return (0..k).contains(&c).then_some((*key, (d - c, 0)));
            }
            let d = state.rel(x, *key).as_exact()?;
            (!unsigned || unsigned_is_floor(state, x, k)).then_some((*key, (d, 0)))
        })
        .collect()
}

/// [`Val::slot_of`] plus the constant `c`.
pub(super) fn moved(slots: &RingMap<(i64, i64)>, c: i64) -> RingMap<(i64, i64)> {
    slots
        .iter()
        .filter_map(|(r, &(d, old))| Some((*r, (d, old.checked_add(c)?))))
        .collect()
}

/// `x & mask` (`mask >= 0`) of a count `x` known modulo a power of two
/// above `mask` ([`count_residue`]; two's complement, so any sign), or of
/// `x div k` with `mask = 1`: `(x mod 2k) div k` for `x >= 0`.
pub(super) fn masked_count(state: &State, x: &Val, mask: i64) -> Option<i64> {
    let m = (mask as u64).checked_add(1)?.checked_next_power_of_two()?;
    let m = i64::try_from(m).ok()?;
    if let Some(r) = count_residue(state, x, m, false) {
        return Some(r & mask);
    }
    match x.shape {
        Shape::Div { base, k } if mask == 1 && k > 0 && k < INF / 2 => {
            count_residue(state, state.val(base), 2 * k, true).map(|r| r / k)
        }
        _ => None,
    }
}

/// The count x of a slot operand `x mod K`: `x & (K - 1)` for a power of
/// two K, `arith.remui x, K` for any K.
pub(super) fn slot_base(state: &State, slot: &Val, k: i64) -> Option<usize> {
    match slot.shape {
        Shape::And { base, mask } if mask == k - 1 && k & (k - 1) == 0 => Some(base),
        // `arith.remui` of a count that may be negative is the remainder
        // of `2^64 + x`, another slot unless K is a power of two.
        Shape::Rem { base, k: kk } if kk == k && unsigned_is_floor(state, state.val(base), k) => {
            Some(base)
        }
        _ => None,
    }
}

/// True if the value `v` is `>= 0` on every path: by its range, or as a
/// count `n - δ` of a ring whose `n` is at least `δ`, or, for a value that
/// is `>= 0` or `<= -g` ([`Val::gap`]), a count `n - δ > -g`.
pub(super) fn nonnegative(state: &State, v: &Val) -> bool {
    v.range.lo >= 0
        || state.rings.iter().any(|(key, r)| {
            let d = state.rel(v, *key);
            let least = r.n.lo.saturating_sub(d.hi);
            d.hi < INF && (least >= 0 || v.gap > 0 && least > v.gap.saturating_neg())
        })
}

/// True if `arith.remui x, k` and `arith.divui x, k` (`k > 0`) of the
/// value `x` are its floor remainder and quotient on every path: `k` is a
/// power of two (`2^64` is a multiple of it), or `x >= 0`.
pub(super) fn unsigned_is_floor(state: &State, x: &Val, k: i64) -> bool {
    k & (k - 1) == 0 || nonnegative(state, x)
}

/// `arith.remui x, k` (`k > 0`): the remainder of `x` read as unsigned
/// (`2^64 + x` for a negative x).
pub(super) fn remu(x: i64, k: i64) -> i64 {
    ((x as u64) % (k as u64)) as i64
}

/// `arith.divui x, k` (`k > 0`), `x` read as unsigned.
pub(super) fn divu(x: i64, k: i64) -> i64 {
    ((x as u64) / (k as u64)) as i64
}
