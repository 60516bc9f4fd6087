//! Buffers chosen at run time: a memref that is a loop-carried value
//! (`scf.for` iter_args, `scf.while` arguments rotated through the
//! iterations), an `arith.select`, an `scf.if` / `scf.index_switch` /
//! `scf.execute_region` result. The region of an access to one is the
//! alternatives' regions, each under the condition that picks it, up to
//! [`MAX_ALTERNATIVES`]; past that, or for values made in the loop, the
//! whole buffer of every candidate.

use super::*;

/// The rotation through the loop-carried value `n` of the loop `l` (an
/// `scf.for` iter_arg, `n >= 1` its body argument; an `scf.while`
/// `before` argument, `n >= 0`): `x_0 = n`, `x_{j+1}` the carried value
/// that `x_j` becomes in the next iteration ([`next_carried`]), until
/// `x_{L-1}` becomes `x_0`; `None` if some `x_j` becomes anything else (or
/// the cycle does not come back to `x_0`, or is longer than
/// [`MAX_ALTERNATIVES`]).
pub(super) fn rotation(
    forms: &mut Forms,
    l: &melior::ir::OperationRef,
    n: usize,
) -> Option<Vec<usize>> {
    let mut cycle = vec![n];
    loop {
        let m = next_carried(forms, l, cycle[cycle.len() - 1])?;
        if m == n {
            return Some(cycle);
        }
        if cycle.contains(&m) || cycle.len() >= MAX_ALTERNATIVES {
            return None;
        }
        cycle.push(m);
    }
}

/// The carried value of `l` (see [`rotation`]) that carried value `x`
/// becomes in the next iteration: for an `scf.for`, the iter_arg its yield
/// passes, directly or as the result of an inner `scf.for` of a constant
/// trip count that rotates it (a ping-pong inside another loop); for an
/// `scf.while`, the `before` argument that the `after` region's yield
/// passes through its own argument (`scf.condition` forwards `before`
/// arguments to `after` arguments).
pub(super) fn next_carried(
    forms: &mut Forms,
    l: &melior::ir::OperationRef,
    x: usize,
) -> Option<usize> {
    if ops::is(l, "scf.while") {
        let before = l.region_at(0)?.first_block()?;
        let after = l.region_at(1)?.first_block()?;
        let (b, m) = block_argument(after.terminator()?.operand_at(x)?)?;
        if b != after {
            return None;
        }
        let (b, k) = block_argument(before.terminator()?.operand_at(m + 1)?)?;
        return (b == before).then_some(k);
    }
    let body = l.region_at(0)?.first_block()?;
    let yielded = body.terminator()?.operand_at(x.checked_sub(1)?)?;
    carried_source(forms, l, &body, yielded, 0)
}

/// The iter_arg of `l` (body `body`) that `value` is: the argument itself,
/// or the result `r` of an inner `scf.for` of a constant trip count `T`
/// whose rotation through `r` starts from that iter_arg after `T`
/// iterations.
pub(super) fn carried_source(
    forms: &mut Forms,
    l: &melior::ir::OperationRef,
    body: &melior::ir::BlockRef,
    value: Value,
    depth: usize,
) -> Option<usize> {
    if let Some((b, m)) = block_argument(value) {
        return (b == *body && m >= 1 && b.parent_operation().as_ref() == Some(l)).then_some(m);
    }
    let inner = defining_op(value)?;
    if depth >= 4 || !ops::is(&inner, "scf.for") {
        return None;
    }
    // SAFETY: `value` is a live result of `inner`.
    let r = unsafe { mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) } as usize;
    let trips = forms.trips(&inner).count.as_constant()?.max(0);
    let cycle = rotation(forms, &inner, r + 1)?;
    let start = cycle[usize::try_from(trips).ok()? % cycle.len()];
    carried_source(forms, l, body, inner.operand_at(3 + start - 1)?, depth + 1)
}

/// The buffers the carried value `n` of the loop `l` (see [`rotation`])
/// is after `count` iterations: the `k`-th buffer of the rotation's `L`
/// initial buffers where `count mod L = k` (and `when`); `Err` with the
/// region in the initial buffer when `L = 1` (carried unchanged).
#[allow(clippy::type_complexity)]
pub(super) fn rotated<'c: 'a, 'a>(
    forms: &mut Forms,
    l: &melior::ir::OperationRef<'c, 'a>,
    n: usize,
    count: Lin,
    when: &[Constraint],
    dims: &Option<Vec<Dim>>,
) -> Option<Result<Vec<(Value<'c, 'a>, Vec<Constraint>)>, Region>> {
    let cycle = rotation(forms, l, n)?;
    // An `scf.for`'s carried value `j` starts as its operand `3 + j - 1`
    // (after the bounds and step), an `scf.while`'s as operand `j`.
    let first = if ops::is(l, "scf.for") { 2 } else { 0 };
    let init = |j: usize| l.operand_at(first + j);
    if cycle.len() == 1 {
        return Some(Err(region_of(forms, init(n)?, dims.clone())));
    }
    let slot = Lin::modulo(count, cycle.len() as i64, Signedness::Euclidean);
    let mut out = Vec::with_capacity(cycle.len());
    for (k, &j) in cycle.iter().enumerate() {
        let mut chosen = when.to_vec();
        chosen.push(Constraint::Zero(slot.offset(-(k as i64))?));
        out.push((init(j)?, chosen));
    }
    Some(Ok(out))
}

/// What [`choice`] found.
pub(super) enum Chosen {
    /// Always the same buffer (an iter_arg the loop yields unchanged).
    One(Region),
    /// One of these.
    Among(Vec<Alternative>),
}

/// The buffers `memref` (a root that is not a view) may be, with `dims` of
/// it in each:
/// - `arith.select %c, %x, %y` of memrefs: `%x` where `%c` holds, `%y`
///   where it does not ([`Forms::condition`]);
/// - result `r` of an `scf.if %c`: operand `r` of the `then` yield where
///   `%c` holds, of the `else` yield where it does not;
/// - result `r` of an `scf.index_switch`: operand `r` of each region's
///   yield, where the selector picks that region;
/// - result `r` of an `scf.execute_region`: operand `r` of each
///   `scf.yield` of a block its entry reaches ([`reachable_blocks`]), under
///   no condition; an argument of one of its other blocks (or of a
///   function's): what each branch into that block passes, followed around
///   loops of blocks;
/// - result `r` of an `scf.while`: what its `scf.condition` forwards as
///   operand `r + 1` (a `before` argument is a choice itself);
/// - iter_arg `x_0` of an `scf.for` (or `before` argument of an
///   `scf.while`; an `after` argument is what `scf.condition` forwards)
///   whose yield rotates them ([`rotation`]), `x_0 ←
///   x_1 ← … ← x_{L-1} ← x_0` (each `x_j` yields `x_{j+1}`, indices mod `L`;
///   `scf.yield %next, %cur` is `L = 2`): in iteration `τ` (from 0) it is
///   the initial buffer of `x_{τ mod L}`, which is the `k`-th alternative
///   where `τ mod L = k` (by induction on `τ`: `x_0` in iteration `τ + 1`
///   is `x_1` in iteration `τ`). `L = 1` (yielded unchanged) is its
///   initial buffer;
/// - result `r` of such an `scf.for`: the same after `T` iterations (`T`
///   the trip count, [`Forms::trips`]), the initial buffer of
///   `x_{T mod L}`, or of `x_0` where the loop does not run.
/// - a carried value that such a loop does not just rotate: any buffer
///   [`carried_values`] finds, under no condition;
///
/// Alternatives that are choices are flattened (their conditions joined);
/// `None` (an unknown buffer) for anything else, or past
/// [`MAX_ALTERNATIVES`] buffers.
pub(super) fn choice(forms: &mut Forms, memref: Value, dims: &Option<Vec<Dim>>) -> Option<Chosen> {
    // Choices nest (a choice among choices, through views): a cycle of
    // them (a value passed around a control-flow loop, or through a view
    // of itself) must end, as an unknown buffer (trial 34: a stack
    // overflow).
    if CHOICE_DEPTH.with(|d| d.get()) >= MAX_CHOICE_DEPTH {
        return None;
    }
    CHOICE_DEPTH.with(|d| d.set(d.get() + 1));
    let chosen = choice_at_depth(forms, memref, dims);
    CHOICE_DEPTH.with(|d| d.set(d.get() - 1));
    chosen
}

thread_local! {
    /// How deep [`choice`]s nest now.
    pub(super) static CHOICE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How deep [`choice`]s may nest.
pub(super) const MAX_CHOICE_DEPTH: usize = 16;

/// [`choice`], one level.
pub(super) fn choice_at_depth(
    forms: &mut Forms,
    memref: Value,
    dims: &Option<Vec<Dim>>,
) -> Option<Chosen> {
    let mut options: Vec<(Value, Vec<Constraint>)> = Vec::new();
    if let Some(op) = defining_op(memref) {
        // SAFETY: `memref` is a live result of `op`.
        let r = unsafe { mlir_sys::mlirOpResultGetResultNumber(memref.to_raw()) } as usize;
        if ops::is(&op, "scf.for") {
            // The iter_arg after the last iteration.
            let trips = forms.trips(&op);
            match rotated(forms, &op, r + 1, trips.count, &trips.when_run, dims) {
                Some(Err(one)) => return Some(Chosen::One(one)),
                Some(Ok(rotated)) => options = rotated,
                None => {
                    let values = carried_values(forms, &op, r + 1)?;
                    return among_carried(forms, values, dims, &op, true);
                }
            }
            // A loop that does not run returns the initial buffer (under
            // no condition where skipping it is not expressible).
            options.push((
                op.operand_at(3 + r)?,
                trips.when_skipped.unwrap_or_default(),
            ));
        } else if ops::is(&op, "scf.while") {
            // Result `r` is what `scf.condition` forwards as its operand
            // `r + 1` when the loop ends (trial 31: a buffer passed through
            // an `scf.while` was an unknown buffer).
            let forwarded = crate::access::values::region_yield(&op, 0, r + 1)?;
            return Some(Chosen::One(region_of(forms, forwarded, dims.clone())));
        } else if ops::is(&op, "scf.index_switch") {
            // Operand `r` of each region's yield, where that region runs
            // (the selector is its case; for the default region, region 0,
            // none of them): the conditions the analysis gives the ops of
            // that region ([`Forms::add_region_constraints`]).
            for i in 0..op.region_count() {
                let mut system = System::new();
                forms.add_region_constraints(&op, Some(i), &mut system);
                let yielded = crate::access::values::region_yield(&op, i, r)?;
                options.push((yielded, system.constraints().to_vec()));
            }
        } else if ops::is(&op, "scf.execute_region") {
            // Operand `r` of each `scf.yield` of a block the region's entry
            // reaches (a `cf.cond_br` on a constant takes one successor),
            // under no condition.
            for block in reachable_blocks(forms, &op)? {
                let terminator = block.terminator()?;
                if ops::is(&terminator, "scf.yield") {
                    options.push((terminator.operand_at(r)?, Vec::new()));
                }
            }
            if options.is_empty() {
                return None;
            }
        } else if crate::group_distance::is_call(&op) {
            return call_result(forms, &op, r, dims);
        } else {
            let condition = op.operand_at(0)?;
            let (then, otherwise) = match ops::name(&op) {
                "arith.select" if op.operand_count() == 3 => (op.operand_at(1)?, op.operand_at(2)?),
                "scf.if" => (
                    crate::access::values::region_yield(&op, 0, r)?,
                    crate::access::values::region_yield(&op, 1, r)?,
                ),
                _ => return None,
            };
            options.push((then, forms.condition(condition, true)));
            options.push((otherwise, forms.condition(condition, false)));
        }
    } else {
        let (block, n) = block_argument(memref)?;
        let l = block.parent_operation()?;
        if !ops::is_entry_block(&block)
            && (ops::is(&l, "scf.execute_region") || ops::is_function(&l))
        {
            // A block argument of a region's control flow (an
            // `scf.execute_region`'s, or a function's: trial 38, a callee
            // that returns a block argument gave a buffer of unknown
            // origin).
            options = passed_into(forms, &l, block, n)?
                .into_iter()
                .map(|v| (v, Vec::new()))
                .collect();
            if options.is_empty() {
                return None;
            }
            return among(forms, options, dims);
        }
        let is_while = ops::is(&l, "scf.while");
        if !ops::is_entry_block(&block) || !(is_while || ops::is(&l, "scf.for") && n >= 1) {
            return None;
        }
        if is_while && block.parent_region() == l.region_at(1) {
            // An `after` argument is what `scf.condition` forwards.
            let forwarded = crate::access::values::region_yield(&l, 0, n + 1)?;
            return Some(Chosen::One(region_of(forms, forwarded, dims.clone())));
        }
        let tau = Lin::symbol(Symbol::Iteration(crate::access::values::op_key(&l)));
        match rotated(forms, &l, n, tau, &[], dims) {
            Some(Err(one)) => return Some(Chosen::One(one)),
            Some(Ok(rotated)) => options = rotated,
            None => {
                let values = carried_values(forms, &l, n)?;
                return among_carried(forms, values, dims, &l, false);
            }
        }
    }
    among(forms, options, dims)
}

/// The buffers carried value `n` of the loop `l` may be in any iteration
/// (its numbering as [`rotation`]'s), where the loop does not just rotate
/// its initial buffers: the initial value, and what the yield passes for
/// it, each under no condition (trial 33: an `scf.while` whose `after`
/// region yields a buffer of the function was an unknown buffer, and a race
/// on it went unreported). A yielded value is followed through the loop's
/// own arguments, and, where the loop body makes it, through
/// `arith.select`, `scf.if`, `scf.index_switch` and `scf.execute_region`
/// results (any operand they may give), the arguments of an
/// `scf.execute_region`'s blocks (what its branches pass, [`passed_into`])
/// and views (to their source, whole: a view made in the loop may move
/// each iteration; trial 34: a yielded `arith.select` or a sliding
/// `memref.subview` was taken as the initial buffer). Each value comes
/// with `true` where only its whole buffer is known. `None` for anything
/// else the body makes, or past [`MAX_ALTERNATIVES`].
pub(super) fn carried_values<'c, 'a>(
    forms: &mut Forms,
    l: &melior::ir::OperationRef<'c, 'a>,
    n: usize,
) -> Option<Vec<(Value<'c, 'a>, bool)>> {
    let is_while = ops::is(l, "scf.while");
    let before = l.region_at(0)?.first_block()?;
    let after = if is_while {
        Some(l.region_at(1)?.first_block()?)
    } else {
        None
    };
    // An `scf.for`'s carried value `j` starts as operand `2 + j`, its yield
    // passes operand `j - 1`; an `scf.while`'s as operand `j`, its `after`
    // yield passes operand `j`.
    let init = |j: usize| l.operand_at(if is_while { j } else { 2 + j });
    let yielded = |j: usize| match after {
        Some(after) => after.terminator()?.operand_at(j),
        None => before.terminator()?.operand_at(j.checked_sub(1)?),
    };
    // Carried values to visit, and values of the body to follow, each with
    // whether only the whole buffer is known.
    let mut carried = vec![(n, false)];
    let mut seen = carried.clone();
    let mut values: Vec<(Value, bool)> = Vec::new();
    let mut steps = 0;
    while let Some((j, whole)) = carried.pop() {
        values.push((init(j)?, whole));
        let mut pending = vec![(yielded(j)?, whole)];
        while let Some((mut v, whole)) = pending.pop() {
            steps += 1;
            if steps > 4 * MAX_ALTERNATIVES || values.len() > MAX_ALTERNATIVES {
                return None;
            }
            // An `after` argument is what `scf.condition` forwards.
            if let Some((_, m)) = block_argument(v).filter(|(b, _)| Some(*b) == after) {
                v = before.terminator()?.operand_at(m + 1)?;
            }
            if let Some((_, m)) = block_argument(v).filter(|(b, _)| *b == before) {
                if !is_while && m == 0 {
                    return None;
                }
                if !seen.contains(&(m, whole)) {
                    seen.push((m, whole));
                    carried.push((m, whole));
                }
                continue;
            }
            if !crate::access::values::defined_inside(value_key(v), l) {
                values.push((v, whole));
                continue;
            }
            // A block argument of an `scf.execute_region`'s control flow
            // in the body: what its branches pass (was an unknown buffer,
            // and a write through it went unreported).
            if let Some((b, m)) = block_argument(v) {
                let region_op = b.parent_operation()?;
                if ops::is_entry_block(&b) || !ops::is(&region_op, "scf.execute_region") {
                    return None;
                }
                pending.extend(
                    passed_into(forms, &region_op, b, m)?
                        .into_iter()
                        .map(|p| (p, whole)),
                );
                continue;
            }
            let op = defining_op(v)?;
            // SAFETY: `v` is a live result of `op`.
            let r = unsafe { mlir_sys::mlirOpResultGetResultNumber(v.to_raw()) } as usize;
            match ops::name(&op) {
                "arith.select" => {
                    pending.push((op.operand_at(1)?, whole));
                    pending.push((op.operand_at(2)?, whole));
                }
                "scf.if" | "scf.index_switch" | "scf.execute_region" => {
                    // Every yield (a block argument of an
                    // `scf.execute_region`'s control flow yielded is what
                    // its branches pass, above).
                    for block in ops::blocks_of(&op) {
                        let terminator = block.terminator()?;
                        if ops::is(&terminator, "scf.yield") {
                            pending.push((terminator.operand_at(r)?, whole));
                        }
                    }
                }
                // A buffer allocated in the body (by the loop, or by a
                // helper it calls): one of an earlier iteration (trial 41:
                // a loop that carried its last tile's allocation was of
                // unknown origin, a remark on a real race).
                "memref.alloc" | "memref.alloca" => values.push((v, true)),
                _ if crate::group_distance::is_call(&op)
                    && region_of(forms, v, None).root.kind == RootKind::Fresh =>
                {
                    values.push((v, true))
                }
                _ => {
                    let source = view_operand(&op)?;
                    pending.push((source, true));
                }
            }
        }
    }
    Some(values)
}

/// The choice among the buffers [`carried_values`] found for the loop `l`,
/// at `dims` (the whole buffer for those known only whole), under no
/// condition. A buffer allocated in `l`'s body is the allocation of an
/// earlier iteration (its root [`Symbol::Stale`]); for `l`'s result
/// (`after`), also that of its last iteration.
pub(super) fn among_carried(
    forms: &mut Forms,
    values: Vec<(Value, bool)>,
    dims: &Option<Vec<Dim>>,
    l: &melior::ir::OperationRef,
    after: bool,
) -> Option<Chosen> {
    let mut alternatives = Vec::new();
    for (value, whole) in values {
        let region = region_of(forms, value, if whole { None } else { dims.clone() });
        let regions = match region.root.symbol {
            Symbol::Value(k) if crate::access::values::defined_inside(k, l) => {
                let mut stale = region.clone();
                stale.root.symbol = Symbol::Stale(k);
                if after {
                    vec![region, stale]
                } else {
                    vec![stale]
                }
            }
            _ => vec![region],
        };
        for region in regions {
            // Under no condition: the loop's choices are not followed.
            alternatives.extend(flatten(region).into_iter().map(|mut a| {
                a.when.clear();
                a
            }));
        }
        if alternatives.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(Chosen::Among(alternatives))
}

/// The choice among `options` (a buffer and where it is the one), each
/// at `dims`; choices among them flattened.
pub(super) fn among(
    forms: &mut Forms,
    options: Vec<(Value, Vec<Constraint>)>,
    dims: &Option<Vec<Dim>>,
) -> Option<Chosen> {
    let mut alternatives = Vec::new();
    for (value, when) in options {
        for mut alternative in flatten(region_of(forms, value, dims.clone())) {
            alternative.when.splice(0..0, when.iter().cloned());
            alternatives.push(alternative);
        }
        if alternatives.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(Chosen::Among(alternatives))
}

/// The values the branches of `l`'s control flow (an
/// `scf.execute_region` or a function) pass into argument `n` of `block` (one of its
/// non-entry blocks): what each branch into the block from a block the
/// entry reaches passes, followed through the arguments of the region's
/// other reached blocks (a loop of blocks passes a buffer around). `None`
/// where some reached block ends in a branch [`branch_targets`] does not
/// follow, or past [`MAX_ALTERNATIVES`] values.
pub(super) fn passed_into<'c, 'a>(
    forms: &mut Forms,
    l: &melior::ir::OperationRef<'c, 'a>,
    block: melior::ir::BlockRef<'c, 'a>,
    n: usize,
) -> Option<Vec<Value<'c, 'a>>> {
    let reached = reachable_blocks(forms, l)?;
    let mut edges = Vec::new();
    for from in &reached {
        edges.extend(branch_targets(forms, &from.terminator()?)?);
    }
    let mut values = Vec::new();
    let mut work = vec![(block, n)];
    let mut seen = work.clone();
    while let Some((b, m)) = work.pop() {
        for (target, operands) in &edges {
            if *target != b {
                continue;
            }
            let v = operands.get(m).copied()?;
            // (A function's entry block arguments are its arguments.)
            match block_argument(v) {
                Some((vb, vm)) if reached.contains(&vb) && !ops::is_entry_block(&vb) => {
                    if !seen.contains(&(vb, vm)) {
                        seen.push((vb, vm));
                        work.push((vb, vm));
                    }
                }
                _ => values.push(v),
            }
        }
        if values.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(values)
}

/// The blocks of `op`'s first region that its entry block reaches through
/// the branches [`branch_targets`] follows; `None` if some reached block
/// ends in another branch.
pub(super) fn reachable_blocks<'c, 'a>(
    forms: &mut Forms,
    op: &melior::ir::OperationRef<'c, 'a>,
) -> Option<Vec<melior::ir::BlockRef<'c, 'a>>> {
    let entry = op.region_at(0)?.first_block()?;
    let mut reached = vec![entry];
    let mut next = 0;
    while next < reached.len() {
        let terminator = reached[next].terminator()?;
        next += 1;
        for (target, _) in branch_targets(forms, &terminator)? {
            if !reached.contains(&target) {
                reached.push(target);
            }
        }
    }
    Some(reached)
}

/// The blocks `terminator` may branch to, each with the operands it
/// passes: none for a terminator that leaves the region (`scf.yield`);
/// `cf.br`'s one, `cf.cond_br`'s two (one on a constant condition),
/// `cf.switch`'s every one; `None` for any other op with successors.
pub(super) fn branch_targets<'c, 'a>(
    forms: &mut Forms,
    terminator: &melior::ir::OperationRef<'c, 'a>,
) -> Option<Vec<(melior::ir::BlockRef<'c, 'a>, Vec<Value<'c, 'a>>)>> {
    let operands: Vec<Value> = terminator.operands().collect();
    match ops::name(terminator) {
        "cf.br" => Some(vec![(terminator.successor(0).ok()?, operands)]),
        "cf.cond_br" => {
            let (on_true, on_false) =
                (terminator.successor(0).ok()?, terminator.successor(1).ok()?);
            // Operands: the condition, then the true successor's
            // arguments, then the false successor's.
            let split = 1 + on_true.argument_count();
            let (true_operands, false_operands) = (
                operands.get(1..split)?.to_vec(),
                operands.get(split..)?.to_vec(),
            );
            let mut targets = Vec::new();
            let taken = forms.folded(operands[0]);
            if taken != Some(false) {
                targets.push((on_true, true_operands));
            }
            if taken != Some(true) {
                targets.push((on_false, false_operands));
            }
            Some(targets)
        }
        "cf.switch" => {
            // Operands: the flag, then each successor's arguments in order
            // (the default first), every case taken.
            // SAFETY: a live op.
            let count = unsafe { mlir_sys::mlirOperationGetNumSuccessors(terminator.to_raw()) };
            let mut at = 1;
            let mut targets = Vec::new();
            for i in 0..count as usize {
                let target = terminator.successor(i).ok()?;
                let next = at + target.argument_count();
                targets.push((target, operands.get(at..next)?.to_vec()));
                at = next;
            }
            Some(targets)
        }
        // SAFETY: a live op.
        _ if unsafe { mlir_sys::mlirOperationGetNumSuccessors(terminator.to_raw()) } == 0 => {
            Some(Vec::new())
        }
        _ => None,
    }
}
