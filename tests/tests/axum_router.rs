//! The axum example (`tests/examples/axum_router.rs`) run over loopback: the generated server
//! answers on the spec's path on every binding, with its WSDL, beside the application's own
//! route, and what is neither is axum's 404.

#[allow(dead_code)]
#[path = "../examples/axum_router.rs"]
mod axum_router;

use rmm_mobile::*;
use rmm_tests::samples::{echo_of, sample};
use rmm_tests::{spec_operation, typed_sample};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_service_answers_inside_an_axum_router_beside_other_routes() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let serving = tokio::spawn(async move { axum::serve(listener, axum_router::app()).await });
    let http = reqwest::Client::new();

    // The application's own route.
    let health = http.get(format!("{base}/health")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    assert_eq!(health.text().await.unwrap(), "ok");

    // Every binding, through the generated client.
    for (salt, binding) in Binding::ALL.into_iter().enumerate() {
        let pairs = sample(&spec_operation("MobileAccountSearch"), salt + 1);
        let (credentials, request) = typed_sample::<MobileAccountSearch>(&pairs);
        let client =
            MobileServiceClient::new(&base, StaticSigner(credentials)).with_binding(binding);
        let answer = client.mobile_account_search(&request).await.unwrap();
        assert_eq!(
            answer.result.as_deref(),
            Some(echo_of("MobileAccountSearch", &pairs).as_str()),
            "{binding}"
        );
    }

    // The WSDL, with this host in its addresses.
    let wsdl = http
        .get(format!("{base}{}?wsdl", SERVICE.path))
        .send()
        .await
        .unwrap();
    assert_eq!(wsdl.status(), 200);
    assert_eq!(wsdl.headers()["content-type"], "text/xml; charset=utf-8");
    let text = wsdl.text().await.unwrap();
    assert!(text.contains(&format!("location=\"{base}{}\"", SERVICE.path)));

    // Neither the application's nor the service's: axum's 404.
    let other = http.get(format!("{base}/elsewhere")).send().await.unwrap();
    assert_eq!(other.status(), 404);
    serving.abort();
}
