//! The specialised offset function of the item form: the `Plan`'s loop
//! unrolled at expansion time into straight-line arithmetic with constant
//! sizes, dropping work that is statically zero (size-1 dims, `t = 1`
//! tiles, tiles that cover a whole dimension). Division and remainder by
//! constant powers of two then compile to shifts and masks.

use layout_core::{Plan, COMBINE_ENTRY};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::valid::Valid;

/// A working coordinate: zero, or a variable below `bound`.
#[derive(Clone)]
enum Term {
    Zero,
    Var(Ident),
}

struct Gen {
    stmts: Vec<TokenStream>,
    next: usize,
}

impl Gen {
    fn bind(&mut self, expr: TokenStream) -> Term {
        let name = format_ident!("t{}", self.next);
        self.next += 1;
        self.stmts
            .push(quote!(let #name: ::core::primitive::usize = #expr;));
        Term::Var(name)
    }
}

fn lit(n: u64) -> Literal {
    Literal::u64_unsuffixed(n)
}

/// The body (a block) of `const fn offset(index: [usize; R]) -> usize`.
pub fn offset_body(krate: &TokenStream, v: &Valid) -> TokenStream {
    let Ok(plan) = Plan::new(&v.shape) else {
        return quote!({
            let _ = index;
            0
        });
    };
    let p = plan.parts();
    let sizes = plan.covered_sizes();
    let rank = v.rank;
    let idx: Vec<Ident> = (0..rank).map(|d| format_ident!("i{d}")).collect();
    let mut g = Gen {
        stmts: Vec::new(),
        next: 0,
    };
    let mut e: Vec<Term> = p
        .perm
        .iter()
        .map(|&d| {
            if p.dims[d as usize] == 1 {
                Term::Zero
            } else {
                Term::Var(idx[d as usize].clone())
            }
        })
        .collect();
    let mut start = 0usize;
    for level in 0..p.tile_ends.len() {
        let end = p.tile_ends[level] as usize;
        let tile = &p.tile[start..end];
        let k = tile.len();
        for _ in 0..p.prepend[level] {
            e.insert(0, Term::Zero);
        }
        let base = e.len() - k;
        let mut grid = Vec::new();
        let mut inner = Vec::new();
        let mut acc = Term::Zero;
        let mut bound: u64 = 1;
        for j in 0..k {
            let size = sizes[start + j];
            bound = bound.saturating_mul(size);
            let s = lit(size);
            acc = match (&acc, &e[base + j]) {
                (Term::Zero, t) => t.clone(),
                (Term::Var(a), Term::Zero) => {
                    if size == 1 {
                        acc.clone()
                    } else {
                        g.bind(quote!(#a * #s))
                    }
                }
                (Term::Var(a), Term::Var(t)) => {
                    if size == 1 {
                        g.bind(quote!(#a + #t))
                    } else {
                        g.bind(quote!(#a * #s + #t))
                    }
                }
            };
            if tile[j] == COMBINE_ENTRY {
                continue;
            }
            let t = tile[j] as u64;
            let (gr, inn) = match &acc {
                Term::Zero => (Term::Zero, Term::Zero),
                Term::Var(_) if t == 1 => (acc.clone(), Term::Zero),
                Term::Var(_) if bound <= t => (Term::Zero, acc.clone()),
                Term::Var(a) => {
                    let tl = lit(t);
                    (g.bind(quote!(#a / #tl)), g.bind(quote!(#a % #tl)))
                }
            };
            grid.push(gr);
            inner.push(inn);
            acc = Term::Zero;
            bound = 1;
        }
        e.truncate(base);
        e.extend(grid);
        e.extend(inner);
        start = end;
    }
    // Row-major strides of the final shape.
    let mut strides = vec![0u64; p.final_dims.len()];
    let mut acc: u64 = 1;
    for i in (0..p.final_dims.len()).rev() {
        strides[i] = acc;
        acc = acc.saturating_mul(p.final_dims[i]);
    }
    let terms: Vec<TokenStream> = e
        .iter()
        .zip(&strides)
        .filter_map(|(t, &s)| match t {
            Term::Zero => None,
            Term::Var(v) if s == 1 => Some(quote!(#v)),
            Term::Var(v) => {
                let s = lit(s);
                Some(quote!(#v * #s))
            }
        })
        .collect();
    let sum = if terms.is_empty() {
        quote!(0)
    } else {
        quote!(#(#terms)+*)
    };
    let limits: Vec<Literal> = p.limits.iter().map(|&l| lit(l)).collect();
    let stmts = &g.stmts;
    quote!({
        let [#(#idx),*] = index;
        if ::core::cfg!(debug_assertions) && !(true #(&& #idx < #limits)*) {
            #krate::__out_of_bounds(&index, &[#(#limits),*]);
        }
        #(#stmts)*
        #sum
    })
}
