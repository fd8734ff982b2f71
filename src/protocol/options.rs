//! The engine options: their `option` lines for `uci`, and `setoption`.

use super::game::Variant;

/// The current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: Variant,
    pub hash_mib: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Empty: no log file.
    pub debug_log_file: String,
}

/// What a successful `setoption` changed, for the engine to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Changed {
    Variant,
    Hash,
    ClearHash,
    DebugLogFile,
    /// Read at the next `go`.
    SearchSetting,
}

/// An integer option's range.
struct Spin {
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
}

const HASH: Spin = Spin {
    name: "Hash",
    default: 16,
    min: 1,
    max: 1024,
};
const THREADS: Spin = Spin {
    name: "Threads",
    default: 1,
    min: 1,
    max: 256,
};
const MULTIPV: Spin = Spin {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: 256,
};
const MOVE_OVERHEAD: Spin = Spin {
    name: "Move Overhead",
    default: 10,
    min: 0,
    max: 5000,
};

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: Variant::default(),
            hash_mib: HASH.default as usize,
            threads: THREADS.default as usize,
            multipv: MULTIPV.default as usize,
            move_overhead_ms: MOVE_OVERHEAD.default as u64,
            debug_log_file: String::new(),
        }
    }
}

impl Options {
    /// The `option ...` lines of the `uci` answer (defaults, not current values).
    pub fn uci_lines() -> Vec<String> {
        let vars: Vec<String> = Variant::ALL
            .iter()
            .map(|v| format!(" var {}", v.name()))
            .collect();
        let mut lines = vec![format!(
            "option name UCI_Variant type combo default {}{}",
            Variant::default().name(),
            vars.concat()
        )];
        for s in [HASH, THREADS, MULTIPV, MOVE_OVERHEAD] {
            lines.push(format!(
                "option name {} type spin default {} min {} max {}",
                s.name, s.default, s.min, s.max
            ));
        }
        lines.push("option name Clear Hash type button".to_string());
        lines.push("option name Debug Log File type string default <empty>".to_string());
        lines
    }

    /// Applies `setoption name <name> [value <value>]`; names are case-insensitive.
    /// On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, String> {
        let key = name.to_ascii_lowercase();
        match key.as_str() {
            "uci_variant" => {
                let text = required(name, value)?;
                self.variant = Variant::parse(text).ok_or_else(|| {
                    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                    format!(
                        "setoption: unknown UCI_Variant '{}' (expected one of: {})",
                        super::command::shorten(text),
                        names.join(", ")
                    )
                })?;
                Ok(Changed::Variant)
            }
            "hash" => {
                self.hash_mib = spin(&HASH, value)? as usize;
                Ok(Changed::Hash)
            }
            "threads" => {
                self.threads = spin(&THREADS, value)? as usize;
                Ok(Changed::SearchSetting)
            }
            "multipv" => {
                self.multipv = spin(&MULTIPV, value)? as usize;
                Ok(Changed::SearchSetting)
            }
            "move overhead" => {
                self.move_overhead_ms = spin(&MOVE_OVERHEAD, value)? as u64;
                Ok(Changed::SearchSetting)
            }
            "clear hash" => Ok(Changed::ClearHash),
            "debug log file" => {
                let text = value.unwrap_or("").trim();
                self.debug_log_file = if text == "<empty>" {
                    String::new()
                } else {
                    text.to_string()
                };
                Ok(Changed::DebugLogFile)
            }
            _ => Err(format!(
                "setoption: unknown option '{}'",
                super::command::shorten(name)
            )),
        }
    }
}

fn required<'a>(name: &str, value: Option<&'a str>) -> Result<&'a str, String> {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(format!("setoption: option '{name}' needs a value")),
    }
}

fn spin(s: &Spin, value: Option<&str>) -> Result<i64, String> {
    let text = required(s.name, value)?;
    let n: i64 = text.parse().map_err(|_| {
        format!(
            "setoption: {} needs a whole number, got '{}'",
            s.name,
            super::command::shorten(text)
        )
    })?;
    if (s.min..=s.max).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "setoption: {} must be from {} to {}, got {n}",
            s.name, s.min, s.max
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_reject() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("64")), Ok(Changed::Hash));
        assert_eq!(o.hash_mib, 64);
        assert!(
            o.set("Hash", Some("0"))
                .unwrap_err()
                .contains("from 1 to 1024")
        );
        assert!(
            o.set("Hash", Some("lots"))
                .unwrap_err()
                .contains("whole number")
        );
        assert!(o.set("Hash", None).unwrap_err().contains("needs a value"));
        assert_eq!(o.hash_mib, 64);
        assert_eq!(
            o.set("UCI_Variant", Some("progressive-scottish")),
            Ok(Changed::Variant)
        );
        assert!(o.set("UCI_Variant", Some("atomic")).is_err());
        assert_eq!(o.variant, Variant::ProgressiveScottish);
        assert!(
            o.set("Ponder", Some("true"))
                .unwrap_err()
                .contains("unknown option")
        );
    }

    #[test]
    fn uci_lines_list_every_option() {
        let lines = Options::uci_lines().join("\n");
        for name in [
            "UCI_Variant",
            "Hash",
            "Threads",
            "MultiPV",
            "Move Overhead",
            "Clear Hash",
            "Debug Log File",
        ] {
            assert!(
                lines.contains(&format!("option name {name} type")),
                "{name}"
            );
        }
        assert!(lines.contains("var progressive var progressive-scottish"));
    }
}
