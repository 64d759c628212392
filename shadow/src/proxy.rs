//! The shadow itself: a reverse proxy that answers each client with the primary's response
//! and mirrors the request, off the client's path, to the candidate and the secondary.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use http::{header, HeaderMap, Request, Response, StatusCode, Uri};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, Semaphore};

use crate::classify::{classify, Binding};
use crate::compare::compare;
use crate::findings::Findings;
use crate::report::Report;
use crate::rules::Rules;

/// How the shadow runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The legacy host, whose answers the clients get (`http://host:port`; the request's own
    /// path and query are kept).
    pub primary: Uri,
    /// The replacement, mirrored to.
    pub candidate: Uri,
    /// A second instance of the legacy host, mirrored to: where it differs from the primary
    /// is noise.
    pub secondary: Option<Uri>,
    /// Where `report.json` and `report.html` are written.
    pub report: PathBuf,
    /// How often they are written while the shadow runs (and once more when it stops).
    pub report_every: Duration,
    /// Fields to ignore.
    pub rules: Rules,
    /// Requests waiting to be mirrored, at most; more are not mirrored (counted as dropped).
    pub queue: usize,
    /// Requests mirrored at once, at most.
    pub concurrency: usize,
    /// How long the primary may take.
    pub primary_timeout: Duration,
    /// How long the candidate and the secondary may take.
    pub mirror_timeout: Duration,
    /// The largest request body taken; a larger one is answered `413` by the shadow.
    pub max_body: usize,
}

impl Config {
    /// A configuration with the defaults: a report every 10 s, a queue of 1,000, 32 mirrored
    /// at once, 120 s for the primary (past ASMX's own 110 s), 10 s for the others, 16 MiB.
    pub fn new(primary: Uri, candidate: Uri, report: PathBuf) -> Config {
        Config {
            primary,
            candidate,
            secondary: None,
            report,
            report_every: Duration::from_secs(10),
            rules: Rules::none(),
            queue: 1000,
            concurrency: 32,
            primary_timeout: Duration::from_secs(120),
            mirror_timeout: Duration::from_secs(10),
            max_body: 16 << 20,
        }
    }
}

/// A request the primary answered, waiting to be mirrored.
struct Job {
    operation: String,
    binding: Binding,
    request: Request<Bytes>,
    primary: Response<Bytes>,
}

struct State {
    config: Config,
    client: Client<HttpConnector, Full<Bytes>>,
    findings: Mutex<Findings>,
    started: SystemTime,
}

impl State {
    fn report(&self) -> Report {
        let findings = self.findings.lock().unwrap_or_else(|e| e.into_inner());
        let mut report = findings.report(&self.config.rules, self.config.secondary.is_some());
        report.started = rfc3339(self.started);
        report.written = rfc3339(SystemTime::now());
        report.primary = self.config.primary.to_string();
        report.candidate = self.config.candidate.to_string();
        report.secondary_url = self.config.secondary.as_ref().map(ToString::to_string);
        report
    }

    fn write_report(&self) -> Report {
        let report = self.report();
        if let Err(e) = report.write(&self.config.report) {
            tracing::error!(error = %e, dir = %self.config.report.display(), "the report could not be written");
        }
        report
    }
}

fn rfc3339(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Runs the shadow on `listener` until `shutdown` completes, then waits for the mirrored
/// requests in flight (at most the mirror time-out), writes the report a last time and
/// returns it.
pub async fn run<F: Future<Output = ()>>(
    config: Config,
    listener: TcpListener,
    shutdown: F,
) -> std::io::Result<Report> {
    let client = Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .build_http();
    let state = Arc::new(State {
        client,
        findings: Mutex::new(Findings::default()),
        started: SystemTime::now(),
        config,
    });
    let (jobs, queue) = mpsc::channel::<Job>(state.config.queue.max(1));
    let (close_queue, closing) = tokio::sync::oneshot::channel::<()>();
    let mirroring = tokio::spawn(mirror_all(Arc::clone(&state), queue, closing));
    let reporting = tokio::spawn({
        let state = Arc::clone(&state);
        async move {
            let mut every = tokio::time::interval(state.config.report_every);
            every.tick().await;
            loop {
                every.tick().await;
                state.write_report();
            }
        }
    });
    state.write_report();

    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let state = Arc::clone(&state);
        let jobs = jobs.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let state = Arc::clone(&state);
                let jobs = jobs.clone();
                async move { Ok::<_, Infallible>(handle(&state, &jobs, request, peer).await) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, %peer, "connection ended");
            }
        });
    }
    drop(jobs);
    let _ = close_queue.send(());
    reporting.abort();
    // What is queued or in flight is mirrored, within the mirror time-out.
    let grace = state.config.mirror_timeout + Duration::from_secs(1);
    let _ = tokio::time::timeout(grace, mirroring).await;
    Ok(state.write_report())
}

/// One client request: the primary's answer, and the request queued for mirroring.
async fn handle(
    state: &State,
    jobs: &mpsc::Sender<Job>,
    request: Request<Incoming>,
    peer: SocketAddr,
) -> Response<Full<Bytes>> {
    let (parts, body) = request.into_parts();
    let body = match Limited::new(body, state.config.max_body).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            tracing::warn!(error = %e, %peer, "request body not taken");
            return plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                "rmm shadow: the request body is larger than --max-body, or broke off\n",
            );
        }
    };
    let request = Request::from_parts(parts, body);
    let (operation, binding) = classify(&request);
    let started = Instant::now();
    let primary = send(
        state,
        &state.config.primary,
        &request,
        state.config.primary_timeout,
    )
    .await;
    let primary = match primary {
        Ok(response) => response,
        Err(e) => {
            tracing::error!(error = %e, operation, "the primary did not answer");
            return plain(
                StatusCode::BAD_GATEWAY,
                &format!("rmm shadow: the primary did not answer: {e}\n"),
            );
        }
    };
    let latency = started.elapsed();
    let answer = primary.clone().map(Full::new);
    let job = Job {
        operation,
        binding,
        request,
        primary,
    };
    {
        let mut findings = state.findings.lock().unwrap_or_else(|e| e.into_inner());
        findings.primary(&job.operation, job.binding, latency);
        if jobs.try_send(job).is_err() {
            findings.dropped();
        }
    }
    answer
}

/// Mirrors each queued request, at most `concurrency` at once, until `closing`: then the
/// queue takes no more (connections still open may keep their senders) and what it holds is
/// mirrored.
async fn mirror_all(
    state: Arc<State>,
    mut queue: mpsc::Receiver<Job>,
    closing: tokio::sync::oneshot::Receiver<()>,
) {
    let permits = Arc::new(Semaphore::new(state.config.concurrency.max(1)));
    let mut running = tokio::task::JoinSet::new();
    tokio::pin!(closing);
    let mut open = true;
    loop {
        let job = if open {
            tokio::select! {
                job = queue.recv() => job,
                _ = &mut closing => {
                    queue.close();
                    open = false;
                    continue;
                }
            }
        } else {
            queue.recv().await
        };
        let Some(job) = job else { break };
        let Ok(permit) = Arc::clone(&permits).acquire_owned().await else {
            break;
        };
        let state = Arc::clone(&state);
        running.spawn(async move {
            mirror(&state, job).await;
            drop(permit);
        });
        while running.try_join_next().is_some() {}
    }
    while running.join_next().await.is_some() {}
}

async fn mirror(state: &State, job: Job) {
    let timeout = state.config.mirror_timeout;
    let secondary = async {
        match &state.config.secondary {
            Some(uri) => Some(send(state, uri, &job.request, timeout).await),
            None => None,
        }
    };
    let candidate = async {
        let started = Instant::now();
        let answer = send(state, &state.config.candidate, &job.request, timeout).await;
        (answer, started.elapsed())
    };
    let (secondary, (candidate, latency)) = tokio::join!(secondary, candidate);
    let mut findings = state.findings.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(Ok(secondary)) = secondary {
        findings.secondary(&job.operation, &compare(&job.primary, &secondary));
    }
    match candidate {
        Ok(candidate) => {
            let differences = compare(&job.primary, &candidate);
            findings.candidate(
                (&job.operation, job.binding),
                (&job.request, &job.primary, &candidate),
                &differences,
                latency,
            );
        }
        Err(e) => findings.candidate_failed(&job.operation, job.binding, e),
    }
}

/// Headers that belong to one connection, not to the message (RFC 9110, 7.6.1).
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

fn end_to_end(headers: &HeaderMap) -> HeaderMap {
    let mut out = headers.clone();
    for name in HOP_BY_HOP {
        out.remove(*name);
    }
    out
}

/// Sends `request` to `base` (its scheme and authority; the request's path and query kept,
/// and its Host header, so a host writes the addresses the client asked for) and reads the
/// whole answer.
async fn send(
    state: &State,
    base: &Uri,
    request: &Request<Bytes>,
    timeout: Duration,
) -> Result<Response<Bytes>, String> {
    let mut uri = Uri::builder();
    if let Some(scheme) = base.scheme() {
        uri = uri.scheme(scheme.clone());
    }
    if let Some(authority) = base.authority() {
        uri = uri.authority(authority.clone());
    }
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let uri = uri
        .path_and_query(target)
        .build()
        .map_err(|e| e.to_string())?;
    let mut forward = Request::builder()
        .method(request.method().clone())
        .uri(uri)
        .body(Full::new(request.body().clone()))
        .map_err(|e| e.to_string())?;
    *forward.headers_mut() = end_to_end(request.headers());
    if !forward.headers().contains_key(header::HOST) {
        if let Some(authority) = base.authority() {
            if let Ok(value) = authority.as_str().parse() {
                forward.headers_mut().insert(header::HOST, value);
            }
        }
    }
    let exchange = async {
        let response = state
            .client
            .request(forward)
            .await
            .map_err(|e| error_chain(&e))?;
        let (mut parts, body) = response.into_parts();
        let body = body
            .collect()
            .await
            .map_err(|e| error_chain(&e))?
            .to_bytes();
        parts.headers = end_to_end(&parts.headers);
        Ok(Response::from_parts(parts, body))
    };
    match tokio::time::timeout(timeout, exchange).await {
        Ok(answer) => answer,
        Err(_) => Err(format!("no answer within {timeout:?}")),
    }
}

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}

fn plain(status: StatusCode, text: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(text.to_owned())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
