//! A small WebDriver client: chromedriver started per test, one headless Chromium session,
//! plain HTTP JSON. When Chromium or chromedriver is missing the test fails under CI=true
//! and prints a skip message otherwise.

use std::io::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

/// The machine has few cores: one browser at a time.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

pub(crate) struct Browser {
    driver: Child,
    base: String,
    session: String,
    agent: ureq::Agent,
    profile: PathBuf,
    _one: MutexGuard<'static, ()>,
}

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn binary(env: &str, names: &[&str]) -> Option<PathBuf> {
    match std::env::var_os(env) {
        Some(p) => Some(PathBuf::from(p)),
        None => on_path(names),
    }
}

/// Where screenshots, PDFs and pages of the browser tests are kept.
pub(crate) fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Browser {
    /// A fresh headless Chromium, or `None` (with a message) when none is installed and this
    /// is not CI.
    pub(crate) fn start(test: &str) -> Option<Browser> {
        let chromium = binary("PALISADE_CHROMIUM", &["chromium", "chromium-browser"]);
        let driver = binary("PALISADE_CHROMEDRIVER", &["chromedriver"]);
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            let message = format!(
                "browser test {test}: Chromium and chromedriver are needed (Debian: \
                 `bash scripts/install-browser.sh`, or set PALISADE_CHROMIUM and \
                 PALISADE_CHROMEDRIVER)"
            );
            if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false") {
                panic!("{message}; CI=true, so this is a failure");
            }
            // Straight to the process's stderr: the test harness captures `eprintln!`, and a
            // skip nobody sees would read as a pass.
            let _ = writeln!(std::io::stderr(), "SKIPPED {message}");
            return None;
        };
        let one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", driver.display()));
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let profile =
            std::env::temp_dir().join(format!("palisade-chromium-{}-{}", std::process::id(), test));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let mut browser = Browser {
            driver: child,
            base,
            session: String::new(),
            agent,
            profile,
            _one: one,
        };
        let started = Instant::now();
        loop {
            let ready = browser
                .agent
                .get(format!("{}/status", browser.base))
                .call()
                .ok()
                .and_then(|mut r| r.body_mut().read_json::<Value>().ok())
                .is_some_and(|v| v["value"]["ready"] == true);
            if ready {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not become ready"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,900",
            "--hide-scrollbars",
            &format!("--user-data-dir={}", browser.profile.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args}
        }}});
        let v = browser.call("POST", "/session", Some(caps));
        browser.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_owned();
        Some(browser)
    }

    /// One WebDriver command; the `value` of its answer. A WebDriver error fails the test.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{}", self.base, path);
        let resp = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).call(),
            (_, body) => self.agent.post(&url).send_json(body.unwrap_or(json!({}))),
        };
        let mut resp = resp.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let v: Value = resp
            .body_mut()
            .with_config()
            .limit(256 << 20)
            .read_json()
            .unwrap_or_else(|e| panic!("{method} {path}: unreadable answer: {e}"));
        if v["value"].get("error").is_some() {
            panic!("{method} {path}: {}", v["value"]);
        }
        v["value"].clone()
    }

    fn session_path(&self, rest: &str) -> String {
        format!("/session/{}{}", self.session, rest)
    }

    /// Opens a file and waits until the document has loaded.
    pub(crate) fn open(&self, file: &Path) {
        let url = format!("file://{}", file.display());
        self.call(
            "POST",
            &self.session_path("/url"),
            Some(json!({ "url": url })),
        );
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its result.
    pub(crate) fn run(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            &self.session_path("/execute/sync"),
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Clicks the first element matching a CSS selector, as a user would.
    pub(crate) fn click(&self, selector: &str) {
        let el = self.call(
            "POST",
            &self.session_path("/element"),
            Some(json!({"using": "css selector", "value": selector})),
        );
        let id = el[ELEMENT_KEY]
            .as_str()
            .unwrap_or_else(|| panic!("no element {selector}: {el}"))
            .to_owned();
        self.call(
            "POST",
            &self.session_path(&format!("/element/{id}/click")),
            Some(json!({})),
        );
    }

    /// Sets the window size (for a screenshot of a whole page).
    pub(crate) fn resize(&self, width: u64, height: u64) {
        self.call(
            "POST",
            &self.session_path("/window/rect"),
            Some(json!({"width": width, "height": height})),
        );
    }

    /// A PNG of the viewport, saved under `target/browser-tests/`.
    pub(crate) fn screenshot(&self, name: &str) -> PathBuf {
        let b64 = self.call("GET", &self.session_path("/screenshot"), None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        let path = artefacts().join(name);
        std::fs::write(&path, png).unwrap();
        path
    }

    /// Renders the page with its print stylesheet (Chromium's DevTools command through
    /// chromedriver), so a screenshot shows what paper gets.
    pub(crate) fn emulate_print(&self) {
        self.call(
            "POST",
            &self.session_path("/goog/cdp/execute"),
            Some(json!({"cmd": "Emulation.setEmulatedMedia", "params": {"media": "print"}})),
        );
    }

    /// The page printed to PDF (A4, backgrounds on), saved under `target/browser-tests/`.
    pub(crate) fn print_pdf(&self, name: &str) -> Vec<u8> {
        let b64 = self.call(
            "POST",
            &self.session_path("/print"),
            Some(json!({"background": true})),
        );
        let pdf = base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap())
            .unwrap();
        std::fs::write(artefacts().join(name), &pdf).unwrap();
        pdf
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self
                .agent
                .delete(format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
