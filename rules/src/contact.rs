//! Contact details a shopper types into a form: Australian phone numbers,
//! e-mail addresses and postcodes.
//!
//! The same checks run in the edge worker (lead capture) and wherever the
//! generator needs them, so a number accepted by one is accepted by the other.
//! Messages are written for the shopper and are returned per field.

use std::fmt;

/// Message for a phone number that is not an Australian mobile or landline.
pub const PHONE_MESSAGE: &str =
    "Please enter an Australian phone number, e.g. 0412 345 678 or (02) 9876 5432.";
/// Message for an e-mail address that cannot be delivered to.
pub const EMAIL_MESSAGE: &str = "Please enter a valid email address, e.g. name@example.com.au.";
/// Message for a postcode that is not four digits (the sites' long-standing wording).
pub const POSTCODE_MESSAGE: &str = "Invalid postcode. Please enter a 4-digit number.";

/// Longest e-mail address accepted (RFC 5321 path limit).
pub const EMAIL_MAX_LEN: usize = 254;
/// Longest phone input accepted before separators are removed; stops
/// pathological inputs such as thousands of spaces.
pub const PHONE_INPUT_MAX_LEN: usize = 32;

/// What kind of Australian number a phone is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhoneKind {
    /// `04xx xxx xxx`.
    Mobile,
    /// `0[2378] xxxx xxxx`: NSW/ACT, VIC/TAS, QLD, SA/WA/NT.
    Landline,
}

/// A valid Australian phone number, kept in national format (`0412345678`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuPhone {
    national: String,
    kind: PhoneKind,
}

impl AuPhone {
    /// Ten digits, starting with `0`.
    pub fn national(&self) -> &str {
        &self.national
    }

    /// E.164 form, `+61412345678`.
    pub fn e164(&self) -> String {
        format!("+61{}", &self.national[1..])
    }

    pub fn kind(&self) -> PhoneKind {
        self.kind
    }
}

impl fmt::Display for AuPhone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.national)
    }
}

/// Parses an Australian mobile (`04xx xxx xxx`, `+61 4xx xxx xxx`) or landline
/// (`0[2378]` + 8 digits, or `+61 [2378]` + 8 digits).
///
/// Spaces, dashes, dots and parentheses between digits are allowed, so
/// `(02) 9876-5432` and `+61 (0)412 345 678` pass. Anything else (letters,
/// a `+` that is not the first character, a wrong length, 13/1300/1800 service
/// numbers that cannot receive a call back reliably) is rejected.
pub fn parse_au_phone(input: &str) -> Option<AuPhone> {
    let input = input.trim();
    if input.is_empty() || input.len() > PHONE_INPUT_MAX_LEN {
        return None;
    }
    let (international, rest) = match input.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, input),
    };
    let mut digits = String::with_capacity(12);
    for c in rest.chars() {
        match c {
            '0'..='9' => digits.push(c),
            ' ' | '-' | '.' | '(' | ')' => {}
            _ => return None,
        }
    }
    let national = if international {
        let after_cc = digits.strip_prefix("61")?;
        // `+61 (0)4..`: the trunk zero written after the country code.
        let after_cc = if after_cc.len() == 10 {
            after_cc.strip_prefix('0')?
        } else {
            after_cc
        };
        format!("0{after_cc}")
    } else {
        digits
    };
    if national.len() != 10 || !national.starts_with('0') {
        return None;
    }
    let kind = match national.as_bytes()[1] {
        b'4' => PhoneKind::Mobile,
        b'2' | b'3' | b'7' | b'8' => PhoneKind::Landline,
        _ => return None,
    };
    Some(AuPhone { national, kind })
}

/// A business number shoppers can call but that is not a landline or mobile:
/// `13 xx xx` or `1300`/`1800` + 6 digits. Dealers publish these; a shopper's
/// own number never is one, so lead forms do not accept them.
pub fn is_au_service_number(input: &str) -> bool {
    let input = input.trim();
    if input.len() > PHONE_INPUT_MAX_LEN
        || !input
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '.' | '(' | ')'))
    {
        return false;
    }
    let digits: String = input.chars().filter(char::is_ascii_digit).collect();
    (digits.len() == 6 && digits.starts_with("13"))
        || (digits.len() == 10 && (digits.starts_with("1300") || digits.starts_with("1800")))
}

/// Checks an e-mail address: one `@`, a dot-atom local part of at most 64
/// characters, and a domain of at least two LDH labels with an alphabetic
/// top-level label. Deliberately stricter than RFC 5322 (no quoted local
/// parts, no IP literals): those never come from a car shopper and only
/// make the dealer's CRM choke.
pub fn is_valid_email(input: &str) -> bool {
    if input.len() > EMAIL_MAX_LEN {
        return false;
    }
    let Some((local, domain)) = input.split_once('@') else {
        return false;
    };
    valid_local_part(local) && valid_domain(domain)
}

fn valid_local_part(local: &str) -> bool {
    const SPECIALS: &str = "!#$%&'*+/=?^_`{|}~-";
    !local.is_empty()
        && local.len() <= 64
        && local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || SPECIALS.contains(c))
        })
}

fn valid_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let tld_ok = labels
        .last()
        .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    labels.len() >= 2
        && tld_ok
        && labels.iter().all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

/// An Australian postcode is exactly four ASCII digits.
pub fn is_valid_postcode(input: &str) -> bool {
    input.len() == 4 && input.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn national(input: &str) -> Option<String> {
        parse_au_phone(input).map(|p| p.national().to_string())
    }

    #[test]
    fn mobiles_in_common_spellings() {
        for input in [
            "0412345678",
            "0412 345 678",
            "0412-345-678",
            "04 1234 5678",
            "+61412345678",
            "+61 412 345 678",
            "+61 (0)412 345 678",
            "  0412 345 678  ",
        ] {
            assert_eq!(national(input).as_deref(), Some("0412345678"), "{input}");
            assert_eq!(parse_au_phone(input).unwrap().kind(), PhoneKind::Mobile);
        }
    }

    #[test]
    fn landlines_of_every_area_code() {
        assert_eq!(national("(02) 9876 5432").as_deref(), Some("0298765432"));
        assert_eq!(national("03 9876-5432").as_deref(), Some("0398765432"));
        assert_eq!(national("07.3123.4567").as_deref(), Some("0731234567"));
        assert_eq!(national("+61 8 9123 4567").as_deref(), Some("0891234567"));
        assert_eq!(
            parse_au_phone("0298765432").unwrap().kind(),
            PhoneKind::Landline
        );
    }

    #[test]
    fn rejects_other_prefixes_and_lengths() {
        for input in [
            "",
            "   ",
            "0512345678",   // 05 is not a mobile or geographic prefix
            "0112345678",   // nor is 01
            "1300 123 456", // service number
            "131 313",      // service number
            "041234567",    // 9 digits
            "04123456789",  // 11 digits
            "+44 20 7946 0958",
            "+6141234567",   // too short after the country code
            "612 9876 5432", // country code without '+'
        ] {
            assert_eq!(national(input), None, "{input:?} should be rejected");
        }
    }

    #[test]
    fn rejects_letters_and_misplaced_plus() {
        assert_eq!(national("0412 345 67a"), None);
        assert_eq!(national("04+12345678"), None);
        assert_eq!(national("0412/345/678"), None);
        assert_eq!(
            national(&format!("0412345678{}", " ".repeat(40))),
            Some("0412345678".into())
        );
        assert_eq!(national(&format!("04{}12345678", " ".repeat(40))), None);
    }

    #[test]
    fn e164_and_display() {
        let phone = parse_au_phone("(08) 9123 4567").unwrap();
        assert_eq!(phone.e164(), "+61891234567");
        assert_eq!(phone.to_string(), "0891234567");
    }

    #[test]
    fn emails() {
        for ok in [
            "jo@example.com",
            "jo.bloggs+cars@mail.example.com.au",
            "o'neil@x.io",
            "a_b-c@sub-domain.example.net",
        ] {
            assert!(is_valid_email(ok), "{ok}");
        }
        for bad in [
            "",
            "jo",
            "jo@",
            "@example.com",
            "jo@example",
            "jo@@example.com",
            "jo@example..com",
            "jo.@example.com",
            ".jo@example.com",
            "jo..b@example.com",
            "jo b@example.com",
            "jo@exa mple.com",
            "jo@-example.com",
            "jo@example-.com",
            "jo@example.c",
            "jo@example.c0m",
            "jo@1.2.3.4",
            "\"jo\"@example.com",
        ] {
            assert!(!is_valid_email(bad), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn email_length_limits() {
        let local64 = "a".repeat(64);
        assert!(is_valid_email(&format!("{local64}@example.com")));
        assert!(!is_valid_email(&format!("a{local64}@example.com")));
        let long_domain = format!("{}.com", vec!["a".repeat(60); 5].join("."));
        assert!(
            !is_valid_email(&format!("jo@{long_domain}")),
            "over 254 characters"
        );
        assert!(
            !is_valid_email(&format!("jo@{}.com", "a".repeat(64))),
            "label over 63"
        );
    }

    #[test]
    fn postcodes() {
        assert!(is_valid_postcode("2000"));
        assert!(is_valid_postcode("0800"));
        for bad in ["", "200", "20000", "2OOO", " 2000", "２０００", "-200"] {
            assert!(!is_valid_postcode(bad), "{bad:?}");
        }
    }

    #[test]
    fn service_numbers_are_13_1300_and_1800() {
        for ok in ["13 22 33", "1300 555 010", "1800-123-456", "(1300) 555 010"] {
            assert!(is_au_service_number(ok), "{ok}");
        }
        for bad in [
            "13 22 3",
            "1900 555 010",
            "0412 345 678",
            "1300 555 01x",
            "+61 1300 555 010",
        ] {
            assert!(!is_au_service_number(bad), "{bad}");
        }
    }
}
