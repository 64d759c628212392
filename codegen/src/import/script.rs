//! The JSON face of a live service: a WSDL does not show that a service is a
//! `[ScriptService]`; its JavaScript proxy (`{path}/js`) does.

use super::Imported;

impl Imported {
    /// Reads a `[ScriptService]`'s JavaScript proxy (`{path}/js`, as .NET Framework or Mono
    /// writes it): the service is one, the .NET namespace of its classes is the proxy's, and
    /// each operation the proxy invokes with GET takes GET (`UseHttpGet`).
    ///
    /// Refused, changing nothing, where the text is no such proxy, or where `rmm gen` would
    /// refuse the service as a `[ScriptService]` (what rmm does not carry over JSON yet): the
    /// error says why.
    pub fn with_script_proxy(&mut self, proxy: &str) -> Result<(), String> {
        if !proxy.contains("Sys.Net.WebServiceProxy") {
            return Err("the text is no ASP.NET AJAX proxy (no Sys.Net.WebServiceProxy)".into());
        }
        // `Type.registerNamespace('Ns');` first, where the service's class has a namespace;
        // the classes' typed constructors name theirs (`gtc("Ns.Point")`).
        let between = |text: &str, open: &str, close: char| -> Option<String> {
            let start = text.find(open)? + open.len();
            let end = text[start..].find(close)?;
            Some(text[start..start + end].to_owned())
        };
        let namespace = between(proxy, "gtc(\"", '"')
            .and_then(|id| id.rsplit_once('.').map(|(ns, _)| ns.to_owned()))
            .or_else(|| between(proxy, "Type.registerNamespace('", '\''));
        // `this._invoke(path, 'Name',true,{…},…)`: the operations taking GET.
        let get: Vec<String> = proxy
            .split("this._invoke(")
            .skip(1)
            .filter_map(|call| {
                let start = call.find('\'')? + 1;
                let end = start + call[start..].find('\'')?;
                call[end + 1..]
                    .trim_start_matches(',')
                    .starts_with("true")
                    .then(|| call[start..end].to_owned())
            })
            .collect();
        let before = self.clone();
        self.script = Some(crate::spec::ScriptService { namespace });
        for op in &mut self.operations {
            op.script_get = get.contains(&op.name);
        }
        // Import and gen agree: what gen refuses of a [ScriptService] is left out here.
        if let Err(errors) = crate::spec::parse(&self.to_yaml(), "the imported spec") {
            if crate::spec::parse(&before.to_yaml(), "the imported spec").is_ok() {
                *self = before;
                let reasons: Vec<String> = errors.0.iter().map(|e| e.message.clone()).collect();
                return Err(reasons.join("; "));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WSDL: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="http://x/" targetNamespace="http://x/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="http://x/">
      <s:element name="Add"><s:complexType><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="a" type="s:int" />
      </s:sequence></s:complexType></s:element>
      <s:element name="AddResponse"><s:complexType><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="AddResult" type="s:int" />
      </s:sequence></s:complexType></s:element>
      <s:element name="Set"><s:complexType><s:sequence>
        <s:element minOccurs="0" maxOccurs="1" name="d" />
      </s:sequence></s:complexType></s:element>
      <s:element name="SetResponse"><s:complexType /></s:element>
    </s:schema>
  </wsdl:types>
  <wsdl:message name="AddSoapIn"><wsdl:part name="parameters" element="tns:Add" /></wsdl:message>
  <wsdl:message name="AddSoapOut"><wsdl:part name="parameters" element="tns:AddResponse" /></wsdl:message>
  <wsdl:message name="SetSoapIn"><wsdl:part name="parameters" element="tns:Set" /></wsdl:message>
  <wsdl:message name="SetSoapOut"><wsdl:part name="parameters" element="tns:SetResponse" /></wsdl:message>
  <wsdl:portType name="SvcSoap">
    <wsdl:operation name="Add"><wsdl:input message="tns:AddSoapIn" /><wsdl:output message="tns:AddSoapOut" /></wsdl:operation>
    OTHER
  </wsdl:portType>
  <wsdl:binding name="SvcSoap" type="tns:SvcSoap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <wsdl:operation name="Add"><soap:operation soapAction="http://x/Add" style="document" />
      <wsdl:input><soap:body use="literal" /></wsdl:input><wsdl:output><soap:body use="literal" /></wsdl:output></wsdl:operation>
    OTHER_BINDING
  </wsdl:binding>
  <wsdl:service name="Svc"><wsdl:port name="SvcSoap" binding="tns:SvcSoap"><soap:address location="http://h/Svc.asmx" /></wsdl:port></wsdl:service>
</wsdl:definitions>"#;

    fn imported(with_object: bool) -> Imported {
        let (other, other_binding) = if with_object {
            (
                r#"<wsdl:operation name="Set"><wsdl:input message="tns:SetSoapIn" /><wsdl:output message="tns:SetSoapOut" /></wsdl:operation>"#,
                r#"<wsdl:operation name="Set"><soap:operation soapAction="http://x/Set" style="document" />
      <wsdl:input><soap:body use="literal" /></wsdl:input><wsdl:output><soap:body use="literal" /></wsdl:output></wsdl:operation>"#,
            )
        } else {
            ("", "")
        };
        let wsdl = WSDL
            .replace("OTHER_BINDING", other_binding)
            .replace("OTHER", other);
        crate::import::read(&wsdl, "svc.wsdl").expect("imports")
    }

    const PROXY: &str = "Type.registerNamespace('Ns');\r\nNs.Svc=function() {\r\n}\r\nNs.Svc.prototype={\r\nAdd:function(a,succeededCallback, failedCallback, userContext) {\r\nreturn this._invoke(this._get_path(), 'Add',true,{a:a},succeededCallback,failedCallback,userContext); }}\r\nNs.Svc.registerClass('Ns.Svc',Sys.Net.WebServiceProxy);\r\n";

    #[test]
    fn a_proxy_makes_the_service_a_script_service_and_marks_its_get_operations() {
        let mut service = imported(false);
        service.with_script_proxy(PROXY).unwrap();
        let yaml = service.to_yaml();
        assert!(yaml.contains("  script:\n    namespace: Ns\n"), "{yaml}");
        assert!(yaml.contains("    script: {get: true}\n"), "{yaml}");
        let spec = crate::spec::parse(&yaml, "imported").unwrap();
        assert!(spec.operations[0].script_get);
    }

    #[test]
    fn what_gen_refuses_over_json_leaves_the_service_as_it_was() {
        let mut service = imported(true);
        let before = service.clone();
        let error = service.with_script_proxy(PROXY).unwrap_err();
        assert!(error.contains("uses object"), "{error}");
        assert_eq!(service, before);
        assert!(service.with_script_proxy("var x = 1;").is_err());
    }
}
