//! The page's files, embedded at compile time: nothing is read from disk
//! and no path from a request reaches the filesystem (a request names one
//! of these entries or gets 404).

/// `(path, content type, body)`.
type Asset = (&'static str, &'static str, &'static [u8]);

macro_rules! piece {
    ($name:literal) => {
        (
            concat!("/pieces/", $name, ".svg"),
            "image/svg+xml",
            include_bytes!(concat!("assets/pieces/", $name, ".svg")),
        )
    };
}

const ASSETS: [Asset; 17] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_bytes!("assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/app.js"),
    ),
    (
        "/puzzles.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/puzzles.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_bytes!("assets/style.css"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_bytes!("assets/favicon.svg"),
    ),
    piece!("wK"),
    piece!("wQ"),
    piece!("wR"),
    piece!("wB"),
    piece!("wN"),
    piece!("wP"),
    piece!("bK"),
    piece!("bQ"),
    piece!("bR"),
    piece!("bB"),
    piece!("bN"),
    piece!("bP"),
];

/// The file at `path`: its content type and bytes.
pub fn find(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, kind, body)| (kind, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_file_is_served_and_nothing_else() {
        assert!(find("/").is_some_and(|(k, _)| k.starts_with("text/html")));
        assert!(find("/pieces/wK.svg").is_some());
        assert!(find("/../Cargo.toml").is_none());
        assert!(find("/etc/passwd").is_none());
        let page = std::str::from_utf8(find("/").unwrap().1).unwrap();
        // Every file the page loads is embedded, and nothing outside is named.
        assert!(!page.contains("http://") && !page.contains("https://"));
        for file in ["/app.js", "/puzzles.js"] {
            let script = std::str::from_utf8(find(file).unwrap().1).unwrap();
            assert!(!script.contains("https://") && !script.contains("http://"));
            assert!(page.contains(&format!("<script src=\"{file}\">")));
        }
    }
}
