//! The generated crate as one file, for a build script to write into `OUT_DIR` and a crate
//! to include at its root ([`crate::Builder`]): each `mod name;` of the crate's files made an
//! inline module holding that file, the features chosen at generation time.
//!
//! Its paths are relative (`super::runtime`, not `crate::runtime`), so the file works wherever
//! it is included: at a crate's root or inside a module (`mod calc { … }`), beside others.
//!
//! Made from the files [`super::generate`] writes, so that both forms are the same code:
//! what the crate's `lib.rs` says of the crate itself (its doc, `#![forbid(unsafe_code)]`, a
//! `recursion_limit`) is left to the including crate, and the examples of its docs, which
//! name the generated crate, are left out.

use std::collections::BTreeMap;

use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Item};

use super::GeneratedFile;
use crate::model::Model;

/// Which of the generated crate's features the one file has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// `client`: the async client.
    pub client: bool,
    /// `server`: the server and the service trait.
    pub server: bool,
    /// `blocking`: the blocking client (with the client).
    pub blocking: bool,
}

impl Features {
    fn on(&self, feature: &str) -> bool {
        match feature {
            "client" => self.client,
            "server" => self.server,
            "blocking" => self.blocking,
            _ => false,
        }
    }
}

/// The crate's code as one file, with `features`.
pub fn single_file(model: &Model, features: &Features) -> String {
    let files: BTreeMap<String, syn::File> = super::generate(model)
        .into_iter()
        .map(|GeneratedFile { path, contents }| {
            let file = syn::parse_file(&contents)
                .unwrap_or_else(|e| panic!("generated {path} does not parse: {e}"));
            (path, file)
        })
        .collect();
    let lib = files.get("lib.rs").expect("a lib.rs").clone();
    let mut items = Vec::with_capacity(lib.items.len());
    for mut item in lib.items {
        if !keep(&mut item, features) {
            continue;
        }
        if let Item::Macro(m) = &mut item {
            // Its doc's example names the generated crate: a short doc instead.
            m.attrs.retain(|a| !a.path().is_ident("doc"));
            m.attrs.insert(
                0,
                syn::parse_quote!(#[doc = " Calls the macro `$callback` with every operation, in order, as `method: Request,` pairs."]),
            );
            // Not exported at the including crate's root, where a second service's would
            // meet it: reached by its path instead (`calc::for_each_operation!`).
            m.attrs.retain(|a| !a.path().is_ident("macro_export"));
            m.attrs.push(syn::parse_quote!(#[allow(unused_macros)]));
            let name = m.ident.clone();
            items.push(item);
            items.push(syn::parse_quote!(
                #[allow(unused_imports)]
                pub(crate) use #name;
            ));
            continue;
        }
        inline(&mut item, "", &files);
        items.push(item);
    }
    let mut file = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items,
    };
    syn::visit_mut::VisitMut::visit_file_mut(&mut Relative { depth: 0 }, &mut file);
    let mut out = super::header(model);
    out.push_str(&prettyplease::unparse(&file));
    out
}

/// Whether an item of `lib.rs` stays with `features`; its `#[cfg(feature = …)]` taken off.
fn keep(item: &mut Item, features: &Features) -> bool {
    let Some(attrs) = attrs_mut(item) else {
        return true;
    };
    let mut on = true;
    attrs.retain(|attr| match feature_of(attr) {
        Some(feature) => {
            on &= features.on(&feature);
            false
        }
        None => true,
    });
    on
}

/// The feature a `#[cfg(feature = "…")]` names.
fn feature_of(attr: &Attribute) -> Option<String> {
    if !attr.path().is_ident("cfg") {
        return None;
    }
    let meta: syn::MetaNameValue = attr.parse_args().ok()?;
    if !meta.path.is_ident("feature") {
        return None;
    }
    match meta.value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

fn attrs_mut(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        Item::Mod(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::Const(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}

/// Makes a `mod name;` of the file in directory `dir` (`""` for `src/`, `wire/`) an inline
/// module holding its file (`name.rs`, or `name/mod.rs`), and so on down.
fn inline(item: &mut Item, dir: &str, files: &BTreeMap<String, syn::File>) {
    let Item::Mod(module) = item else {
        return;
    };
    if module.content.is_some() {
        return;
    }
    let name = module.ident.to_string();
    let (path, inner_dir) = match files.get(&format!("{dir}{name}.rs")) {
        Some(_) => (format!("{dir}{name}.rs"), format!("{dir}{name}/")),
        None => (format!("{dir}{name}/mod.rs"), format!("{dir}{name}/")),
    };
    let file = files
        .get(&path)
        .unwrap_or_else(|| panic!("mod {name} has no file {path}"))
        .clone();
    // The module's own attributes (its `///` doc), then the file's (its `//!` doc), all inner:
    // inside the braces, where the file's doc links resolve as they did in the file.
    for attr in &mut module.attrs {
        attr.style = syn::AttrStyle::Inner(syn::token::Not::default());
    }
    module.attrs.extend(file.attrs);
    let mut items = file.items;
    for inner in &mut items {
        inline(inner, &inner_dir, files);
    }
    module.content = Some((syn::token::Brace::default(), items));
    module.semi = None;
}

/// Makes each path of the crate's files that starts at `crate::` start where the one file is
/// included instead: `self::` at its top, `super::` one module down (`client`), and so on
/// (`super::super::` in `wire::add`); the same in doc links. `pub(crate)` stays as it is.
struct Relative {
    /// How many modules down the visit is, from the file's top.
    depth: usize,
}

impl Relative {
    /// `self` at the top, else `super` once per module down.
    fn prefix(&self) -> Vec<syn::Ident> {
        let span = proc_macro2::Span::call_site();
        if self.depth == 0 {
            vec![syn::Ident::new("self", span)]
        } else {
            vec![syn::Ident::new("super", span); self.depth]
        }
    }
}

impl VisitMut for Relative {
    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        // Its attributes are inner (inside the braces): its doc's links resolve there.
        self.depth += 1;
        visit_mut::visit_item_mod_mut(self, module);
        self.depth -= 1;
    }

    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if path.leading_colon.is_none()
            && path.segments.len() > 1
            && path.segments[0].ident == "crate"
        {
            let rest: Vec<syn::PathSegment> = path.segments.iter().skip(1).cloned().collect();
            path.segments = self
                .prefix()
                .into_iter()
                .map(syn::PathSegment::from)
                .chain(rest)
                .collect();
        }
        visit_mut::visit_path_mut(self, path);
    }

    fn visit_use_tree_mut(&mut self, tree: &mut syn::UseTree) {
        if let syn::UseTree::Path(path) = tree {
            if path.ident == "crate" {
                let mut rebuilt = (*path.tree).clone();
                for ident in self.prefix().into_iter().rev() {
                    rebuilt = syn::UseTree::Path(syn::UsePath {
                        ident,
                        colon2_token: Default::default(),
                        tree: Box::new(rebuilt),
                    });
                }
                *tree = rebuilt;
                return;
            }
        }
        visit_mut::visit_use_tree_mut(self, tree);
    }

    fn visit_attribute_mut(&mut self, attr: &mut Attribute) {
        if attr.path().is_ident("doc") {
            if let syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }),
                ..
            }) = &mut attr.meta
            {
                let value = text.value();
                if value.contains("crate::") {
                    let prefix: Vec<String> = self.prefix().iter().map(|i| i.to_string()).collect();
                    let relative = format!("{}::", prefix.join("::"));
                    *text = syn::LitStr::new(&value.replace("crate::", &relative), text.span());
                }
            }
            return;
        }
        visit_mut::visit_attribute_mut(self, attr);
    }
}
