//! `call_items`: an array result read item by item as the response arrives gives what a
//! whole read (`call`) gives, over real HTTP, however the body is chunked.

use rmm_objects::runtime::client::CallError;
use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::http::HeaderMap;
use rmm_objects::runtime::deps::tokio;
use rmm_objects::runtime::Binding;
use rmm_objects::wire::OperationResponse;
use rmm_objects::{
    EchoOrders, EchoOrdersResponse, Fault, ObjectsServiceBlockingClient, ObjectsServiceClient,
};
use rmm_tests::large_response::{serve_in_chunks, serve_then_stall};
use rmm_tests::objects_service::make_order;

/// `EchoOrders` of `count` orders of every shape `make_order` makes, one in seven nil.
fn response(count: i32) -> EchoOrdersResponse {
    EchoOrdersResponse::from_result(Some(
        (0..count)
            .map(|i| match i % 7 {
                3 => None,
                _ => make_order(i, (i % 2 == 0).then(|| format!("order {i} <&>"))),
            })
            .collect(),
    ))
}

/// Both reads of `body` (with `headers`) served in chunks of `chunk` bytes.
async fn both(
    binding: Binding,
    headers: &HeaderMap,
    body: &Bytes,
    chunk: usize,
) -> (
    Result<EchoOrdersResponse, CallError>,
    Result<Vec<Option<rmm_objects::Order>>, CallError>,
) {
    let served = serve_in_chunks(headers.clone(), body.clone(), chunk).await;
    let client = ObjectsServiceClient::new(&served.base).with_binding(binding);
    let request = EchoOrders { orders: None };
    let whole = client.call(&request).await;
    let items = match client.call_items(&request).await {
        Ok(items) => items.collect().await,
        Err(e) => Err(e),
    };
    (whole, items)
}

#[tokio::test(flavor = "current_thread")]
async fn items_are_what_a_whole_read_gives_however_the_body_is_chunked() {
    for binding in [Binding::Soap11, Binding::Soap12] {
        for count in [0, 1, 50, 2_000] {
            let response = response(count).encode_response(binding).unwrap();
            let (parts, body) = response.into_parts();
            for chunk in [1, 1_000, 1 << 20] {
                if chunk == 1 && count > 50 {
                    continue; // a byte at a time is slow over HTTP; 50 orders cover it
                }
                let (whole, items) = both(binding, &parts.headers, &body, chunk).await;
                let whole = whole.unwrap().result.unwrap_or_default();
                assert_eq!(whole.len(), count as usize);
                assert_eq!(
                    items.unwrap(),
                    whole,
                    "{binding:?}, {count} orders, chunks of {chunk}"
                );
            }
        }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_fault_or_a_broken_response_is_the_error_a_whole_read_gives() {
    let binding = Binding::Soap11;
    let fault = rmm_objects::runtime::message::fault_response(
        binding,
        &Fault::server("Server was unable to process request. ---> no orders"),
    );
    let (parts, body) = fault.into_parts();
    let (whole, items) = both(binding, &parts.headers, &body, 7).await;
    let (whole, items) = (whole.unwrap_err(), items.unwrap_err());
    assert!(whole.fault().is_some(), "{whole}");
    assert_eq!(items.to_string(), whole.to_string());

    // Cut off in the middle of the items: both refuse it, the items after those whole. With
    // its length sent, the connection ends too soon; without, the XML does.
    let response = response(3_000).encode_response(binding).unwrap();
    let (parts, body) = response.into_parts();
    let mut chunked = parts.headers.clone();
    chunked.remove("content-length");
    let cut_off = body.slice(..body.len() / 2);
    for (headers, broken) in [(&parts.headers, true), (&chunked, false)] {
        let served = serve_in_chunks(headers.clone(), cut_off.clone(), 4096).await;
        let client = ObjectsServiceClient::new(&served.base);
        let request = EchoOrders { orders: None };
        assert!(client.call(&request).await.is_err());
        let mut items = client.call_items(&request).await.unwrap();
        let expected = self::response(3_000).result.unwrap();
        let mut read = 0;
        let error = loop {
            match items.next().await {
                Some(Ok(item)) => {
                    assert_eq!(item, expected[read]);
                    read += 1;
                }
                Some(Err(error)) => break error,
                None => panic!("a truncated response read as whole"),
            }
        };
        assert!(read > 0 && read < 3_000, "{read} items before the error");
        match error {
            CallError::Transport { .. } => assert!(broken, "{error}"),
            CallError::Response(_) => assert!(!broken, "{error}"),
            _ => panic!("{error}"),
        }
        assert!(items.next().await.is_none(), "nothing after the error");
    }
}

#[test]
fn a_blocking_client_gives_the_items_as_an_iterator() {
    let binding = Binding::Soap12;
    let (parts, body) = response(500).encode_response(binding).unwrap().into_parts();
    let server = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let served = server.block_on(serve_in_chunks(parts.headers, body, 3_000));
    let client = ObjectsServiceBlockingClient::new(&served.base).with_binding(binding);
    let request = EchoOrders { orders: None };
    let items: Result<Vec<_>, _> = client.call_items(&request).unwrap().collect();
    assert_eq!(items.unwrap(), response(500).result.unwrap());
}

#[tokio::test(flavor = "current_thread")]
async fn a_response_that_stops_arriving_times_out_after_the_items_it_brought() {
    let binding = Binding::Soap11;
    let (parts, body) = response(3_000)
        .encode_response(binding)
        .unwrap()
        .into_parts();
    let mut chunked = parts.headers.clone();
    chunked.remove("content-length");
    // Half the body, then nothing: no end, no more bytes.
    let served = serve_then_stall(chunked, body.slice(..body.len() / 2), 4096).await;
    let client = ObjectsServiceClient::new(&served.base)
        .with_timeout(Some(std::time::Duration::from_millis(300)));
    let mut items = client
        .call_items(&EchoOrders { orders: None })
        .await
        .unwrap();
    let mut read = 0;
    let error = loop {
        match items.next().await {
            Some(Ok(_)) => read += 1,
            Some(Err(error)) => break error,
            None => panic!("a stalled response ended"),
        }
    };
    assert!(read > 0, "the items that arrived whole come first");
    assert!(error.is_timeout(), "{error}");
}
