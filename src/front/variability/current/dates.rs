//! The date operators (§ Date Operators): dates are ISO 8601 instants (`2023-01-01T00:00:00Z`),
//! dates and local date-times (read as UTC), or numbers of milliseconds since 1970; they are
//! compared to the millisecond. `weekday` is the current day of the week, in English.

use jiff::civil::{Date, DateTime};
use jiff::{Timestamp, tz::TimeZone};

use crate::front::variability::eval::Value;

/// Milliseconds since 1970-01-01T00:00:00Z, or `None` when the value is not a date.
pub fn millis(value: &Value) -> Option<i64> {
    match value {
        Value::Num(n) if n.is_finite() => Some(*n as i64),
        Value::Str(s) => {
            let s = s.trim();
            if let Ok(t) = s.parse::<Timestamp>() {
                return Some(t.as_millisecond());
            }
            if let Ok(dt) = s.parse::<DateTime>() {
                return dt
                    .to_zoned(TimeZone::UTC)
                    .ok()
                    .map(|z| z.timestamp().as_millisecond());
            }
            let date = s.parse::<Date>().ok()?;
            date.to_zoned(TimeZone::UTC)
                .ok()
                .map(|z| z.timestamp().as_millisecond())
        }
        _ => None,
    }
}

/// Today's day of the week in lower case (`monday`), in UTC.
pub fn weekday() -> String {
    let today = Timestamp::now().to_zoned(TimeZone::UTC).weekday();
    format!("{today:?}").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_spellings() {
        let a = millis(&Value::Str("2023-01-01T00:00:00.000Z".into())).unwrap();
        let b = millis(&Value::Str("2023-01-01".into())).unwrap();
        let c = millis(&Value::Str("2023-01-01T00:00:00".into())).unwrap();
        assert_eq!(a, b);
        assert_eq!(b, c);
        assert_eq!(millis(&Value::Num(1000.0)), Some(1000));
        assert_eq!(millis(&Value::Str("soon".into())), None);
    }
}
