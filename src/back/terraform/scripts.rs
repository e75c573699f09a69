//! Lifecycle scripts on the machine: where an artifact is copied, where it lands and how it
//! runs ([`Delivery`]), how an operation input becomes an `export` line, and sizes written as
//! text.
//!
//! A script is delivered unchanged and runs with its own interpreter: its shebang when it has
//! one, else the interpreter its extension names (`.py` → `python3`, `.rb` → `ruby`, `.pl` →
//! `perl`, `.ps1` → `pwsh`, `.bash` → `bash`, anything else → `sh`). Its operation inputs reach
//! it as environment: an env file of `export NAME='value'` lines written beside it, which the
//! command that runs the script sources first. So a Python configure step is Python, not a
//! shell line prepended to Python.

use crate::back::filters::hcl_str;
use crate::ir::Value;

use super::expr::number;

/// Bytes in a GiB and a MiB.
pub const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
pub const MIB: f64 = 1024.0 * 1024.0;

/// Where an artifact is copied: `artifacts/` and its path in the template when that is a plain
/// relative path, else `artifacts/<node>/<file name>`.
pub fn artifact_path(file: &str, node: &str) -> String {
    let clean: Vec<&str> = file
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let safe = !clean.is_empty()
        && !file.starts_with('/')
        && !file.contains(':')
        && clean.iter().all(|p| {
            *p != ".."
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        });
    if safe {
        format!("artifacts/{}", clean.join("/"))
    } else {
        let base: String = file
            .rsplit('/')
            .next()
            .unwrap_or("script")
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
            .collect();
        let base = if base.is_empty() || base.starts_with('.') {
            format!("script{base}")
        } else {
            base
        };
        format!("artifacts/{node}/{base}")
    }
}

/// The bytes of a TOSCA `scalar-unit.size` written as text (`4 GB`, `512 MiB`); units are
/// case-insensitive as the specification says.
pub fn size_bytes(text: &str) -> Option<f64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let factor = match unit.trim().to_ascii_lowercase().as_str() {
        "b" => 1.0,
        "kb" => 1e3,
        "kib" => 1024.0,
        "mb" => 1e6,
        "mib" => MIB,
        "gb" => 1e9,
        "gib" => GIB,
        "tb" => 1e12,
        "tib" => GIB * 1024.0,
        _ => return None,
    };
    Some(number * factor).filter(|bytes| bytes.is_finite())
}

/// The bytes of a size that is a whole number of its unit, exactly (a 64-bit integer does not
/// go through `f64`): an integer (bytes), a `scalar-unit.size` or a size written as text whose
/// number is written as digits alone. `None` for anything else, which [`size_bytes`] and the
/// scalar's canonical value read approximately.
pub fn exact_bytes(value: &crate::ir::Value) -> Option<u128> {
    use crate::ir::Value;
    let (text, factor) = match value {
        Value::Integer(i) => return u128::try_from(*i).ok(),
        Value::Scalar(s) if s.number != 0.0 => (s.text.as_str(), s.canonical / s.number),
        Value::String(s) => (s.as_str(), size_bytes(&format!("1 {}", unit_of(s)))?),
        _ => return None,
    };
    let digits = text.trim();
    let digits = &digits[..digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len())];
    let rest = text.trim()[digits.len()..].trim_start();
    if digits.is_empty() || rest.starts_with(['.', 'e', 'E']) || factor.fract() != 0.0 {
        return None;
    }
    digits.parse::<u128>().ok()?.checked_mul(factor as u128)
}

/// The largest whole number a provider argument holds: providers read sizes and counts into
/// 64-bit integers.
pub const MAX_WHOLE: u128 = i64::MAX as u128;

/// A size (bytes as an integer, a `scalar-unit.size`, or a size written as text) in whole
/// `unit`s, rounded up, as HCL writes it: exact for a size written with digits alone, through
/// `f64` only for one written with a fraction or an exponent (`1.5 GB`). `Ok(None)` when the
/// value is no size known before deployment (the caller handles it); `Err` with the reason when
/// it is one but no provider can hold it (`1e300 TB`, which `f64` reads as infinity).
pub fn whole_units(value: &Value, unit: f64, unit_name: &str) -> Result<Option<String>, String> {
    let too_large = |shown: String| {
        Err(format!(
            "{shown} is more than a provider can hold (at most {MAX_WHOLE} {unit_name})"
        ))
    };
    if let Some(bytes) = exact_bytes(value) {
        let units = bytes.div_ceil(unit as u128);
        return if units <= MAX_WHOLE {
            Ok(Some(units.to_string()))
        } else {
            too_large(format!("{units} {unit_name}"))
        };
    }
    let bytes = match value {
        Value::Scalar(s) => s.canonical,
        Value::Float(f) => *f,
        Value::String(s) => match size_bytes_unbounded(s) {
            Some(b) => b,
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    if bytes.is_nan() || bytes < 0.0 {
        return Err(format!("{} is no size", crate::ir::value_text(value)));
    }
    let units = (bytes / unit).ceil();
    if !units.is_finite() || units > MAX_WHOLE as f64 {
        return too_large(crate::ir::value_text(value));
    }
    Ok(Some(number(units)))
}

/// [`size_bytes`] without its finiteness filter, so that a size too large for `f64` is told
/// apart from text that is no size.
fn size_bytes_unbounded(text: &str) -> Option<f64> {
    size_bytes(text).or_else(|| {
        let text = text.trim();
        let split = text.find(|c: char| {
            !(c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E' || c == '+')
        })?;
        let number: f64 = text[..split].trim().parse().ok()?;
        size_bytes(&format!("1 {}", &text[split..])).map(|factor| number * factor)
    })
}

/// The unit of a size written as text (`GB` of `4 GB`).
fn unit_of(text: &str) -> &str {
    let text = text.trim();
    text[text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len())..]
        .trim()
}

/// Where a script and its env file land on the machine and the shell command that runs it.
#[derive(Debug, PartialEq)]
pub struct Delivery {
    /// `01-web-create.sh`: the file name under [`SCRIPT_DIR`] (a ConfigMap key on Kubernetes).
    pub script_name: String,
    pub script_path: String,
    /// `01-web-create.env`: the file name under [`ENV_DIR`] (a Secret key on Kubernetes).
    pub env_name: String,
    pub env_path: String,
    /// `. /opt/toscana-env/01-web-create.env && exec python3 /opt/toscana/01-web-create.py`.
    pub command: String,
}

/// Where the scripts land: one folder, named by step, so they run in deployment order.
pub const SCRIPT_DIR: &str = "/opt/toscana";
/// Where the env files land, apart from the scripts: on Kubernetes they come from a Secret
/// and the scripts from a ConfigMap, two volumes that cannot share a folder.
pub const ENV_DIR: &str = "/opt/toscana-env";

impl Delivery {
    /// `base` names the step (`01-web-create`), `path` is the artifact's path (for its
    /// extension), `text` the script (for its shebang); `env` says whether the step has inputs.
    pub fn new(base: &str, path: &str, text: &str, env: bool) -> Self {
        let file_name = path.rsplit('/').next().unwrap_or(path);
        let ext = file_name
            .rsplit_once('.')
            .map(|(_, e)| e)
            .filter(|e| !e.is_empty() && e.chars().all(|c| c.is_ascii_alphanumeric()));
        let script_name = match ext {
            Some(ext) => format!("{base}.{ext}"),
            None => base.to_string(),
        };
        let script_path = format!("{SCRIPT_DIR}/{script_name}");
        let env_name = format!("{base}.env");
        let env_path = format!("{ENV_DIR}/{env_name}");
        let run = match interpreter(text, ext) {
            None => script_path.clone(),
            Some(program) => format!("{program} {script_path}"),
        };
        let command = if env {
            format!(". {env_path} && exec {run}")
        } else {
            format!("exec {run}")
        };
        Delivery {
            script_name,
            script_path,
            env_name,
            env_path,
            command,
        }
    }
}

/// The program that runs a script: `None` when its shebang names one (the file runs itself),
/// else the interpreter of its extension.
fn interpreter(text: &str, ext: Option<&str>) -> Option<&'static str> {
    if text.starts_with("#!") {
        return None;
    }
    Some(match ext.map(str::to_ascii_lowercase).as_deref() {
        Some("py") => "python3",
        Some("rb") => "ruby",
        Some("pl") => "perl",
        Some("ps1") => "pwsh",
        Some("bash") => "bash",
        _ => "sh",
    })
}

pub fn is_shell_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `export NAME='value'` as an HCL string: literals quoted for the shell now, expressions
/// interpolated (and quoted for the shell by Terraform's `replace`).
pub fn export_line(name: &str, value: &Value, expr: &str) -> String {
    let literal = match value {
        Value::String(s) => Some(s.clone()),
        Value::Integer(i) => Some(i.to_string()),
        Value::Boolean(b) => Some(b.to_string()),
        Value::Float(f) => Some(number(*f)),
        Value::Scalar(s) => Some(s.text.clone()),
        Value::Version(v) => Some(v.text.clone()),
        _ => None,
    };
    match literal {
        Some(text) => hcl_str(&format!("export {name}='{}'", text.replace('\'', "'\\''"))),
        None => format!("\"export {name}='${{replace({expr}, \"'\", \"'\\\\''\")}}'\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Value;

    #[test]
    fn scripts_run_with_their_shebang_else_their_extension() {
        let python = Delivery::new(
            "02-app-configure",
            "artifacts/app/config.py",
            "import os\n",
            true,
        );
        assert_eq!(
            python.command,
            ". /opt/toscana-env/02-app-configure.env && exec python3 /opt/toscana/02-app-configure.py"
        );
        let own = Delivery::new(
            "01-app-create",
            "artifacts/app/install",
            "#!/usr/bin/env ruby\n",
            false,
        );
        assert_eq!(own.script_name, "01-app-create");
        assert_eq!(own.command, "exec /opt/toscana/01-app-create");
        let odd = Delivery::new("01-x-start", "artifacts/x.d/run", "echo\n", false);
        assert_eq!(odd.command, "exec sh /opt/toscana/01-x-start");
    }

    #[test]
    fn sizes_too_large_for_a_provider_are_errors_never_inf() {
        let huge = Value::string("1e300 TB");
        let err = whole_units(&huge, GIB, "GiB").unwrap_err();
        assert!(
            err.contains("1e300 TB") && err.contains("9223372036854775807"),
            "{err}"
        );
        assert_eq!(
            whole_units(&Value::string("1.5 GB"), GIB, "GiB"),
            Ok(Some("2".into()))
        );
        assert_eq!(
            whole_units(&Value::string("9007199254740993 GiB"), GIB, "GiB"),
            Ok(Some("9007199254740993".into()))
        );
        assert!(whole_units(&Value::string("9223372036854775808 GiB"), GIB, "GiB").is_err());
        assert_eq!(whole_units(&Value::string("big"), GIB, "GiB"), Ok(None));
    }

    #[test]
    fn whole_sizes_are_read_exactly_and_others_not_at_all() {
        let big = 9_007_199_254_740_993_u128;
        assert_eq!(exact_bytes(&Value::Integer(big as i64)), Some(big));
        assert_eq!(
            exact_bytes(&Value::string("9007199254740993 KiB")),
            Some(big * 1024)
        );
        assert_eq!(exact_bytes(&Value::string("2 GB")), Some(2_000_000_000));
        assert_eq!(exact_bytes(&Value::string("1.5 GB")), None);
        assert_eq!(exact_bytes(&Value::Integer(-1)), None);
        assert_eq!(size_bytes(&format!("{} TB", "9".repeat(400))), None);
    }
}
