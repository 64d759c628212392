//! The generated crate as one file, for a build script to write into `OUT_DIR` and a crate
//! to include at its root ([`crate::Builder`]): each `mod name;` of the crate's files made an
//! inline module holding that file, the features chosen at generation time.
//!
//! Made from the files [`super::generate`] writes, so that both forms are the same code:
//! what the crate's `lib.rs` says of the crate itself (its doc, `#![forbid(unsafe_code)]`, a
//! `recursion_limit`) is left to the including crate, and the examples of its docs, which
//! name the generated crate, are left out.

use std::collections::BTreeMap;

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
        }
        inline(&mut item, "", &files);
        items.push(item);
    }
    let file = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items,
    };
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
