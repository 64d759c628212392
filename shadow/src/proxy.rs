//! The shadow itself: a reverse proxy that answers each client with the primary's response
//! and mirrors the request, off the client's path, to the candidate and the secondary.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use http::{header, Request, Response, StatusCode, Uri};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, Semaphore};

use crate::capture::RawCapture;
use crate::classify::{classify, Binding};
use crate::compare::compare_typed;
use crate::findings::Findings;
use crate::forward::{self, send};
use crate::redact::Secrets;
use crate::report::Report;
use crate::rules::Rules;
use crate::typing::Typing;

/// Names why a difference between the primary's answer and the candidate's is accepted on
/// purpose (the replacement refuses where the legacy host answers wrong data, say), given the
/// request and both answers; `None` leaves it a difference.
pub type Explain = Arc<
    dyn Fn(&Request<Bytes>, &Response<Bytes>, &Response<Bytes>) -> Option<String> + Send + Sync,
>;

/// How the shadow runs.
#[derive(Clone)]
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
    /// Where each exchange with the primary is written as a capture file (`--record`), its
    /// secrets redacted.
    pub record: Option<PathBuf>,
    /// The secrets redacted from what is recorded.
    pub secrets: Secrets,
    /// The differences accepted on purpose, counted apart.
    pub explain: Option<Explain>,
    /// The types of the answers' leaves (from the spec: `rmm shadow --spec`), which compare
    /// them by value; without it every leaf is compared by its text.
    pub typing: Arc<Typing>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("primary", &self.primary)
            .field("candidate", &self.candidate)
            .field("secondary", &self.secondary)
            .field("report", &self.report)
            .field("record", &self.record)
            .field("explain", &self.explain.is_some())
            .finish_non_exhaustive()
    }
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
            record: None,
            secrets: Secrets::default(),
            explain: None,
            typing: Arc::new(Typing::new()),
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

/// An exchange with the primary, waiting to be recorded.
struct Recording {
    serial: u64,
    operation: String,
    binding: Binding,
    request: Request<Bytes>,
    response: Response<Bytes>,
}

/// How long a client may take to send a request's head (the generated server's default).
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);

/// Exchanges waiting to be written, at most; more are not recorded (and counted).
const RECORD_QUEUE: usize = 10_000;

struct State {
    config: Config,
    recordings: Option<mpsc::Sender<Recording>>,
    serial: std::sync::atomic::AtomicU64,
    /// The client's path to the primary.
    client: forward::HttpClient,
    /// The mirror's, to the candidate and the secondary: a pool of its own, so that a
    /// candidate refusing every connection does not touch the primary's (with one pool, the
    /// primary path's p99 took 2.6 to 8 ms more in three of eight shadow_load runs with the
    /// candidate down; with two, 0.4 to 0.8 ms in five of five).
    mirror_client: forward::HttpClient,
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

pub(crate) fn rfc3339(time: SystemTime) -> String {
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
    // Told when the shadow stops: the queues then take no more (connections still open keep
    // their senders) and what they hold is done.
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    let (recordings, recorder) = match &config.record {
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            let (sender, queue) = mpsc::channel(RECORD_QUEUE);
            let recorder = tokio::spawn(record_all(
                dir.clone(),
                config.secrets.clone(),
                queue,
                stopped.clone(),
            ));
            (Some(sender), Some(recorder))
        }
        None => (None, None),
    };
    let state = Arc::new(State {
        recordings,
        serial: std::sync::atomic::AtomicU64::new(0),
        client: forward::client(),
        mirror_client: forward::client(),
        findings: Mutex::new(Findings::default()),
        started: SystemTime::now(),
        config,
    });
    let (jobs, queue) = mpsc::channel::<Job>(state.config.queue.max(1));
    let mirroring = tokio::spawn(mirror_all(Arc::clone(&state), queue, stopped));
    let reporting = tokio::spawn({
        let state = Arc::clone(&state);
        async move {
            let mut every = tokio::time::interval(state.config.report_every);
            every.tick().await;
            loop {
                every.tick().await;
                // Off the workers: the page of large answers' examples takes a while to write
                // (two 2 MiB answers side by side: 200 ms, the shadow_load bench), and the
                // clients' requests wait on the workers.
                let state = Arc::clone(&state);
                let _ = tokio::task::spawn_blocking(move || state.write_report()).await;
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
        let _ = stream.set_nodelay(true);
        let state = Arc::clone(&state);
        let jobs = jobs.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let state = Arc::clone(&state);
                let jobs = jobs.clone();
                async move { Ok::<_, Infallible>(handle(&state, &jobs, request, peer).await) }
            });
            // As the generated server: a client that does not send its head in time is let go.
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, %peer, "connection ended");
            }
        });
    }
    drop(jobs);
    let _ = stopping.send(true);
    reporting.abort();
    // What is queued or in flight is mirrored, within the mirror time-out.
    let grace = state.config.mirror_timeout + Duration::from_secs(1);
    let _ = tokio::time::timeout(grace, mirroring).await;
    if let Some(recorder) = recorder {
        // The connections still open keep their senders: what is queued now is written.
        let _ = tokio::time::timeout(grace, recorder).await;
    }
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
        &state.client,
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
    let serial = state
        .serial
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let recorded = state.recordings.as_ref().map(|recordings| {
        recordings
            .try_send(Recording {
                serial,
                operation: operation.clone(),
                binding,
                request: request.clone(),
                response: primary.clone(),
            })
            .is_ok()
    });
    let job = Job {
        operation,
        binding,
        request,
        primary,
    };
    {
        let mut findings = state.findings.lock().unwrap_or_else(|e| e.into_inner());
        findings.primary(&job.operation, job.binding, Some(latency));
        if recorded == Some(false) {
            findings.not_recorded();
        }
        if jobs.try_send(job).is_err() {
            findings.dropped();
        }
    }
    answer
}

/// Writes each exchange queued as a capture file of `dir`, `NNNNNN-binding-Operation.txt`
/// (the request's serial number first, so the files sort in the order they came), its
/// secrets redacted, until the queue closes.
async fn record_all(
    dir: PathBuf,
    secrets: Secrets,
    mut queue: mpsc::Receiver<Recording>,
    mut stopped: tokio::sync::watch::Receiver<bool>,
) {
    while let Some(recording) = next(&mut queue, &mut stopped).await {
        let operation: String = recording
            .operation
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let name = format!(
            "{:06}-{}-{operation}",
            recording.serial,
            recording.binding.name()
        );
        let what = format!(
            "{} over {}, recorded by rmm shadow",
            recording.operation,
            recording.binding.name()
        );
        let capture = RawCapture::from_exchange(
            &name,
            &what,
            &secrets.request(&recording.request),
            &secrets.response(&recording.response),
        );
        let path = dir.join(format!("{name}.txt"));
        if let Err(e) = tokio::fs::write(&path, capture.to_file()).await {
            tracing::error!(error = %e, path = %path.display(), "an exchange could not be recorded");
        }
    }
}

/// The next of `queue`; once `stopped` says so, the queue takes no more and what it holds
/// is given out, then `None`.
async fn next<T>(
    queue: &mut mpsc::Receiver<T>,
    stopped: &mut tokio::sync::watch::Receiver<bool>,
) -> Option<T> {
    if !*stopped.borrow() {
        tokio::select! {
            item = queue.recv() => return item,
            _ = stopped.wait_for(|stop| *stop) => {}
        }
    }
    // Closed each time: the stop may have come while the last item was being handled.
    queue.close();
    queue.recv().await
}

/// Mirrors each queued request, at most `concurrency` at once, until the shadow stops and
/// the queue is empty.
async fn mirror_all(
    state: Arc<State>,
    mut queue: mpsc::Receiver<Job>,
    mut stopped: tokio::sync::watch::Receiver<bool>,
) {
    let permits = Arc::new(Semaphore::new(state.config.concurrency.max(1)));
    let mut running = tokio::task::JoinSet::new();
    loop {
        let job = next(&mut queue, &mut stopped).await;
        let Some(job) = job else { break };
        let Ok(permit) = Arc::clone(&permits).acquire_owned().await else {
            break;
        };
        let state = Arc::clone(&state);
        running.spawn(async move {
            mirror(state, job).await;
            drop(permit);
        });
        while running.try_join_next().is_some() {}
    }
    while running.join_next().await.is_some() {}
}

/// The bodies' length (the primary's, the candidate's and the secondary's answers) past which
/// they are compared on tokio's blocking pool rather than on a worker: reading two large
/// answers by meaning takes milliseconds (two 2 MiB answers, a hundred and more), which
/// would hold up the clients' requests waiting on that worker (the `shadow_load` bench's
/// large answers: 225 ms at p99 when compared on the worker).
const COMPARED_INLINE: usize = 64 << 10;

async fn mirror(state: Arc<State>, job: Job) {
    let timeout = state.config.mirror_timeout;
    let secondary = async {
        match &state.config.secondary {
            Some(uri) => Some(send(&state.mirror_client, uri, &job.request, timeout).await),
            None => None,
        }
    };
    let candidate = async {
        let started = Instant::now();
        let answer = send(
            &state.mirror_client,
            &state.config.candidate,
            &job.request,
            timeout,
        )
        .await;
        (answer, started.elapsed())
    };
    let (secondary, (candidate, latency)) = tokio::join!(secondary, candidate);
    let length = |answer: Option<&Result<Response<Bytes>, String>>| {
        answer
            .and_then(|a| a.as_ref().ok())
            .map_or(0, |a| a.body().len())
    };
    let large = job.primary.body().len() + length(Some(&candidate)) + length(secondary.as_ref())
        > COMPARED_INLINE;
    let judge = move || judge(&state, &job, secondary, candidate.map(|c| (c, latency)));
    if large {
        // A panic there is the comparison's own, as it would be inline; the shadow goes on.
        let _ = tokio::task::spawn_blocking(judge).await;
    } else {
        judge();
    }
}

/// Compares the candidate's answer (and the secondary's) with the primary's and writes what
/// was found.
fn judge(
    state: &State,
    job: &Job,
    secondary: Option<Result<Response<Bytes>, String>>,
    candidate: Result<(Response<Bytes>, std::time::Duration), String>,
) {
    // The comparisons first, the findings locked only to be written: the client's path takes
    // the same lock.
    let noise = match secondary {
        Some(Ok(secondary)) => Some(compare_typed(
            &job.primary,
            &secondary,
            &state.config.typing,
            (&job.request, &job.operation),
        )),
        _ => None,
    };
    let compared = candidate.map(|(candidate, latency)| {
        let differences = compare_typed(
            &job.primary,
            &candidate,
            &state.config.typing,
            (&job.request, &job.operation),
        );
        let deliberate = match &state.config.explain {
            Some(explain) if !differences.is_empty() => {
                explain(&job.request, &job.primary, &candidate)
            }
            _ => None,
        };
        (candidate, differences, deliberate, latency)
    });
    let mut findings = state.findings.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(noise) = noise {
        findings.secondary(&job.operation, &noise);
    }
    match compared {
        Ok((candidate, differences, deliberate, latency)) => findings.candidate(
            (&job.operation, job.binding),
            (&job.request, &job.primary, &candidate),
            &differences,
            deliberate,
            latency,
        ),
        Err(e) => findings.candidate_failed(&job.operation, job.binding, e),
    }
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
