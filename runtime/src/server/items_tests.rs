//! The item writer: its bytes are the whole answer's, whole below a chunk and streamed past
//! it; a late failure cuts the body short; a client that goes away stops the writing.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::{stream, StreamExt};
use http::header::{CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use http::{Response, StatusCode};
use http_body::Body as _;

use super::*;
use crate::operation::fixtures::OP;

const NAMES: &[&str] = &["string"];
const ROOT: &str = "ArrayOfString";

/// `count` tags, every seventh nil, some with characters to escape.
fn tags(count: usize) -> Vec<Option<String>> {
    (0..count)
        .map(|i| (i % 7 != 3).then(|| format!("tag {i} <&> \u{e9}")))
        .collect()
}

/// The answer the operation's whole writer gives.
fn whole(binding: Binding, result: Result<Option<Vec<Option<String>>>, Fault>) -> Response<Bytes> {
    match result {
        Ok(result) => message::value_response(binding, &OP, result.as_ref(), NAMES, ROOT)
            .unwrap_or_else(|e| message::fault_response(binding, &Fault::server(e.to_string()))),
        Err(fault) => message::fault_response(binding, &fault),
    }
}

/// The streamed answer to `items`, chunked.
async fn streamed(binding: Binding, items: Items<Option<String>>) -> Response<Body> {
    items_response(binding, &OP, Ok(items), NAMES, ROOT, true, |r| {
        whole(binding, r)
    })
    .await
}

#[tokio::test]
async fn the_bytes_are_the_whole_answers_whole_below_a_chunk_streamed_past_it() {
    for binding in [
        Binding::Soap11,
        Binding::Soap12,
        Binding::HttpGet,
        Binding::HttpPost,
    ] {
        for count in [0, 1, 2, 100, 3_000, 40_000] {
            let expected = whole(binding, Ok(Some(tags(count))));
            let answer = streamed(binding, Items::iter(tags(count))).await;
            assert_eq!(answer.status(), StatusCode::OK);
            for header in [CONTENT_TYPE, CACHE_CONTROL] {
                assert_eq!(
                    answer.headers().get(&header),
                    expected.headers().get(&header)
                );
            }
            let is_streamed = answer.body().size_hint().exact().is_none();
            let length = answer.headers().get(CONTENT_LENGTH).cloned();
            let body = answer.into_body().into_bytes().await.unwrap();
            assert_eq!(body, expected.body(), "{binding:?}, {count} tags");
            if body.len() < CHUNK {
                assert!(
                    !is_streamed,
                    "{binding:?}, {count} tags: whole below a chunk"
                );
                assert_eq!(length, expected.headers().get(CONTENT_LENGTH).cloned());
            } else if body.len() > CHUNK + 1_000 {
                assert!(
                    is_streamed,
                    "{binding:?}, {count} tags: streamed past a chunk"
                );
                assert_eq!(length, None, "a streamed answer has no length");
            }
        }
    }
}

#[tokio::test]
async fn a_whole_result_and_an_unchunked_answer_are_the_operations_own() {
    let binding = Binding::Soap11;
    // A whole result (the trait's default), absent too: the whole writer's, untouched.
    for result in [None, Some(tags(5))] {
        let answer = items_response(
            binding,
            &OP,
            Ok(Items::whole(result.clone())),
            NAMES,
            ROOT,
            true,
            |r| whole(binding, r),
        )
        .await;
        let expected = whole(binding, Ok(result));
        assert_eq!(
            answer.into_body().into_bytes().await.unwrap(),
            expected.body()
        );
    }
    // Not chunked (the sans-IO `handle`) or JSON: the stream collected, then written whole.
    let answer = items_response(
        binding,
        &OP,
        Ok(Items::iter(tags(40_000))),
        NAMES,
        ROOT,
        false,
        |r| whole(binding, r),
    )
    .await;
    assert_eq!(
        answer.body().size_hint().exact(),
        Some(whole(binding, Ok(Some(tags(40_000)))).body().len() as u64)
    );
}

#[tokio::test]
async fn a_failure_before_the_first_chunk_is_the_handlers_fault() {
    for binding in [Binding::Soap11, Binding::HttpPost] {
        let failing = stream::iter(tags(10).into_iter().map(Ok)).chain(stream::once(async {
            Err(Fault::server("the cursor broke"))
        }));
        let answer = streamed(binding, Items::stream(failing)).await;
        let expected = message::fault_response(binding, &Fault::server("the cursor broke"));
        assert_eq!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            answer.into_body().into_bytes().await.unwrap(),
            expected.body()
        );
        // A fault before any item, or the handler's own: the same.
        let refused = items_response(
            binding,
            &OP,
            Err(Fault::client("no")),
            NAMES,
            ROOT,
            true,
            |r| whole(binding, r),
        )
        .await;
        assert_eq!(refused.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}

#[tokio::test]
async fn a_failure_after_the_first_chunk_cuts_the_body_short() {
    let failing = stream::iter(tags(20_000).into_iter().map(Ok)).chain(stream::once(async {
        Err(Fault::server("the cursor broke"))
    }));
    let answer = streamed(Binding::Soap11, Items::stream(failing)).await;
    assert_eq!(
        answer.status(),
        StatusCode::OK,
        "the head went before the failure"
    );
    let mut body = answer.into_body();
    let mut received = Vec::new();
    let error = loop {
        match std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await {
            Some(Ok(frame)) => received.extend_from_slice(&frame.into_data().unwrap()),
            Some(Err(error)) => break error,
            None => panic!("a failed answer ended as if complete"),
        }
    };
    assert!(error.to_string().contains("the cursor broke"), "{error}");
    let expected = whole(Binding::Soap11, Ok(Some(tags(20_000))));
    assert!(received.len() >= CHUNK);
    assert!(
        expected.body().starts_with(&received),
        "what was sent is the answer's start"
    );
}

#[tokio::test]
async fn an_item_that_cannot_be_written_is_a_server_fault_or_a_cut() {
    // A character XML cannot carry, early: the fault the whole writer gives.
    let items = vec![Some("fine".to_owned()), Some("\u{1}".to_owned())];
    let answer = streamed(Binding::Soap11, Items::iter(items.clone())).await;
    let expected = whole(Binding::Soap11, Ok(Some(items)));
    assert_eq!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        answer.into_body().into_bytes().await.unwrap(),
        expected.body()
    );
    // Late: a cut.
    let mut items = tags(20_000);
    items.push(Some("\u{1}".to_owned()));
    let answer = streamed(Binding::Soap11, Items::iter(items)).await;
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(answer.into_body().into_bytes().await.is_err());
}

#[tokio::test]
async fn a_panic_in_the_stream_is_a_500_or_a_cut() {
    let early = stream::iter(0..5).map(|i| {
        if i == 3 {
            panic!("a bug in the cursor");
        }
        Ok(Some(format!("t{i}")))
    });
    let answer = streamed(Binding::Soap11, Items::stream(early)).await;
    assert_eq!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body = answer.into_body().into_bytes().await.unwrap();
    assert!(String::from_utf8_lossy(&body).contains("The server failed to process the request."));

    let late = stream::iter(0..50_000).map(|i| {
        if i == 40_000 {
            panic!("a bug in the cursor");
        }
        Ok(Some(format!("t{i}")))
    });
    let answer = streamed(Binding::Soap11, Items::stream(late)).await;
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(answer.into_body().into_bytes().await.is_err());
}

/// Counts the items taken, and says when the stream is dropped.
struct Counted {
    taken: Arc<AtomicUsize>,
    dropped: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        if let Some(dropped) = self.dropped.take() {
            let _ = dropped.send(());
        }
    }
}

#[tokio::test]
async fn a_client_that_goes_away_stops_the_writing_and_the_writer_holds_a_few_chunks() {
    let taken = Arc::new(AtomicUsize::new(0));
    let (dropped_tx, dropped_rx) = tokio::sync::oneshot::channel();
    let counted = Counted {
        taken: Arc::clone(&taken),
        dropped: Some(dropped_tx),
    };
    // An endless stream: only the client's going away ends it.
    let endless = stream::iter(0..).map(move |i: u64| {
        counted.taken.fetch_add(1, Ordering::Relaxed);
        Ok(Some(format!("t{i}")))
    });
    let answer = streamed(Binding::Soap11, Items::stream(endless)).await;
    let mut body = answer.into_body();
    for _ in 0..3 {
        let frame = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await;
        assert!(frame.unwrap().unwrap().is_data());
    }
    // The writer waits for the client: a few chunks ahead at most, however long it waits.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let item = "<string>t100000</string>".len();
    let ahead = taken.load(Ordering::Relaxed) * item;
    assert!(
        ahead < 6 * CHUNK,
        "the writer ran {ahead} bytes ahead of the client"
    );
    drop(body);
    tokio::time::timeout(Duration::from_secs(5), dropped_rx)
        .await
        .expect("the writer stops once the client has gone")
        .unwrap();
}
