//! Buffers returned by calls: what a function may return, summarised in
//! terms of its arguments ([`returned_by`]), and the region of an access
//! to a call's result mapped back to the caller's buffers.

use super::*;

/// What a function's result may be, in terms of its arguments (one entry
/// of [`returned_by`]).
#[derive(Clone, Debug)]
pub(crate) struct Returned {
    /// The buffer.
    target: Target,
    /// The elements an access at the caller's dims touches in it, in the
    /// callee's terms, with the caller's starts as [`placeholder`]s.
    dims: Option<Vec<Dim>>,
    /// Where it is the one returned (the callee's condition, in its terms).
    when: Vec<Constraint>,
}

/// The buffer of a [`Returned`].
#[derive(Clone, Debug)]
pub(super) enum Target {
    /// The function's argument `k`.
    Argument(usize),
    /// A global, or an allocation made in the function.
    Root(Root),
}

/// The symbol that stands, in a [`Returned`]'s dims, for the start of the
/// caller's dimension `d`; replaced at each call ([`call_result`]). Fresh
/// symbols from the top of the range, which nothing else in a region uses.
pub(super) fn placeholder(d: usize) -> Symbol {
    Symbol::Fresh(u32::MAX - 1 - d as u32)
}

/// The shape of the caller's dims a summary is made for: the extent of
/// each dimension (`None`: any position), or `None` for the whole buffer.
pub(super) type DimsShape = Option<Vec<Option<i64>>>;

/// What result `r` of the function `callee` may be, over all its returns,
/// for an access of the shape `shape` into it: each return's region in the
/// callee ([`region_of`], which follows the callee's views, selects,
/// branches, block arguments and calls) at placeholder starts, its choices
/// flattened with their conditions. `None` where some return may be a
/// buffer of unknown origin, past [`MAX_ALTERNATIVES`], past
/// [`MAX_SUMMARY_NESTING`] functions being summarised at once, or for a
/// function whose summary is being computed (a recursive call).
///
/// Computed once per function result, shape and analysis, in [`Forms`]:
/// trial 38 found that following each call anew took time exponential in
/// the depth of a chain of helpers (8 levels of 8 calls each ran past
/// 60 s).
pub(super) fn returned_by(
    forms: &mut Forms,
    callee: &melior::ir::OperationRef,
    r: usize,
    shape: DimsShape,
) -> Option<Rc<[Returned]>> {
    thread_local! {
        /// The summaries being computed now.
        static NESTING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    let key = (crate::access::values::op_key(callee), r, shape);
    if let Some(known) = forms.calls.returns.get(&key) {
        return known.clone();
    }
    if NESTING.with(|n| n.get()) >= MAX_SUMMARY_NESTING {
        return None;
    }
    // Marks the summary as being computed; a recursive call finds `None`.
    forms.calls.returns.insert(key.clone(), None);
    NESTING.with(|n| n.set(n.get() + 1));
    // A summary does not depend on where it is asked for: the depth of
    // the choices around the call does not count inside the callee.
    let outer = CHOICE_DEPTH.with(|d| d.replace(0));
    let summary = summarise_returns(forms, callee, r, &key.2).map(Rc::from);
    CHOICE_DEPTH.with(|d| d.set(outer));
    NESTING.with(|n| n.set(n.get() - 1));
    forms.calls.returns.insert(key, summary.clone());
    summary
}

/// How many function summaries ([`returned_by`]) may be computed inside
/// one another (a chain of helpers deeper than this gives a buffer of
/// unknown origin).
pub(super) const MAX_SUMMARY_NESTING: usize = 32;

/// [`returned_by`], computed.
pub(super) fn summarise_returns(
    forms: &mut Forms,
    callee: &melior::ir::OperationRef,
    r: usize,
    shape: &DimsShape,
) -> Option<Vec<Returned>> {
    let entry = callee.region_at(0)?.first_block()?;
    let arguments: Vec<usize> = (0..entry.argument_count())
        .map(|i| entry.argument(i).map(|a| value_key(a.into())))
        .collect::<Result<_, _>>()
        .ok()?;
    let dims: Option<Vec<Dim>> = shape.as_ref().map(|extents| {
        extents
            .iter()
            .enumerate()
            .map(|(d, extent)| match extent {
                Some(extent) => Dim::Range {
                    start: Lin::symbol(placeholder(d)),
                    extent: *extent,
                },
                None => Dim::Any,
            })
            .collect()
    });
    let mut out: Vec<Returned> = Vec::new();
    for block in ops::blocks_of(callee) {
        let terminator = block.terminator()?;
        // A terminator that passes control on within the callee returns
        // nothing.
        // SAFETY: a live op.
        if unsafe { mlir_sys::mlirOperationGetNumSuccessors(terminator.to_raw()) } != 0 {
            continue;
        }
        let returned = terminator.operand_at(r)?;
        for alternative in flatten(region_of(forms, returned, dims.clone())) {
            let Region { root, dims } = alternative.region;
            let target = match root.kind {
                RootKind::Argument { .. } => {
                    let Symbol::Value(key) = root.symbol else {
                        return None;
                    };
                    Target::Argument(arguments.iter().position(|a| *a == key)?)
                }
                RootKind::Global(_) | RootKind::Fresh => Target::Root(root),
                RootKind::Other | RootKind::Choice(_) => return None,
            };
            out.push(Returned {
                target,
                dims,
                when: alternative.when,
            });
        }
        if out.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(out)
}

/// Result `r` of the call `call`, where its callee has a body here: what
/// each of the callee's returns gives ([`returned_by`], for an access of
/// the shape of `dims`), mapped to the caller ([`Mapping`]): the callee's
/// argument `k` is the call's operand `k` at the mapped dims (followed
/// through the caller's views), a returned global or an allocation made
/// in the callee is itself; each under the callee's condition for it,
/// mapped. Several are a choice among them. `None` (an unknown buffer)
/// where [`returned_by`] knows nothing. Trials 36 and 37: a call result
/// was always of unknown origin, and a write through one while a copy read
/// the buffer it returns went unreported (then, for nested calls, selects
/// and globals, only remarked); trials 38 and 39: a view or a choice a
/// callee returns was its whole buffer, and a choice's conditions were
/// dropped (false errors).
pub(super) fn call_result<'c, 'a>(
    forms: &mut Forms,
    call: &melior::ir::OperationRef<'c, 'a>,
    r: usize,
    dims: &Option<Vec<Dim>>,
) -> Option<Chosen> {
    let callee = crate::access::effects::callee_function(call)?;
    let shape: DimsShape = dims.as_ref().map(|dims| {
        dims.iter()
            .map(|dim| match dim {
                Dim::Range { extent, .. } => Some(*extent),
                Dim::Any => None,
            })
            .collect()
    });
    let summary = returned_by(forms, &callee, r, shape)?;
    let mapping = Mapping::new(forms, &callee, call, dims, &summary)?;
    let mut regions: Vec<(Region, Vec<Constraint>)> = Vec::new();
    for returned in summary.iter() {
        let mapped = returned.dims.as_ref().map(|d| mapping.dims(d));
        let when = mapping.conditions(forms, &returned.when);
        let region = match &returned.target {
            Target::Argument(k) => region_of(forms, call.operand_at(*k)?, mapped),
            // An allocation the callee makes is a new buffer at each call
            // (trial 40: two calls' buffers were one, a false error): the
            // call's result, whole (its type may be a view of it).
            Target::Root(root) if root.kind == RootKind::Fresh => Region {
                root: Root {
                    symbol: Symbol::Value(value_key(call.result(r).ok()?.into())),
                    kind: RootKind::Fresh,
                    space: root.space.clone(),
                },
                dims: None,
            },
            Target::Root(root) => Region {
                root: root.clone(),
                dims: mapped,
            },
        };
        regions.push((region, when));
    }
    if regions.len() <= 1 {
        return regions.pop().map(|(region, _)| Chosen::One(region));
    }
    // Several: a choice among them (a choice among choices flattened, the
    // conditions joined).
    let mut alternatives: Vec<Alternative> = Vec::new();
    for (region, when) in regions {
        for mut alternative in flatten(region) {
            alternative.when.splice(0..0, when.iter().cloned());
            if !alternatives.contains(&alternative) {
                alternatives.push(alternative);
            }
        }
    }
    (alternatives.len() <= MAX_ALTERNATIVES).then_some(Chosen::Among(alternatives))
}

/// The map from a callee's terms to its caller's at one call: each
/// [`placeholder`] to the start of the caller's dimension, each integer or
/// `index` argument of the callee to the form of the call's operand (a
/// narrow integer's form is congruent to its value, and the callee reads
/// it exactly only through a modulo, so the operand's form serves), each
/// `i1` argument's truth to the operand's ([`Forms::condition`]).
pub(super) struct Mapping<'c, 'a> {
    /// Symbol to form.
    by: Vec<(Symbol, Lin)>,
    /// `i1` argument to the call's operand.
    truth: Vec<(Symbol, Value<'c, 'a>)>,
}

impl<'c, 'a> Mapping<'c, 'a> {
    /// The mapping at `call` for the symbols that `returned` names.
    fn new(
        forms: &mut Forms,
        callee: &melior::ir::OperationRef,
        call: &melior::ir::OperationRef<'c, 'a>,
        dims: &Option<Vec<Dim>>,
        returned: &[Returned],
    ) -> Option<Self> {
        let entry = callee.region_at(0)?.first_block()?;
        let mut named = Vec::new();
        for r in returned {
            for dim in r.dims.iter().flatten() {
                if let Dim::Range { start, .. } = dim {
                    start.symbols(&mut named);
                }
            }
            for c in &r.when {
                c.symbols(&mut named);
            }
        }
        let mut by = Vec::new();
        for (d, dim) in dims.iter().flatten().enumerate() {
            if let Dim::Range { start, .. } = dim {
                by.push((placeholder(d), start.clone()));
            }
        }
        let mut truth = Vec::new();
        for j in 0..entry.argument_count() {
            let argument: Value = entry.argument(j).ok()?.into();
            let symbol = Symbol::Value(value_key(argument));
            if !named.contains(&symbol) {
                continue;
            }
            match crate::access::values::width(argument.r#type()).filter(|w| *w <= 64) {
                Some(1) => {
                    // Its truth, and its form (`extui %c` compared, trial
                    // 40).
                    let operand = call.operand_at(j)?;
                    truth.push((symbol, operand));
                    by.push((symbol, forms.of(operand)));
                }
                Some(_) => by.push((symbol, forms.of(call.operand_at(j)?))),
                None => {}
            }
        }
        Some(Mapping { by, truth })
    }

    /// The form `s` maps to.
    fn get(&self, s: Symbol) -> Option<Lin> {
        self.by
            .iter()
            .find(|(t, _)| *t == s)
            .map(|(_, l)| l.clone())
    }

    /// True if every symbol of `symbols` is mapped.
    fn covers(&self, symbols: &[Symbol]) -> bool {
        symbols.iter().all(|s| self.by.iter().any(|(t, _)| t == s))
    }

    /// `dims` in the caller's terms; a dimension whose start names
    /// anything unmapped (a value computed in the callee) is any position.
    fn dims(&self, dims: &[Dim]) -> Vec<Dim> {
        dims.iter()
            .map(|dim| match dim {
                Dim::Range { start, extent } => {
                    let mut symbols = Vec::new();
                    start.symbols(&mut symbols);
                    if !self.covers(&symbols) {
                        return Dim::Any;
                    }
                    match start.substitute(&|s| self.get(s)) {
                        Some(start) => Dim::Range {
                            start,
                            extent: *extent,
                        },
                        None => Dim::Any,
                    }
                }
                Dim::Any => Dim::Any,
            })
            .collect()
    }

    /// The conditions `when` in the caller's terms; one that names
    /// anything unmapped is dropped (a weaker choice, never a wrong one).
    fn conditions(&self, forms: &mut Forms, when: &[Constraint]) -> Vec<Constraint> {
        let mut out = Vec::new();
        for c in when {
            if let Constraint::Holds(symbol, holds) = c {
                if let Some((_, operand)) = self.truth.iter().find(|(t, _)| t == symbol) {
                    out.extend(forms.condition(*operand, *holds));
                }
                continue;
            }
            let mut symbols = Vec::new();
            c.symbols(&mut symbols);
            if !self.covers(&symbols) {
                continue;
            }
            if let Some(Some(mapped)) = c.substitute(&|s| self.get(s)) {
                out.push(mapped);
            }
        }
        out
    }
}

/// The alternatives `region` is: each of a choice's, under its condition
/// (whole where `region` is), or `region` itself under none.
pub(super) fn flatten(region: Region) -> Vec<Alternative> {
    match region.root.kind {
        RootKind::Choice(inner) => inner
            .into_iter()
            .map(|mut a| {
                if region.dims.is_none() {
                    a.region.dims = None;
                }
                a
            })
            .collect(),
        _ => vec![Alternative {
            region,
            when: Vec::new(),
        }],
    }
}
