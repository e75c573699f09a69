//! The literal forms of TOSCA's own value types, read from a scalar's text: scalar-units,
//! versions and timestamps.
//!
//! [`ScalarUnit`] and [`Version`] are defined here, where their text is read, and the IR
//! carries them as they are ([`crate::ir::Value`]).
//!
//! They arrive from YAML as strings (`4 GB`), floats (`14.10`, whose text is kept, so it stays
//! `14.10`) or integers; these functions read the written text and say why it does not fit.

use std::cmp::Ordering;

use schemars::JsonSchema;
use serde::Serialize;

/// A scalar-unit value: both forms, because diagrams show what was written and backends need a
/// number in a known unit.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ScalarUnit {
    /// As written: `4 GB`.
    pub text: String,
    /// The number as written: `4`.
    pub number: f64,
    /// The unit as written: `GB`.
    pub unit: String,
    /// The number in the canonical unit of its type: `4000000000`.
    pub canonical: f64,
    /// The canonical unit: `B`.
    pub canonical_unit: String,
}

/// A TOSCA version with its parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Version {
    /// As written: `1.10`, `2.0.1.alpha-3`.
    pub text: String,
    pub major: u64,
    pub minor: u64,
    pub fix: Option<u64>,
    pub qualifier: Option<String>,
    pub build: Option<u64>,
}

/// Units of a scalar type: each unit with its factor to the canonical unit.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitTable {
    pub units: Vec<(String, f64)>,
    pub canonical: String,
    /// Whether `gb` matches `GB` (the Simple Profile's scalar-units; TOSCA 2.0 scalar types are
    /// case-sensitive).
    pub case_insensitive: bool,
}

/// The Simple Profile's scalar-unit types (`scalar-unit.size`, ...) as unit tables, each made
/// once per run: every scalar-unit value read asks for its table.
pub fn simple_profile_units(type_name: &str) -> Option<&'static UnitTable> {
    use std::sync::OnceLock;
    static TABLES: [OnceLock<Option<UnitTable>>; 4] = [const { OnceLock::new() }; 4];
    let at = match type_name {
        "scalar-unit.size" => 0,
        "scalar-unit.time" => 1,
        "scalar-unit.frequency" => 2,
        "scalar-unit.bitrate" => 3,
        _ => return None,
    };
    TABLES[at]
        .get_or_init(|| make_simple_profile_units(type_name))
        .as_ref()
}

/// [`simple_profile_units`]'s table for `type_name`, made.
fn make_simple_profile_units(type_name: &str) -> Option<UnitTable> {
    let table: &[(&str, f64)] = match type_name {
        "scalar-unit.size" => &[
            ("B", 1.0),
            ("kB", 1e3),
            ("KiB", 1024.0),
            ("MB", 1e6),
            ("MiB", 1_048_576.0),
            ("GB", 1e9),
            ("GiB", 1_073_741_824.0),
            ("TB", 1e12),
            ("TiB", 1_099_511_627_776.0),
        ],
        "scalar-unit.time" => &[
            ("d", 86_400.0),
            ("h", 3_600.0),
            ("m", 60.0),
            ("s", 1.0),
            ("ms", 1e-3),
            ("us", 1e-6),
            ("ns", 1e-9),
        ],
        "scalar-unit.frequency" => &[("Hz", 1.0), ("kHz", 1e3), ("MHz", 1e6), ("GHz", 1e9)],
        // Bits and bytes differ only in case, so bitrate units are matched exactly.
        "scalar-unit.bitrate" => {
            return Some(UnitTable {
                units: [
                    ("bps", 1.0),
                    ("Kbps", 1e3),
                    ("Kibps", 1024.0),
                    ("Mbps", 1e6),
                    ("Mibps", 1_048_576.0),
                    ("Gbps", 1e9),
                    ("Gibps", 1_073_741_824.0),
                    ("Tbps", 1e12),
                    ("Tibps", 1_099_511_627_776.0),
                    ("Bps", 8.0),
                    ("KBps", 8e3),
                    ("KiBps", 8.0 * 1024.0),
                    ("MBps", 8e6),
                    ("MiBps", 8.0 * 1_048_576.0),
                    ("GBps", 8e9),
                    ("GiBps", 8.0 * 1_073_741_824.0),
                    ("TBps", 8e12),
                    ("TiBps", 8.0 * 1_099_511_627_776.0),
                ]
                .iter()
                .map(|(u, f)| (u.to_string(), *f))
                .collect(),
                canonical: "bps".into(),
                case_insensitive: false,
            });
        }
        _ => return None,
    };
    Some(UnitTable {
        units: table.iter().map(|(u, f)| (u.to_string(), *f)).collect(),
        canonical: table
            .iter()
            .find(|(_, f)| *f == 1.0)
            .map_or(String::new(), |(u, _)| u.to_string()),
        case_insensitive: true,
    })
}

/// Where the unit of `<number> <unit>` begins: at the first letter that is not the exponent of
/// the number (`123e3 kHz` is 123000 kHz, a YAML float followed by its unit).
fn unit_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii_alphabetic() || !b.is_ascii() {
            let after_digit = i > 0 && (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b'.');
            let mut j = i + 1;
            if matches!(bytes.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            let exponent = matches!(b, b'e' | b'E')
                && after_digit
                && bytes.get(j).is_some_and(u8::is_ascii_digit);
            if !exponent {
                return Some(i);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    None
}

/// Reads `<number> <unit>` (the space optional) against `table`.
pub fn scalar_unit(text: &str, table: &UnitTable) -> Result<ScalarUnit, String> {
    let text = text.trim();
    let split = unit_start(text)
        .ok_or_else(|| format!("`{text}` has no unit; write it as `<number> <unit>`"))?;
    let (number_text, unit_text) = text.split_at(split);
    let number_text = number_text.trim();
    if number_text.is_empty() {
        return Err(format!("`{text}` has no number before its unit"));
    }
    let number: f64 = number_text
        .parse()
        .ok()
        .filter(|n: &f64| n.is_finite())
        .ok_or_else(|| format!("`{number_text}` in `{text}` is not a number"))?;
    let found = table.units.iter().find(|(u, _)| {
        u == unit_text || (table.case_insensitive && u.eq_ignore_ascii_case(unit_text))
    });
    let Some((unit, factor)) = found else {
        let known: Vec<&str> = table.units.iter().map(|(u, _)| u.as_str()).collect();
        return Err(format!(
            "`{unit_text}` is not a unit of this type; the units are {}",
            known.join(", ")
        ));
    };
    let canonical = number * factor;
    if !canonical.is_finite() {
        // `1e300 TB` is a finite number of terabytes and infinitely many bytes: it would reach
        // the outputs as `inf`, which no tool reads as a size.
        return Err(format!(
            "`{text}` is out of range: in {} it is more than a 64-bit float holds (about 1.8e308)",
            table.canonical
        ));
    }
    Ok(ScalarUnit {
        text: text.to_string(),
        number,
        unit: unit.clone(),
        canonical,
        canonical_unit: table.canonical.clone(),
    })
}

/// Reads a TOSCA version: `major.minor[.fix[.qualifier[-build]]]`.
pub fn version(text: &str) -> Result<Version, String> {
    let bad = || {
        format!(
            "`{text}` is not a version; write `major.minor[.fix[.qualifier[-build]]]`, e.g. `1.2` or `2.0.1.beta-3`"
        )
    };
    let number = |s: &str| -> Result<u64, String> {
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            s.parse().map_err(|_| bad())
        } else {
            Err(bad())
        }
    };
    let mut parts = text.splitn(4, '.');
    let major = number(parts.next().unwrap_or(""))?;
    let minor = number(parts.next().ok_or_else(bad)?)?;
    let fix = parts.next().map(number).transpose()?;
    let (qualifier, build) = match parts.next() {
        None => (None, None),
        Some(rest) => match rest.split_once('-') {
            Some((q, b)) if !q.is_empty() => (Some(q.to_string()), Some(number(b)?)),
            None if !rest.is_empty() => (Some(rest.to_string()), None),
            _ => return Err(bad()),
        },
    };
    if qualifier.is_some() && fix.is_none() {
        return Err(bad());
    }
    if major == 0 && minor == 0 && fix.unwrap_or(0) == 0 && qualifier.is_some() {
        return Err(format!(
            "`{text}` is a zero version with a qualifier; 0.0.0 means \"no version\" and takes none"
        ));
    }
    Ok(Version {
        text: text.to_string(),
        major,
        minor,
        fix,
        qualifier,
        build,
    })
}

/// Orders versions: by numbers, then a qualified version is older than the plain one, then by
/// build within one qualifier. Different qualifiers are branches that cannot be ordered.
pub fn compare_versions(a: &Version, b: &Version) -> Option<Ordering> {
    let numbers =
        (a.major, a.minor, a.fix.unwrap_or(0)).cmp(&(b.major, b.minor, b.fix.unwrap_or(0)));
    if numbers != Ordering::Equal {
        return Some(numbers);
    }
    match (&a.qualifier, &b.qualifier) {
        (None, None) => Some(Ordering::Equal),
        (Some(_), None) => Some(Ordering::Less),
        (None, Some(_)) => Some(Ordering::Greater),
        (Some(x), Some(y)) if x == y => Some(a.build.unwrap_or(0).cmp(&b.build.unwrap_or(0))),
        _ => None,
    }
}

/// Checks a YAML 1.1 / ISO 8601 timestamp: `2002-12-14`, or a date and time with optional
/// fraction and zone (`2001-12-14t21:59:43.10-05:00`, `2001-12-14 21:59:43.10 -5`).
pub fn timestamp(text: &str) -> Result<(), String> {
    instant(text).map(|_| ())
}

/// The UTC instant a timestamp names, as seconds since 1970-01-01T00:00:00Z and nanoseconds,
/// so timestamps written in different zones compare by when they are (T2-FN-CMP-02). A date
/// alone is midnight UTC; a time without a zone is UTC (YAML 1.1's timestamp type).
pub fn instant(text: &str) -> Result<(i64, u32), String> {
    let bad = || {
        format!("`{text}` is not a timestamp; write e.g. `2024-05-01` or `2024-05-01T12:00:00Z`")
    };
    let b = text.trim().as_bytes();
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    let number = |s: &[u8]| -> i64 {
        std::str::from_utf8(s)
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0)
    };
    // Date: YYYY-M(M)-D(D).
    let date_end = b
        .iter()
        .position(|c| matches!(c, b'T' | b't' | b' ' | b'\t'))
        .unwrap_or(b.len());
    let date: Vec<&[u8]> = b[..date_end].split(|c| *c == b'-').collect();
    let [y, m, d] = date[..] else {
        return Err(bad());
    };
    if y.len() != 4 || !digits(y) || !(1..=2).contains(&m.len()) || !digits(m) {
        return Err(bad());
    }
    if !(1..=2).contains(&d.len()) || !digits(d) {
        return Err(bad());
    }
    let (year, month, day) = (number(y), number(m), number(d));
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Err(bad());
    }
    let midnight = days_from_civil(year, month, day) * 86_400;
    if date_end == b.len() {
        return Ok((midnight, 0));
    }
    // Time: H(H):MM:SS[.fraction], then an optional zone (Z or ±H(H)[:MM]).
    let rest = std::str::from_utf8(&b[date_end + 1..])
        .map_err(|_| bad())?
        .trim_start();
    let time_end = rest.find(['Z', 'z', '+', '-', ' ']).unwrap_or(rest.len());
    let (time, zone) = rest.split_at(time_end);
    let hms: Vec<&str> = time.split(':').collect();
    let [h, mi, s] = hms[..] else {
        return Err(bad());
    };
    let (s, fraction) = match s.split_once('.') {
        Some((whole, frac)) if digits(frac.as_bytes()) => (whole, frac),
        Some(_) => return Err(bad()),
        None => (s, ""),
    };
    let ok_part = |p: &str, max: u32, len: std::ops::RangeInclusive<usize>| {
        len.contains(&p.len()) && digits(p.as_bytes()) && p.parse::<u32>().is_ok_and(|v| v <= max)
    };
    if !ok_part(h, 23, 1..=2) || !ok_part(mi, 59, 2..=2) || !ok_part(s, 60, 2..=2) {
        return Err(bad());
    }
    let zone = zone.trim();
    let offset = if zone.is_empty() || zone.eq_ignore_ascii_case("z") {
        0
    } else {
        let sign = if zone.starts_with('-') { -1 } else { 1 };
        let z = zone.strip_prefix(['+', '-']).ok_or_else(bad)?;
        let (zh, zm) = z.split_once(':').unwrap_or((z, "00"));
        if !ok_part(zh, 23, 1..=2) || !ok_part(zm, 59, 2..=2) {
            return Err(bad());
        }
        sign * (number(zh.as_bytes()) * 3600 + number(zm.as_bytes()) * 60)
    };
    let nanos = format!("{fraction:0<9}")[..9].parse().unwrap_or(0);
    let seconds = number(h.as_bytes()) * 3600 + number(mi.as_bytes()) * 60 + number(s.as_bytes());
    Ok((midnight + seconds - offset, nanos))
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_instants_whatever_their_zone() {
        assert_eq!(instant("1970-01-01"), Ok((0, 0)));
        assert_eq!(
            instant("2001-12-14t21:59:43.10-05:00"),
            Ok((1_008_385_183, 100_000_000))
        );
        assert_eq!(
            instant("2001-12-14 21:59:43.10 -5"),
            instant("2001-12-15T02:59:43.1Z")
        );
        assert_eq!(instant("2000-03-01").unwrap().0, 951_868_800);
        assert!(instant("2001-12-14T25:00:00Z").is_err());
        assert!(instant("2001-12-14T10:00:00.x").is_err());
    }

    fn size(text: &str) -> Result<ScalarUnit, String> {
        scalar_unit(text, simple_profile_units("scalar-unit.size").unwrap())
    }

    #[test]
    fn scalar_units_keep_their_text_and_know_their_canonical_value() {
        let s = size("4 GB").unwrap();
        assert_eq!((s.number, s.unit.as_str(), s.canonical), (4.0, "GB", 4e9));
        assert_eq!(s.canonical_unit, "B");
        assert_eq!(size("512MiB").unwrap().canonical, 536_870_912.0);
        assert_eq!(
            size("4096 kb").unwrap().unit,
            "kB",
            "units are case-insensitive"
        );
        let time = simple_profile_units("scalar-unit.time").unwrap();
        assert_eq!(scalar_unit("10 ms", time).unwrap().canonical, 0.01);
        let freq = simple_profile_units("scalar-unit.frequency").unwrap();
        assert_eq!(scalar_unit("2.4 GHz", freq).unwrap().canonical, 2.4e9);
        let rate = simple_profile_units("scalar-unit.bitrate").unwrap();
        assert_eq!(scalar_unit("1 MBps", rate).unwrap().canonical, 8e6);
        assert!(
            scalar_unit("1 mbps", rate).is_err(),
            "bitrate units are exact"
        );
    }

    #[test]
    fn scalar_units_need_a_number_and_a_known_unit() {
        assert!(size("10").unwrap_err().contains("no unit"));
        assert!(size("GB").unwrap_err().contains("no number"));
        assert!(size("10 parsecs").unwrap_err().contains("not a unit"));
        assert!(size("1.2.3 GB").unwrap_err().contains("not a number"));
        // Finite in its unit, infinite in bytes.
        assert!(size("1e300 TB").unwrap_err().contains("out of range"));
        assert!(size("1e400 B").unwrap_err().contains("not a number"));
        assert_eq!(size("1e290 TB").unwrap().canonical, 1e302);
    }

    #[test]
    fn a_number_may_have_an_exponent_before_its_unit() {
        let freq = simple_profile_units("scalar-unit.frequency").unwrap();
        assert_eq!(scalar_unit("123e3 kHz", freq).unwrap().canonical, 1.23e8);
        assert_eq!(scalar_unit("1.5E-3GHz", freq).unwrap().canonical, 1.5e6);
        let time = simple_profile_units("scalar-unit.time").unwrap();
        assert_eq!(scalar_unit("2e1 s", time).unwrap().canonical, 20.0);
        assert!(size("2e GB").unwrap_err().contains("not a unit"));
    }

    #[test]
    fn versions_follow_the_grammar_and_order() {
        let v = version("2.0.1.beta-3").unwrap();
        assert_eq!((v.major, v.minor, v.fix), (2, 0, Some(1)));
        assert_eq!((v.qualifier.as_deref(), v.build), (Some("beta"), Some(3)));
        assert_eq!(version("14.10").unwrap().minor, 10);
        for bad in [
            "1",
            "1.x",
            "1.2.beta",
            "",
            "0.0.0.alpha",
            "1..2",
            "1.2.3.q-x",
        ] {
            assert!(version(bad).is_err(), "{bad}");
        }
        let cmp = |a: &str, b: &str| compare_versions(&version(a).unwrap(), &version(b).unwrap());
        assert_eq!(cmp("1.10", "1.9"), Some(Ordering::Greater));
        assert_eq!(cmp("1.0.0.rc-1", "1.0.0"), Some(Ordering::Less));
        assert_eq!(cmp("1.0.0.rc-1", "1.0.0.rc-2"), Some(Ordering::Less));
        assert_eq!(cmp("1.0.0.a", "1.0.0.b"), None);
    }

    #[test]
    fn timestamps_are_dates_with_optional_times_and_zones() {
        for ok in [
            "2002-12-14",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2024-05-01T12:00:00Z",
        ] {
            assert!(timestamp(ok).is_ok(), "{ok}");
        }
        for bad in [
            "yesterday",
            "2002-13-01",
            "2002-12-14T25:00:00",
            "02-12-14",
            "2002-12-14T1:2",
        ] {
            assert!(timestamp(bad).is_err(), "{bad}");
        }
    }
}
