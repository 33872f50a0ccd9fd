//! Sign-in by phone: one-time codes and the signed session cookie.
//!
//! Plain functions over a secret key and the current time, so the worker
//! only does I/O and every rule here is tested on the host. The key is the
//! worker secret `SESSION_SECRET` (`.dev.vars` or `--var` locally), never
//! dealer configuration.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use dealer_rules::contact::{parse_au_phone, PhoneKind};

type HmacSha256 = Hmac<Sha256>;

/// Name of the session cookie.
pub const COOKIE_NAME: &str = "dg_session";
/// How long a session lasts (30 days, in seconds).
pub const SESSION_TTL_SECS: u64 = 30 * 24 * 3600;
/// How long a one-time code is valid (10 minutes).
pub const CODE_TTL_SECS: u64 = 10 * 60;
/// Wrong guesses allowed per code; after that the code is void.
pub const MAX_CODE_ATTEMPTS: u32 = 5;
/// Codes that may be requested per phone per hour (SMS cost, and re-requesting
/// must not reset the guess limit into a brute-force loop).
pub const MAX_CODE_REQUESTS_PER_HOUR: u64 = 5;
/// Digits in a one-time code.
pub const CODE_DIGITS: usize = 6;

pub const MOBILE_MESSAGE: &str = "Please enter an Australian mobile number, e.g. 0412 345 678.";

/// The normalised national form (`0412345678`) of an Australian mobile, or
/// `None`; landlines cannot receive the SMS code.
pub fn parse_mobile(input: &str) -> Option<String> {
    parse_au_phone(input)
        .filter(|p| p.kind() == PhoneKind::Mobile)
        .map(|p| p.national().to_string())
}

fn mac(key: &[u8], parts: &[&str]) -> HmacSha256 {
    // HMAC accepts keys of any length; `new_from_slice` cannot fail for it.
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes any key length");
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            mac.update(b"\x1f"); // unit separator: "a"+"bc" ≠ "ab"+"c"
        }
        mac.update(part.as_bytes());
    }
    mac
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

/// Keyed hash of a one-time code; only this is stored. Bound to dealer and
/// phone, so a stored hash is useless for any other sign-in.
pub fn hash_code(key: &[u8], dealer: &str, phone: &str, code: &str) -> String {
    hex(&mac(key, &["otp", dealer, phone, code])
        .finalize()
        .into_bytes())
}

/// Turns 4+ random bytes into a zero-padded 6-digit code. 2^32 mod 10^6
/// leaves a bias below 0.03%, irrelevant for a 5-guess limit.
pub fn code_from_random(random: &[u8]) -> String {
    let mut n: u64 = 0;
    for b in random.iter().take(8) {
        n = (n << 8) | u64::from(*b);
    }
    format!(
        "{:0width$}",
        n % 10u64.pow(CODE_DIGITS as u32),
        width = CODE_DIGITS
    )
}

/// The SMS that carries a code, named after the dealer's site.
pub fn sms_text(dealer_name: &str, code: &str) -> String {
    format!(
        "{code} is your {dealer_name} sign-in code. It expires in {} minutes.",
        CODE_TTL_SECS / 60
    )
}

/// The bytes of a UUID's hex digits (16 for a v4 UUID from
/// `crypto.randomUUID()`, the worker's source of randomness).
pub fn uuid_bytes(uuid: &str) -> Vec<u8> {
    let hex: Vec<u8> = uuid.bytes().filter(u8::is_ascii_hexdigit).collect();
    hex.chunks_exact(2)
        .filter_map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// Whether `input` has the shape of a code (exactly 6 digits).
pub fn is_code_shaped(input: &str) -> bool {
    input.len() == CODE_DIGITS && input.bytes().all(|b| b.is_ascii_digit())
}

/// What checking a code against the stored row decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeCheck {
    Ok,
    Wrong,
    Expired,
    TooManyAttempts,
}

/// The stored state of one dealer+phone's current code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCode {
    pub hash: String,
    pub expires_at: u64,
    pub attempts: u32,
}

/// Compares `code` with the stored hash. Expiry and the attempt limit are
/// checked first, so a used-up code stays dead even when guessed right.
pub fn check_code(
    key: &[u8],
    dealer: &str,
    phone: &str,
    code: &str,
    stored: &StoredCode,
    now: u64,
) -> CodeCheck {
    let StoredCode {
        hash: stored_hash,
        expires_at,
        attempts,
    } = stored;
    let (expires_at, attempts) = (*expires_at, *attempts);
    if now >= expires_at {
        return CodeCheck::Expired;
    }
    if attempts >= MAX_CODE_ATTEMPTS {
        return CodeCheck::TooManyAttempts;
    }
    let Some(stored) = unhex(stored_hash) else {
        return CodeCheck::Wrong;
    };
    // verify_slice compares in constant time.
    match mac(key, &["otp", dealer, phone, code]).verify_slice(&stored) {
        Ok(()) => CodeCheck::Ok,
        Err(_) => CodeCheck::Wrong,
    }
}

/// Who a valid session cookie names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub dealer: String,
    pub phone: String,
    pub expires_at: u64,
}

/// `v1.<dealer>.<phone>.<expires>.<hmac>`. The dealer is inside the signed
/// part, so a cookie issued for one dealer is refused by every other.
pub fn sign_session(key: &[u8], dealer: &str, phone: &str, expires_at: u64) -> String {
    let exp = expires_at.to_string();
    let sig = hex(&mac(key, &["v1", dealer, phone, &exp])
        .finalize()
        .into_bytes());
    format!("v1.{dealer}.{phone}.{exp}.{sig}")
}

/// The session a token proves, if its signature is valid and it has not
/// expired. Anything malformed is simply no session.
pub fn verify_session(key: &[u8], token: &str, now: u64) -> Option<Session> {
    let mut parts = token.split('.');
    let (Some("v1"), Some(dealer), Some(phone), Some(exp), Some(sig), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return None;
    };
    let expires_at: u64 = exp.parse().ok()?;
    let sig = unhex(sig)?;
    mac(key, &["v1", dealer, phone, exp])
        .verify_slice(&sig)
        .ok()?;
    (now < expires_at).then(|| Session {
        dealer: dealer.to_string(),
        phone: phone.to_string(),
        expires_at,
    })
}

/// `Set-Cookie` value for a new session. HttpOnly (no script can read it),
/// Secure, SameSite=Lax (not sent on cross-site sub-requests, so a foreign
/// page cannot act with it), scoped to the API paths.
pub fn session_cookie(token: &str, max_age: u64) -> String {
    format!("{COOKIE_NAME}={token}; Max-Age={max_age}; Path=/api/; HttpOnly; Secure; SameSite=Lax")
}

/// `Set-Cookie` value that deletes the session cookie.
pub fn clear_cookie() -> String {
    session_cookie("", 0)
}

/// The session token from a `Cookie` request header, if any.
pub fn token_from_cookie_header(header: &str) -> Option<&str> {
    header.split(';').find_map(|pair| {
        let (name, value) = pair.trim().split_once('=')?;
        (name == COOKIE_NAME && !value.is_empty()).then_some(value)
    })
}

/// A stable, non-reversible key for a client (its IP) per dealer, for rate
/// limits and reveal records: the raw address is never stored.
pub fn client_key(key: &[u8], dealer: &str, client: &str) -> String {
    let digest = Sha256::new()
        .chain_update(
            mac(key, &["client", dealer, client])
                .finalize()
                .into_bytes(),
        )
        .finalize();
    hex(&digest[..16])
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"test-secret";

    #[test]
    fn only_mobiles_can_sign_in() {
        assert_eq!(parse_mobile("0412 345 678").as_deref(), Some("0412345678"));
        assert_eq!(
            parse_mobile("+61 412 345 678").as_deref(),
            Some("0412345678")
        );
        assert_eq!(parse_mobile("(08) 9123 4567"), None, "landline");
        assert_eq!(parse_mobile("1300 123 456"), None);
        assert_eq!(parse_mobile("nope"), None);
    }

    #[test]
    fn sms_text_and_uuid_bytes() {
        assert_eq!(
            sms_text("Alpha Motors", "012345"),
            "012345 is your Alpha Motors sign-in code. It expires in 10 minutes."
        );
        let bytes = uuid_bytes("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");
        assert_eq!(bytes.len(), 16);
        assert_eq!(&bytes[..3], &[0x0f, 0x1e, 0x2d]);
        assert_eq!(bytes[15], 0xf0);
        assert!(uuid_bytes("").is_empty());
    }

    #[test]
    fn codes_are_six_digits_and_stored_hashed() {
        assert_eq!(code_from_random(&[0, 0, 0, 7]), "000007");
        assert_eq!(code_from_random(&[255; 8]).len(), 6);
        assert!(is_code_shaped("012345"));
        for bad in ["12345", "1234567", "12a456", "", "１２３４５６"] {
            assert!(!is_code_shaped(bad), "{bad}");
        }
        let h = hash_code(KEY, "alpha", "0412345678", "123456");
        assert_eq!(h.len(), 64);
        assert!(!h.contains("123456"));
        assert_ne!(
            h,
            hash_code(KEY, "beta", "0412345678", "123456"),
            "bound to dealer"
        );
        assert_ne!(
            h,
            hash_code(KEY, "alpha", "0412345679", "123456"),
            "bound to phone"
        );
    }

    #[test]
    fn code_check_order_expiry_attempts_match() {
        let h = hash_code(KEY, "a", "0412345678", "123456");
        let stored = |attempts| StoredCode {
            hash: h.clone(),
            expires_at: 1000,
            attempts,
        };
        let check =
            |code, attempts, now| check_code(KEY, "a", "0412345678", code, &stored(attempts), now);
        assert_eq!(check("123456", 0, 999), CodeCheck::Ok);
        assert_eq!(check("123457", 0, 999), CodeCheck::Wrong);
        assert_eq!(check("123456", 0, 1000), CodeCheck::Expired);
        assert_eq!(check("123456", MAX_CODE_ATTEMPTS - 1, 999), CodeCheck::Ok);
        assert_eq!(
            check("123456", MAX_CODE_ATTEMPTS, 999),
            CodeCheck::TooManyAttempts
        );
        assert_eq!(
            check_code(
                KEY,
                "a",
                "0412345678",
                "123456",
                &StoredCode {
                    hash: "zz".into(),
                    ..stored(0)
                },
                1
            ),
            CodeCheck::Wrong,
            "a corrupt stored hash never matches"
        );
        assert_eq!(
            check_code(b"other-key", "a", "0412345678", "123456", &stored(0), 1),
            CodeCheck::Wrong
        );
    }

    #[test]
    fn session_tokens_are_signed_bound_and_expire() {
        let t = sign_session(KEY, "alpha", "0412345678", 2000);
        let s = verify_session(KEY, &t, 1999).unwrap();
        assert_eq!(
            (s.dealer.as_str(), s.phone.as_str(), s.expires_at),
            ("alpha", "0412345678", 2000)
        );
        assert_eq!(verify_session(KEY, &t, 2000), None, "expired");
        assert_eq!(verify_session(b"other", &t, 1), None, "other key");
        let forged_phone = t.replace("0412345678", "0499999999");
        assert_eq!(verify_session(KEY, &forged_phone, 1), None);
        let forged_dealer = t.replacen("alpha", "beta", 1);
        assert_eq!(verify_session(KEY, &forged_dealer, 1), None);
        let forged_exp = t.replace(".2000.", ".9999.");
        assert_eq!(verify_session(KEY, &forged_exp, 1), None);
        for junk in [
            "",
            "v1",
            "v1.a.b.c",
            "v2.a.b.1.00",
            &format!("{t}.x"),
            "v1.a.b.x.zz",
        ] {
            assert_eq!(verify_session(KEY, junk, 1), None, "{junk}");
        }
    }

    #[test]
    fn cookie_attributes_and_parsing() {
        let c = session_cookie("tok", 60);
        for attr in [
            "dg_session=tok",
            "HttpOnly",
            "Secure",
            "SameSite=Lax",
            "Max-Age=60",
            "Path=/api/",
        ] {
            assert!(c.contains(attr), "{attr} in {c}");
        }
        assert!(clear_cookie().contains("Max-Age=0"));
        assert_eq!(
            token_from_cookie_header("a=1; dg_session=xyz; b=2"),
            Some("xyz")
        );
        assert_eq!(token_from_cookie_header("dg_session="), None);
        assert_eq!(token_from_cookie_header("other=1"), None);
        assert_eq!(token_from_cookie_header("xdg_session=1"), None);
    }

    #[test]
    fn client_keys_hide_the_address_and_differ_per_dealer() {
        let a = client_key(KEY, "alpha", "203.0.113.9");
        assert_eq!(a.len(), 32);
        assert!(!a.contains("203"));
        assert_eq!(a, client_key(KEY, "alpha", "203.0.113.9"));
        assert_ne!(a, client_key(KEY, "beta", "203.0.113.9"));
    }
}
