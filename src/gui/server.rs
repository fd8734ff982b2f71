//! The HTTP server: the embedded page and one WebSocket per tab.

use super::{assets, origin, puzzle_api, puzzle_set, relay};
use axum::Router;
use axum::body::Body;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// At most this many tabs (engine processes) at once.
const MAX_TABS: usize = 16;

/// What `crescendo gui` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    /// 0: any free port.
    pub port: u16,
    pub open: bool,
}

struct Shared {
    hosts: Vec<String>,
    tabs: AtomicUsize,
}

/// Counts a tab while its engine runs.
struct TabGuard(Arc<Shared>);

impl Drop for TabGuard {
    fn drop(&mut self) {
        self.0.tabs.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves until the process is stopped; prints the URL first.
pub fn run(config: &Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    runtime.block_on(serve(config))
}

async fn serve(config: &Config) -> Result<(), String> {
    let bind = format!("{}:{}", bracket(&config.host), config.port);
    let listener = tokio::net::TcpListener::bind(&bind)
        .await
        .map_err(|e| format!("--host/--port: cannot listen on {bind}: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?
        .port();
    let shared = Arc::new(Shared {
        hosts: origin::allowed_hosts(&config.host, port),
        tabs: AtomicUsize::new(0),
    });
    let url = format!("http://{}:{port}/", bracket(url_host(&config.host)));
    println!("Crescendo GUI: {url}");
    if config.open {
        open_browser(&url);
    }
    let app = Router::new()
        .route("/ws", get(websocket))
        .route("/puzzles/{request}", post(puzzles))
        .layer(DefaultBodyLimit::max(relay::MAX_MESSAGE))
        .fallback(get(page))
        .with_state(shared);
    axum::serve(listener, app)
        .await
        .map_err(|e| format!("server: {e}"))
}

/// A wildcard address is served on every interface; the URL names loopback.
fn url_host(host: &str) -> &str {
    match host {
        "0.0.0.0" => "127.0.0.1",
        "::" => "::1",
        h => h,
    }
}

fn bracket(host: &str) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    }
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn refuse(status: StatusCode, why: &'static str) -> Response {
    (status, why).into_response()
}

async fn page(State(shared): State<Arc<Shared>>, headers: HeaderMap, uri: Uri) -> Response {
    if !origin::host_allowed(&shared.hosts, header_text(&headers, header::HOST)) {
        return refuse(StatusCode::FORBIDDEN, "unknown host");
    }
    let Some((kind, body)) = assets::find(uri.path()) else {
        return refuse(StatusCode::NOT_FOUND, "not found");
    };
    let mut response = Response::new(Body::from(body));
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Does the request come from this server's own page (Host and Origin)?
fn from_own_page(shared: &Shared, headers: &HeaderMap) -> bool {
    let host = header_text(headers, header::HOST);
    let from = header_text(headers, header::ORIGIN);
    origin::websocket_allowed(&shared.hosts, host, from)
}

async fn websocket(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !from_own_page(&shared, &headers) {
        return refuse(
            StatusCode::FORBIDDEN,
            "the WebSocket is for this server's own page",
        );
    }
    if shared.tabs.fetch_add(1, Ordering::AcqRel) >= MAX_TABS {
        shared.tabs.fetch_sub(1, Ordering::AcqRel);
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many tabs open");
    }
    let guard = TabGuard(Arc::clone(&shared));
    // A message a little over the relay's limit is answered with an error
    // line; one far over it ends the socket (axum refuses to buffer it).
    upgrade
        .max_message_size(4 * relay::MAX_MESSAGE)
        .max_frame_size(4 * relay::MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            relay::run(socket).await;
            drop(guard);
        })
}

/// The Puzzles tab's JSON requests (puzzle_api.rs), from this server's own
/// page only, as the socket.
async fn puzzles(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    uri: Uri,
    body: Bytes,
) -> Response {
    if !from_own_page(&shared, &headers) {
        return refuse(
            StatusCode::FORBIDDEN,
            "puzzles are for this server's own page",
        );
    }
    let route = uri.path().trim_start_matches("/puzzles/");
    let (status, value) =
        match puzzle_api::answer(puzzle_set::shipped(), route, &body, rand::random()) {
            Ok(v) => (StatusCode::OK, v),
            Err(e) => (
                StatusCode::from_u16(e.status).unwrap_or(StatusCode::BAD_REQUEST),
                serde_json::json!({ "error": e.error }),
            ),
        };
    let mut response = (status, value.to_string()).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Opens the system browser, if one can be found; says so otherwise.
fn open_browser(url: &str) {
    let candidates: &[(&str, &[&str])] = if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else {
        &[("xdg-open", &[]), ("sensible-browser", &[])]
    };
    for (program, args) in candidates {
        let started = std::process::Command::new(program)
            .args(*args)
            .arg(url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if started.is_ok() {
            return;
        }
    }
    eprintln!("crescendo gui: no browser found to open; open {url} yourself");
}
