//! Systems of constraints over forms, and a feasibility test that is sound
//! (it never calls a satisfiable system infeasible) and exact on the systems
//! the index algebra produces in practice.
//!
//! A [`System`] is a conjunction of [`Constraint`]s: `x >= 0`, `x = 0` for
//! forms `x`, an `i1` value that holds or not, and `s = min(a, b)` /
//! `s = max(a, b)` facts. [`System::feasible`] decides whether integer
//! values of the symbols satisfy all of them:
//! 1. contradicting `i1` facts (a value both true and false): infeasible;
//! 2. every remainder and quotient atom becomes an unknown with its
//!    definition `x = V*q + r, 0 <= r < V`, added where it is exact: always
//!    for Euclidean atoms, for the others where `x >= 0` follows from the
//!    bounds found without them (a step-4 bound propagation, repeated
//!    while it defines more: `(x div 8) mod 4` once `x div 8` is defined);
//!    otherwise the unknown only gets the range its sign allows;
//! 3. (a) an equality whose coefficients split into multiples of some
//!    `g > 1` and a rest whose range holds one multiple `k g` of `g`
//!    becomes two equalities, the rest `= k g` and the multiples `= -k g`
//!    (`16 ty + 32 τr + tx + 4 τc = 16 ty' + ... + tx' + ...` with `tx`,
//!    `tx'` in `[0, 3]`: `tx = tx'`); bounds from step 4 on the rows as
//!    given;
//!    (b) equalities are solved for a variable with coefficient ±1 and
//!    substituted away; an equality whose coefficients have a gcd that does
//!    not divide its constant is infeasible (the GCD test);
//! 4. bound propagation (interval constraint propagation with integer
//!    rounding) over the inequalities and the remaining equalities, to a
//!    fixed point or a round limit; an empty interval or a constraint whose
//!    best value violates it is infeasible;
//! 5. the variables left are split into the sets that share no constraint
//!    (each set is feasible on its own or not); in each set whose variables
//!    all have finite ranges, and small ones, enumeration decides exactly
//!    (with a witness); an infeasible set makes the system infeasible;
//! 6. if a set is too large to enumerate, Fourier-Motzkin elimination over
//!    the inequalities, the equalities (as two inequalities each) and the
//!    finite bounds of step 4,
//!    each derived row divided by the gcd of its coefficients with its
//!    constant rounded down (exact for integers): a row `c >= 0` with
//!    `c < 0` is infeasible. It decides relations between unbounded
//!    unknowns that propagation cannot (`t' >= t + 1` and `2t - 2t' >= 0`,
//!    two thread ids), within a row budget ([`ELIMINATION_ROWS`]).
//!
//! Soundness: each step keeps every integer solution (3a replaces an
//! equality by two that every integer solution of it satisfies and that
//! imply it, 3b substitutes an equality, 2 adds definitions that hold for the real operations, 4 only
//! removes values no solution takes, 6 derives only nonnegative
//! combinations of rows, rounded where every integer solution still holds
//! them, and drops the `min`/`max` facts), so "infeasible" is a proof. The
//! answer [`Feasibility::Feasible`] carries `exact = true` only with a
//! witness of the whole system (every atom defined exactly).

use super::affine::{Atom, Lin, Signedness, Symbol};
use rustc_hash::FxHashMap;
use std::{cell::RefCell, collections::BTreeMap};

/// One constraint.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Constraint {
    /// `x >= 0`.
    NonNeg(Lin),
    /// `x = 0`.
    Zero(Lin),
    /// `x != 0`: the disjunction `x <= -1` or `x >= 1`, decided by
    /// deciding each ([`System::feasible`]); an `arith.cmpi ne` that holds.
    NonZero(Lin),
    /// The `i1` SSA value (a [`Symbol::Value`] or [`Symbol::Stale`]) is true
    /// (`true`) or false.
    Holds(Symbol, bool),
    /// `result = min(a, b)` (signed).
    Min(Lin, Lin, Lin),
    /// `result = max(a, b)` (signed).
    Max(Lin, Lin, Lin),
}

impl Constraint {
    /// `a <= b`; `None` on overflow.
    pub fn le(a: &Lin, b: &Lin) -> Option<Self> {
        Some(Constraint::NonNeg(b.plus(a, -1)?))
    }

    /// `a = b`; `None` on overflow.
    pub fn eq(a: &Lin, b: &Lin) -> Option<Self> {
        Some(Constraint::Zero(a.plus(b, -1)?))
    }

    /// The constraint for another thread: every value symbol renamed to
    /// that value in another thread ([`Symbol::OtherThread`]), as for a
    /// bound on the thread ids that holds in every thread; `None` on
    /// overflow.
    pub fn in_other_thread(&self) -> Option<Constraint> {
        self.substitute(&|s| match s {
            Symbol::Value(k) => Some(Lin::symbol(Symbol::OtherThread(k))),
            _ => None,
        })
        .flatten()
    }

    /// The constraint with `map` applied to every form (see
    /// [`Lin::substitute`]); `None` on overflow. A [`Constraint::Holds`]
    /// whose symbol `map` replaces is dropped (`Some(None)`).
    pub fn substitute(&self, map: &dyn Fn(Symbol) -> Option<Lin>) -> Option<Option<Constraint>> {
        Some(Some(match self {
            Constraint::NonNeg(x) => Constraint::NonNeg(x.substitute(map)?),
            Constraint::Zero(x) => Constraint::Zero(x.substitute(map)?),
            Constraint::NonZero(x) => Constraint::NonZero(x.substitute(map)?),
            Constraint::Holds(s, b) => match map(*s) {
                None => Constraint::Holds(*s, *b),
                Some(by) => match by.as_symbol() {
                    Some(t) => Constraint::Holds(t, *b),
                    None => return Some(None),
                },
            },
            Constraint::Min(r, a, b) => {
                Constraint::Min(r.substitute(map)?, a.substitute(map)?, b.substitute(map)?)
            }
            Constraint::Max(r, a, b) => {
                Constraint::Max(r.substitute(map)?, a.substitute(map)?, b.substitute(map)?)
            }
        }))
    }

    /// True if the constraint has no symbol and fails (`c >= 0` with
    /// `c < 0`, `c = 0` with `c != 0`, `c != 0` with `c = 0`): no execution
    /// satisfies it, as in the region of `scf.if` on a condition that
    /// folds to the other outcome.
    pub fn is_false(&self) -> bool {
        match self {
            Constraint::NonNeg(x) => x.as_constant().is_some_and(|c| c < 0),
            Constraint::Zero(x) => x.as_constant().is_some_and(|c| c != 0),
            Constraint::NonZero(x) => x.as_constant() == Some(0),
            _ => false,
        }
    }

    /// True if the symbol `s` occurs.
    pub fn mentions(&self, s: Symbol) -> bool {
        match self {
            Constraint::NonNeg(x) | Constraint::Zero(x) | Constraint::NonZero(x) => x.mentions(s),
            Constraint::Holds(t, _) => *t == s,
            Constraint::Min(r, a, b) | Constraint::Max(r, a, b) => {
                r.mentions(s) || a.mentions(s) || b.mentions(s)
            }
        }
    }

    /// Every symbol that occurs.
    pub fn symbols(&self, out: &mut Vec<Symbol>) {
        match self {
            Constraint::NonNeg(x) | Constraint::Zero(x) | Constraint::NonZero(x) => x.symbols(out),
            Constraint::Holds(t, _) => {
                if !out.contains(t) {
                    out.push(*t)
                }
            }
            Constraint::Min(r, a, b) | Constraint::Max(r, a, b) => {
                r.symbols(out);
                a.symbols(out);
                b.symbols(out);
            }
        }
    }
}

/// The answer of [`System::feasible`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feasibility {
    /// No integer values satisfy the system (a proof).
    Infeasible,
    /// Values may satisfy it; `exact`: a witness was found.
    Feasible {
        /// True if a satisfying assignment was found.
        exact: bool,
    },
}

impl Feasibility {
    /// True unless proven infeasible.
    pub fn may(self) -> bool {
        !matches!(self, Feasibility::Infeasible)
    }
}

/// A conjunction of constraints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct System {
    constraints: Vec<Constraint>,
}

/// Most systems [`System::feasible`] remembers per thread; the memo starts
/// over when it is full.
const MEMO_ENTRIES: usize = 1 << 14;

thread_local! {
    /// [`System::feasible`]'s answers, by system as asked and by
    /// [`System::canonical`] system.
    static MEMO: RefCell<FxHashMap<Vec<Constraint>, Feasibility>> = RefCell::new(FxHashMap::default());
}

/// Largest product of variable ranges that [`System::feasible`] enumerates.
const ENUMERATION_LIMIT: u128 = 1 << 14;
/// Most rows Fourier-Motzkin elimination (step 6) may hold; past it the
/// step gives up (no answer, never a wrong one).
const ELIMINATION_ROWS: usize = 400;
/// Rounds of bound propagation.
const PROPAGATION_ROUNDS: usize = 64;
/// Bounds beyond this magnitude are dropped (treated as unbounded), so that
/// propagation on a cycle cannot overflow.
const BOUND_LIMIT: i128 = 1 << 62;

impl System {
    /// The empty system (true).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `c`.
    pub fn push(&mut self, c: Constraint) {
        if !self.constraints.contains(&c) {
            self.constraints.push(c);
        }
    }

    /// Adds every constraint of `cs`.
    pub fn extend(&mut self, cs: impl IntoIterator<Item = Constraint>) {
        for c in cs {
            self.push(c);
        }
    }

    /// The constraints.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Decides whether integer values satisfy every constraint (module doc,
    /// steps 1-6).
    ///
    /// Answers are memoized per thread on the system with its symbols
    /// renamed in order of first appearance ([`System::canonical`]): the
    /// answer does not depend on which symbols a system names, and the
    /// kernels of one module repeat the same systems (one per shape of
    /// loop) over different values. An answer found for one system is a
    /// sound answer for every renaming of it.
    ///
    /// The system as it is is looked up first (no copy is built for the
    /// lookup: the passes ask the same system again within a function, from
    /// round to round of a fixed point), then its canonical renaming. Both
    /// are keys of the one memo: each is a system, and a system's answer
    /// does not depend on its symbols' names.
    pub fn feasible(&self) -> Feasibility {
        if let Some(answer) = MEMO.with(|memo| memo.borrow().get(&self.constraints[..]).copied()) {
            return answer;
        }
        let key = self.canonical();
        let known = MEMO.with(|memo| memo.borrow().get(&key).copied());
        let answer = known.unwrap_or_else(|| self.decide());
        MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.len() + 2 > MEMO_ENTRIES {
                memo.clear();
            }
            if known.is_none() {
                memo.insert(key, answer);
            }
            memo.insert(self.constraints.clone(), answer);
        });
        answer
    }

    /// [`System::feasible`] without the memo: a [`Constraint::NonZero`]
    /// `x != 0` is decided as its two cases, `x <= -1` and `x >= 1` (each
    /// a system of its own: feasible if either is, exact if a feasible one
    /// is); a case whose row overflows is dropped from the disjunction's
    /// side that needs it, which only makes the system more feasible.
    fn decide(&self) -> Feasibility {
        let split = self
            .constraints
            .iter()
            .enumerate()
            .find_map(|(i, c)| match c {
                Constraint::NonZero(x) => Some((i, x.clone())),
                _ => None,
            });
        let Some((i, x)) = split else {
            return match self.prepared() {
                Some(solver) => solver.solve(),
                None => Feasibility::Infeasible,
            };
        };
        let below = x.scaled(-1).and_then(|n| n.offset(-1));
        let above = x.offset(-1);
        let mut found = Feasibility::Infeasible;
        for case in [below, above] {
            let mut system = self.clone();
            match case {
                Some(row) => system.constraints[i] = Constraint::NonNeg(row),
                None => {
                    system.constraints.remove(i);
                }
            }
            match system.feasible() {
                Feasibility::Feasible { exact: true } => {
                    return Feasibility::Feasible { exact: true }
                }
                f @ Feasibility::Feasible { .. } => found = f,
                Feasibility::Infeasible => {}
            }
        }
        found
    }

    /// Forgets the answers [`System::feasible`] remembers on this thread:
    /// each pass run starts with none (and frees them at its end), and a
    /// benchmark that repeats a run measures it anew.
    pub fn forget_answers() {
        MEMO.with(|memo| *memo.borrow_mut() = FxHashMap::default());
    }

    /// The constraints with every symbol renamed to [`Symbol::Fresh`] `n`,
    /// `n` its rank of first appearance: equal for systems that differ
    /// only in the symbols they name (in the same order).
    fn canonical(&self) -> Vec<Constraint> {
        let mut symbols = Vec::new();
        for c in &self.constraints {
            c.symbols(&mut symbols);
        }
        // The rank is the position in `symbols`, which holds each symbol
        // once: a system names a few, so a scan beats building a map.
        let rename = |s: Symbol| {
            Symbol::Fresh(
                symbols
                    .iter()
                    .position(|x| *x == s)
                    .map_or(u32::MAX, |n| n as u32),
            )
        };
        self.constraints
            .iter()
            .map(|c| match c {
                Constraint::NonNeg(x) => Constraint::NonNeg(x.renamed(&rename)),
                Constraint::Zero(x) => Constraint::Zero(x.renamed(&rename)),
                Constraint::NonZero(x) => Constraint::NonZero(x.renamed(&rename)),
                Constraint::Holds(s, b) => Constraint::Holds(rename(*s), *b),
                Constraint::Min(r, a, b) => {
                    Constraint::Min(r.renamed(&rename), a.renamed(&rename), b.renamed(&rename))
                }
                Constraint::Max(r, a, b) => {
                    Constraint::Max(r.renamed(&rename), a.renamed(&rename), b.renamed(&rename))
                }
            })
            .collect()
    }

    /// Bounds of `x` where the system holds, by bound propagation (step 4
    /// of the module doc): `(lo, hi)`, `None` where unbounded; `None` if the
    /// system is infeasible. Sound, not always tight.
    pub fn range_of(&self, x: &Lin) -> Option<(Option<i64>, Option<i64>)> {
        let mut system = self.clone();
        let z = Lin::symbol(Symbol::Fresh(u32::MAX));
        system.push(Constraint::Zero(x.plus(&z, -1)?));
        let mut solver = system.prepared()?;
        let z = solver.atom_var(&Atom::Sym(Symbol::Fresh(u32::MAX)));
        let bounds = solver.propagated_bounds()?;
        let narrow = |b: Option<i128>| b.and_then(|b| i64::try_from(b).ok());
        let (lo, hi) = bounds[z];
        Some((narrow(lo), narrow(hi)))
    }

    /// Steps 1-2: the solver with every constraint and the exact
    /// definitions of the atoms whose dividend is provably nonnegative;
    /// `None` if already infeasible.
    fn prepared(&self) -> Option<Solver> {
        let mut holds: FxHashMap<Symbol, bool> = FxHashMap::default();
        for c in &self.constraints {
            if let Constraint::Holds(s, b) = c {
                if holds.insert(*s, *b).is_some_and(|old| old != *b) {
                    return None;
                }
            }
        }
        let mut solver = Solver::default();
        for c in &self.constraints {
            solver.add(c);
        }
        // Only atoms that are not Euclidean wait for a proof of their sign;
        // with none, the system is complete and the caller solves it.
        if solver.atom_vars.iter().all(|a| a.exact) {
            return Some(solver);
        }
        if solver.clone().solve() == Feasibility::Infeasible {
            return None;
        }
        // An atom whose dividend is another atom (`(x div 8) mod 4`) has a
        // provable sign only once that atom is defined: rounds until no
        // atom gains its definition (at most one per atom).
        for _ in 0..solver.atom_vars.len() {
            let Some(bounds) = solver.clone().propagated_bounds() else {
                break;
            };
            if !solver.define_provable_atoms(&bounds) || solver.atom_vars.iter().all(|a| a.exact) {
                break;
            }
        }
        Some(solver)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Row {
    coefficients: BTreeMap<usize, i128>,
    constant: i128,
}

/// `row >= 0` divided by the gcd `g` of its coefficients, the constant
/// rounded down (`sum c_i x_i >= -k` with integer `x_i` implies
/// `sum (c_i / g) x_i >= ceil(-k / g)`); `None` for a row that always holds
/// (no coefficients, constant >= 0).
fn normalized(mut row: Row) -> Option<Row> {
    if row.coefficients.is_empty() {
        return (row.constant < 0).then_some(row);
    }
    let g = row
        .coefficients
        .values()
        .fold(0i128, |g, c| gcd(g, c.unsigned_abs() as i128));
    if g > 1 {
        for c in row.coefficients.values_mut() {
            *c /= g;
        }
        row.constant = row.constant.div_euclid(g);
    }
    Some(row)
}

impl Row {
    fn constant(c: i128) -> Self {
        Row {
            coefficients: BTreeMap::new(),
            constant: c,
        }
    }

    fn var(v: usize) -> Self {
        Row {
            coefficients: BTreeMap::from([(v, 1)]),
            constant: 0,
        }
    }

    fn add(&mut self, other: &Row, factor: i128) -> Option<()> {
        self.constant = self
            .constant
            .checked_add(other.constant.checked_mul(factor)?)?;
        for (v, c) in &other.coefficients {
            let entry = self.coefficients.entry(*v).or_insert(0);
            *entry = entry.checked_add(c.checked_mul(factor)?)?;
            if *entry == 0 {
                self.coefficients.remove(v);
            }
        }
        Some(())
    }

    /// The row with `v` replaced by `by`.
    fn substitute(&mut self, v: usize, by: &Row) -> Option<()> {
        if let Some(c) = self.coefficients.remove(&v) {
            self.add(by, c)?;
        }
        Some(())
    }

    /// The range of the row over `bounds`.
    fn range(&self, bounds: &[(Option<i128>, Option<i128>)]) -> (Option<i128>, Option<i128>) {
        let mut lo = Some(self.constant);
        let mut hi = Some(self.constant);
        for (v, c) in &self.coefficients {
            let (l, h) = bounds[*v];
            let (a, b) = if *c > 0 { (l, h) } else { (h, l) };
            lo = lo
                .zip(a)
                .and_then(|(x, a)| x.checked_add(a.checked_mul(*c)?));
            hi = hi
                .zip(b)
                .and_then(|(x, b)| x.checked_add(b.checked_mul(*c)?));
        }
        (lo, hi)
    }
}

/// An atom's unknown and how exactly it is defined.
#[derive(Clone, Debug)]
struct AtomVar {
    /// The variable of the atom's value.
    var: usize,
    /// The dividend as a row.
    dividend: Row,
    divisor: i128,
    is_mod: bool,
    /// True once the exact definition is in the system.
    exact: bool,
}

#[derive(Clone, Debug)]
enum MinMax {
    Min,
    Max,
}

#[derive(Clone, Debug, Default)]
struct Solver {
    symbols: FxHashMap<Symbol, usize>,
    atoms: FxHashMap<Atom, usize>,
    atom_vars: Vec<AtomVar>,
    var_count: usize,
    equalities: Vec<Row>,
    inequalities: Vec<Row>,
    min_max: Vec<(MinMax, Row, Row, Row)>,
    /// Initial bounds of variables (atom ranges).
    initial: BTreeMap<usize, (Option<i128>, Option<i128>)>,
    overflow: bool,
}

impl Solver {
    fn new_var(&mut self) -> usize {
        self.var_count += 1;
        self.var_count - 1
    }

    fn row(&mut self, lin: &Lin) -> Row {
        let mut row = Row::constant(lin.constant_term() as i128);
        for (atom, coefficient) in lin.terms() {
            let var = self.atom_var(atom);
            if row.add(&Row::var(var), coefficient as i128).is_none() {
                self.overflow = true;
            }
        }
        row
    }

    fn atom_var(&mut self, atom: &Atom) -> usize {
        match atom {
            Atom::Sym(s) => {
                if let Some(v) = self.symbols.get(s) {
                    return *v;
                }
                let v = self.new_var();
                self.symbols.insert(*s, v);
                v
            }
            Atom::Mod(x, divisor, sign) | Atom::Div(x, divisor, sign) => {
                if let Some(v) = self.atoms.get(atom) {
                    return *v;
                }
                let dividend = self.row(x);
                let var = self.new_var();
                self.atoms.insert(atom.clone(), var);
                let is_mod = matches!(atom, Atom::Mod(..));
                let d = *divisor as i128;
                let range = match (is_mod, sign) {
                    (true, Signedness::Signed) => (Some(-(d - 1)), Some(d - 1)),
                    (true, _) => (Some(0), Some(d - 1)),
                    (false, _) => (None, None),
                };
                self.initial.insert(var, range);
                self.atom_vars.push(AtomVar {
                    var,
                    dividend,
                    divisor: d,
                    is_mod,
                    exact: false,
                });
                if *sign == Signedness::Euclidean {
                    let index = self.atom_vars.len() - 1;
                    self.define(index);
                }
                var
            }
        }
    }

    /// Adds `dividend = divisor * q + r, 0 <= r < divisor` for the atom.
    fn define(&mut self, index: usize) {
        let AtomVar {
            var,
            dividend,
            divisor,
            is_mod,
            ..
        } = self.atom_vars[index].clone();
        self.atom_vars[index].exact = true;
        // `x mod V` and `x div V` of the same `x` share their definition:
        // the quotient of one is the other (else two thread ids `t` and
        // `t'` with equal `t div 4` and `t mod 4` are not proved equal
        // when they are unbounded).
        let partner = self
            .atom_vars
            .iter()
            .find(|a| {
                a.exact && a.is_mod != is_mod && a.divisor == divisor && a.dividend == dividend
            })
            .map(|a| a.var);
        let (q, r) = if is_mod {
            (partner.unwrap_or_else(|| self.new_var()), var)
        } else {
            (var, partner.unwrap_or_else(|| self.new_var()))
        };
        // dividend - divisor*q - r = 0
        let mut row = dividend;
        let ok = row.add(&Row::var(q), -divisor).is_some() && row.add(&Row::var(r), -1).is_some();
        if !ok {
            self.overflow = true;
            return;
        }
        self.equalities.push(row);
        self.inequalities.push(Row::var(r));
        let mut upper = Row::constant(divisor - 1);
        upper.add(&Row::var(r), -1).unwrap();
        self.inequalities.push(upper);
        if is_mod {
            self.relate_shifted_mods(index);
        }
    }

    /// For the exact `r = x mod V` of `atom_vars[index]` and each other
    /// exact `r' = (x + c) mod V` (the same `x` up to a constant `c`):
    /// `r' - r = c - V·k` with `k` an integer in the range the remainders'
    /// `[0, V)` allow. Implied by the two definitions, but through their
    /// unbounded quotients (`k = q' - q`), which the elimination of step 6
    /// cannot relate: `4·(i mod 3) + t = 4·((i + 1) mod 3) + t'` with `t`,
    /// `t'` in `[0, 4)` (two versions of a flat buffer, one thread's
    /// element each) is infeasible only by this `k`, bounded to `[0, 1]`.
    fn relate_shifted_mods(&mut self, index: usize) {
        let mine = self.atom_vars[index].clone();
        let shifted: Vec<(usize, i128)> = self
            .atom_vars
            .iter()
            .enumerate()
            .filter(|(i, a)| {
                *i != index
                    && a.exact
                    && a.is_mod
                    && a.divisor == mine.divisor
                    && a.dividend.coefficients == mine.dividend.coefficients
            })
            .filter_map(|(_, a)| {
                let c = a.dividend.constant.checked_sub(mine.dividend.constant)?;
                (c != 0).then_some((a.var, c))
            })
            .collect();
        let v = mine.divisor;
        for (other, c) in shifted {
            // V·k = c + r - r' with r, r' in [0, V - 1].
            let (Some(low), Some(high)) = (c.checked_sub(v - 1), c.checked_add(v - 1)) else {
                continue;
            };
            let (k_lo, k_hi) = (div_ceil(low, v), high.div_euclid(v));
            let k = self.new_var();
            // r' - r - c + V·k = 0
            let mut row = Row::var(other);
            row.constant = -c;
            let ok =
                row.add(&Row::var(mine.var), -1).is_some() && row.add(&Row::var(k), v).is_some();
            if !ok {
                continue;
            }
            self.equalities.push(row);
            let mut above = Row::var(k);
            above.constant = -k_lo;
            self.inequalities.push(above);
            let mut below = Row::constant(k_hi);
            below.add(&Row::var(k), -1).unwrap();
            self.inequalities.push(below);
        }
    }

    fn add(&mut self, c: &Constraint) {
        match c {
            Constraint::NonNeg(x) => {
                let row = self.row(x);
                self.inequalities.push(row);
            }
            Constraint::Zero(x) => {
                let row = self.row(x);
                self.equalities.push(row);
            }
            // Decided by branching before the solver (System::decide).
            Constraint::Holds(..) | Constraint::NonZero(_) => {}
            Constraint::Min(r, a, b) | Constraint::Max(r, a, b) => {
                let (r, a, b) = (self.row(r), self.row(a), self.row(b));
                // min: r <= a, r <= b; max: r >= a, r >= b.
                let sign = if matches!(c, Constraint::Min(..)) {
                    1
                } else {
                    -1
                };
                for other in [&a, &b] {
                    // sign * (other - r) >= 0
                    let mut row = Row::constant(0);
                    if row.add(other, sign).is_none() || row.add(&r, -sign).is_none() {
                        self.overflow = true;
                        continue;
                    }
                    self.inequalities.push(row);
                }
                let kind = if sign == 1 { MinMax::Min } else { MinMax::Max };
                self.min_max.push((kind, r, a, b));
            }
        }
    }

    /// Step 2: exact definitions for atoms whose dividend is provably
    /// nonnegative under `bounds`; true if it defined any.
    fn define_provable_atoms(&mut self, bounds: &[(Option<i128>, Option<i128>)]) -> bool {
        let mut defined = false;
        for index in 0..self.atom_vars.len() {
            if self.atom_vars[index].exact {
                continue;
            }
            let (lo, _) = self.atom_vars[index].dividend.range(bounds);
            if lo.is_some_and(|lo| lo >= 0) {
                self.define(index);
                defined = true;
            }
        }
        defined
    }

    /// The bounds after steps 3 and 4, per variable (`None` if infeasible).
    ///
    /// Propagation runs twice: on the rows as given, then after step 3 has
    /// substituted the equalities away. A substituted variable gets the
    /// range of its definition intersected with its bounds from the first
    /// run: the definition's range alone forgets how its variables are
    /// correlated (`t = 3q + r - 4` with `q` in `[1, 2]` and `r` in
    /// `[0, 2]` ranges over `[-1, 4]`, while the rows that named `t`
    /// bounded it by `[0, 4]`), and then `t mod 4` would not get its exact
    /// definition in step 2.
    fn propagated_bounds(mut self) -> Option<Vec<(Option<i128>, Option<i128>)>> {
        let mut direct = self.initial_bounds();
        if !self.propagate(&mut direct) {
            return None;
        }
        let mut substitutions = Vec::new();
        if !self.eliminate(&mut substitutions) {
            return None;
        }
        let mut bounds = direct.clone();
        if !self.propagate(&mut bounds) {
            return None;
        }
        // Substituted variables get the range of their definition, within
        // their direct bounds.
        for (v, by) in substitutions.iter().rev() {
            let (lo, hi) = by.range(&bounds);
            let (direct_lo, direct_hi) = direct[*v];
            let lo = match (lo, direct_lo) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            let hi = match (hi, direct_hi) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if lo.zip(hi).is_some_and(|(lo, hi)| lo > hi) {
                return None;
            }
            bounds[*v] = (lo, hi);
        }
        Some(bounds)
    }

    fn initial_bounds(&self) -> Vec<(Option<i128>, Option<i128>)> {
        let mut bounds = vec![(None, None); self.var_count];
        for (v, b) in &self.initial {
            bounds[*v] = *b;
        }
        bounds
    }

    /// Step 3. Returns false if infeasible.
    fn eliminate(&mut self, substitutions: &mut Vec<(usize, Row)>) -> bool {
        loop {
            let mut progress = false;
            let mut index = 0;
            while index < self.equalities.len() {
                let row = &mut self.equalities[index];
                if row.coefficients.is_empty() {
                    if row.constant != 0 {
                        return false;
                    }
                    self.equalities.remove(index);
                    continue;
                }
                let g = row
                    .coefficients
                    .values()
                    .fold(0i128, |g, c| gcd(g, c.abs()));
                if row.constant % g != 0 {
                    return false;
                }
                if g > 1 {
                    for c in row.coefficients.values_mut() {
                        *c /= g;
                    }
                    row.constant /= g;
                }
                let unit = row
                    .coefficients
                    .iter()
                    .find(|(_, c)| c.abs() == 1)
                    .map(|(v, c)| (*v, *c));
                let Some((v, c)) = unit else {
                    index += 1;
                    continue;
                };
                // c*v + rest = 0  =>  v = -c * rest (c = ±1).
                let mut by = self.equalities.remove(index);
                by.coefficients.remove(&v);
                let mut definition = Row::constant(0);
                definition.add(&by, -c);
                if !self.substitute_everywhere(v, &definition) {
                    self.overflow = true;
                    return true;
                }
                for (_, earlier) in substitutions.iter_mut() {
                    earlier.substitute(v, &definition);
                }
                substitutions.push((v, definition));
                progress = true;
            }
            if !progress {
                return true;
            }
        }
    }

    fn substitute_everywhere(&mut self, v: usize, by: &Row) -> bool {
        let mut ok = true;
        for row in self
            .equalities
            .iter_mut()
            .chain(self.inequalities.iter_mut())
        {
            ok &= row.substitute(v, by).is_some();
        }
        for (_, r, a, b) in self.min_max.iter_mut() {
            ok &= r.substitute(v, by).is_some();
            ok &= a.substitute(v, by).is_some();
            ok &= b.substitute(v, by).is_some();
        }
        if let Some(range) = self.initial.remove(&v) {
            // v's own range becomes a constraint on its definition.
            if let Some(lo) = range.0 {
                let mut row = by.clone();
                ok &= row.add(&Row::constant(-lo), 1).is_some();
                self.inequalities.push(row);
            }
            if let Some(hi) = range.1 {
                let mut row = Row::constant(hi);
                ok &= row.add(by, -1).is_some();
                self.inequalities.push(row);
            }
        }
        ok
    }

    /// Step 4 on `bounds`. Returns false if infeasible.
    fn propagate(&self, bounds: &mut [(Option<i128>, Option<i128>)]) -> bool {
        let mut rows: Vec<Row> = self.inequalities.clone();
        for e in &self.equalities {
            rows.push(e.clone());
            let mut negated = Row::constant(0);
            negated.add(e, -1);
            rows.push(negated);
        }
        for _ in 0..PROPAGATION_ROUNDS {
            let mut changed = false;
            for row in &rows {
                match tighten(row, bounds) {
                    None => return false,
                    Some(c) => changed |= c,
                }
            }
            for (kind, r, a, b) in &self.min_max {
                // min(a, b) >= min(lo a, lo b); max(a, b) <= max(hi a, hi b).
                let (ra, rb) = (a.range(bounds), b.range(bounds));
                let row = match kind {
                    MinMax::Min => ra.0.zip(rb.0).and_then(|(x, y)| {
                        let mut row = r.clone();
                        row.add(&Row::constant(-x.min(y)), 1)?;
                        Some(row)
                    }),
                    MinMax::Max => ra.1.zip(rb.1).and_then(|(x, y)| {
                        let mut row = Row::constant(x.max(y));
                        row.add(r, -1)?;
                        Some(row)
                    }),
                };
                if let Some(row) = row {
                    match tighten(&row, bounds) {
                        None => return false,
                        Some(c) => changed |= c,
                    }
                }
            }
            if !changed {
                break;
            }
        }
        true
    }

    /// Step 6: true if Fourier-Motzkin elimination of the variables `live`
    /// from the rows (inequalities, equalities both ways, the finite
    /// `bounds`) derives a negative constant; false if it does not or the
    /// rows exceed [`ELIMINATION_ROWS`] or overflow.
    fn eliminates_to_contradiction(
        &self,
        live: &[usize],
        bounds: &[(Option<i128>, Option<i128>)],
    ) -> bool {
        let mut rows: Vec<Row> = self.inequalities.clone();
        for e in &self.equalities {
            rows.push(e.clone());
            let mut negated = Row::constant(0);
            if negated.add(e, -1).is_none() {
                return false;
            }
            rows.push(negated);
        }
        for &v in live {
            let (lo, hi) = bounds[v];
            if let Some(lo) = lo {
                let mut row = Row::var(v);
                row.constant = -lo;
                rows.push(row);
            }
            if let Some(hi) = hi {
                let mut row = Row::constant(hi);
                row.coefficients.insert(v, -1);
                rows.push(row);
            }
        }
        let mut rows: Vec<Row> = rows.into_iter().filter_map(normalized).collect();
        let mut left: Vec<usize> = live.to_vec();
        loop {
            if rows
                .iter()
                .any(|r| r.coefficients.is_empty() && r.constant < 0)
            {
                return true;
            }
            rows.retain(|r| !r.coefficients.is_empty());
            rows.sort_by(|a, b| (&a.coefficients, a.constant).cmp(&(&b.coefficients, b.constant)));
            rows.dedup_by(|a, b| a.coefficients == b.coefficients && a.constant == b.constant);
            // The variable whose elimination adds the fewest rows.
            let cost = |v: usize| {
                let (mut pos, mut neg) = (0usize, 0usize);
                for r in &rows {
                    match r.coefficients.get(&v) {
                        Some(c) if *c > 0 => pos += 1,
                        Some(_) => neg += 1,
                        None => {}
                    }
                }
                pos * neg
            };
            let Some(at) = (0..left.len()).min_by_key(|&i| cost(left[i])) else {
                return false;
            };
            let v = left.swap_remove(at);
            let (with, mut next): (Vec<Row>, Vec<Row>) = rows
                .into_iter()
                .partition(|r| r.coefficients.contains_key(&v));
            let (pos, neg): (Vec<&Row>, Vec<&Row>) =
                with.iter().partition(|r| r.coefficients[&v] > 0);
            for p in &pos {
                for n in &neg {
                    // a*p + b*n with a, b > 0 cancels v.
                    let (cp, cn) = (p.coefficients[&v], -n.coefficients[&v]);
                    let mut row = Row::constant(0);
                    if row.add(p, cn).is_none() || row.add(n, cp).is_none() {
                        return false;
                    }
                    if let Some(row) = normalized(row) {
                        next.push(row);
                    }
                    if next.len() > ELIMINATION_ROWS {
                        return false;
                    }
                }
            }
            rows = next;
        }
    }

    /// Step 3a: each equality `sum a_v x_v + c = 0` whose coefficients
    /// split into a part `B` that is a multiple of some `g > 1` and a part
    /// `S` that is not, where `sum_S a_v x_v + c` (a multiple of `g`, since
    /// the `B` part is) can take only one multiple `k g` of `g` over the
    /// bounds, becomes the two equalities `sum_S a_v x_v + c - k g = 0`
    /// and `sum_B (a_v / g) x_v + k = 0`; none means infeasible. Exact:
    /// both hold in every integer solution, and together they imply the
    /// original. This decides the linearized index of a nest of
    /// block-stride loops, `16 (ty + 2 τ_r) + tx + 4 τ_c`, between two
    /// threads (`0 <= tx < 4`: the two `tx` are equal, then the `τ_c`, ...),
    /// which propagation and Fourier-Motzkin elimination, over the reals,
    /// cannot. Returns false if infeasible.
    fn split_by_modulus(&mut self) -> bool {
        let mut bounds = self.initial_bounds();
        if !self.propagate(&mut bounds) {
            return false;
        }
        let mut index = 0;
        // Each split leaves rows with fewer variables: bounded by the
        // variable count per equality; the cap keeps it so on overflow.
        let mut budget = 4 * self.var_count + 16;
        while index < self.equalities.len() && budget > 0 {
            budget -= 1;
            match split_row(&self.equalities[index], &bounds) {
                Split::None => index += 1,
                Split::Infeasible => return false,
                Split::Into(small, big) => {
                    self.equalities[index] = small;
                    self.equalities.push(big);
                }
            }
        }
        true
    }

    /// Steps 3-6.
    fn solve(mut self) -> Feasibility {
        if self.overflow {
            return Feasibility::Feasible { exact: false };
        }
        if !self.split_by_modulus() {
            return Feasibility::Infeasible;
        }
        let mut substitutions = Vec::new();
        if !self.eliminate(&mut substitutions) {
            return Feasibility::Infeasible;
        }
        if self.overflow {
            return Feasibility::Feasible { exact: false };
        }
        let mut bounds = self.initial_bounds();
        if !self.propagate(&mut bounds) {
            return Feasibility::Infeasible;
        }
        // 5. Enumerate the variables still in a constraint.
        let mut live: Vec<usize> = Vec::new();
        for row in self.equalities.iter().chain(&self.inequalities) {
            for v in row.coefficients.keys() {
                if !live.contains(v) {
                    live.push(*v);
                }
            }
        }
        for (_, r, a, b) in &self.min_max {
            for row in [r, a, b] {
                for v in row.coefficients.keys() {
                    if !live.contains(v) {
                        live.push(*v);
                    }
                }
            }
        }
        let all_exact = self.atom_vars.iter().all(|a| a.exact);
        // Each set of variables that share no row with the others is
        // feasible on its own or not: the system is feasible if every one
        // is. A bounded set is enumerated even when another is unbounded
        // (the thread ids and offsets of two accesses beside a branch
        // condition on a trip count), which alone would exceed the limit.
        let mut assignment = vec![0i128; self.var_count];
        let mut exact = all_exact;
        let mut eliminated = false;
        for part in self.components(&live) {
            let mut size: u128 = 1;
            for v in &part {
                match bounds[*v] {
                    (Some(lo), Some(hi)) => {
                        size = size.saturating_mul((hi - lo + 1) as u128);
                    }
                    _ => size = u128::MAX,
                }
            }
            if size > ENUMERATION_LIMIT {
                // 6. (on all the rows, once: a contradiction anywhere).
                if !eliminated && self.eliminates_to_contradiction(&live, &bounds) {
                    return Feasibility::Infeasible;
                }
                eliminated = true;
                exact = false;
                continue;
            }
            if !self.enumerate(&part, 0, &bounds, &mut assignment) {
                return Feasibility::Infeasible;
            }
        }
        Feasibility::Feasible { exact }
    }

    /// `live` split into the sets of variables that share a row (an
    /// equality, an inequality or a min / max), each in `live`'s order,
    /// the sets in the order of their first variable.
    fn components(&self, live: &[usize]) -> Vec<Vec<usize>> {
        // Union-find over positions in `live`.
        let mut parent: Vec<usize> = (0..live.len()).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let position = |v: &usize| live.iter().position(|l| l == v);
        let mut join = |vars: &mut dyn Iterator<Item = &usize>| {
            let mut first: Option<usize> = None;
            for v in vars {
                let Some(i) = position(v) else { continue };
                match first {
                    None => first = Some(i),
                    Some(f) => {
                        let (a, b) = (root(&mut parent, f), root(&mut parent, i));
                        parent[b] = a;
                    }
                }
            }
        };
        for row in self.equalities.iter().chain(&self.inequalities) {
            join(&mut row.coefficients.keys());
        }
        for (_, r, a, b) in &self.min_max {
            join(
                &mut r
                    .coefficients
                    .keys()
                    .chain(a.coefficients.keys())
                    .chain(b.coefficients.keys()),
            );
        }
        let mut parts: Vec<(usize, Vec<usize>)> = Vec::new();
        for (i, v) in live.iter().enumerate() {
            let r = root(&mut parent, i);
            match parts.iter_mut().find(|(p, _)| *p == r) {
                Some((_, part)) => part.push(*v),
                None => parts.push((r, vec![*v])),
            }
        }
        parts.into_iter().map(|(_, part)| part).collect()
    }

    fn satisfied(&self, assignment: &[i128], assigned: &[usize]) -> bool {
        let value = |row: &Row| -> Option<i128> {
            let mut total = row.constant;
            for (v, c) in &row.coefficients {
                if !assigned.contains(v) {
                    return None;
                }
                total += c * assignment[*v];
            }
            Some(total)
        };
        for row in &self.equalities {
            if value(row).is_some_and(|x| x != 0) {
                return false;
            }
        }
        for row in &self.inequalities {
            if value(row).is_some_and(|x| x < 0) {
                return false;
            }
        }
        for (kind, r, a, b) in &self.min_max {
            if let (Some(r), Some(a), Some(b)) = (value(r), value(a), value(b)) {
                let expected = match kind {
                    MinMax::Min => a.min(b),
                    MinMax::Max => a.max(b),
                };
                if r != expected {
                    return false;
                }
            }
        }
        true
    }

    fn enumerate(
        &self,
        live: &[usize],
        depth: usize,
        bounds: &[(Option<i128>, Option<i128>)],
        assignment: &mut Vec<i128>,
    ) -> bool {
        if depth == live.len() {
            return self.satisfied(assignment, live);
        }
        let v = live[depth];
        let (Some(lo), Some(hi)) = bounds[v] else {
            return true;
        };
        for x in lo..=hi {
            assignment[v] = x;
            if self.satisfied(assignment, &live[..=depth])
                && self.enumerate(live, depth + 1, bounds, assignment)
            {
                return true;
            }
        }
        false
    }
}

/// Tightens `bounds` with `row >= 0`: `Some(changed)`, or `None` if
/// infeasible.
fn tighten(row: &Row, bounds: &mut [(Option<i128>, Option<i128>)]) -> Option<bool> {
    let (_, hi) = row.range(bounds);
    if hi.is_some_and(|hi| hi < 0) {
        return None;
    }
    let mut changed = false;
    for (v, c) in &row.coefficients {
        // c*v >= -(the rest), at the rest's largest value.
        let mut rest = row.clone();
        rest.coefficients.remove(v);
        let Some(rest_hi) = rest.range(bounds).1 else {
            continue;
        };
        let need = -rest_hi;
        let (lo, hi) = bounds[*v];
        if *c > 0 {
            let new = div_ceil(need, *c);
            if new.abs() < BOUND_LIMIT && lo.is_none_or(|lo| new > lo) {
                bounds[*v].0 = Some(new);
                changed = true;
            }
        } else {
            let new = div_floor(need, *c);
            if new.abs() < BOUND_LIMIT && hi.is_none_or(|hi| new < hi) {
                bounds[*v].1 = Some(new);
                changed = true;
            }
        }
        if let (Some(lo), Some(hi)) = bounds[*v] {
            if lo > hi {
                return None;
            }
        }
    }
    Some(changed)
}

/// What step 3a does with one equality.
enum Split {
    None,
    Infeasible,
    /// The `S` part (minus `k g`) and the `B` part divided by `g` (plus `k`).
    Into(Row, Row),
}

/// Step 3a on one equality `row = 0` (see [`Solver::split_by_modulus`]):
/// the candidates for `g` are the gcds of the coefficients at least as
/// large as each coefficient magnitude in the row, smallest part `S` first.
fn split_row(row: &Row, bounds: &[(Option<i128>, Option<i128>)]) -> Split {
    // A variable of one value is part of the constant (a thread id of a
    // dimension of size 1, an inner loop of one trip: `16 τc` with `τc`
    // in `[0, 0]` would otherwise keep 16 among the candidates' gcds).
    let mut folded = Row::constant(row.constant);
    for (v, c) in &row.coefficients {
        match bounds[*v] {
            (Some(lo), Some(hi)) if lo == hi => {
                let Some(term) = c.checked_mul(lo) else {
                    return Split::None;
                };
                let Some(sum) = folded.constant.checked_add(term) else {
                    return Split::None;
                };
                folded.constant = sum;
            }
            _ => {
                folded.coefficients.insert(*v, *c);
            }
        }
    }
    let row = &folded;
    let mut magnitudes: Vec<i128> = row.coefficients.values().map(|c| c.abs()).collect();
    magnitudes.sort_unstable();
    magnitudes.dedup();
    for &m in magnitudes.iter().skip(1) {
        let g = row
            .coefficients
            .values()
            .filter(|c| c.abs() >= m)
            .fold(0i128, |g, c| gcd(g, c.abs()));
        if g <= 1 {
            continue;
        }
        let mut small = Row::constant(row.constant);
        let mut big = Row::constant(0);
        for (v, c) in &row.coefficients {
            if c % g == 0 {
                big.coefficients.insert(*v, c / g);
            } else {
                small.coefficients.insert(*v, *c);
            }
        }
        if small.coefficients.is_empty() || big.coefficients.is_empty() {
            continue;
        }
        let (Some(lo), Some(hi)) = small.range(bounds) else {
            continue;
        };
        let (first, last) = (div_ceil(lo, g), div_floor(hi, g));
        if first > last {
            return Split::Infeasible;
        }
        if first != last {
            continue;
        }
        let Some(kg) = first.checked_mul(g) else {
            continue;
        };
        small.constant -= kg;
        big.constant = first;
        return Split::Into(small, big);
    }
    Split::None
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}
