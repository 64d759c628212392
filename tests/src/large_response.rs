//! Large responses of the objects service, served as they are made: `EchoOrders` (an array
//! of orders) and `MakeDataSet` (a DataSet of many rows). The tests of `call_items`' and
//! `call_rows`' memory bounds and the large-message bench read them over real HTTP without
//! the server (in the same process) holding the message.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use futures_util::{stream, StreamExt};
use hyper_util::rt::TokioIo;
use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::http::{HeaderMap, Request, Response};
use rmm_objects::runtime::deps::http_body::Frame;
use rmm_objects::runtime::deps::http_body_util::StreamBody;
use rmm_objects::runtime::deps::hyper;
use rmm_objects::runtime::deps::tokio;
use rmm_objects::runtime::Binding;
use rmm_objects::wire::OperationResponse;
use rmm_objects::{EchoOrdersResponse, MakeDataSetResponse, Order};

/// The chunks of one response body, made again for each request.
type Chunks = Arc<dyn Fn() -> Box<dyn Iterator<Item = Bytes> + Send> + Send + Sync>;

/// An `EchoOrders` response of `count` copies of one order, as rmm's server writes it: the
/// envelope's head, the item, the envelope's end.
#[derive(Debug, Clone)]
pub struct LargeResponse {
    headers: HeaderMap,
    head: Bytes,
    item: Bytes,
    tail: Bytes,
    count: usize,
}

impl LargeResponse {
    /// `order` repeated until the body is at least `size` bytes, over `binding`.
    pub fn of_size(binding: Binding, order: Order, size: usize) -> LargeResponse {
        let response = EchoOrdersResponse::from_result(Some(vec![Some(order)]))
            .encode_response(binding)
            .expect("an order encodes");
        let (parts, body) = response.into_parts();
        let start = find(&body, b"<Order>");
        let end = find(&body, b"</Order>") + b"</Order>".len();
        let mut headers = parts.headers;
        headers.remove("content-length");
        let fixed = body.len() - (end - start);
        LargeResponse {
            headers,
            head: body.slice(..start),
            item: body.slice(start..end),
            tail: body.slice(end..),
            count: size.saturating_sub(fixed).div_ceil(end - start).max(1),
        }
    }

    /// How many orders the response holds.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The size of one order's element.
    pub fn item_len(&self) -> usize {
        self.item.len()
    }

    /// The body's size.
    pub fn len(&self) -> usize {
        self.head.len() + self.count * self.item.len() + self.tail.len()
    }

    /// Whether the body is empty (never: it has an envelope).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The body, whole (for a small one).
    pub fn body(&self) -> Bytes {
        (self.chunks())()
            .fold(Vec::with_capacity(self.len()), |mut body, chunk| {
                body.extend_from_slice(&chunk);
                body
            })
            .into()
    }

    /// The body in chunks of about 16 KiB, each a copy of one block of items.
    fn chunks(&self) -> Chunks {
        let per_block = (16 * 1024 / self.item.len()).max(1);
        let block = Bytes::from(self.item.repeat(per_block));
        let (head, item, tail, count) = (
            self.head.clone(),
            self.item.clone(),
            self.tail.clone(),
            self.count,
        );
        Arc::new(move || {
            let blocks = std::iter::repeat_n(block.clone(), count / per_block);
            let rest = std::iter::repeat_n(item.clone(), count % per_block);
            Box::new(
                std::iter::once(head.clone())
                    .chain(blocks)
                    .chain(rest)
                    .chain(std::iter::once(tail.clone())),
            )
        })
    }

    /// Serves this response to every request on 127.0.0.1, on the current tokio runtime,
    /// until the [`Served`] is dropped.
    pub async fn serve(&self) -> Served {
        serve(self.headers.clone(), self.chunks(), false).await
    }
}

/// A `MakeDataSet` response of a DataSet `Shop` whose table `Orders` (17 columns of every
/// type a DataSet cell has, or those named) holds `count` rows of the same values, each row
/// with its own `diffgr:id` and `msdata:rowOrder` as .NET writes them, its changes accepted
/// (as a query fills a set).
#[derive(Debug, Clone)]
pub struct LargeDataSet {
    headers: HeaderMap,
    head: Bytes,
    cells: Bytes,
    tail: Bytes,
    count: usize,
}

impl LargeDataSet {
    /// Rows until the body is at least `size` bytes, over `binding`.
    pub fn of_size(binding: Binding, size: usize) -> LargeDataSet {
        LargeDataSet::of_columns(binding, size, None)
    }

    /// Rows of the columns named `columns` (all where `None`) until the body is at least
    /// `size` bytes, over `binding`.
    pub fn of_columns(binding: Binding, size: usize, columns: Option<&[&str]>) -> LargeDataSet {
        let mut set = crate::objects_data_set::make_data_set(1).expect("a set");
        set.tables.truncate(1);
        let table = &mut set.tables[0];
        table.rows.truncate(1);
        if let Some(columns) = columns {
            let kept: Vec<bool> = (table.columns.iter())
                .map(|c| columns.contains(&c.name.as_str()))
                .collect();
            let mut column = kept.iter();
            table.columns.retain(|_| *column.next().expect("a column"));
            let mut cell = kept.iter();
            (table.rows[0].values).retain(|_| *cell.next().expect("a cell"));
        }
        set.accept_changes();
        let response = MakeDataSetResponse::from_result(Some(set))
            .encode_response(binding)
            .expect("a set encodes");
        let (parts, body) = response.into_parts();
        let start_tag = b"<Orders diffgr:id=\"Orders1\" msdata:rowOrder=\"0\">";
        let start = find(&body, start_tag);
        let end = start + find(&body[start..], b"</Orders>") + b"</Orders>".len();
        let mut headers = parts.headers;
        headers.remove("content-length");
        let row = end - start;
        let fixed = body.len() - row;
        LargeDataSet {
            headers,
            head: body.slice(..start),
            cells: body.slice(start + start_tag.len()..end - b"</Orders>".len()),
            tail: body.slice(end..),
            count: size.saturating_sub(fixed).div_ceil(row).max(1),
        }
    }

    /// How many rows the set holds.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The body's size.
    pub fn len(&self) -> usize {
        let rows: usize = (0..self.count).map(|k| row_len(k, self.cells.len())).sum();
        self.head.len() + rows + self.tail.len()
    }

    /// Whether the body is empty (never: it has an envelope).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The response, whole (for a small one).
    pub fn response(&self) -> Response<Bytes> {
        let mut response = Response::new(self.body());
        *response.headers_mut() = self.headers.clone();
        response
    }

    /// The body, whole (for a small one).
    pub fn body(&self) -> Bytes {
        (self.chunks())()
            .fold(Vec::new(), |mut body, chunk| {
                body.extend_from_slice(&chunk);
                body
            })
            .into()
    }

    /// The body in chunks of about 16 KiB of rows, each made as it is sent.
    fn chunks(&self) -> Chunks {
        let (head, cells, tail, count) = (
            self.head.clone(),
            self.cells.clone(),
            self.tail.clone(),
            self.count,
        );
        let per_block = (16 * 1024 / (cells.len() + 60)).max(1);
        Arc::new(move || {
            let cells = cells.clone();
            let blocks = (0..count).step_by(per_block).map(move |first| {
                let mut block = Vec::with_capacity(per_block * (cells.len() + 80));
                for k in first..(first + per_block).min(count) {
                    block.extend_from_slice(
                        format!(
                            "<Orders diffgr:id=\"Orders{}\" msdata:rowOrder=\"{k}\">",
                            k + 1
                        )
                        .as_bytes(),
                    );
                    block.extend_from_slice(&cells);
                    block.extend_from_slice(b"</Orders>");
                }
                Bytes::from(block)
            });
            Box::new(
                std::iter::once(head.clone())
                    .chain(blocks)
                    .chain(std::iter::once(tail.clone())),
            )
        })
    }

    /// Serves this response to every request on 127.0.0.1, on the current tokio runtime,
    /// until the [`Served`] is dropped.
    pub async fn serve(&self) -> Served {
        serve(self.headers.clone(), self.chunks(), false).await
    }
}

/// The bytes of row `k` (0-based) holding `cells` bytes of cells.
fn row_len(k: usize, cells: usize) -> usize {
    let digits = |n: usize| n.checked_ilog10().map_or(1, |d| d as usize + 1);
    "<Orders diffgr:id=\"Orders\" msdata:rowOrder=\"\">".len()
        + digits(k + 1)
        + digits(k)
        + cells
        + "</Orders>".len()
}

/// Serves `body` with `headers`, in chunks of `chunk` bytes.
pub async fn serve_in_chunks(headers: HeaderMap, body: Bytes, chunk: usize) -> Served {
    let chunks: Chunks = Arc::new(move || {
        let body = body.clone();
        Box::new(
            (0..body.len())
                .step_by(chunk)
                .map(move |at| body.slice(at..(at + chunk).min(body.len()))),
        )
    });
    serve(headers, chunks, false).await
}

/// Serves `body` with `headers`, in chunks of `chunk` bytes, then nothing more: the response
/// never ends.
pub async fn serve_then_stall(headers: HeaderMap, body: Bytes, chunk: usize) -> Served {
    let chunks: Chunks = Arc::new(move || {
        let body = body.clone();
        Box::new(
            (0..body.len())
                .step_by(chunk)
                .map(move |at| body.slice(at..(at + chunk).min(body.len()))),
        )
    });
    serve(headers, chunks, true).await
}

/// A server of [`LargeResponse::serve`] or [`serve_in_chunks`]: its base URL; dropped, it
/// stops accepting.
#[derive(Debug)]
pub struct Served {
    /// `http://127.0.0.1:port`.
    pub base: String,
    accept: tokio::task::JoinHandle<()>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// Serves the chunks of `chunks` with `headers` to every request; after them the body ends,
/// or with `stall`, waits forever.
async fn serve(headers: HeaderMap, chunks: Chunks, stall: bool) -> Served {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("a port on 127.0.0.1");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let accept = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (headers, chunks) = (headers.clone(), chunks.clone());
            let service = hyper::service::service_fn(move |_: Request<hyper::body::Incoming>| {
                let frames = (chunks)().map(|chunk| Ok::<_, Infallible>(Frame::data(chunk)));
                let frames = stream::iter(frames);
                let body = if stall {
                    StreamBody::new(frames.chain(stream::pending()).boxed())
                } else {
                    StreamBody::new(frames.boxed())
                };
                let mut response = Response::new(body);
                *response.headers_mut() = headers.clone();
                async move { Ok::<_, Infallible>(response) }
            });
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Served { base, accept }
}

fn find(body: &[u8], what: &[u8]) -> usize {
    body.windows(what.len())
        .position(|w| w == what)
        .expect("the response holds the order")
}
