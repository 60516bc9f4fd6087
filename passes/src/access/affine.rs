//! Affine forms over symbols, with remainders and quotients by constants:
//! the index algebra of [`super`].
//!
//! A [`Lin`] is `constant + sum(coefficient * atom)`. An [`Atom`] is a
//! [`Symbol`] (an SSA value, a loop's iteration number, ...) or
//! `x mod V` / `x floordiv V` of another form `x` and a constant `V > 0`, so
//! `(i mod 2) * 64 + j` is one form. Forms are values: equal forms compare
//! equal (atoms are kept sorted, zero coefficients dropped), and arithmetic
//! returns `None` on i64 overflow instead of a wrong form.

use itertools::{EitherOrBoth, Itertools};
use std::{fmt, rc::Rc};

/// A symbol of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Symbol {
    /// An SSA value (its `MlirValue` pointer), as it is where the form is
    /// used: a function argument, a load, a thread id, a loop bound.
    Value(usize),
    /// An SSA value as it was at an earlier execution of its defining op (an
    /// access carried across a loop's back edge): no relation to the value's
    /// current one is known.
    Stale(usize),
    /// The same SSA value in another thread (cross-thread comparisons).
    OtherThread(usize),
    /// `τ_L`: the number of iterations of the `scf.for` `L` (its op pointer)
    /// that ran before the current one, so that `iv = lb + step * τ_L`.
    Iteration(usize),
    /// `T_L`: the trip count of the `scf.for` `L`.
    Trips(usize),
    /// A fresh unknown (a quotient, a summary of many iterations), numbered
    /// by its owner.
    Fresh(u32),
    /// A fresh unknown that is nonnegative, numbered by its owner: an inner
    /// loop's trip count or iteration in an earlier iteration of an outer
    /// loop (the hazard check's back edge).
    Counter(u32),
}

/// How a remainder treats a negative dividend (`arith.remui` / `remsi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Signedness {
    /// `arith.remui`, `arith.andi` with `2^k - 1`: the dividend as unsigned.
    Unsigned,
    /// `arith.remsi`: the sign of the dividend.
    Signed,
    /// Euclidean (the result is in `[0, V)` for every dividend: `andi` with a
    /// mask, `floordivsi`).
    Euclidean,
}

/// An atom of a form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// A symbol.
    Sym(Symbol),
    /// `x mod V`, `V > 0`. For a nonnegative `x` every [`Signedness`] gives
    /// the same value in `[0, V)`.
    Mod(Rc<Lin>, i64, Signedness),
    /// `x div V`, `V > 0`: `floor(x / V)` for [`Signedness::Euclidean`]
    /// (`arith.floordivsi`, `shrsi`), truncation towards zero for `Signed`
    /// (`arith.divsi`), unsigned division for `Unsigned` (`divui`, `shrui`);
    /// all three agree on a nonnegative `x`.
    Div(Rc<Lin>, i64, Signedness),
}

/// `constant + sum(coefficient * atom)`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lin {
    /// Sorted by atom, no zero coefficient, no atom twice. A sorted vector
    /// rather than a map: forms have a few terms, and are cloned, hashed
    /// and compared far more often than they are built.
    terms: Terms,
    constant: i64,
}

/// The terms of a [`Lin`], shared: forms are cloned far more often than
/// built (a clone is a count, not a copy of the terms).
type Terms = Rc<[(Atom, i64)]>;

thread_local! {
    /// The terms of every constant form: one allocation per thread.
    static NO_TERMS: Terms = Rc::from(Vec::new());
}

/// `terms` as [`Terms`] (the shared empty list when there are none).
fn shared(terms: Vec<(Atom, i64)>) -> Terms {
    if terms.is_empty() {
        NO_TERMS.with(Rc::clone)
    } else {
        Rc::from(terms)
    }
}

impl Default for Lin {
    fn default() -> Self {
        Lin::constant(0)
    }
}

impl Lin {
    /// The constant `c`.
    pub fn constant(c: i64) -> Self {
        Lin {
            terms: NO_TERMS.with(Rc::clone),
            constant: c,
        }
    }

    /// The symbol `s`.
    pub fn symbol(s: Symbol) -> Self {
        Self::atom(Atom::Sym(s))
    }

    /// The atom `a`, normalized (a remainder or quotient of a constant is
    /// that constant).
    pub fn atom(a: Atom) -> Self {
        match &a {
            Atom::Mod(x, v, sign) => {
                if let Some(c) = x.as_constant() {
                    return match sign {
                        Signedness::Signed => Lin::constant(c % v),
                        Signedness::Euclidean => Lin::constant(c.rem_euclid(*v)),
                        Signedness::Unsigned => Lin::constant(((c as u64) % (*v as u64)) as i64),
                    };
                }
                if *v == 1 {
                    return Lin::constant(0);
                }
                if x.exactly_divisible(*v, *sign) {
                    return Lin::constant(0);
                }
            }
            Atom::Div(x, v, sign) => {
                if *v == 1 {
                    return (**x).clone();
                }
                if x.exactly_divisible(*v, *sign) {
                    return Lin {
                        terms: shared(x.terms.iter().map(|(a, c)| (a.clone(), c / v)).collect()),
                        constant: x.constant / v,
                    };
                }
                if let Some(c) = x.as_constant() {
                    return match sign {
                        Signedness::Signed => Lin::constant(c / v),
                        Signedness::Euclidean => Lin::constant(c.div_euclid(*v)),
                        Signedness::Unsigned => Lin::constant(((c as u64) / (*v as u64)) as i64),
                    };
                }
            }
            Atom::Sym(_) => {}
        }
        Lin {
            terms: shared(vec![(a, 1)]),
            constant: 0,
        }
    }

    /// True if `v` divides the constant and every coefficient, so that
    /// `self div v` is exact (`(2τ) div 2 = τ`, `(2τ) mod 2 = 0`, the
    /// iteration number of a loop of step 2): always for a signed or
    /// Euclidean division; for an unsigned one, when the form is
    /// nonnegative by its shape alone (a nonnegative constant plus
    /// iteration numbers and trip counts with positive coefficients; a
    /// negative dividend divides differently as an unsigned number).
    fn exactly_divisible(&self, v: i64, sign: Signedness) -> bool {
        v > 1
            && !self.terms.is_empty()
            && self.constant % v == 0
            && self.terms.iter().all(|(_, c)| c % v == 0)
            && (sign != Signedness::Unsigned
                || (self.constant >= 0
                    && self.terms.iter().all(|(a, c)| {
                        *c > 0 && matches!(a, Atom::Sym(Symbol::Iteration(_) | Symbol::Trips(_)))
                    })))
    }

    /// `x mod v` (normalized).
    pub fn modulo(x: Lin, v: i64, sign: Signedness) -> Self {
        Self::atom(Atom::Mod(Rc::new(x), v, sign))
    }

    /// `x div v` (normalized).
    pub fn div(x: Lin, v: i64, sign: Signedness) -> Self {
        Self::atom(Atom::Div(Rc::new(x), v, sign))
    }

    /// The constant term.
    pub fn constant_term(&self) -> i64 {
        self.constant
    }

    /// The atoms with their (nonzero) coefficients, in order.
    pub fn terms(&self) -> impl Iterator<Item = (&Atom, i64)> {
        self.terms.iter().map(|(a, c)| (a, *c))
    }

    /// The coefficient of `atom` (0 if absent).
    pub fn coefficient(&self, atom: &Atom) -> i64 {
        self.terms
            .binary_search_by(|(a, _)| a.cmp(atom))
            .map_or(0, |k| self.terms[k].1)
    }

    /// `Some(c)` if the form is the constant `c`.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// `Some(s)` if the form is exactly the symbol `s`.
    pub fn as_symbol(&self) -> Option<Symbol> {
        match &*self.terms {
            [(Atom::Sym(s), 1)] if self.constant == 0 => Some(*s),
            _ => None,
        }
    }

    /// `self + factor * other`; `None` on overflow.
    pub fn plus(&self, other: &Lin, factor: i64) -> Option<Lin> {
        let constant = self
            .constant
            .checked_add(other.constant.checked_mul(factor)?)?;
        // Merge of the two sorted term lists.
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        for pair in self
            .terms
            .iter()
            .merge_join_by(other.terms.iter(), |(a, _), (b, _)| a.cmp(b))
        {
            let (atom, c) = match pair {
                EitherOrBoth::Left((atom, a)) => (atom, *a),
                EitherOrBoth::Right((atom, b)) => (atom, b.checked_mul(factor)?),
                EitherOrBoth::Both((atom, a), (_, b)) => {
                    (atom, a.checked_add(b.checked_mul(factor)?)?)
                }
            };
            if c != 0 {
                terms.push((atom.clone(), c));
            }
        }
        Some(Lin {
            terms: shared(terms),
            constant,
        })
    }

    /// `self + c`; `None` on overflow.
    pub fn offset(&self, c: i64) -> Option<Lin> {
        let mut out = self.clone();
        out.constant = out.constant.checked_add(c)?;
        Some(out)
    }

    /// The greatest common divisor of the coefficients (0 for a constant).
    pub fn coefficient_gcd(&self) -> u64 {
        self.terms
            .iter()
            .fold(0u64, |g, (_, c)| gcd_u64(g, c.unsigned_abs()))
    }

    /// The tightest form of the integer constraint `self >= 0`: with `g`
    /// the gcd of the coefficients (`g >= 2`), every coefficient divided by
    /// `g` and the constant rounded down (`2x + 1 >= 0` is `x >= 0` over the
    /// integers; every atom takes integer values). `self` itself otherwise
    /// (taken by value: most constraints are already tight, and are kept
    /// without a copy).
    pub fn tightened_nonneg(mut self) -> Lin {
        let g = self.coefficient_gcd();
        if g < 2 {
            return self;
        }
        let g = g as i64;
        self.terms = shared(self.terms.iter().map(|(a, c)| (a.clone(), c / g)).collect());
        self.constant = self.constant.div_euclid(g);
        self
    }

    /// `self / d` where every coefficient and the constant are multiples
    /// of `d > 0` (the quotient is then exact for every value of the
    /// atoms); `None` otherwise.
    pub fn exact_quotient(&self, d: i64) -> Option<Lin> {
        if d <= 0 || self.constant % d != 0 || self.terms.iter().any(|(_, c)| c % d != 0) {
            return None;
        }
        Some(Lin {
            terms: shared(self.terms.iter().map(|(a, c)| (a.clone(), c / d)).collect()),
            constant: self.constant / d,
        })
    }

    /// `factor * self`; `None` on overflow.
    pub fn scaled(&self, factor: i64) -> Option<Lin> {
        Lin::default().plus(self, factor)
    }

    /// True if the symbol `s` occurs (also inside remainders and quotients).
    pub fn mentions(&self, s: Symbol) -> bool {
        self.terms.iter().any(|(atom, _)| match atom {
            Atom::Sym(t) => *t == s,
            Atom::Mod(x, _, _) | Atom::Div(x, _, _) => x.mentions(s),
        })
    }

    /// Every symbol that occurs, also inside remainders and quotients.
    pub fn symbols(&self, out: &mut Vec<Symbol>) {
        for (atom, _) in self.terms.iter() {
            match atom {
                Atom::Sym(s) => {
                    if !out.contains(s) {
                        out.push(*s)
                    }
                }
                Atom::Mod(x, _, _) | Atom::Div(x, _, _) => x.symbols(out),
            }
        }
    }

    /// The form with every symbol renamed by `rename`, which must be
    /// injective on the form's symbols (so no two terms merge).
    pub fn renamed(&self, rename: &dyn Fn(Symbol) -> Symbol) -> Lin {
        let mut terms: Vec<(Atom, i64)> = self
            .terms
            .iter()
            .map(|(atom, coefficient)| {
                let atom = match atom {
                    Atom::Sym(s) => Atom::Sym(rename(*s)),
                    Atom::Mod(x, v, sign) => Atom::Mod(Rc::new(x.renamed(rename)), *v, *sign),
                    Atom::Div(x, v, sign) => Atom::Div(Rc::new(x.renamed(rename)), *v, *sign),
                };
                (atom, *coefficient)
            })
            .collect();
        // Injective: no two atoms merge, but their order may change.
        terms.sort_by(|(a, _), (b, _)| a.cmp(b));
        Lin {
            terms: shared(terms),
            constant: self.constant,
        }
    }

    /// The form with every symbol `s` for which `map(s)` is `Some` replaced
    /// by that form (inside remainders and quotients too); `None` on
    /// overflow.
    pub fn substitute(&self, map: &dyn Fn(Symbol) -> Option<Lin>) -> Option<Lin> {
        Some(self.substituted(map)?.unwrap_or_else(|| self.clone()))
    }

    /// [`Lin::substitute`], with `Some(None)` when `map` replaces no symbol
    /// of the form (the form stays as it is, and is not copied). An atom
    /// replaced by one atom plus a constant (`τ -> τ - 1` at a back edge, a
    /// value renamed stale, a version `(τ + 1) mod V` whose dividend
    /// shifted) is replaced in place and moves the constant (the terms are
    /// sorted again after a change of atom); only the terms replaced by
    /// other forms are merged back in.
    pub fn substituted(&self, map: &dyn Fn(Symbol) -> Option<Lin>) -> Option<Option<Lin>> {
        // The terms with the renames and shifts applied, and the constant
        // they moved; `None` while there is none.
        let mut shifted: Option<(Vec<(Atom, i64)>, i64)> = None;
        let mut renamed = false;
        // Terms (by index) replaced by other forms.
        let mut moved: Vec<(usize, Lin)> = Vec::new();
        for (k, (atom, coefficient)) in self.terms.iter().enumerate() {
            let by = match atom {
                Atom::Sym(s) => map(*s),
                Atom::Mod(x, v, sign) => x.substituted(map)?.map(|y| Lin::modulo(y, *v, *sign)),
                Atom::Div(x, v, sign) => x.substituted(map)?.map(|y| Lin::div(y, *v, *sign)),
            };
            let Some(by) = by else {
                continue;
            };
            // One atom plus a constant (a symbol renamed or shifted, a
            // remainder of a substituted dividend): in place.
            if let [(replacement, 1)] = &*by.terms {
                let (terms, constant) =
                    shifted.get_or_insert_with(|| (self.terms.to_vec(), self.constant));
                *constant = constant.checked_add(coefficient.checked_mul(by.constant)?)?;
                if replacement != atom {
                    terms[k].0 = replacement.clone();
                    renamed = true;
                }
                continue;
            }
            moved.push((k, by));
        }
        if moved.is_empty() {
            return Some(match shifted {
                None => None,
                Some((terms, constant)) if renamed => Some(Lin::resorted(terms, constant)?),
                Some((terms, constant)) => Some(Lin {
                    terms: shared(terms),
                    constant,
                }),
            });
        }
        // The renames and shifts left every term in place: indices still
        // hold.
        let (terms, constant) = shifted.unwrap_or_else(|| (self.terms.to_vec(), self.constant));
        let kept: Vec<(Atom, i64)> = terms
            .into_iter()
            .enumerate()
            .filter(|(k, _)| !moved.iter().any(|(j, _)| j == k))
            .map(|(_, term)| term)
            .collect();
        let mut out = if renamed {
            Lin::resorted(kept, constant)?
        } else {
            Lin {
                terms: shared(kept),
                constant,
            }
        };
        for (k, by) in &moved {
            out = out.plus(by, self.terms[*k].1)?;
        }
        Some(Some(out))
    }

    /// The form of `terms` and `constant` after atoms were renamed in place:
    /// the term invariant restored (sorted by atom, no atom twice, no zero
    /// coefficient); `None` on overflow.
    fn resorted(mut terms: Vec<(Atom, i64)>, constant: i64) -> Option<Lin> {
        terms.sort_by(|(a, _), (b, _)| a.cmp(b));
        let mut merged: Vec<(Atom, i64)> = Vec::with_capacity(terms.len());
        for (atom, c) in terms {
            match merged.last_mut() {
                Some((last, d)) if *last == atom => *d = d.checked_add(c)?,
                _ => merged.push((atom, c)),
            }
        }
        merged.retain(|(_, c)| *c != 0);
        Some(Lin {
            terms: shared(merged),
            constant,
        })
    }

    /// The form with the symbol `s` replaced by `by`; `None` on overflow.
    pub fn replace(&self, s: Symbol, by: &Lin) -> Option<Lin> {
        if !self.mentions(s) {
            return Some(self.clone());
        }
        self.substitute(&|t| (t == s).then(|| by.clone()))
    }

    /// The value of the form when `value(s)` gives every symbol; `None` on
    /// overflow, an unknown symbol, or a division the form cannot evaluate.
    pub fn evaluate(&self, value: &dyn Fn(Symbol) -> Option<i64>) -> Option<i64> {
        let mut total = self.constant;
        for (atom, coefficient) in self.terms.iter() {
            let x = match atom {
                Atom::Sym(s) => value(*s)?,
                Atom::Mod(x, v, sign) => {
                    let x = x.evaluate(value)?;
                    match sign {
                        Signedness::Signed => x % v,
                        Signedness::Euclidean => x.rem_euclid(*v),
                        Signedness::Unsigned => ((x as u64) % (*v as u64)) as i64,
                    }
                }
                Atom::Div(x, v, sign) => {
                    let x = x.evaluate(value)?;
                    match sign {
                        Signedness::Signed => x / v,
                        Signedness::Euclidean => x.div_euclid(*v),
                        Signedness::Unsigned => ((x as u64) / (*v as u64)) as i64,
                    }
                }
            };
            total = total.checked_add(x.checked_mul(*coefficient)?)?;
        }
        Some(total)
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbol::Value(v) => write!(f, "v{:x}", v & 0xffff),
            Symbol::Stale(v) => write!(f, "old_v{:x}", v & 0xffff),
            Symbol::OtherThread(v) => write!(f, "v{:x}'", v & 0xffff),
            Symbol::Iteration(l) => write!(f, "it{:x}", l & 0xffff),
            Symbol::Trips(l) => write!(f, "trips{:x}", l & 0xffff),
            Symbol::Fresh(n) => write!(f, "f{n}"),
            Symbol::Counter(n) => write!(f, "c{n}"),
        }
    }
}

impl fmt::Display for Lin {
    /// A debugging form: `2*it1 + (v3 + 1) mod 3 + 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (atom, coefficient) in self.terms.iter() {
            if !first {
                write!(f, " + ")?;
            }
            first = false;
            if *coefficient != 1 {
                write!(f, "{coefficient}*")?;
            }
            match atom {
                Atom::Sym(s) => write!(f, "{s}")?,
                Atom::Mod(x, v, _) => write!(f, "({x}) mod {v}")?,
                Atom::Div(x, v, _) => write!(f, "({x}) div {v}")?,
            }
        }
        if first {
            write!(f, "{}", self.constant)
        } else if self.constant != 0 {
            write!(f, " + {}", self.constant)
        } else {
            Ok(())
        }
    }
}

/// The greatest common divisor of `a` and `b` (`gcd(0, 0) = 0`).
pub(crate) fn gcd_u64(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd_u64(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: usize) -> Lin {
        Lin::symbol(Symbol::Value(n))
    }

    #[test]
    fn forms_are_canonical() {
        let a = s(1).plus(&s(2), 3).unwrap().offset(4).unwrap();
        let b = s(2)
            .scaled(3)
            .unwrap()
            .plus(&s(1), 1)
            .unwrap()
            .offset(4)
            .unwrap();
        assert_eq!(a, b);
        // x - x = 0.
        assert_eq!(a.plus(&b, -1).unwrap().as_constant(), Some(0));
        assert_eq!(s(7).as_symbol(), Some(Symbol::Value(7)));
        assert_eq!(s(7).offset(1).unwrap().as_symbol(), None);
    }

    #[test]
    fn remainders_and_quotients_of_constants_fold() {
        assert_eq!(
            Lin::modulo(Lin::constant(-1), 3, Signedness::Euclidean),
            Lin::constant(2)
        );
        assert_eq!(
            Lin::modulo(Lin::constant(-1), 3, Signedness::Signed),
            Lin::constant(-1)
        );
        assert_eq!(
            Lin::div(Lin::constant(-7), 2, Signedness::Euclidean),
            Lin::constant(-4)
        );
        assert_eq!(Lin::div(s(1), 1, Signedness::Signed), s(1));
        assert_eq!(Lin::modulo(s(1), 1, Signedness::Unsigned), Lin::constant(0));
    }

    #[test]
    fn substitution_reaches_inside_remainders() {
        let iv = Symbol::Iteration(9);
        // (it + 2) mod 3 at it = it - 2 is it mod 3; at it = 4 it is 0.
        let version = Lin::modulo(Lin::symbol(iv).offset(2).unwrap(), 3, Signedness::Unsigned);
        let back = version
            .replace(iv, &Lin::symbol(iv).offset(-2).unwrap())
            .unwrap();
        assert_eq!(back, Lin::modulo(Lin::symbol(iv), 3, Signedness::Unsigned));
        assert_eq!(
            version.replace(iv, &Lin::constant(4)).unwrap(),
            Lin::constant(0)
        );
        assert!(version.mentions(iv) && !version.mentions(Symbol::Value(1)));
        assert_eq!(version.evaluate(&|_| Some(5)), Some(1));
    }

    #[test]
    fn overflow_is_none() {
        assert!(Lin::constant(i64::MAX).offset(1).is_none());
        assert!(s(1).scaled(i64::MAX).unwrap().scaled(2).is_none());
    }
}
