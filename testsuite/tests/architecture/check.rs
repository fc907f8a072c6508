//! The checker: parses a crate's sources with `syn`, resolves every path
//! to the module that defines what it names, and compares the result with
//! the crate's allow-list.
//!
//! What it resolves: `use` trees (groups, globs, renames, `self`),
//! `crate::`, `super::` and `self::` paths, names imported by `use`, the
//! crate root's re-exports (followed to the defining module), paths in
//! expressions, types, patterns, struct literals and macro arguments.
//! Names it cannot place (locals, the prelude, other crates) are left
//! alone: they cannot name a module of this crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};

use crate::layers::Layer;

/// A module path from the crate root (`[]` is the root).
type ModPath = Vec<String>;

/// What a module defines and imports.
#[derive(Default)]
struct Module {
    /// Items defined here (types, functions, constants, macros).
    items: BTreeSet<String>,
    /// Child modules.
    children: BTreeSet<String>,
    /// `use` imports: the name they bind -> the path as written.
    uses: BTreeMap<String, Vec<String>>,
    /// `use x::*`: the paths as written.
    globs: Vec<Vec<String>>,
}

/// One reference from a module to a path.
struct Reference {
    file: PathBuf,
    module: ModPath,
    path: Vec<String>,
}

/// A crate's modules, what its files use, and its method extensions.
#[derive(Default)]
pub struct Crate {
    modules: BTreeMap<ModPath, Module>,
    references: Vec<Reference>,
    /// Calls by name (`.name(` or `Path::name(`): file, module, name.
    calls: Vec<(PathBuf, ModPath, String)>,
    /// Struct literals: file, module, resolved path (with `Self` replaced
    /// by the impl's type path).
    literals: Vec<(PathBuf, ModPath, Vec<String>)>,
    /// Type name -> top-level modules that define a type of that name.
    types: BTreeMap<String, BTreeSet<String>>,
    /// Function name -> top-level modules that define a function of that
    /// name (free, inherent or trait).
    fns: BTreeMap<String, BTreeSet<String>>,
    /// Inherent impls: the top-level module of the impl, the type's last
    /// path segment, the functions it adds.
    impls: Vec<(String, String, Vec<String>)>,
    /// Files that failed to parse.
    pub errors: Vec<String>,
}

/// The module path of a file below `src`: `a/b.rs` and `a/b/mod.rs` are
/// `[a, b]`, `lib.rs` is the root. `None` for `main.rs` (a binary's own
/// root, which wires the library and is not part of it).
pub fn module_of(src_dir: &Path, file: &Path) -> Option<ModPath> {
    let rel = file.strip_prefix(src_dir).ok()?;
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    match (parts.is_empty(), stem) {
        (true, "lib") => {}
        (true, "main") => return None,
        (_, "mod") => {}
        _ => parts.push(stem.to_string()),
    }
    Some(parts)
}

fn ident_path(path: &syn::Path) -> Vec<String> {
    let mut out = Vec::new();
    if path.leading_colon.is_some() {
        out.push("::".to_string());
    }
    out.extend(path.segments.iter().map(|s| s.ident.to_string()));
    out
}

/// Every leaf of a `use` tree as (bound name or `*`, full path).
fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix.clone();
            if name == "self" {
                let bound = prefix.last().cloned().unwrap_or_default();
                out.push((bound, path));
            } else {
                path.push(name.clone());
                out.push((name, path));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((r.rename.to_string(), path));
        }
        syn::UseTree::Glob(_) => out.push(("*".to_string(), prefix.clone())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

/// Paths written in a macro's tokens that start with `crate`, `$crate`,
/// `super` or `self`: these are found even where the tokens are not
/// expressions.
fn token_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(g) => token_paths(g.stream(), out),
            TokenTree::Ident(id)
                if matches!(id.to_string().as_str(), "crate" | "super" | "self") =>
            {
                // Not the tail of a longer path (`a::self`).
                let tail =
                    i > 0 && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                let mut path = vec![id.to_string()];
                let mut j = i + 1;
                while let (
                    Some(TokenTree::Punct(a)),
                    Some(TokenTree::Punct(b)),
                    Some(TokenTree::Ident(next)),
                ) = (trees.get(j), trees.get(j + 1), trees.get(j + 2))
                {
                    if a.as_char() != ':' || b.as_char() != ':' {
                        break;
                    }
                    path.push(next.to_string());
                    j += 3;
                }
                if !tail && path.len() > 1 {
                    out.push(path);
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// Collects what each module defines and imports.
struct Collect<'a> {
    krate: &'a mut Crate,
    module: ModPath,
}

impl Collect<'_> {
    fn here(&mut self) -> &mut Module {
        self.krate.modules.entry(self.module.clone()).or_default()
    }

    fn top(&self) -> String {
        self.module.first().cloned().unwrap_or_default()
    }

    fn define(&mut self, name: String) {
        self.here().items.insert(name);
    }

    fn define_type(&mut self, name: String) {
        let top = self.top();
        self.krate
            .types
            .entry(name.clone())
            .or_default()
            .insert(top);
        self.define(name);
    }

    fn define_fn(&mut self, name: String) {
        let top = self.top();
        self.krate.fns.entry(name).or_default().insert(top);
    }
}

impl<'ast> Visit<'ast> for Collect<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let name = m.ident.to_string();
        self.here().children.insert(name.clone());
        if let Some((_, items)) = &m.content {
            self.module.push(name);
            self.here();
            for item in items {
                self.visit_item(item);
            }
            self.module.pop();
        }
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
        for (name, path) in leaves {
            if name == "*" {
                self.here().globs.push(path);
            } else if name != "_" {
                self.here().uses.insert(name, path);
            }
        }
    }
    fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
        self.define_type(i.ident.to_string());
        visit::visit_item_struct(self, i);
    }
    fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
        self.define_type(i.ident.to_string());
        visit::visit_item_enum(self, i);
    }
    fn visit_item_union(&mut self, i: &'ast syn::ItemUnion) {
        self.define_type(i.ident.to_string());
    }
    fn visit_item_trait(&mut self, i: &'ast syn::ItemTrait) {
        self.define_type(i.ident.to_string());
        for item in &i.items {
            if let syn::TraitItem::Fn(f) = item {
                self.define_fn(f.sig.ident.to_string());
            }
        }
        visit::visit_item_trait(self, i);
    }
    fn visit_item_type(&mut self, i: &'ast syn::ItemType) {
        self.define_type(i.ident.to_string());
    }
    fn visit_item_fn(&mut self, i: &'ast syn::ItemFn) {
        self.define(i.sig.ident.to_string());
        self.define_fn(i.sig.ident.to_string());
        // Items and imports inside a body count as the module's.
        visit::visit_item_fn(self, i);
    }
    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.define(i.ident.to_string());
        visit::visit_item_const(self, i);
    }
    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        self.define(i.ident.to_string());
    }
    fn visit_item_macro(&mut self, i: &'ast syn::ItemMacro) {
        if let Some(name) = &i.ident {
            self.define(name.to_string());
        }
    }
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let mut names = Vec::new();
        for item in &i.items {
            if let syn::ImplItem::Fn(f) = item {
                names.push(f.sig.ident.to_string());
                self.define_fn(f.sig.ident.to_string());
            }
        }
        if i.trait_.is_none()
            && let syn::Type::Path(p) = &*i.self_ty
            && let Some(last) = p.path.segments.last()
        {
            let top = self.top();
            self.krate.impls.push((top, last.ident.to_string(), names));
        }
        visit::visit_item_impl(self, i);
    }
}

/// Records every path, call and struct literal of a file.
struct Refs<'a> {
    krate: &'a mut Crate,
    file: PathBuf,
    module: ModPath,
    /// The type of each enclosing `impl` block, for `Self`.
    self_ty: Vec<Vec<String>>,
}

impl Refs<'_> {
    fn refer(&mut self, path: Vec<String>) {
        self.krate.references.push(Reference {
            file: self.file.clone(),
            module: self.module.clone(),
            path,
        });
    }
    fn call(&mut self, name: String) {
        self.krate
            .calls
            .push((self.file.clone(), self.module.clone(), name));
    }
}

impl<'ast> Visit<'ast> for Refs<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if let Some((_, items)) = &m.content {
            self.module.push(m.ident.to_string());
            for item in items {
                self.visit_item(item);
            }
            self.module.pop();
        }
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
        for (_, path) in leaves {
            self.refer(path);
        }
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.refer(ident_path(p));
        visit::visit_path(self, p);
    }
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let ty = match &*i.self_ty {
            syn::Type::Path(p) => ident_path(&p.path),
            _ => Vec::new(),
        };
        self.self_ty.push(ty);
        visit::visit_item_impl(self, i);
        self.self_ty.pop();
    }
    fn visit_expr_method_call(&mut self, c: &'ast syn::ExprMethodCall) {
        self.call(c.method.to_string());
        visit::visit_expr_method_call(self, c);
    }
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*c.func
            && p.path.segments.len() > 1
            && let Some(last) = p.path.segments.last()
        {
            self.call(last.ident.to_string());
        }
        visit::visit_expr_call(self, c);
    }
    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        let mut path = ident_path(&s.path);
        if path.first().map(String::as_str) == Some("Self") {
            let mut ty = self.self_ty.last().cloned().unwrap_or_default();
            ty.extend(path.drain(1..));
            path = ty;
        }
        self.krate
            .literals
            .push((self.file.clone(), self.module.clone(), path));
        visit::visit_expr_struct(self, s);
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let mut paths = Vec::new();
        token_paths(m.tokens.clone(), &mut paths);
        for p in paths {
            self.refer(p);
        }
        // Arguments that are expressions (`assert!`, `write!`, `matches!`
        // patterns aside) are visited like any other code.
        let parser = Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = syn::parse::Parser::parse2(parser, m.tokens.clone()) {
            for e in &args {
                self.visit_expr(e);
            }
        }
        visit::visit_macro(self, m);
    }
}

impl Crate {
    /// Parses the files of one crate (paths below `src_dir`).
    pub fn new(src_dir: &Path, files: &[(PathBuf, String)]) -> Crate {
        let mut krate = Crate::default();
        let mut parsed = Vec::new();
        for (file, text) in files {
            let Some(module) = module_of(src_dir, file) else {
                continue;
            };
            match syn::parse_file(text) {
                Ok(ast) => parsed.push((file.clone(), module, ast)),
                Err(e) => krate.errors.push(format!("{}: {e}", file.display())),
            }
        }
        for (_, module, ast) in &parsed {
            // A file's module is a child of its parent.
            if let Some((last, parent)) = module.split_last() {
                let parent = krate.modules.entry(parent.to_vec()).or_default();
                parent.children.insert(last.clone());
            }
            let mut c = Collect {
                krate: &mut krate,
                module: module.clone(),
            };
            c.here();
            c.visit_file(ast);
        }
        for (file, module, ast) in &parsed {
            let mut r = Refs {
                krate: &mut krate,
                file: file.clone(),
                module: module.clone(),
                self_ty: Vec::new(),
            };
            r.visit_file(ast);
        }
        krate
    }

    /// The module defining what `path`, written in module `from`, names;
    /// `None` for names outside the crate (locals, the prelude, other
    /// crates).
    fn resolve(&self, from: &[String], path: &[String], depth: usize) -> Option<ModPath> {
        self.resolve_in(from, path, depth, &mut Vec::new())
            .map(|(m, _)| m)
    }

    /// The module and the name of the item `path` names ("" for a module).
    fn resolve_item(&self, from: &[String], path: &[String]) -> Option<(ModPath, String)> {
        self.resolve_in(from, path, 0, &mut Vec::new())
    }

    /// `resolve`, with the names being looked up through imports (`stack`),
    /// so that a cycle of imports ends.
    fn resolve_in(
        &self,
        from: &[String],
        path: &[String],
        depth: usize,
        stack: &mut Vec<(ModPath, String)>,
    ) -> Option<(ModPath, String)> {
        if depth > 32 || path.is_empty() {
            return None;
        }
        let (mut cur, mut rest): (ModPath, &[String]) = match path[0].as_str() {
            "crate" | "$crate" => (Vec::new(), &path[1..]),
            "::" | "Self" => return None,
            "self" => (from.to_vec(), &path[1..]),
            "super" => {
                let mut cur = from.to_vec();
                let mut rest = path;
                while rest.first().map(String::as_str) == Some("super") {
                    cur.pop()?;
                    rest = &rest[1..];
                }
                (cur, rest)
            }
            _ => (from.to_vec(), path),
        };
        // A first segment that is not `crate`, `self` or `super` is a name
        // in scope: found through the module's items, imports or globs,
        // or else outside the crate.
        let relative = !matches!(path[0].as_str(), "crate" | "$crate" | "self" | "super");
        while let Some(seg) = rest.first() {
            let Some(m) = self.modules.get(&cur) else {
                return Some((cur, String::new()));
            };
            if m.children.contains(seg) {
                cur.push(seg.clone());
                rest = &rest[1..];
                continue;
            }
            if m.items.contains(seg) {
                return Some((cur, seg.clone()));
            }
            let key = (cur.clone(), seg.clone());
            if stack.contains(&key) {
                return None;
            }
            if let Some(target) = m.uses.get(seg) {
                let mut p = target.clone();
                p.extend(rest[1..].iter().cloned());
                stack.push(key);
                let found = self.resolve_in(&cur, &p, depth + 1, stack);
                stack.pop();
                return found;
            }
            stack.push(key);
            for glob in &m.globs {
                let mut p = glob.clone();
                p.extend(rest.iter().cloned());
                if let Some(found) = self.resolve_defined(&cur, &p, depth + 1, stack) {
                    stack.pop();
                    return Some(found);
                }
            }
            stack.pop();
            if relative && cur.as_slice() == from {
                return None;
            }
            return Some((cur, String::new()));
        }
        Some((cur, String::new()))
    }

    /// Like `resolve`, but only where the last module reached defines,
    /// imports or re-exports the name (for glob imports, which bring in
    /// only what exists).
    fn resolve_defined(
        &self,
        from: &[String],
        path: &[String],
        depth: usize,
        stack: &mut Vec<(ModPath, String)>,
    ) -> Option<(ModPath, String)> {
        let (name, module) = path.split_last()?;
        let (m, _) = self.resolve_in(from, module, depth, stack)?;
        let here = self.modules.get(&m)?;
        if here.items.contains(name) || here.children.contains(name) {
            return self.resolve_in(from, path, depth, stack);
        }
        if here.uses.contains_key(name) {
            return self.resolve_in(&m, std::slice::from_ref(name), depth + 1, stack);
        }
        None
    }

    /// The violations of `layers`: modules in no layer, paths to a module
    /// the allow-list does not give, calls to a method only such a module
    /// adds to a type.
    pub fn check(&self, layers: &[Layer]) -> Vec<String> {
        let mut problems = Vec::new();
        let allowed = |from: &str, to: &str| {
            from == to
                || to.is_empty()
                || layers
                    .iter()
                    .any(|(name, may)| *name == from && may.contains(&to))
        };
        let known = |name: &str| layers.iter().any(|(l, _)| *l == name);
        let names: Vec<&str> = layers.iter().map(|(l, _)| *l).collect();
        if let Some(root) = self.modules.get(&Vec::new()) {
            for child in &root.children {
                if child != "tests" && !known(child) {
                    problems.push(format!(
                        "module `{child}` is in no layer (layers: {})",
                        names.join(", ")
                    ));
                }
            }
        }
        let mut seen = BTreeSet::new();
        for r in &self.references {
            let Some(from) = r.module.first() else {
                continue;
            };
            if from == "tests" {
                continue;
            }
            let Some(target) = self.resolve(&r.module, &r.path, 0) else {
                continue;
            };
            let to = target.first().map(String::as_str).unwrap_or("");
            if !allowed(from, to) {
                let p = format!(
                    "{}: `{}` uses `{}` (in `{}`), but `{from}` may not use `{to}`",
                    r.file.display(),
                    r.module.join("::"),
                    r.path.join("::"),
                    target.join("::"),
                );
                if seen.insert(p.clone()) {
                    problems.push(p);
                }
            }
        }
        // Methods a module adds to a type defined in another one: name ->
        // the modules adding it.
        let mut extensions: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (top, ty, fns) in &self.impls {
            let elsewhere = self
                .types
                .get(ty)
                .is_some_and(|defs| !defs.contains(top.as_str()));
            if elsewhere {
                for f in fns {
                    extensions.entry(f).or_default().insert(top);
                }
            }
        }
        for (file, module, name) in &self.calls {
            let Some(from) = module.first() else {
                continue;
            };
            let Some(adders) = extensions.get(name.as_str()) else {
                continue;
            };
            // A function of that name the caller may use may be the one.
            let usable = self
                .fns
                .get(name)
                .is_some_and(|defs| defs.iter().any(|d| allowed(from, d)));
            if usable || from == "tests" {
                continue;
            }
            let adders: Vec<&str> = adders.iter().copied().collect();
            let p = format!(
                "{}: `{}` calls `{name}`, which only `{}` adds, and `{from}` may not use it",
                file.display(),
                module.join("::"),
                adders.join("`, `")
            );
            if seen.insert(p.clone()) {
                problems.push(p);
            }
        }
        problems
    }

    /// Struct literals and calls that make a `ty` (defined in `home`)
    /// outside `home` and the modules below the top-level module `maker`:
    /// literals of its `pub(crate)` fields, and calls of `constructor`.
    pub fn makers(&self, home: &[&str], ty: &str, constructor: &str, maker: &str) -> Vec<String> {
        let home: ModPath = home.iter().map(|s| s.to_string()).collect();
        let mut out = Vec::new();
        let outside = |m: &ModPath| m != &home && m.first().map(String::as_str) != Some(maker);
        for (file, module, path) in &self.literals {
            if !outside(module) {
                continue;
            }
            let at = self.resolve_item(module, path);
            if at == Some((home.clone(), ty.to_string())) {
                out.push(format!(
                    "{}: `{}` writes a `{ty}` literal",
                    file.display(),
                    module.join("::")
                ));
            }
        }
        for (file, module, name) in &self.calls {
            if name == constructor && outside(module) {
                out.push(format!(
                    "{}: `{}` calls `{constructor}`",
                    file.display(),
                    module.join("::")
                ));
            }
        }
        out
    }
}
