//! The checks of raw XML (`xml`, `xmlNode`, `[XmlAnyElement]`) and DataSets: where the
//! spec may use them.

use super::*;

/// Raw XML (`xml`, .NET `XmlElement`; `xmlNode`) and DataSets (`dataSet`): a parameter or
/// the result of a wrapped operation; raw XML also in arrays and as class members (an
/// `[XmlAnyElement]` one among them), and a parameter or the result of a bare operation;
/// nothing else yet (no array or member of a DataSet, no out parameter, no DataSet in a bare
/// operation, not nullable: it is a reference).
pub(super) fn check_raw_xml(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    const DATA_SETS: &str = "rmm carries DataSets (`dataSet`, `dataTable` and typed ones, .NET \
                             DataSet, DataTable and their typed kin) as a parameter or the \
                             result of a wrapped operation only, for now";
    // `dataSet`, `dataTable` or a typed DataSet's name.
    let is_data_set = |ty: &str| {
        matches!(ty, "dataSet" | "dataTable") || raw.data_sets.iter().any(|d| d.name.0 == ty)
    };
    const RAW: &str = "rmm carries raw XML (`xml` and `xmlNode`, .NET XmlElement and XmlNode) \
                       as a parameter, result, out parameter, array item or class member of a \
                       wrapped operation, and as a parameter or the result of a bare one";
    let only = |ty: &str| {
        if is_data_set(ty.trim_end_matches("[]")) {
            DATA_SETS
        } else {
            RAW
        }
    };
    let is_raw = |ty: &str| matches!(ty, "xml" | "xmlNode") || is_data_set(ty);
    // An array of a DataSet (`xml?` is refused as any reference spelled nullable); an array
    // of raw XML, in a bare operation.
    let uses_raw = |ty: &str| {
        let item = ty.trim_end_matches("[]").trim_end_matches('?');
        ty.ends_with("[]") && is_data_set(item)
    };
    // In a bare operation, raw XML is a parameter or the result (its element the Body's, as
    // SEFAZ's services have it), not an array's items or an out parameter.
    let bare_raw = |ty: &str| {
        let item = ty.trim_end_matches("[]").trim_end_matches('?');
        is_raw(item) && (ty.ends_with("[]") || is_data_set(item))
    };
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let bare = op.style == crate::spec::ParameterStyle::Bare;
        for (i, p) in op.params.iter().enumerate() {
            let at = place.params.as_ref().map(|v| v[i].1).or(anchor);
            if uses_raw(&p.ty) || (bare && bare_raw(&p.ty)) {
                c.push(
                    at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} is {}; {}",
                        p.name,
                        p.ty,
                        only(&p.ty)
                    ),
                );
            }
        }
        let result_at = place.lines.and_then(|l| loc.op_key(l, "result")).or(anchor);
        if uses_raw(&op.result.0) || (bare && bare_raw(&op.result.0)) {
            c.push(
                result_at,
                anchor,
                format!(
                    "the result of operation {name:?} is {}; {}",
                    op.result.0,
                    only(&op.result.0)
                ),
            );
        }
        let out_at = place.lines.and_then(|l| loc.op_key(l, "out")).or(anchor);
        for o in &op.out {
            // Raw XML out parameters are read and written as members of the response.
            let data_set = is_data_set(o.ty.trim_end_matches("[]"));
            if data_set || (bare && is_raw(o.ty.trim_end_matches("[]"))) {
                c.push(
                    out_at,
                    anchor,
                    format!(
                        "out parameter {:?} of operation {name:?} is {}; {}",
                        o.name,
                        o.ty,
                        only(&o.ty)
                    ),
                );
            }
        }
    }
    let lines = loc.top_items("types", raw.types.len());
    for (i, class) in raw.types.iter().enumerate() {
        let at = lines
            .as_ref()
            .map(|l| loc.op_start(l[i]))
            .or(loc.top_key_pos("types"));
        for member in &class.members {
            let item = member.ty.trim_end_matches("[]");
            if is_data_set(item) {
                c.push(
                    at,
                    at,
                    format!(
                        "member {:?} of type {:?} is {}; {DATA_SETS}",
                        member.name, class.name.0, member.ty
                    ),
                );
            }
            if member.any && !matches!(member.ty.as_str(), "xml" | "xml[]") {
                c.push(
                    at,
                    at,
                    format!(
                        "member {:?} of type {:?} is any ([XmlAnyElement]) and of type {}; \
                         an any member is `xml` (one element, the last met) or `xml[]` (every \
                         element no other member takes)",
                        member.name, class.name.0, member.ty
                    ),
                );
            }
            if member.any && (member.item.is_some() || member.unwrapped || member.list) {
                c.push(
                    at,
                    at,
                    format!(
                        "member {:?} of type {:?} is any ([XmlAnyElement]): it has no element \
                         of its own, so no item name, unwrapped or list",
                        member.name, class.name.0
                    ),
                );
            }
        }
        let anys = class.members.iter().filter(|m| m.any).count();
        if anys > 1 {
            c.push(
                at,
                at,
                format!(
                    "type {:?} has {anys} any members ([XmlAnyElement]); rmm takes one a \
                     class, which takes every element no other member takes",
                    class.name.0
                ),
            );
        }
        for member in &class.attributes {
            if is_raw(&member.ty) || is_raw(member.ty.trim_end_matches("[]")) || member.any {
                c.push(
                    at,
                    at,
                    format!(
                        "attribute {:?} of type {:?} is {}; an attribute holds a simple value",
                        member.name, class.name.0, member.ty
                    ),
                );
            }
        }
    }
}
