//! Money as an integer count of a currency's minor units (cents, pence, yen).
//!
//! Amounts are read from decimal text exactly and compared as integers; no float arithmetic
//! ever decides a limit. A JSON number is read through its shortest round-trip decimal form
//! (the same text RFC 8785 writes for it), which is the number as written for every amount
//! with at most 15 significant digits; larger amounts must be sent as strings.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An amount in a currency's minor units.
///
/// ```
/// use palisade::Money;
/// let m = Money::parse("120.5", "EUR")?;
/// assert_eq!(m.minor(), 12050);
/// assert_eq!(m.to_string(), "120.50 EUR");
/// assert_eq!(Money::parse("1200", "JPY")?.minor(), 1200);
/// assert!(Money::parse("1.001", "EUR").is_err()); // EUR has two decimals
/// # Ok::<(), palisade::MoneyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Money {
    minor: i64,
    currency: String,
    exponent: u16,
}

/// Why an amount or a currency could not be read.
///
/// ```
/// assert!(matches!(
///     palisade::Money::parse("5", "EURO"),
///     Err(palisade::MoneyError::UnknownCurrency(_))
/// ));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MoneyError {
    /// The currency is not an ISO 4217 code with a minor unit.
    #[error("{0:?} is not an ISO 4217 currency code with a minor unit")]
    UnknownCurrency(String),
    /// The amount is not a decimal number.
    #[error("amount is not a decimal number")]
    NotDecimal,
    /// The amount has more decimals than the currency has minor-unit digits.
    #[error("amount has more decimals than {currency} allows ({exponent})")]
    TooManyDecimals {
        /// The currency.
        currency: String,
        /// Its minor-unit digits.
        exponent: u16,
    },
    /// The amount does not fit in 64 bits of minor units.
    #[error("amount is too large")]
    TooLarge,
}

/// The number of minor-unit digits of an ISO 4217 currency (`EUR` 2, `JPY` 0, `BHD` 3).
///
/// ```
/// assert_eq!(palisade::currency_exponent("GBP"), Some(2));
/// assert_eq!(palisade::currency_exponent("XAU"), None); // gold has no minor unit
/// ```
pub fn currency_exponent(code: &str) -> Option<u16> {
    iso_currency::Currency::from_code(code)?.exponent()
}

impl Money {
    /// Reads a decimal amount (`"120.50"`, `"-3"`, `"1e2"`) in a currency.
    ///
    /// ```
    /// assert_eq!(palisade::Money::parse("0.5", "USD")?.minor(), 50);
    /// # Ok::<(), palisade::MoneyError>(())
    /// ```
    pub fn parse(amount: &str, currency: &str) -> Result<Money, MoneyError> {
        let exponent = currency_exponent(currency)
            .ok_or_else(|| MoneyError::UnknownCurrency(currency.chars().take(16).collect()))?;
        let minor = parse_minor(amount, exponent).map_err(|e| match e {
            ParseFail::NotDecimal => MoneyError::NotDecimal,
            ParseFail::TooLarge => MoneyError::TooLarge,
            ParseFail::TooManyDecimals => MoneyError::TooManyDecimals {
                currency: currency.to_owned(),
                exponent,
            },
        })?;
        Ok(Money {
            minor,
            currency: currency.to_owned(),
            exponent,
        })
    }

    /// Reads an amount given as a JSON string or number.
    ///
    /// ```
    /// let m = palisade::Money::from_json(&serde_json::json!(19.9), "EUR")?;
    /// assert_eq!(m.minor(), 1990);
    /// # Ok::<(), palisade::MoneyError>(())
    /// ```
    pub fn from_json(amount: &Value, currency: &str) -> Result<Money, MoneyError> {
        match amount {
            Value::String(s) => Money::parse(s, currency),
            Value::Number(n) => Money::parse(&number_text(n), currency),
            _ => Err(MoneyError::NotDecimal),
        }
    }

    /// The amount in minor units.
    ///
    /// ```
    /// assert_eq!(palisade::Money::parse("2.5", "GBP")?.minor(), 250);
    /// # Ok::<(), palisade::MoneyError>(())
    /// ```
    pub fn minor(&self) -> i64 {
        self.minor
    }

    /// The ISO 4217 currency code.
    ///
    /// ```
    /// assert_eq!(palisade::Money::parse("1", "JPY")?.currency(), "JPY");
    /// # Ok::<(), palisade::MoneyError>(())
    /// ```
    pub fn currency(&self) -> &str {
        &self.currency
    }
}

impl std::fmt::Display for Money {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let e = u32::from(self.exponent);
        let scale = 10i128.pow(e);
        let v = i128::from(self.minor);
        let sign = if v < 0 { "-" } else { "" };
        let (whole, frac) = (v.abs() / scale, v.abs() % scale);
        if e == 0 {
            write!(f, "{sign}{whole} {}", self.currency)
        } else {
            write!(
                f,
                "{sign}{whole}.{frac:0w$} {}",
                self.currency,
                w = e as usize
            )
        }
    }
}

/// The decimal text of a JSON number: integers as they are, others in ECMAScript's shortest
/// round-trip form (RFC 8785's number text).
pub(crate) fn number_text(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    match n.as_f64() {
        Some(f) => ryu_js::Buffer::new().format(f).to_owned(),
        None => n.to_string(),
    }
}

enum ParseFail {
    NotDecimal,
    TooManyDecimals,
    TooLarge,
}

/// `[-+]digits[.digits][e[-+]digits]` to minor units, exactly.
fn parse_minor(text: &str, exponent: u16) -> Result<i64, ParseFail> {
    let t = text.trim();
    let (negative, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (mantissa, exp10) = match t.find(['e', 'E']) {
        Some(i) => {
            let e: i32 = t[i + 1..].parse().map_err(|_| ParseFail::NotDecimal)?;
            (&t[..i], e)
        }
        None => (t, 0),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((a, b)) => (a, b),
        None => (mantissa, ""),
    };
    if (int_part.is_empty() && frac_part.is_empty())
        || !int_part.bytes().all(|b| b.is_ascii_digit())
        || !frac_part.bytes().all(|b| b.is_ascii_digit())
        || exp10.abs() > 400
    {
        return Err(ParseFail::NotDecimal);
    }
    // digits × 10^(exp10 - frac_len + exponent) minor units.
    let digits = format!("{int_part}{frac_part}");
    let digits = digits.trim_start_matches('0');
    let shift = exp10 - frac_part.len() as i32 + i32::from(exponent);
    let (kept, dropped) = if shift >= 0 {
        (digits, "")
    } else {
        let cut = digits.len().saturating_sub(shift.unsigned_abs() as usize);
        digits.split_at(cut)
    };
    if dropped.bytes().any(|b| b != b'0') {
        return Err(ParseFail::TooManyDecimals);
    }
    let mut value: i64 = 0;
    for b in kept.bytes() {
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i64::from(b - b'0')))
            .ok_or(ParseFail::TooLarge)?;
    }
    for _ in 0..shift.max(0) {
        if value == 0 {
            break;
        }
        value = value.checked_mul(10).ok_or(ParseFail::TooLarge)?;
    }
    Ok(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minor(s: &str, c: &str) -> Option<i64> {
        Money::parse(s, c).ok().map(|m| m.minor())
    }

    #[test]
    fn decimal_text_to_minor_units() {
        assert_eq!(minor("120.5", "EUR"), Some(12050));
        assert_eq!(minor("120.50", "EUR"), Some(12050));
        assert_eq!(minor("120.500", "EUR"), Some(12050));
        assert_eq!(minor("1.2050e2", "EUR"), Some(12050));
        assert_eq!(minor("0.07", "USD"), Some(7));
        assert_eq!(minor(".5", "USD"), Some(50));
        assert_eq!(minor("-3", "GBP"), Some(-300));
        assert_eq!(minor("1500", "JPY"), Some(1500));
        assert_eq!(minor("1.5", "JPY"), None);
        assert_eq!(minor("1.234", "BHD"), Some(1234));
        assert_eq!(minor("0.001", "EUR"), None);
        assert_eq!(minor("1,5", "EUR"), None);
        assert_eq!(minor("", "EUR"), None);
        assert_eq!(minor(".", "EUR"), None);
        assert_eq!(minor("1e400", "EUR"), None);
        assert_eq!(minor("99999999999999999999", "EUR"), None);
        assert_eq!(minor("5", "XAU"), None);
        assert_eq!(minor("5", "eur"), None);
    }

    #[test]
    fn json_numbers_read_as_written() {
        for (v, want) in [
            (serde_json::json!(0.1), 10),
            (serde_json::json!(19.99), 1999),
            (serde_json::json!(120.5), 12050),
            (serde_json::json!(1e2), 10000),
            (serde_json::json!(7), 700),
        ] {
            assert_eq!(Money::from_json(&v, "EUR").map(|m| m.minor()), Ok(want));
        }
        assert!(Money::from_json(&serde_json::json!(true), "EUR").is_err());
    }

    #[test]
    fn display_pads_minor_digits() {
        assert_eq!(
            Money::parse("-0.05", "EUR").map(|m| m.to_string()),
            Ok("-0.05 EUR".to_owned())
        );
        assert_eq!(
            Money::parse("12", "JPY").map(|m| m.to_string()),
            Ok("12 JPY".to_owned())
        );
    }
}
