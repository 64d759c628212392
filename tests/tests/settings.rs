//! A served process's settings from flags and the environment (`Settings`), as a container
//! passes them: the defaults ASP.NET has, the environment, a flag over its variable, and a bad
//! value named. One test: the environment is the process's.

use std::time::Duration;

use rmm_runtime::server::operate::Settings;

#[test]
fn settings_come_from_flags_and_the_environment() {
    for name in [
        "RMM_LISTEN",
        "RMM_ADMIN",
        "RMM_REDIS_URL",
        "RMM_SESSION_TIMEOUT",
        "RMM_CUSTOM_ERRORS",
        "RMM_DRAIN_DELAY",
        "RMM_SHUTDOWN_GRACE",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
    ] {
        std::env::remove_var(name);
    }
    // ASP.NET's defaults.
    let defaults = Settings::try_from_args(["server"]).unwrap();
    assert_eq!(defaults.listen, "127.0.0.1:8080");
    assert_eq!(defaults.admin, None);
    assert_eq!(defaults.redis, None);
    assert_eq!(defaults.session_timeout, Duration::from_secs(20 * 60));
    assert_eq!(defaults.session_lock_timeout, Duration::from_secs(110));
    assert_eq!(defaults.max_body_bytes, 4 * 1024 * 1024);
    assert_eq!(defaults.max_json_length, 102_400);
    assert_eq!(defaults.json_recursion_limit, 100);
    assert!(defaults.custom_errors);
    assert_eq!(defaults.drain_delay, Duration::ZERO);
    assert_eq!(defaults.shutdown_grace, Duration::from_secs(30));
    assert_eq!(defaults.otlp_endpoint, None);

    // The environment, durations in seconds or as humantime writes them; a flag wins.
    std::env::set_var("RMM_LISTEN", "0.0.0.0:80");
    std::env::set_var("RMM_ADMIN", "0.0.0.0:9090");
    std::env::set_var("RMM_SESSION_TIMEOUT", "1h 30m");
    std::env::set_var("RMM_CUSTOM_ERRORS", "off");
    std::env::set_var("RMM_DRAIN_DELAY", "500ms");
    std::env::set_var("RMM_SHUTDOWN_GRACE", "25");
    let set = Settings::try_from_args([
        "server",
        "--listen",
        "127.0.0.1:1",
        "--shutdown-grace",
        "2.5",
    ])
    .unwrap();
    assert_eq!(set.listen, "127.0.0.1:1");
    assert_eq!(set.admin.as_deref(), Some("0.0.0.0:9090"));
    assert_eq!(set.session_timeout, Duration::from_secs(90 * 60));
    assert!(!set.custom_errors);
    assert_eq!(set.drain_delay, Duration::from_millis(500));
    assert_eq!(set.shutdown_grace, Duration::from_millis(2500));

    // A bad value names its flag and its variable.
    std::env::set_var("RMM_DRAIN_DELAY", "soon");
    let error = Settings::try_from_args(["server"]).unwrap_err().to_string();
    assert!(error.contains("--drain-delay"), "{error}");
    assert!(error.contains("soon"), "{error}");
    std::env::remove_var("RMM_DRAIN_DELAY");
    for bad in [
        ["server", "--custom-errors", "maybe"],
        ["server", "--max-body-bytes", "-1"],
        ["server", "--shutdown-grace", "-3"],
        ["server", "--unknown", "x"],
    ] {
        assert!(Settings::try_from_args(bad).is_err(), "{bad:?}");
    }
}
