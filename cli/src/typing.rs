//! The types of a service's answers, from its spec, for `rmm shadow --spec` and
//! `rmm replay --spec`: rmm-codegen's model (element names decided once, there) turned into
//! rmm-shadow's plain [`Typing`].

use std::collections::HashMap;
use std::path::PathBuf;

use rmm_codegen::model::{ClassModel, MemberModel, Model};
use rmm_codegen::spec::{SoapType, Spec};
use rmm_shadow::typing::{Lexical, OperationTyping, Shape, Ty, Typing};

/// The typing of the answers of the services of the specs at `paths` (or of the crates
/// `rmm gen` wrote there), each at its own path.
pub fn of_specs(paths: &[PathBuf]) -> Result<Typing, String> {
    of_loaded(&load(paths)?)
}

/// The specs at `paths` (or of the crates `rmm gen` wrote there), each with its file's name.
pub fn load(paths: &[PathBuf]) -> Result<Vec<(String, Spec)>, String> {
    paths
        .iter()
        .map(|path| {
            let path = crate::diff::spec_of(path)?;
            let spec = rmm_codegen::spec::load(&path).map_err(|e| e.to_string())?;
            Ok((path.display().to_string(), spec))
        })
        .collect()
}

/// The typing of the answers of the services of `specs`, each at its own path.
pub fn of_loaded(specs: &[(String, Spec)]) -> Result<Typing, String> {
    let mut typing = Typing::new();
    for (file, spec) in specs {
        let model = Model::from_spec(spec, file).map_err(|e| e.to_string())?;
        add_model(&mut typing, &model);
    }
    Ok(typing)
}

/// Adds the typing of `model`'s answers to `typing`.
pub fn add_model(typing: &mut Typing, model: &Model) {
    let mut types = Types {
        typing,
        simple: HashMap::new(),
        classes: Vec::new(),
        arrays: Vec::new(),
        flags: model.enums.iter().map(|e| e.flags).collect(),
    };
    // Every class and array a type first, so that members may name any of them.
    for _ in &model.classes {
        let ty = types.typing.add(Shape::Opaque);
        types.classes.push(ty);
    }
    for _ in &model.arrays {
        let ty = types.typing.add(Shape::Opaque);
        types.arrays.push(ty);
    }
    for (i, class) in model.classes.iter().enumerate() {
        let shape = types.class(model, class);
        types.typing.set(types.classes[i], shape);
    }
    for (i, array) in model.arrays.iter().enumerate() {
        let shape = Shape::Array {
            item: array.item_name.clone(),
            ty: types.ty(array.item),
        };
        types.typing.set(types.arrays[i], shape);
    }
    for op in &model.operations {
        let mut elements = vec![(op.result_name.clone(), types.ty(op.result))];
        elements.extend(
            op.outs
                .iter()
                .map(|m| (m.wire.clone(), types.member(model, m))),
        );
        let headers = op
            .output_headers()
            .map(|h| (h.wire.clone(), types.classes[h.class]))
            .collect();
        let document = (op.result != SoapType::Void).then(|| types.ty(op.result));
        types.typing.operation(
            &model.service.path,
            &op.wire,
            OperationTyping {
                response: (!op.bare).then(|| op.response_name.clone()),
                elements,
                headers,
                document,
            },
        );
    }
}

struct Types<'t> {
    typing: &'t mut Typing,
    simple: HashMap<Lexical, Ty>,
    classes: Vec<Ty>,
    arrays: Vec<Ty>,
    /// Whether each enum is `[Flags]`.
    flags: Vec<bool>,
}

impl Types<'_> {
    fn ty(&mut self, ty: SoapType) -> Ty {
        match ty {
            SoapType::Class(i) => self.classes[usize::from(i)],
            SoapType::Array(i) => self.arrays[usize::from(i)],
            other => match self.lexical(other) {
                Some(lexical) => self.simple(lexical),
                None => self.typing.add(Shape::Opaque),
            },
        }
    }

    fn simple(&mut self, lexical: Lexical) -> Ty {
        if let Some(ty) = self.simple.get(&lexical) {
            return *ty;
        }
        let ty = self.typing.add(Shape::Simple(lexical));
        self.simple.insert(lexical, ty);
        ty
    }

    /// A member's type: a trimmed string's (`data_type`), or its array's item's where it is
    /// unwrapped (its repeated element is an item).
    fn member(&mut self, model: &Model, member: &MemberModel) -> Ty {
        if member.data_type.is_some() {
            return self.simple(Lexical::Trimmed);
        }
        match model.array(member.ty) {
            Some(array) if member.unwrapped => self.ty(array.item),
            _ => self.ty(member.ty),
        }
    }

    /// How a simple type's text is read; `None` for what is compared as written (raw XML,
    /// DataSets, `object`).
    fn lexical(&self, ty: SoapType) -> Option<Lexical> {
        Some(match ty {
            SoapType::Enum(i) if self.flags[usize::from(i)] => Lexical::Flags,
            SoapType::String | SoapType::Enum(_) => Lexical::Exact,
            SoapType::Boolean => Lexical::Boolean,
            SoapType::Int
            | SoapType::Long
            | SoapType::Short
            | SoapType::Byte
            | SoapType::UnsignedByte
            | SoapType::UnsignedShort
            | SoapType::UnsignedInt
            | SoapType::UnsignedLong
            | SoapType::Char => Lexical::Integer,
            SoapType::Decimal => Lexical::Decimal,
            SoapType::Double => Lexical::Double,
            SoapType::Float => Lexical::Float,
            SoapType::DateTime => Lexical::DateTime,
            SoapType::Guid => Lexical::Guid,
            SoapType::Base64Binary => Lexical::Base64,
            _ => return None,
        })
    }

    /// A class's shape: its members and attributes, its bases' and those of the classes
    /// derived from it (an element of it may hold any of them, named by `xsi:type`); a name
    /// two of them give other types is left untyped.
    fn class(&mut self, model: &Model, class: &ClassModel) -> Shape {
        let family = std::iter::once(class).chain(class.derived.iter().map(|&d| &model.classes[d]));
        let mut members: Vec<(String, Option<Ty>)> = Vec::new();
        let mut attributes: Vec<(String, Option<Lexical>)> = Vec::new();
        for c in family {
            for m in c.fields().filter(|m| !m.any) {
                let ty = self.member(model, m);
                merge(&mut members, &m.wire, ty);
            }
            for a in &c.attributes {
                let name = match a.namespace.as_deref() {
                    Some(ns) => format!("{{{ns}}}{}", a.wire),
                    None => a.wire.clone(),
                };
                let lexical = if a.data_type.is_some() {
                    Lexical::Trimmed
                } else {
                    self.lexical(a.ty).unwrap_or(Lexical::Exact)
                };
                merge(&mut attributes, &name, lexical);
            }
        }
        Shape::Class {
            members: known(members),
            attributes: known(attributes),
            text: class.text.as_ref().and_then(|t| match t.data_type {
                Some(_) => Some(Lexical::Trimmed),
                None => self.lexical(t.ty),
            }),
        }
    }
}

/// Adds `name` of `value`; a name met again with another value has none.
fn merge<T: PartialEq>(list: &mut Vec<(String, Option<T>)>, name: &str, value: T) {
    match list.iter_mut().find(|(n, _)| n == name) {
        Some((_, known)) => {
            if known.as_ref() != Some(&value) {
                *known = None;
            }
        }
        None => list.push((name.to_owned(), Some(value))),
    }
}

fn known<T>(list: Vec<(String, Option<T>)>) -> Vec<(String, T)> {
    list.into_iter()
        .filter_map(|(name, value)| Some((name, value?)))
        .collect()
}
