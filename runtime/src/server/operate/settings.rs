//! Every setting of a served service from the command line or the environment ([`Settings`],
//! clap's `Args`), and a process that runs by them ([`Settings::bind`], [`Bound::run`]): the
//! service's address, the admin address, sessions in Redis, the drain, traces.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;

use super::{drain, stop_signal, Admin, Health, Metrics};
use crate::server::ServerConfig;
use crate::session::{SessionConfig, StoreError};

/// Every setting of a served service, each from a flag or its environment variable (the
/// flag wins), with ASP.NET's defaults. A duration is a number of seconds (`30`) or written
/// as `humantime` reads one (`30s`, `500ms`, `20m`, `1h 30m`).
///
/// A binary whose only arguments are these reads them with [`Settings::from_args`]; one with
/// arguments of its own flattens them into its clap parser (`#[command(flatten)]`).
///
/// ```no_run
/// use rmm_runtime::server::operate::Settings;
/// use rmm_runtime::Fault;
/// use greeter::*;
///
/// struct Greets;
///
/// impl Greeter for Greets {
///     async fn greet(&self, request: Greet) -> Result<GreetResponse, Fault> {
///         let name = request.name.unwrap_or_default();
///         Ok(GreetResponse { result: Some(format!("hello, {name}")) })
///     }
///
///     async fn add(&self, request: Add) -> Result<AddResponse, Fault> {
///         Ok(AddResponse { result: request.a.wrapping_add(request.b) })
///     }
/// }
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     // `--listen 0.0.0.0:8080 --admin 0.0.0.0:9090`, or RMM_LISTEN and RMM_ADMIN.
///     Settings::from_args()
///         .run(|config| GreeterServer::new(Greets).with_config(config))
///         .await?;
///     Ok(())
/// }
/// ```
#[derive(Debug, Clone, clap::Args)]
#[non_exhaustive]
pub struct Settings {
    /// Where the service listens.
    #[arg(
        long,
        env = "RMM_LISTEN",
        value_name = "ADDR",
        default_value = "127.0.0.1:8080"
    )]
    pub listen: String,
    /// The admin address: `/healthz/live`, `/healthz/ready` and `/metrics` (none without it).
    /// Never the service's address, whose paths stay the legacy host's.
    #[arg(long, env = "RMM_ADMIN", value_name = "ADDR")]
    pub admin: Option<String>,
    /// Keep sessions in this Redis server (`redis://host:6379/0`), shared by every replica;
    /// in this process's memory without it. Needs rmm-runtime's `redis` feature.
    #[arg(long, env = "RMM_REDIS_URL", value_name = "URL")]
    pub redis: Option<String>,
    /// How long an unused session lives (ASP.NET's `sessionState timeout`).
    #[arg(long, env = "RMM_SESSION_TIMEOUT", value_name = "DURATION", default_value = "20m", value_parser = duration)]
    pub session_timeout: Duration,
    /// How long a call waits for its session while another call of the session runs
    /// (ASP.NET's `executionTimeout`).
    #[arg(long, env = "RMM_SESSION_LOCK_TIMEOUT", value_name = "DURATION", default_value = "110s", value_parser = duration)]
    pub session_lock_timeout: Duration,
    /// How long a session's lock in Redis outlives a replica that dies holding it.
    #[arg(long, env = "RMM_SESSION_LOCK_EXPIRY", value_name = "DURATION", default_value = "110s", value_parser = duration)]
    pub session_lock_expiry: Duration,
    /// The largest request body accepted (ASP.NET's `maxRequestLength`, 4 MiB).
    #[arg(long, env = "RMM_MAX_BODY_BYTES", value_name = "BYTES", default_value_t = 4 * 1024 * 1024)]
    pub max_body_bytes: usize,
    /// How long a client has to send a request's head.
    #[arg(long, env = "RMM_HEADER_TIMEOUT", value_name = "DURATION", default_value = "30s", value_parser = duration)]
    pub header_timeout: Duration,
    /// How long a client has to send a request's body once its head has arrived.
    #[arg(long, env = "RMM_BODY_TIMEOUT", value_name = "DURATION", default_value = "30s", value_parser = duration)]
    pub body_timeout: Duration,
    /// The most characters of a JSON call's body or GET value, and of an answer's value
    /// (`jsonSerialization maxJsonLength`).
    #[arg(long, env = "RMM_MAX_JSON_LENGTH", value_name = "CHARACTERS", default_value_t = crate::json::MAX_JSON_LENGTH)]
    pub max_json_length: usize,
    /// The deepest nesting of a JSON call or answer (`jsonSerialization recursionLimit`).
    #[arg(long, env = "RMM_JSON_RECURSION_LIMIT", value_name = "DEPTH", default_value_t = crate::json::MAX_DEPTH)]
    pub json_recursion_limit: usize,
    /// Whether JSON errors hide their detail (`customErrors`), as ASP.NET does for a remote
    /// caller: `on` or `off`.
    #[arg(long, env = "RMM_CUSTOM_ERRORS", value_name = "on|off", default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    pub custom_errors: bool,
    /// On SIGTERM, how long readiness fails before the address stops taking connections
    /// (time for the load balancer to see it).
    #[arg(long, env = "RMM_DRAIN_DELAY", value_name = "DURATION", default_value = "0s", value_parser = duration)]
    pub drain_delay: Duration,
    /// Then how long the calls in flight have to finish.
    #[arg(long, env = "RMM_SHUTDOWN_GRACE", value_name = "DURATION", default_value = "30s", value_parser = duration)]
    pub shutdown_grace: Duration,
    /// Export each call's span to this OpenTelemetry collector (OTLP over HTTP, e.g.
    /// `http://127.0.0.1:4318`); none without it. Needs rmm-runtime's `otel` feature.
    #[arg(long, env = "OTEL_EXPORTER_OTLP_ENDPOINT", value_name = "URL")]
    pub otlp_endpoint: Option<String>,
}

/// [`Settings`] as a whole command line (for [`Settings::from_args`]).
#[derive(Debug, clap::Parser)]
#[command(about = "Serves the service; every setting is a flag or its environment variable.")]
struct Command {
    #[command(flatten)]
    settings: Settings,
}

/// A duration: a number of seconds (`30`, `0.5`), or as `humantime` writes one (`30s`,
/// `500ms`, `20m`, `1h 30m`).
fn duration(text: &str) -> Result<Duration, String> {
    if let Ok(seconds) = text.trim().parse::<f64>() {
        return Duration::try_from_secs_f64(seconds)
            .map_err(|_| format!("{text:?} is no number of seconds"));
    }
    humantime::parse_duration(text).map_err(|e| format!("{e} (write e.g. 30, 30s, 500ms, 20m)"))
}

fn on_off(text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err("on or off".to_owned()),
    }
}

/// Why a process could not start or stopped serving.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// An address could not be listened on.
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address, as given.
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// The session store could not be reached.
    #[error("sessions: {0}")]
    Sessions(#[from] StoreError),
    /// A setting names a part this build of rmm-runtime leaves out.
    #[error("{setting} needs rmm-runtime's `{feature}` feature")]
    Feature {
        /// The flag.
        setting: &'static str,
        /// The feature it needs.
        feature: &'static str,
    },
    /// The OpenTelemetry exporter could not be made.
    #[error("OpenTelemetry: {0}")]
    Telemetry(String),
    /// Serving failed.
    #[error("serving: {0}")]
    Serve(std::io::Error),
}

impl Settings {
    /// The settings of this process's command line and environment; prints the usage and
    /// exits on a bad one (or on `--help`), as clap does.
    pub fn from_args() -> Settings {
        <Command as clap::Parser>::parse().settings
    }

    /// The settings of `args` (the program's name first) and this process's environment.
    pub fn try_from_args<I, T>(args: I) -> Result<Settings, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        <Command as clap::Parser>::try_parse_from(args).map(|c| c.settings)
    }

    /// The server's configuration by these settings (connecting to Redis when sessions live
    /// there), with `metrics` kept.
    pub async fn server_config(&self, metrics: Option<Metrics>) -> Result<ServerConfig, RunError> {
        let mut sessions = SessionConfig {
            timeout: self.session_timeout,
            lock_timeout: self.session_lock_timeout,
            ..SessionConfig::default()
        };
        if let Some(url) = &self.redis {
            sessions = with_redis(sessions, url, self.session_lock_expiry).await?;
        }
        Ok(ServerConfig {
            max_body_bytes: self.max_body_bytes,
            header_timeout: self.header_timeout,
            body_timeout: self.body_timeout,
            custom_errors: self.custom_errors,
            json_limits: crate::json::JsonLimits {
                max_length: self.max_json_length,
                recursion_limit: self.json_recursion_limit,
            },
            sessions,
            metrics,
            shutdown_grace: self.shutdown_grace,
            ..ServerConfig::default()
        })
    }

    /// Everything but serving: the exporter of traces started and the process's `tracing`
    /// subscriber installed (when an endpoint is set; `Telemetry::install`), the
    /// session store reached, the service's address and the admin address listened on (the
    /// admin address answering at once). Fails before anything is served.
    pub async fn bind(&self) -> Result<Bound, RunError> {
        let telemetry = match &self.otlp_endpoint {
            Some(endpoint) => Some(telemetry(endpoint)?),
            None => None,
        };
        let health = Health::new();
        let metrics = self.admin.as_ref().map(|_| Metrics::new());
        let config = self.server_config(metrics.clone()).await?;
        let listener = listen(&self.listen).await?;
        let mut admin_addr = None;
        if let Some(address) = &self.admin {
            let admin_listener = listen(address).await?;
            admin_addr = admin_listener.local_addr().ok();
            // The admin address answers until the process exits: liveness holds while
            // the service drains.
            let admin = Admin::new(health.clone(), metrics);
            tokio::spawn(admin.serve(admin_listener, std::future::pending()));
        }
        Ok(Bound {
            listener,
            admin_addr,
            health,
            config,
            drain_delay: self.drain_delay,
            telemetry,
        })
    }

    /// [`bind`](Settings::bind), then [`Bound::run`]: serves the server `make` makes of the
    /// configuration until SIGTERM or SIGINT, then drains.
    pub async fn run<S>(&self, make: impl FnOnce(ServerConfig) -> S) -> Result<(), RunError>
    where
        S: Served,
    {
        let bound = self.bind().await?;
        tracing::info!(
            address = %bound.local_addr(),
            admin = ?bound.admin_addr(),
            "serving"
        );
        bound.run(make).await
    }
}

#[cfg(feature = "redis")]
async fn with_redis(
    sessions: SessionConfig,
    url: &str,
    lock_expiry: Duration,
) -> Result<SessionConfig, RunError> {
    let store = crate::session::RedisStore::connect(url).await?;
    Ok(sessions.with_store(store.with_lock_expiry(lock_expiry)))
}

#[cfg(not(feature = "redis"))]
async fn with_redis(_: SessionConfig, _: &str, _: Duration) -> Result<SessionConfig, RunError> {
    Err(RunError::Feature {
        setting: "--redis (RMM_REDIS_URL)",
        feature: "redis",
    })
}

#[cfg(feature = "otel")]
fn telemetry(endpoint: &str) -> Result<super::Telemetry, RunError> {
    let telemetry = super::Telemetry::otlp(endpoint)?;
    telemetry.install()?;
    Ok(telemetry)
}

#[cfg(not(feature = "otel"))]
fn telemetry(_: &str) -> Result<std::convert::Infallible, RunError> {
    Err(RunError::Feature {
        setting: "--otlp-endpoint (OTEL_EXPORTER_OTLP_ENDPOINT)",
        feature: "otel",
    })
}

async fn listen(address: &str) -> Result<TcpListener, RunError> {
    TcpListener::bind(address)
        .await
        .map_err(|source| RunError::Listen {
            address: address.to_owned(),
            source,
        })
}

/// A server a process by its [`Settings`] serves: a generated `…Server`, or any tower service
/// of hyper's requests that answers a [`Body`](crate::server::Body) (a generated server
/// behind a layer).
pub trait Served:
    tower_service::Service<
        http::Request<hyper::body::Incoming>,
        Response = http::Response<crate::server::Body>,
        Error = std::convert::Infallible,
        Future: Send + 'static,
    > + Clone
    + Send
    + 'static
{
}

impl<S> Served for S where
    S: tower_service::Service<
            http::Request<hyper::body::Incoming>,
            Response = http::Response<crate::server::Body>,
            Error = std::convert::Infallible,
            Future: Send + 'static,
        > + Clone
        + Send
        + 'static
{
}

/// A process by its [`Settings`], listening but not yet serving.
#[derive(Debug)]
pub struct Bound {
    listener: TcpListener,
    admin_addr: Option<SocketAddr>,
    health: Health,
    config: ServerConfig,
    drain_delay: Duration,
    #[cfg(feature = "otel")]
    telemetry: Option<super::Telemetry>,
    #[cfg(not(feature = "otel"))]
    #[allow(dead_code)] // never made without the feature
    telemetry: Option<std::convert::Infallible>,
}

impl Bound {
    /// The service's address (its port chosen by the system when the setting's was 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound TCP listener has an address")
    }

    /// The admin address, when there is one.
    pub fn admin_addr(&self) -> Option<SocketAddr> {
        self.admin_addr
    }

    /// The readiness the admin address answers (ready until the drain).
    pub fn health(&self) -> &Health {
        &self.health
    }

    /// Serves the server `make` makes of the settings' configuration until SIGTERM or SIGINT,
    /// then drains: readiness fails, after the drain delay no new connection is taken, the
    /// calls in flight finish within the grace period, and the spans not yet exported are.
    pub async fn run<S>(self, make: impl FnOnce(ServerConfig) -> S) -> Result<(), RunError>
    where
        S: Served,
    {
        self.run_until(make, stop_signal()).await
    }

    /// [`run`](Bound::run), the drain beginning when `stop` completes rather than at a signal.
    pub async fn run_until<S>(
        self,
        make: impl FnOnce(ServerConfig) -> S,
        stop: impl std::future::Future<Output = ()>,
    ) -> Result<(), RunError>
    where
        S: Served,
    {
        let server = make(self.config.clone());
        let stop = drain(self.health, self.drain_delay, stop);
        let served =
            crate::server::serve_with_shutdown(self.listener, server, self.config, stop).await;
        #[cfg(feature = "otel")]
        if let Some(telemetry) = self.telemetry {
            // The last export runs on this runtime while the shutdown waits for it: the wait
            // goes to a thread of its own (a current-thread runtime would otherwise stall).
            let _ = tokio::task::spawn_blocking(move || telemetry.shutdown()).await;
        }
        served.map_err(RunError::Serve)
    }
}
