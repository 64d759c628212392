//! The script service in a real browser (issue 35): `tests/browser/page.html` loads the `/js`
//! proxy on ASP.NET AJAX's own `MicrosoftAjax.js` (from Mono's System.Web.Extensions) and
//! jQuery (Debian's libjs-jquery), and calls the service both ways, the session's calls among
//! them; headless Chromium (Debian's) runs it once against the host and once against ours,
//! each behind an nginx of its own that serves the page on the service's origin. Both pages
//! must show the same results, but where Mono departs from .NET Framework for a reason named
//! here; and ours must show what .NET Framework answers.
//!
//! `tests/browser/install.sh` installs Chromium, jQuery and nginx.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::{Checks, Target};

/// The page's results that the host (Mono) shows otherwise than .NET Framework, and why.
/// The reasons are the JSON calls' (`rmm_tests::script_service`), where the same departures
/// are named on the wire.
fn mono_differs(step: &str) -> Option<&'static str> {
    use rmm_tests::script_service::{MONO_DETAIL, MONO_GET, MONO_LENIENT};
    Some(match step {
        "proxy Greet (GET)" | "jQuery Greet (GET)" => MONO_GET,
        "proxy Fail" => MONO_DETAIL,
        "jQuery Add, bad JSON" => MONO_LENIENT,
        "jQuery Add, GET to a POST method" => {
            "an operation without UseHttpGet called with GET: .NET Framework refuses the verb; \
             Mono does not check it"
        }
        _ => return None,
    })
}

/// What ours must show, as .NET Framework answers (a few steps, the rest judged beside the host).
const OURS: &[&str] = &[
    "proxy Add: 5",
    "proxy EchoDateTime: \"2020-01-02T03:04:05.678Z\"",
    "proxy EchoMood: 2",
    "proxy EchoStrings: [\"x\",null,\"\"]",
    "proxy EchoShape: {\"Label\":\"round\"}",
    "proxy Greet (GET): \"Hello, Ann! Hello, Ann! \"",
    "proxy Nothing: null",
    "proxy Fail: error 500 There was an error processing the request.",
    "proxy Visit: 1",
    "proxy Visit again: 2",
    "proxy Contents: [\"a\",\"b\"]",
    "jQuery Add: {\"d\":42}",
    "jQuery Add, single quotes: {\"d\":3}",
    "jQuery Contents (the page's session): {\"d\":[\"a\",\"b\"]}",
    "jQuery Add, bad JSON: error 500 true",
    "jQuery Add, GET to a POST method: error 500 true",
    "jQuery Nope: error 500 null",
];

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

/// The page's directory: the page, jQuery, and MicrosoftAjax.js taken out of Mono's
/// System.Web.Extensions.
fn prepare(root: &Path, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir.join("page")).map_err(|e| e.to_string())?;
    let copy = |from: &Path, to: &str| {
        std::fs::copy(from, dir.join("page").join(to))
            .map(|_| ())
            .map_err(|e| {
                format!(
                    "cannot copy {}: {e} (run tests/browser/install.sh)",
                    from.display()
                )
            })
    };
    copy(&root.join("tests/browser/page.html"), "index.html")?;
    copy(
        Path::new("/usr/share/javascript/jquery/jquery.js"),
        "jquery.js",
    )?;
    let exe = dir.join("ExtractAjax.exe");
    let compiled = Command::new("mcs")
        .arg("-nologo")
        .arg(format!("-out:{}", exe.display()))
        .arg(root.join("tests/browser/ExtractAjax.cs"))
        .status()
        .map_err(|e| format!("cannot run mcs: {e}"))?;
    if !compiled.success() {
        return Err("mcs could not compile ExtractAjax.cs".into());
    }
    let extracted = Command::new("mono")
        .arg(&exe)
        .arg(dir.join("page/MicrosoftAjax.js"))
        .status()
        .map_err(|e| format!("cannot run mono: {e}"))?;
    if !extracted.success() {
        return Err("MicrosoftAjax.js could not be taken out of System.Web.Extensions".into());
    }
    Ok(())
}

/// Runs the page against `target` behind an nginx of its own; the page's result lines.
fn run_page(dir: &Path, target: &Target) -> Result<Vec<String>, String> {
    let site = dir.join(target.label);
    std::fs::create_dir_all(site.join("tmp")).map_err(|e| e.to_string())?;
    let port = free_port()?;
    let (s, page) = (site.display(), dir.join("page"));
    let config = format!(
        "worker_processes 1;\ndaemon off;\npid {s}/nginx.pid;\nerror_log {s}/error.log;\n\
         events {{ worker_connections 64; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {s}/tmp/body;\n  proxy_temp_path {s}/tmp/proxy;\n\
         \x20 fastcgi_temp_path {s}/tmp/fastcgi;\n  uwsgi_temp_path {s}/tmp/uwsgi;\n  scgi_temp_path {s}/tmp/scgi;\n\
         \x20 types {{ text/html html; application/javascript js; }}\n\
         \x20 server {{\n    listen 127.0.0.1:{port};\n\
         \x20   location /page/ {{ alias {}/; }}\n\
         \x20   location / {{ proxy_pass http://{}; proxy_set_header Host $http_host; }}\n  }}\n}}\n",
        page.display(),
        target.addr
    );
    let conf = site.join("nginx.conf");
    std::fs::write(&conf, config).map_err(|e| e.to_string())?;
    let mut nginx = Command::new("/usr/sbin/nginx")
        .arg("-c")
        .arg(&conf)
        .arg("-p")
        .arg(&site)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start nginx: {e}"))?;
    let mut up = false;
    for _ in 0..500 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            up = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let dom = if up {
        Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--virtual-time-budget=30000",
            ])
            .arg(format!(
                "--user-data-dir={}",
                site.join("profile").display()
            ))
            .arg("--dump-dom")
            .arg(format!("http://127.0.0.1:{port}/page/index.html"))
            .stderr(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run chromium (run tests/browser/install.sh): {e}"))
    } else {
        Err(format!("nginx did not listen on {port}"))
    };
    let _ = Command::new("kill")
        .arg("-QUIT")
        .arg(nginx.id().to_string())
        .status();
    let _ = nginx.wait();
    let dom = String::from_utf8_lossy(&dom?.stdout).into_owned();
    let results = dom
        .split_once("<pre id=\"results\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .map(|(text, _)| text)
        .ok_or_else(|| {
            format!(
                "the page has no results: {}",
                dom.chars().take(300).collect::<String>()
            )
        })?;
    let text = results
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    Ok(text.lines().map(str::to_owned).collect())
}

/// The step's name of a result line (`proxy Add: 5` is `proxy Add`).
fn step(line: &str) -> &str {
    line.split_once(": ").map_or(line, |(step, _)| step)
}

pub(crate) fn browser_section(checks: &mut Checks, root: &Path, mono: &Target, ours: &Target) {
    checks.section("script: the page in headless Chromium, the host and ours");
    let dir: PathBuf = root.join("target/interop/browser");
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = prepare(root, &dir) {
        checks.check("browser: the page's files", Err(e));
        return;
    }
    let pages = run_page(&dir, mono).and_then(|m| run_page(&dir, ours).map(|o| (m, o)));
    let (theirs, mine) = match pages {
        Ok(pages) => pages,
        Err(e) => {
            checks.check("browser: the pages ran", Err(e));
            return;
        }
    };
    let finished = |lines: &[String]| lines.last().map(String::as_str) == Some("done");
    checks.check(
        "browser: the host's page ran every call",
        finished(&theirs)
            .then_some(())
            .ok_or_else(|| format!("{theirs:?}")),
    );
    checks.check(
        "browser: our page ran every call",
        finished(&mine)
            .then_some(())
            .ok_or_else(|| format!("{mine:?}")),
    );
    for want in OURS {
        checks.check(
            &format!("browser ours: {}", step(want)),
            mine.iter()
                .any(|line| line == want)
                .then_some(())
                .ok_or_else(|| {
                    let got = mine.iter().find(|l| step(l) == step(want));
                    format!("want {want:?}, the page shows {got:?}")
                }),
        );
    }
    for line in &mine {
        let name = step(line);
        if name == "done" {
            continue;
        }
        let host = theirs.iter().find(|l| step(l) == name);
        let verdict = match (host, mono_differs(name)) {
            (Some(host), _) if host == line => Ok(()),
            (Some(host), Some(reason)) => {
                println!("   named: {name}: the host {host:?}, ours {line:?}: {reason}");
                Ok(())
            }
            (Some(host), None) => Err(format!("the host's page shows {host:?}, ours {line:?}")),
            (None, _) => Err(format!("the host's page has no {name:?}")),
        };
        checks.check(&format!("browser: {name} the same on both"), verdict);
    }
}
