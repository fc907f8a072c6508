//! Step 3: valid layouts -> code. The tables come from layout-core's
//! `Plan`, computed here at expansion time; the item form also gets an
//! offset function specialised to the layout (see `codegen`).

use layout_core::{Plan, COMBINE_ENTRY};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::ast::{Form, Input, Item};
use crate::attrs::{deprecated, gates};
use crate::codegen::offset_body;
use crate::valid::{check, stub_expr, stub_layout, stub_shape, Valid};

pub fn expand(input: Input) -> TokenStream {
    let krate = &input.krate;
    match &input.form {
        Form::Expr(spec) => match check(spec) {
            Ok(v) if v.unbounded > 0 => {
                let unresolved = unresolved_expr(krate, &v);
                let (rank, u) = (v.rank, v.unbounded);
                quote! {{
                    const __LAYOUT: #krate::Unresolved<#rank, #u> = #unresolved;
                    __LAYOUT
                }}
            }
            Ok(v) => {
                let rank = v.rank;
                let layout = layout_expr(krate, &v);
                let fits = fits_assert(&v);
                quote! {{
                    const __LAYOUT: #krate::StaticLayout<#rank> = #layout;
                    #fits
                    __LAYOUT
                }}
            }
            Err(e) => {
                let errors = e.to_compile_error();
                let stub = stub_expr(krate, spec);
                quote! {{ #errors #stub }}
            }
        },
        Form::Items(items) => items.iter().map(|item| expand_item(krate, item)).collect(),
    }
}

fn expand_item(krate: &TokenStream, item: &Item) -> TokenStream {
    let Item {
        attrs,
        vis,
        name,
        spec,
    } = item;
    // `cfg` (also inside `cfg_attr`) gates every item generated for the
    // type; everything else the user wrote goes on the struct only.
    let gates = gates(attrs);
    let allow_deprecated = allow_deprecated(attrs);
    let (rank, layout, body, assert, error, doc) = match check(spec) {
        Ok(v) if v.unbounded > 0 => {
            let doc = format!(
                "The XLA layout `{}`; its {} `?` dimension(s) are sized by `new`.",
                v.canonical, v.unbounded
            );
            let unresolved = unresolved_expr(krate, &v);
            let shape = (v.rank, v.unbounded);
            return dynamic_item(krate, item, shape, &unresolved, &doc, &TokenStream::new());
        }
        Ok(v) => {
            let doc = format!("The XLA layout `{}`.", v.canonical);
            let fits = fits_assert(&v);
            (
                v.rank,
                layout_expr(krate, &v),
                offset_body(&v),
                quote!(#(#gates)* #fits),
                TokenStream::new(),
                doc,
            )
        }
        Err(e) => {
            let (rank, unbounded) = stub_shape(spec);
            if unbounded > 0 {
                // A stub with `new` and `offset`, as the valid type has.
                let doc = "An invalid XLA layout (see the compile error).";
                let unresolved = stub_expr(krate, spec);
                let error = e.to_compile_error();
                let shape = (rank, unbounded);
                return dynamic_item(krate, item, shape, &unresolved, doc, &error);
            }
            (
                rank,
                stub_layout(krate, rank),
                quote!({
                    let _ = index;
                    0
                }),
                TokenStream::new(),
                e.to_compile_error(),
                String::from("An invalid XLA layout (see the compile error)."),
            )
        }
    };
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #vis struct #name;

        #(#gates)*
        #[allow(dead_code)]
        #allow_deprecated
        impl #name {
            /// The layout's tables, computed when the macro expanded.
            pub const LAYOUT: #krate::StaticLayout<#rank> = #layout;
            /// The rank.
            pub const RANK: usize = #rank;
            /// The logical dimensions (bounded dims at their bound).
            pub const DIMS: [usize; #rank] = Self::LAYOUT.dims();
            /// The element type.
            pub const ELEMENT_TYPE: #krate::ElementType = Self::LAYOUT.element_type();
            /// Element slots in the allocation (tile padding and `L(n)` included).
            pub const ALLOCATED_ELEMENTS: usize = Self::LAYOUT.allocated_elements();
            /// Bytes of the allocation.
            pub const SIZE_IN_BYTES: usize = Self::LAYOUT.size_in_bytes();
            /// The memory space `S(n)`.
            pub const MEMORY_SPACE: u8 = Self::LAYOUT.memory_space();
            /// The canonical XLA text.
            pub const TEXT: &'static str = Self::LAYOUT.text();

            /// The element offset of `index` (specialised arithmetic; the
            /// index is checked in debug builds only).
            #[inline]
            #[must_use]
            pub const fn offset(index: [usize; #rank]) -> usize #body
        }

        #(#gates)*
        #allow_deprecated
        impl #krate::StaticShape<#rank> for #name {
            const LAYOUT: #krate::StaticLayout<#rank> = #name::LAYOUT;

            #[inline]
            fn offset(index: [usize; #rank]) -> usize {
                #name::offset(index)
            }
        }

        #assert

        // Not gated: an invalid layout is an error in every configuration.
        #error
    }
}

/// `#[allow(deprecated)]` for generated impls that name a type the user
/// deprecated: the deprecation is for the user's uses, not these.
fn allow_deprecated(attrs: &[syn::Attribute]) -> TokenStream {
    if deprecated(attrs) {
        quote!(#[allow(deprecated)])
    } else {
        TokenStream::new()
    }
}

/// The `StaticLayout` constant: tables as literals.
fn layout_expr(krate: &TokenStream, v: &Valid) -> TokenStream {
    let Ok(plan) = Plan::new(&v.shape) else {
        // `check` planned this shape already.
        return stub_layout(krate, v.rank);
    };
    let p = plan.parts();
    let rank = v.rank;
    let u8s = |xs: &[u8]| {
        xs.iter()
            .map(|x| Literal::u8_unsuffixed(*x))
            .collect::<Vec<_>>()
    };
    let u64s = |xs: &[u64]| {
        xs.iter()
            .map(|x| Literal::u64_unsuffixed(*x))
            .collect::<Vec<_>>()
    };
    let perm = u8s(p.perm);
    let dims = u64s(p.dims);
    let limits = u64s(p.limits);
    let tile: Vec<TokenStream> = p
        .tile
        .iter()
        .map(|&t| {
            if t == COMBINE_ENTRY {
                quote!(i64::MIN)
            } else {
                let l = Literal::i64_unsuffixed(t);
                quote!(#l)
            }
        })
        .collect();
    let tile_ends = u8s(p.tile_ends);
    let prepend = u8s(p.prepend);
    let len_before = u8s(p.len_before);
    let final_dims = u64s(p.final_dims);
    let tiled = Literal::u64_unsuffixed(p.tiled_elements);
    let allocated = Literal::u64_unsuffixed(p.allocated);
    let ty = Ident::new(
        &format!("{:?}", v.shape.element_type()),
        proc_macro2::Span::call_site(),
    );
    let bits = Literal::u64_unsuffixed(v.shape.element_size_in_bits());
    let space = Literal::u8_unsuffixed(v.shape.layout().memory_space() as u8);
    let bytes = Literal::u64_unsuffixed(v.shape.size_in_bytes().unwrap_or(0));
    let text = &v.canonical;
    quote! {
        #krate::StaticLayout::<#rank>::__from_tables(
            #krate::Plan::from_parts(#krate::PlanParts {
                perm: &[#(#perm),*],
                dims: &[#(#dims),*],
                limits: &[#(#limits),*],
                tile: &[#(#tile),*],
                tile_ends: &[#(#tile_ends),*],
                prepend: &[#(#prepend),*],
                len_before: &[#(#len_before),*],
                final_dims: &[#(#final_dims),*],
                tiled_elements: #tiled,
                allocated: #allocated,
            }),
            #krate::ElementType::#ty,
            #bits,
            #space,
            #bytes,
            #text,
        )
    }
}

/// `const _: () = assert!(..)`: the allocation fits the target's `usize`.
fn fits_assert(v: &Valid) -> TokenStream {
    // Both the byte size and the element count (larger with E(n) packing)
    // must be addressable.
    let bytes = v.shape.size_in_bytes().unwrap_or(0);
    let need = bytes.max(v.shape.allocated_elements().unwrap_or(0));
    let msg = format!(
        "the layout `{}` needs {bytes} bytes, more than usize can address on this target",
        v.canonical.replace('{', "{{").replace('}', "}}"),
    );
    let bytes = Literal::u64_unsuffixed(need);
    let name = format_ident!("_");
    quote! {
        const #name: () = ::core::assert!((#bytes as u64) <= (usize::MAX as u64), #msg);
    }
}

/// `Unresolved<R, U>` for a shape with `?` dims: the shape is re-parsed
/// from its canonical text in `const` evaluation (the macro validated it).
fn unresolved_expr(krate: &TokenStream, v: &Valid) -> TokenStream {
    let (rank, u) = (v.rank, v.unbounded);
    let text = &v.canonical;
    quote! {
        #krate::Unresolved::<#rank, #u>::new(
            match #krate::parse_array(#text) {
                ::core::result::Result::Ok(shape) => shape,
                ::core::result::Result::Err(_) => ::core::panic!("layout! validated this shape"),
            },
            #text,
        )
    }
}

/// The item form of a shape with `?` dims: a small struct holding the
/// layout planned for the extents given to `new`. `shape` is the rank and
/// the number of `?` dims; `error` the compile error, for a stub.
fn dynamic_item(
    krate: &TokenStream,
    item: &Item,
    shape: (usize, usize),
    unresolved: &TokenStream,
    doc: &str,
    error: &TokenStream,
) -> TokenStream {
    let Item {
        attrs, vis, name, ..
    } = item;
    let gates = gates(attrs);
    let allow_deprecated = allow_deprecated(attrs);
    let (rank, u) = shape;
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #name {
            layout: #krate::StaticLayout<#rank>,
        }

        #(#gates)*
        #[allow(dead_code)]
        #allow_deprecated
        impl #name {
            /// The layout before its `?` dimensions are sized.
            pub const UNRESOLVED: #krate::Unresolved<#rank, #u> = #unresolved;

            /// Plans the layout with the `?` dimensions (in order) set to
            /// `extents`; fails if the sizes overflow.
            ///
            /// # Errors
            ///
            /// When a size overflows or does not fit in `usize`.
            pub const fn new(extents: [usize; #u]) -> ::core::result::Result<Self, #krate::Error> {
                match Self::UNRESOLVED.resolve(extents) {
                    ::core::result::Result::Ok(layout) => ::core::result::Result::Ok(Self { layout }),
                    ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
                }
            }

            /// The element offset of `index`.
            ///
            /// # Panics
            ///
            /// If `index` is out of bounds.
            #[inline]
            #[must_use]
            pub const fn offset(&self, index: [usize; #rank]) -> usize {
                self.layout.offset(index)
            }

            /// The planned layout.
            #[must_use]
            pub const fn layout(&self) -> &#krate::StaticLayout<#rank> {
                &self.layout
            }
        }

        #(#gates)*
        #allow_deprecated
        impl #krate::RankedLayout<#rank> for #name {
            #[inline]
            fn offset_of(&self, index: [usize; #rank]) -> usize {
                self.layout.offset(index)
            }

            fn tables(&self) -> &#krate::StaticLayout<#rank> {
                &self.layout
            }
        }

        #error
    }
}
