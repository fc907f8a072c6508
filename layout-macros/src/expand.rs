//! Step 3: valid layouts -> code. The tables come from layout-core's
//! `Plan`, computed here at expansion time; the item form also gets an
//! offset function specialised to the layout (see `codegen`).

use layout_core::PaddingValue;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Form, Input, Item};
use crate::attrs::{deprecated, derives, gates, DYNAMIC_DERIVES, STATIC_DERIVES};
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
    let checked = check(spec);
    let typed = typed_impl(krate, item, checked.as_ref().ok());
    let (rank, layout, body, assert, error, doc) = match checked {
        Ok(v) if v.unbounded > 0 => {
            let doc = format!(
                "The XLA layout `{}`; its {} `?` dimension(s) are sized by `new`.",
                v.canonical, v.unbounded
            );
            let unresolved = unresolved_expr(krate, &v);
            let shape = (v.rank, v.unbounded);
            let body = dynamic_offset_body(krate, &v);
            let empty = TokenStream::new();
            let mut out = dynamic_item(krate, item, shape, &unresolved, (&doc, &body), &empty);
            out.extend(typed);
            return out;
        }
        Ok(v) => {
            let doc = format!("The XLA layout `{}`.", v.canonical);
            let fits = fits_assert(&v);
            (
                v.rank,
                layout_expr(krate, &v),
                offset_body(krate, &v),
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
                let body = quote!({
                    let _ = index;
                    0
                });
                let mut out = dynamic_item(krate, item, shape, &unresolved, (doc, &body), &error);
                out.extend(typed);
                return out;
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
    let derives = derives(attrs, &STATIC_DERIVES);
    // Spanned on the user's name, as if written there: rustc's dead-code
    // lint skips items whose span comes from a macro, and then a user's
    // `#[expect(dead_code)]` could never be fulfilled.
    let unit_struct = quote_spanned!(name.span()=> #vis struct #name;);
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #doc]
        #derives
        #unit_struct

        #(#gates)*
        #allow_deprecated
        impl #name {
            /// The layout's tables, computed when the macro expanded.
            pub const LAYOUT: #krate::StaticLayout<#rank> = #layout;
            /// The rank.
            pub const RANK: ::core::primitive::usize = #rank;
            /// The logical dimensions (bounded dims at their bound).
            pub const DIMS: [::core::primitive::usize; #rank] = Self::LAYOUT.dims();
            /// The element type.
            pub const ELEMENT_TYPE: #krate::ElementType = Self::LAYOUT.element_type();
            /// Element slots in the allocation (tile padding and `L(n)` included).
            pub const ALLOCATED_ELEMENTS: ::core::primitive::usize = Self::LAYOUT.allocated_elements();
            /// Bytes of the allocation.
            pub const SIZE_IN_BYTES: ::core::primitive::usize = Self::LAYOUT.size_in_bytes();
            /// The memory space `S(n)`.
            pub const MEMORY_SPACE: ::core::primitive::u8 = Self::LAYOUT.memory_space();
            /// The canonical XLA text.
            pub const TEXT: &'static ::core::primitive::str = Self::LAYOUT.text();

            /// The element offset of `index` (specialised arithmetic; the
            /// index is checked in debug builds only).
            #[inline]
            #[must_use]
            pub const fn offset(index: [::core::primitive::usize; #rank]) -> ::core::primitive::usize #body
        }

        #(#gates)*
        #allow_deprecated
        impl #krate::StaticShape<#rank> for #name {
            const LAYOUT: #krate::StaticLayout<#rank> = Self::LAYOUT;

            #[inline]
            fn offset(index: [::core::primitive::usize; #rank]) -> ::core::primitive::usize {
                Self::offset(index)
            }
        }

        #typed

        #assert

        // Not gated: an invalid layout is an error in every configuration.
        #error
    }
}

/// `impl TypedLayout`: the element type at the type level, for
/// `View::new`'s compile-time element check. An invalid layout's stub has
/// no element type: it takes views of every element type instead, so that
/// code viewing it type-checks without errors beyond the layout's own.
fn typed_impl(krate: &TokenStream, item: &Item, v: Option<&Valid>) -> TokenStream {
    let name = &item.name;
    let gates = gates(&item.attrs);
    let allow_deprecated = allow_deprecated(&item.attrs);
    let Some(v) = v else {
        // `__E`, not `T`: the user's type may be called `T`.
        return quote! {
            #(#gates)*
            #allow_deprecated
            impl<__E: #krate::Element> #krate::ViewLayout<__E> for #name {}

            #(#gates)*
            #allow_deprecated
            impl<__E: #krate::PackedElement> #krate::PackedViewLayout<__E> for #name {}
        };
    };
    let value = Literal::u32_unsuffixed(v.shape.element_type().xla_enum_value());
    let ty = v.shape.element_type().name();
    // `layout_core::tag::<name>`: every element type's name is an identifier.
    let tag = format_ident!("{ty}");
    let doc = format!("The element type `{ty}` (XLA `PrimitiveType` {value}).");
    quote! {
        #(#gates)*
        #allow_deprecated
        impl #krate::TypedLayout for #name {
            #[doc = #doc]
            type Tag = #krate::tag::#tag;
        }
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

/// The `StaticLayout` constant: the shape parsed, planned and tabulated
/// by layout-core's own `const fn`s while the user's crate compiles (the
/// macro has checked that each step succeeds). Layouts without digit tables
/// keep a reference to their constant `Plan`.
fn layout_expr(krate: &TokenStream, v: &Valid) -> TokenStream {
    if let Some(tables) = digit_tables(krate, v) {
        return tables;
    }
    let rank = v.rank;
    let text = &v.canonical;
    let shape = shape_expr(krate, v);
    quote! {{
        const __SHAPE: #krate::ArrayShape = #shape;
        const __PLAN: #krate::Plan = match #krate::Plan::new(&__SHAPE) {
            ::core::result::Result::Ok(plan) => plan,
            ::core::result::Result::Err(_) => ::core::panic!("layout! planned this shape"),
        };
        match #krate::StaticLayout::<#rank>::__with_plan(&__SHAPE, #text, &__PLAN) {
            ::core::result::Result::Ok(layout) => layout,
            ::core::result::Result::Err(_) => ::core::panic!("layout! planned this shape"),
        }
    }}
}

/// The `StaticLayout` as literal digit tables (cheap to evaluate while the
/// user's crate compiles), for layouts that have them.
fn digit_tables(krate: &TokenStream, v: &Valid) -> Option<TokenStream> {
    let digits = layout_core::StaticLayout::<0>::__digit_bases(&v.shape).ok()?;
    let plan = layout_core::Plan::new(&v.shape).ok()?;
    let parts = plan.parts();
    let rank = v.rank;
    let lit = |n: u64| Literal::u64_unsuffixed(n);
    let limits = parts.limits.iter().map(|&n| lit(n));
    let mut pow2 = true;
    let (mut bases, mut strides) = (Vec::new(), Vec::new());
    for (b, len, fixed) in digits.iter().take(rank) {
        pow2 &= b[..*len].iter().all(|x| x.is_power_of_two());
        let bs = b[..*len].iter().map(|&x| lit(x));
        // No `?` dims: every stride is known.
        let ss = fixed[..*len].iter().map(|s| lit(s.unwrap_or(0)));
        bases.push(quote!(&[#(#bs),*]));
        strides.push(quote!(&[#(#ss),*]));
    }
    let ty = Ident::new(
        &format!("{:?}", v.shape.element_type()),
        proc_macro2::Span::call_site(),
    );
    let tiled = lit(parts.tiled_elements);
    let allocated = lit(parts.allocated);
    let bytes = lit(v.shape.size_in_bytes().ok()?);
    let bits = lit(v.shape.element_size_in_bits());
    let space = Literal::u8_unsuffixed(u8::try_from(v.shape.layout().memory_space()).ok()?);
    let padding_value = padding_value_expr(krate, v);
    let text = &v.canonical;
    Some(quote! {
        #krate::StaticLayout::<#rank>::__from_digits(#krate::DigitParts {
            limits: &[#(#limits),*],
            bases: &[#(#bases),*],
            strides: &[#(#strides),*],
            pow2: #pow2,
            tiled: #tiled,
            allocated: #allocated,
            size_in_bytes: #bytes,
            element_bits: #bits,
            element_type: #krate::ElementType::#ty,
            memory_space: #space,
            padding_value: #padding_value,
            text: #text,
        })
    })
}

/// The validated `ArrayShape`, as a constant expression: the canonical
/// text parsed again, with legacy padding when the options set it.
fn shape_expr(krate: &TokenStream, v: &Valid) -> TokenStream {
    let text = &v.canonical;
    let parsed = quote! {
        match #krate::parse_array(#text) {
            ::core::result::Result::Ok(shape) => shape,
            ::core::result::Result::Err(_) => ::core::panic!("layout! validated this shape"),
        }
    };
    let Some(padding) = v.shape.legacy_padding() else {
        return parsed;
    };
    let padded: Vec<Literal> = padding
        .padded_dimensions(v.rank)
        .iter()
        .map(|&n| Literal::u64_unsuffixed(n))
        .collect();
    let value = format_ident!("{}", padding_variant(padding.padding_value()));
    quote! {
        match #parsed.with_legacy_padding(&[#(#padded),*], #krate::PaddingValue::#value) {
            ::core::result::Result::Ok(shape) => shape,
            ::core::result::Result::Err(_) => ::core::panic!("layout! validated this padding"),
        }
    }
}

/// The legacy padding value, `Option<PaddingValue>`, as an expression:
/// what relayout writes into the layout's padding slots.
fn padding_value_expr(krate: &TokenStream, v: &Valid) -> TokenStream {
    match v.shape.legacy_padding() {
        Some(padding) => {
            let value = format_ident!("{}", padding_variant(padding.padding_value()));
            quote!(::core::option::Option::Some(#krate::PaddingValue::#value))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn padding_variant(value: PaddingValue) -> &'static str {
    match value {
        PaddingValue::Zero => "Zero",
        PaddingValue::One => "One",
        PaddingValue::Lowest => "Lowest",
        PaddingValue::Highest => "Highest",
        PaddingValue::Unknown => "Unknown",
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
        const #name: () = ::core::assert!((#bytes as ::core::primitive::u64) <= (::core::primitive::usize::MAX as ::core::primitive::u64), #msg);
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
    (doc, body): (&str, &TokenStream),
    error: &TokenStream,
) -> TokenStream {
    let Item {
        attrs, vis, name, ..
    } = item;
    let gates = gates(attrs);
    let allow_deprecated = allow_deprecated(attrs);
    let (rank, u) = shape;
    let derives = derives(attrs, &DYNAMIC_DERIVES);
    // On the user's name, as for the unit struct (see `expand_item`).
    let holder = quote_spanned! {name.span()=>
        #vis struct #name {
            layout: #krate::StaticLayout<#rank>,
        }
    };
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #doc]
        #derives
        #holder

        #(#gates)*
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
            pub const fn new(extents: [::core::primitive::usize; #u]) -> ::core::result::Result<Self, #krate::Error> {
                match Self::UNRESOLVED.resolve(extents) {
                    ::core::result::Result::Ok(layout) => ::core::result::Result::Ok(Self { layout }),
                    ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
                }
            }

            /// The element offset of `index`: the static sizes and tiles
            /// are constants, the strides that depend on the `?` extents
            /// are read from the planned layout (the index is checked in
            /// debug builds only).
            #[inline]
            #[must_use]
            pub const fn offset(&self, index: [::core::primitive::usize; #rank]) -> ::core::primitive::usize #body

            /// The planned layout.
            #[must_use]
            pub const fn layout(&self) -> &#krate::StaticLayout<#rank> {
                &self.layout
            }

            /// The rank.
            #[must_use]
            pub const fn rank(&self) -> ::core::primitive::usize {
                #rank
            }

            /// The logical dimensions, `?` ones at their extents (bounded
            /// dims at their bound).
            #[must_use]
            pub const fn dims(&self) -> [::core::primitive::usize; #rank] {
                self.layout.dims()
            }

            /// The element type.
            #[must_use]
            pub const fn element_type(&self) -> #krate::ElementType {
                self.layout.element_type()
            }

            /// Element slots in the allocation (tile padding and `L(n)`
            /// included).
            #[must_use]
            pub const fn allocated_elements(&self) -> ::core::primitive::usize {
                self.layout.allocated_elements()
            }

            /// Bytes of the allocation.
            #[must_use]
            pub const fn size_in_bytes(&self) -> ::core::primitive::usize {
                self.layout.size_in_bytes()
            }

            /// The memory space `S(n)`.
            #[must_use]
            pub const fn memory_space(&self) -> ::core::primitive::u8 {
                self.layout.memory_space()
            }
        }

        #(#gates)*
        #allow_deprecated
        impl #krate::RankedLayout<#rank> for #name {
            #[inline]
            fn offset_of(&self, index: [::core::primitive::usize; #rank]) -> ::core::primitive::usize {
                Self::offset(self, index)
            }

            fn tables(&self) -> &#krate::StaticLayout<#rank> {
                &self.layout
            }
        }

        #error
    }
}

/// The offset of the item form with `?` dims: per dimension, its digits
/// (`(i % next) / base`, bases fixed by the tiles) times strides read from
/// the layout planned by `new`.
fn dynamic_offset_body(krate: &TokenStream, v: &Valid) -> TokenStream {
    let rank = v.rank;
    let idx: Vec<Ident> = (0..rank).map(|d| format_ident!("i{d}")).collect();
    let Ok(bases) = layout_core::StaticLayout::<0>::__digit_bases(&v.shape) else {
        // No digit tables (`*`, tiles that do not nest): the table path.
        return quote!({ self.layout.offset(index) });
    };
    let mut terms = Vec::new();
    for (d, (b, len, fixed)) in bases.iter().enumerate().take(rank) {
        let x = &idx[d];
        for j in 0..*len {
            let base = Literal::u64_unsuffixed(b[j]);
            let digit = match (j + 1 < *len, b[j] == 1) {
                (true, true) => {
                    let next = Literal::u64_unsuffixed(b[j + 1]);
                    quote!((#x % #next))
                }
                (true, false) => {
                    let next = Literal::u64_unsuffixed(b[j + 1]);
                    quote!((#x % #next / #base))
                }
                (false, true) => quote!(#x),
                (false, false) => quote!((#x / #base)),
            };
            // Strides that do not depend on the `?` extents are constants.
            terms.push(match fixed[j] {
                Some(1) => digit,
                Some(stride) => {
                    let stride = Literal::u64_unsuffixed(stride);
                    quote!(#digit * #stride)
                }
                None => quote!(#digit * self.layout.__stride(#d, #j)),
            });
        }
    }
    let sum = if terms.is_empty() {
        quote!(0)
    } else {
        quote!(#(#terms)+*)
    };
    quote!({
        if ::core::cfg!(debug_assertions) && !self.layout.in_bounds(index) {
            #krate::__out_of_bounds(&index, &self.layout.dims());
        }
        let [#(#idx),*] = index;
        #sum
    })
}
