//! Which requests may talk to the engine. A page on another site could
//! otherwise open a WebSocket to the loopback port (browsers do not apply
//! the same-origin policy to WebSockets), and a DNS-rebinding page could
//! reach it under a foreign host name: so the `Host` must be one this
//! server answers to, and the `Origin` must be this very server.

/// The `Host` values this server answers to, for a listener on
/// `bound_host:port`.
pub fn allowed_hosts(bound_host: &str, port: u16) -> Vec<String> {
    let mut hosts = vec![format!("{}:{port}", bracket(bound_host))];
    let loopback = ["127.0.0.1", "localhost", "::1"];
    if loopback.contains(&bound_host) || bound_host == "0.0.0.0" || bound_host == "::" {
        for h in loopback {
            hosts.push(format!("{}:{port}", bracket(h)));
        }
    }
    if port == 80 {
        // Browsers leave the default port out of `Host`.
        let bare: Vec<String> = hosts
            .iter()
            .map(|h| h.trim_end_matches(":80").to_string())
            .collect();
        hosts.extend(bare);
    }
    hosts.sort();
    hosts.dedup();
    hosts
}

/// IPv6 literals are bracketed in a `Host` header.
fn bracket(host: &str) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    }
}

/// May a request with these `Host` and `Origin` headers open a WebSocket?
/// The origin must be exactly `http://<host>`, with an allowed host.
pub fn websocket_allowed(hosts: &[String], host: Option<&str>, origin: Option<&str>) -> bool {
    let (Some(host), Some(origin)) = (host, origin) else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    hosts.contains(&host) && origin.eq_ignore_ascii_case(&format!("http://{host}"))
}

/// May a plain page request with this `Host` be answered?
pub fn host_allowed(hosts: &[String], host: Option<&str>) -> bool {
    host.is_some_and(|h| hosts.iter().any(|a| a.eq_ignore_ascii_case(h)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_page_itself_may_open_the_socket() {
        let hosts = allowed_hosts("127.0.0.1", 8080);
        let ok = |h, o| websocket_allowed(&hosts, h, o);
        assert!(ok(Some("127.0.0.1:8080"), Some("http://127.0.0.1:8080")));
        assert!(ok(Some("localhost:8080"), Some("http://localhost:8080")));
        assert!(!ok(Some("127.0.0.1:8080"), Some("http://evil.example")));
        assert!(!ok(Some("127.0.0.1:8080"), Some("http://localhost:8080")));
        assert!(!ok(Some("127.0.0.1:8080"), None));
        assert!(!ok(
            Some("evil.example:8080"),
            Some("http://evil.example:8080")
        ));
        assert!(!ok(Some("127.0.0.1:9999"), Some("http://127.0.0.1:9999")));
        assert!(!ok(None, Some("http://127.0.0.1:8080")));
    }

    #[test]
    fn a_rebound_host_name_gets_no_page() {
        let hosts = allowed_hosts("127.0.0.1", 80);
        assert!(host_allowed(&hosts, Some("127.0.0.1:80")));
        assert!(host_allowed(&hosts, Some("[::1]:80")));
        assert!(!host_allowed(&hosts, Some("attacker.example:80")));
        assert!(!host_allowed(&hosts, None));
        let lan = allowed_hosts("192.168.1.5", 80);
        assert!(host_allowed(&lan, Some("192.168.1.5:80")));
        assert!(!host_allowed(&lan, Some("localhost:80")));
    }
}
