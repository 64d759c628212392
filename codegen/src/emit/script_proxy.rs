//! The JavaScript proxy of a `[ScriptService]` (`{path}/js`, and `{path}/jsdebug` with its
//! documentation comments), as .NET Framework's `WebServiceClientProxyGenerator` writes it:
//! a `Sys.Net.WebServiceProxy` class of the service's methods for ASP.NET AJAX's client
//! library, then a typed constructor for each client type and an object for each enum.
//! Every line ends with CR LF, as the generator's do.

use std::fmt::Write as _;

use crate::model::Model;
use crate::spec::SoapType;

/// The types .NET finds in the operations' signatures, in its order (each operation's
/// parameters, then its result, but an XML answer's; an array's items for the array): the classes that are
/// client types (not abstract: ASP.NET AJAX instantiates them) and the enums.
pub(super) fn signature_types(model: &Model) -> (Vec<usize>, Vec<usize>) {
    let (mut classes, mut enums) = (Vec::new(), Vec::new());
    for op in &model.operations {
        // An XML answer's type is no client type (.NET skips the result there).
        let result = (!op.script_xml).then_some(op.result);
        for ty in op.params.iter().map(|p| p.ty).chain(result) {
            let ty = match ty {
                SoapType::Array(a) => model.arrays[usize::from(a)].item,
                other => other,
            };
            match ty {
                SoapType::Class(c) => {
                    let c = usize::from(c);
                    if !model.classes[c].is_abstract && !classes.contains(&c) {
                        classes.push(c);
                    }
                }
                SoapType::Enum(e) if !enums.contains(&usize::from(e)) => enums.push(usize::from(e)),
                _ => {}
            }
        }
    }
    (classes, enums)
}

/// `{namespace}.{name}`, or `name` in no namespace: a .NET type's full name.
pub(super) fn full_name(model: &Model, name: &str) -> String {
    match model
        .service
        .script
        .as_ref()
        .and_then(|s| s.namespace.as_deref())
    {
        Some(ns) => format!("{ns}.{name}"),
        None => name.to_owned(),
    }
}

/// The .NET full name of a parameter's type (`System.Int32`, `Rmm.Script.Point[]`), a
/// nullable one's underlying type's.
fn dotnet_name(model: &Model, ty: SoapType) -> String {
    match ty {
        SoapType::Int => "System.Int32".into(),
        SoapType::String => "System.String".into(),
        SoapType::Boolean => "System.Boolean".into(),
        SoapType::Decimal => "System.Decimal".into(),
        SoapType::Long => "System.Int64".into(),
        SoapType::Short => "System.Int16".into(),
        SoapType::Byte => "System.SByte".into(),
        SoapType::UnsignedByte => "System.Byte".into(),
        SoapType::UnsignedShort => "System.UInt16".into(),
        SoapType::UnsignedInt => "System.UInt32".into(),
        SoapType::UnsignedLong => "System.UInt64".into(),
        SoapType::Float => "System.Single".into(),
        SoapType::Double => "System.Double".into(),
        SoapType::Char => "System.Char".into(),
        SoapType::Guid => "System.Guid".into(),
        SoapType::DateTime | SoapType::Date => "System.DateTime".into(),
        SoapType::Base64Binary => "System.Byte[]".into(),
        SoapType::Enum(e) => full_name(model, &model.enums[usize::from(e)].name),
        SoapType::Class(c) => full_name(model, &model.classes[usize::from(c)].name),
        SoapType::Array(a) => format!(
            "{}[]",
            dotnet_name(model, model.arrays[usize::from(a)].item)
        ),
        // Refused on a [ScriptService] (`validate::script`).
        other => other.name().to_owned(),
    }
}

/// `GetClientTypeFromServerType`: the client library's type of a parameter, for `/jsdebug`'s
/// comments; `None` for "any".
fn client_type(model: &Model, ty: SoapType, clients: &[usize]) -> Option<String> {
    Some(match ty {
        SoapType::String | SoapType::Char | SoapType::Guid => "String".into(),
        SoapType::Boolean => "Boolean".into(),
        SoapType::DateTime | SoapType::Date => "Date".into(),
        SoapType::Array(_) | SoapType::Base64Binary => "Array".into(),
        SoapType::Enum(_) => dotnet_name(model, ty),
        SoapType::Class(c) if clients.contains(&usize::from(c)) => dotnet_name(model, ty),
        SoapType::Class(_) => return None,
        SoapType::Int
        | SoapType::Decimal
        | SoapType::Long
        | SoapType::Short
        | SoapType::Byte
        | SoapType::UnsignedByte
        | SoapType::UnsignedShort
        | SoapType::UnsignedInt
        | SoapType::UnsignedLong
        | SoapType::Float
        | SoapType::Double => "Number".into(),
        _ => return None,
    })
}

/// The three comments of the callbacks, after a `/jsdebug` method's parameters'.
const DEBUG_CALLBACKS: &str = "/// <param name=\"succeededCallback\" type=\"Function\" optional=\"true\" mayBeNull=\"true\"></param>\r\n/// <param name=\"failedCallback\" type=\"Function\" optional=\"true\" mayBeNull=\"true\"></param>\r\n/// <param name=\"userContext\" optional=\"true\" mayBeNull=\"true\"></param>\r\n";

/// The proxy's text: `/js`'s, or with `debug` `/jsdebug`'s.
pub(super) fn proxy(model: &Model, debug: bool) -> String {
    let ns = model
        .service
        .script
        .as_ref()
        .and_then(|s| s.namespace.clone())
        .unwrap_or_default();
    let p = full_name(model, &model.service.name);
    let (clients, enums) = signature_types(model);
    let mut out = String::new();
    let mut namespaces: Vec<String> = Vec::new();
    let mut ensure_namespace = |out: &mut String, ns: &str| {
        if !ns.is_empty() && !namespaces.iter().any(|n| n == ns) {
            let _ = write!(out, "Type.registerNamespace('{ns}');\r\n");
            namespaces.push(ns.to_owned());
        }
    };
    // The constructor.
    ensure_namespace(&mut out, &ns);
    let var = if ns.is_empty() && !p.contains('.') {
        "var "
    } else {
        ""
    };
    let _ = write!(
        out,
        "{var}{p}=function() {{\r\n{p}.initializeBase(this);\r\nthis._timeout = 0;\r\nthis._userContext = null;\r\nthis._succeeded = null;\r\nthis._failed = null;\r\n}}\r\n"
    );
    // The prototype: a method per operation.
    let _ = write!(
        out,
        "{p}.prototype={{\r\n_get_path:function() {{\r\n var p = this.get_path();\r\n if (p) return p;\r\n else return {p}._staticInstance.get_path();}},\r\n"
    );
    let mut comments = Vec::new();
    for (i, op) in model.operations.iter().enumerate() {
        if i > 0 {
            out.push_str(",\r\n");
        }
        let names: Vec<&str> = op.params.iter().map(|p| p.wire.as_str()).collect();
        let mut doc = String::new();
        if debug {
            for param in &op.params {
                let _ = write!(doc, "/// <param name=\"{}\"", param.wire);
                if let Some(client) = client_type(model, param.ty, &clients) {
                    let _ = write!(doc, " type=\"{client}\"");
                }
                let _ = write!(doc, ">{}</param>\r\n", dotnet_name(model, param.ty));
            }
            doc.push_str(DEBUG_CALLBACKS);
        }
        let args = if names.is_empty() {
            "succeededCallback, failedCallback, userContext".to_owned()
        } else {
            format!(
                "{},succeededCallback, failedCallback, userContext",
                names.join(",")
            )
        };
        let dict = names
            .iter()
            .map(|n| format!("{n}:{n}"))
            .collect::<Vec<_>>()
            .join(",");
        let _ = write!(
            out,
            "{name}:function({args}) {{\r\n{doc}return this._invoke(this._get_path(), '{name}',{get},{{{dict}}},succeededCallback,failedCallback,userContext); }}",
            name = op.wire,
            get = op.script_get,
        );
        comments.push(doc);
    }
    out.push_str("}\r\n");
    let _ = write!(out, "{p}.registerClass('{p}',Sys.Net.WebServiceProxy);\r\n");
    let _ = write!(out, "{p}._staticInstance = new {p}();\r\n");
    static_accessors(&mut out, &p, debug);
    let _ = write!(
        out,
        "{p}.set_path(\"{}\");\r\n",
        url_path_encode(&model.service.path)
    );
    for (op, doc) in model.operations.iter().zip(&comments) {
        let mut args: Vec<&str> = op.params.iter().map(|p| p.wire.as_str()).collect();
        args.extend(["onSuccess", "onFailed", "userContext"]);
        let args = args.join(",");
        let _ = write!(out, "{p}.{name}= function({args}) {{", name = op.wire);
        if debug {
            out.push_str("\r\n");
            out.push_str(doc);
        }
        let _ = write!(
            out,
            "{p}._staticInstance.{name}({args}); }}\r\n",
            name = op.wire
        );
    }
    // The client types: a typed constructor each.
    for (i, &c) in clients.iter().enumerate() {
        if i == 0 {
            out.push_str("var gtc = Sys.Net.WebServiceProxy._generateTypedConstructor;\r\n");
        }
        ensure_namespace(&mut out, &ns);
        let t = full_name(model, &model.classes[c].name);
        let var = if ns.is_empty() && !t.contains('.') {
            "var "
        } else {
            ""
        };
        let _ = write!(
            out,
            "if (typeof({t}) === 'undefined') {{\r\n{var}{t}=gtc(\"{t}\");\r\n{t}.registerClass('{t}');\r\n}}\r\n"
        );
    }
    // The enums: an object of their members' values each.
    for &e in &enums {
        ensure_namespace(&mut out, &ns);
        let model_enum = &model.enums[e];
        let t = full_name(model, &model_enum.name);
        let var = if t.contains('.') { "" } else { "var " };
        let members = model_enum
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{m}: {i}"))
            .collect::<Vec<_>>()
            .join(",");
        let _ = write!(
            out,
            "if (typeof({t}) === 'undefined') {{\r\n{var}{t} = function() {{ throw Error.invalidOperation(); }}\r\n{t}.prototype = {{{members}}}\r\n{t}.registerEnum('{t}', true);\r\n}}\r\n"
        );
    }
    out
}

/// The static accessors of the proxy's instance, as `GenerateStaticInstance` writes them.
fn static_accessors(out: &mut String, p: &str, debug: bool) {
    if debug {
        let _ = write!(
            out,
            "{p}.set_path = function(value) {{\r\n{p}._staticInstance.set_path(value); }}\r\n\
             {p}.get_path = function() {{ \r\n/// <value type=\"String\" mayBeNull=\"true\">The service url.</value>\r\nreturn {p}._staticInstance.get_path();}}\r\n\
             {p}.set_timeout = function(value) {{\r\n{p}._staticInstance.set_timeout(value); }}\r\n\
             {p}.get_timeout = function() {{ \r\n/// <value type=\"Number\">The service timeout.</value>\r\nreturn {p}._staticInstance.get_timeout(); }}\r\n\
             {p}.set_defaultUserContext = function(value) {{ \r\n{p}._staticInstance.set_defaultUserContext(value); }}\r\n\
             {p}.get_defaultUserContext = function() {{ \r\n/// <value mayBeNull=\"true\">The service default user context.</value>\r\nreturn {p}._staticInstance.get_defaultUserContext(); }}\r\n\
             {p}.set_defaultSucceededCallback = function(value) {{ \r\n {p}._staticInstance.set_defaultSucceededCallback(value); }}\r\n\
             {p}.get_defaultSucceededCallback = function() {{ \r\n/// <value type=\"Function\" mayBeNull=\"true\">The service default succeeded callback.</value>\r\nreturn {p}._staticInstance.get_defaultSucceededCallback(); }}\r\n\
             {p}.set_defaultFailedCallback = function(value) {{ \r\n{p}._staticInstance.set_defaultFailedCallback(value); }}\r\n\
             {p}.get_defaultFailedCallback = function() {{ \r\n/// <value type=\"Function\" mayBeNull=\"true\">The service default failed callback.</value>\r\nreturn {p}._staticInstance.get_defaultFailedCallback(); }}\r\n\
             {p}.set_enableJsonp = function(value) {{ {p}._staticInstance.set_enableJsonp(value); }}\r\n\
             {p}.get_enableJsonp = function() {{ \r\n/// <value type=\"Boolean\">Specifies whether the service supports JSONP for cross domain calling.</value>\r\nreturn {p}._staticInstance.get_enableJsonp(); }}\r\n\
             {p}.set_jsonpCallbackParameter = function(value) {{ {p}._staticInstance.set_jsonpCallbackParameter(value); }}\r\n\
             {p}.get_jsonpCallbackParameter = function() {{ \r\n/// <value type=\"String\">Specifies the parameter name that contains the callback function name for a JSONP request.</value>\r\nreturn {p}._staticInstance.get_jsonpCallbackParameter(); }}\r\n"
        );
    } else {
        for name in [
            "path",
            "timeout",
            "defaultUserContext",
            "defaultSucceededCallback",
            "defaultFailedCallback",
            "enableJsonp",
            "jsonpCallbackParameter",
        ] {
            let _ = write!(
                out,
                "{p}.set_{name} = function(value) {{ {p}._staticInstance.set_{name}(value); }}\r\n\
                 {p}.get_{name} = function() {{ return {p}._staticInstance.get_{name}(); }}\r\n"
            );
        }
    }
}

/// `HttpUtility.UrlPathEncode`: a space as `%20`, and every byte outside printable ASCII as
/// `%XX` (the rest, `/` and `?` among it, as it is).
fn url_path_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b == b' ' || !(0x21..0x7f).contains(&b) {
            let _ = write!(out, "%{b:02x}");
        } else {
            out.push(char::from(b));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(spec: &str) -> Model {
        let spec = crate::spec::parse(spec, "s.yaml").expect("a spec");
        Model::from_spec(&spec, "s.yaml").expect("a model")
    }

    const SPEC: &str = "service:\n  name: Svc\n  namespace: http://x/\n  path: /Svc.asmx\n  script:\n    namespace: Ns\ncredentials: []\noperations:\n  - name: Add\n    doc: d\n    params: [{a: int}, {b: int}]\n    result: int\n  - name: Echo\n    doc: d\n    script: {get: true}\n    params: [{s: string}]\n    result: string\n";

    #[test]
    fn writes_the_proxy_dotnet_writes() {
        // The example of .NET Framework's ClientProxyGenerator: a POST method and a GET one.
        let want = "Type.registerNamespace('Ns');\r\n\
Ns.Svc=function() {\r\n\
Ns.Svc.initializeBase(this);\r\n\
this._timeout = 0;\r\n\
this._userContext = null;\r\n\
this._succeeded = null;\r\n\
this._failed = null;\r\n\
}\r\n\
Ns.Svc.prototype={\r\n\
_get_path:function() {\r\n var p = this.get_path();\r\n if (p) return p;\r\n else return Ns.Svc._staticInstance.get_path();},\r\n\
Add:function(a,b,succeededCallback, failedCallback, userContext) {\r\n\
return this._invoke(this._get_path(), 'Add',false,{a:a,b:b},succeededCallback,failedCallback,userContext); },\r\n\
Echo:function(s,succeededCallback, failedCallback, userContext) {\r\n\
return this._invoke(this._get_path(), 'Echo',true,{s:s},succeededCallback,failedCallback,userContext); }}\r\n\
Ns.Svc.registerClass('Ns.Svc',Sys.Net.WebServiceProxy);\r\n\
Ns.Svc._staticInstance = new Ns.Svc();\r\n\
Ns.Svc.set_path = function(value) { Ns.Svc._staticInstance.set_path(value); }\r\n\
Ns.Svc.get_path = function() { return Ns.Svc._staticInstance.get_path(); }\r\n\
Ns.Svc.set_timeout = function(value) { Ns.Svc._staticInstance.set_timeout(value); }\r\n\
Ns.Svc.get_timeout = function() { return Ns.Svc._staticInstance.get_timeout(); }\r\n\
Ns.Svc.set_defaultUserContext = function(value) { Ns.Svc._staticInstance.set_defaultUserContext(value); }\r\n\
Ns.Svc.get_defaultUserContext = function() { return Ns.Svc._staticInstance.get_defaultUserContext(); }\r\n\
Ns.Svc.set_defaultSucceededCallback = function(value) { Ns.Svc._staticInstance.set_defaultSucceededCallback(value); }\r\n\
Ns.Svc.get_defaultSucceededCallback = function() { return Ns.Svc._staticInstance.get_defaultSucceededCallback(); }\r\n\
Ns.Svc.set_defaultFailedCallback = function(value) { Ns.Svc._staticInstance.set_defaultFailedCallback(value); }\r\n\
Ns.Svc.get_defaultFailedCallback = function() { return Ns.Svc._staticInstance.get_defaultFailedCallback(); }\r\n\
Ns.Svc.set_enableJsonp = function(value) { Ns.Svc._staticInstance.set_enableJsonp(value); }\r\n\
Ns.Svc.get_enableJsonp = function() { return Ns.Svc._staticInstance.get_enableJsonp(); }\r\n\
Ns.Svc.set_jsonpCallbackParameter = function(value) { Ns.Svc._staticInstance.set_jsonpCallbackParameter(value); }\r\n\
Ns.Svc.get_jsonpCallbackParameter = function() { return Ns.Svc._staticInstance.get_jsonpCallbackParameter(); }\r\n\
Ns.Svc.set_path(\"/Svc.asmx\");\r\n\
Ns.Svc.Add= function(a,b,onSuccess,onFailed,userContext) {Ns.Svc._staticInstance.Add(a,b,onSuccess,onFailed,userContext); }\r\n\
Ns.Svc.Echo= function(s,onSuccess,onFailed,userContext) {Ns.Svc._staticInstance.Echo(s,onSuccess,onFailed,userContext); }\r\n";
        assert_eq!(proxy(&model(SPEC), false), want);
    }

    #[test]
    fn the_debug_proxy_documents_each_parameter() {
        let text = proxy(&model(SPEC), true);
        assert!(text.contains(
            "Add:function(a,b,succeededCallback, failedCallback, userContext) {\r\n\
/// <param name=\"a\" type=\"Number\">System.Int32</param>\r\n\
/// <param name=\"b\" type=\"Number\">System.Int32</param>\r\n\
/// <param name=\"succeededCallback\" type=\"Function\" optional=\"true\" mayBeNull=\"true\"></param>\r\n\
/// <param name=\"failedCallback\" type=\"Function\" optional=\"true\" mayBeNull=\"true\"></param>\r\n\
/// <param name=\"userContext\" optional=\"true\" mayBeNull=\"true\"></param>\r\n\
return this._invoke("
        ));
        assert!(text.contains(
            "Ns.Svc.Echo= function(s,onSuccess,onFailed,userContext) {\r\n\
/// <param name=\"s\" type=\"String\">System.String</param>\r\n"
        ));
        assert!(text.contains(
            "Ns.Svc.get_path = function() { \r\n/// <value type=\"String\" mayBeNull=\"true\">The service url.</value>\r\nreturn Ns.Svc._staticInstance.get_path();}\r\n"
        ));
    }

    #[test]
    fn client_types_and_enums_follow_in_signature_order() {
        let spec = "service:\n  name: Svc\n  namespace: http://x/\n  path: /api/Svc.asmx\n  script: true\ncredentials: []\nenums:\n  - name: Mood\n    values: [Calm, Busy]\ntypes:\n  - name: P\n    members: [{X: int}]\n  - name: Q\n    members: [{Y: int}]\noperations:\n  - name: Op\n    doc: d\n    bindings: [soap11, soap12]\n    params: [{q: \"Q[]\"}, {m: Mood}]\n    result: P\n";
        let text = proxy(&model(spec), false);
        assert!(text.starts_with("var Svc=function() {\r\n"), "{text}");
        assert!(text.contains("Svc.set_path(\"/api/Svc.asmx\");\r\n"));
        // `HttpUtility.UrlPathEncode`, lower-case hex.
        assert_eq!(url_path_encode("/a b/é?x"), "/a%20b/%c3%a9?x");
        assert!(text.ends_with(
            "var gtc = Sys.Net.WebServiceProxy._generateTypedConstructor;\r\n\
if (typeof(Q) === 'undefined') {\r\nvar Q=gtc(\"Q\");\r\nQ.registerClass('Q');\r\n}\r\n\
if (typeof(P) === 'undefined') {\r\nvar P=gtc(\"P\");\r\nP.registerClass('P');\r\n}\r\n\
if (typeof(Mood) === 'undefined') {\r\nvar Mood = function() { throw Error.invalidOperation(); }\r\nMood.prototype = {Calm: 0,Busy: 1}\r\nMood.registerEnum('Mood', true);\r\n}\r\n"
        ), "{text}");
    }
}
