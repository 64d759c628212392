//! A real bare operation of raw XML: SEFAZ's NF-e download service
//! (`tests/fixtures/wild/sefaz-an-nfedownloadnf.wsdl`, Brazil's electronic invoices), whose
//! parameter `nfeDadosMsg` and result `nfeDownloadNFResult` are .NET `XmlNode`s, each the
//! Body's element, with the `nfeCabecMsg` SOAP header. The host's bytes were taken from the
//! reference host serving the WSDL's `wsdl -server` class as an echo
//! (`mock_service.py --echo`, as `WIRE_ECHO=1 tests/wire/run.sh` starts it), answering the
//! requests below: the client writes those requests, our server answers them with the host's
//! bytes, and the client reads the host's answers back to the nodes sent.

use rmm_nfe_download_nf::runtime::{RawNode, RawXml};
use rmm_nfe_download_nf::*;

const NS: &str = "http://www.portalfiscal.inf.br/nfe/wsdl/NfeDownloadNF";
const ENVELOPE: &str = r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">"#;

/// The request's node: an NF-e download request of the portal's own namespace.
const DADOS: &str = r#"<downloadNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.00"><tpAmb>2</tpAmb><chNFe>123</chNFe></downloadNFe>"#;

/// Echoes the node, as the host's echo service does.
struct Echo;

impl NfeDownloadNF for Echo {
    async fn nfe_download_nf(
        &self,
        request: NfeDownloadNF2,
    ) -> Result<NfeDownloadNF2Response, Fault> {
        Ok(NfeDownloadNF2Response {
            result: request.nfe_dados_msg,
        })
    }
}

fn body_of(response: http::Response<bytes::Bytes>) -> String {
    String::from_utf8(response.into_body().to_vec()).unwrap()
}

/// What the host answered each node (SOAP 1.1): the node back in `nfeDownloadNFResult`, the
/// Body's element, declaring the service namespace.
fn host_answer(node: &str) -> String {
    format!(
        "{ENVELOPE}<soap:Body><nfeDownloadNFResult xmlns=\"{NS}\">{node}</nfeDownloadNFResult></soap:Body></soap:Envelope>"
    )
}

#[tokio::test]
async fn a_bare_xml_node_goes_both_ways_as_on_the_host() {
    let server = NfeDownloadNFServer::new(Echo);
    let element = RawNode::Element(RawXml::parse(DADOS).unwrap());
    for (node, sent) in [
        (element, DADOS.to_owned()),
        (
            RawNode::Text("just text & more".into()),
            "just text &amp; more".to_owned(),
        ),
        (RawNode::CData("<x>".into()), "<![CDATA[<x>]]>".to_owned()),
    ] {
        let request = NfeDownloadNF2 {
            nfe_dados_msg: Some(node.clone()),
            nfe_cabec_msg: Some(NfeCabecMsg {
                versao_dados: Some("4.00".into()),
                c_uf: Some("35".into()),
                ..Default::default()
            }),
        };
        let encoded = request
            .encode_request(&Credentials::default(), Binding::Soap11)
            .unwrap();
        let body = String::from_utf8(encoded.body().to_vec()).unwrap();
        // The parameter is the Body's element, declaring the service namespace; the header
        // block is the class's element.
        assert_eq!(
            body,
            format!(
                "{ENVELOPE}<soap:Header><nfeCabecMsg xmlns=\"{NS}\"><versaoDados>4.00</versaoDados><cUF>35</cUF></nfeCabecMsg></soap:Header><soap:Body><nfeDadosMsg xmlns=\"{NS}\">{sent}</nfeDadosMsg></soap:Body></soap:Envelope>"
            )
        );
        let answer = body_of(server.handle(encoded).await);
        assert_eq!(answer, host_answer(&sent));
        let host = http::Response::builder()
            .status(200)
            .header("content-type", "text/xml; charset=utf-8")
            .body(bytes::Bytes::from(host_answer(&sent)))
            .unwrap();
        let read = NfeDownloadNF2Response::decode_response(&host, Binding::Soap11).unwrap();
        assert_eq!(read.result, Some(node));
    }
}

/// An empty parameter element is no node: the host answers an empty Body (a null result), and
/// so does ours.
#[tokio::test]
async fn an_empty_parameter_is_a_null_node() {
    let server = NfeDownloadNFServer::new(Echo);
    let request = http::Request::builder()
        .method("POST")
        .uri("/NfeDownloadNF/NfeDownloadNF.asmx")
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", format!("\"{NS}/nfeDownloadNF\""))
        .body(bytes::Bytes::from(format!(
            "{ENVELOPE}<soap:Body><nfeDadosMsg xmlns=\"{NS}\"/></soap:Body></soap:Envelope>"
        )))
        .unwrap();
    assert_eq!(
        body_of(server.handle(request).await),
        format!("{ENVELOPE}<soap:Body /></soap:Envelope>")
    );
}
