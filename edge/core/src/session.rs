//! Sign-in by phone: one-time codes and the session cookie.
//!
//! A session is a row in D1 (dealer, phone, expiry) under the hash of a
//! random session id; the cookie carries only that id, signed for the
//! dealer. Signing out deletes the row, so the cookie stops working at once,
//! and the phone number never travels in the cookie.
//!
//! A code allows [`MAX_CODE_ATTEMPTS`] guesses, counted atomically by the
//! worker before each comparison; the guesses used up end that code (the
//! challenge), not the number: a new code may be requested once the short
//! per-number cooldown has passed.
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
/// Guesses allowed per code; after that the code is void and a new one
/// must be requested.
pub const MAX_CODE_ATTEMPTS: u32 = 5;
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

/// HMAC-SHA256 over `parts`, separated so that "a"+"bc" ≠ "ab"+"c"
/// (also signs [`crate::lead_flow`] tokens).
pub(crate) fn mac(key: &[u8], parts: &[&str]) -> HmacSha256 {
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

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn unhex(s: &str) -> Option<Vec<u8>> {
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

/// Why a guess could not be checked against a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoGuess {
    /// No code was requested for the number, or it was already used.
    NoCode,
    Expired,
    /// The code's guesses are used up; a new code is needed.
    TooManyAttempts,
}

/// The stored state of one dealer+phone's current code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCode {
    pub hash: String,
    pub expires_at: u64,
    pub attempts: u32,
    /// When it was sent (unix seconds), for the cooldown.
    pub sent_at: u64,
}

/// Why the worker's atomic claim of a guess (`attempts < MAX` and not
/// expired) found nothing to claim, given the row as it is now. Expiry is
/// told first: an expired code needs a new one whatever its guesses.
pub fn why_no_guess(stored: Option<&StoredCode>, now: u64) -> NoGuess {
    match stored {
        None => NoGuess::NoCode,
        Some(s) if now >= s.expires_at => NoGuess::Expired,
        Some(s) if s.attempts >= MAX_CODE_ATTEMPTS => NoGuess::TooManyAttempts,
        // Claimable now: it was used or replaced between the two reads.
        Some(_) => NoGuess::NoCode,
    }
}

/// Whether `code` is the one whose hash is stored. Constant time.
pub fn code_matches(key: &[u8], dealer: &str, phone: &str, code: &str, stored_hash: &str) -> bool {
    let Some(stored) = unhex(stored_hash) else {
        return false;
    };
    mac(key, &["otp", dealer, phone, code])
        .verify_slice(&stored)
        .is_ok()
}

/// Seconds until another code may be sent to a number whose last code went
/// out at `sent_at` (0: now).
pub fn cooldown_remaining(sent_at: u64, cooldown_secs: u64, now: u64) -> u64 {
    (sent_at + cooldown_secs).saturating_sub(now)
}

/// A session as stored in D1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub dealer: String,
    pub phone: String,
    pub expires_at: u64,
}

/// A new session id: the hex of `random` (16 bytes from the platform CSPRNG).
pub fn new_session_id(random: &[u8]) -> Option<String> {
    (random.len() >= 16).then(|| hex(random))
}

/// The cookie value for session `id` at `dealer`: `v2.<id>.<hmac>`. The
/// signature binds the id to the dealer, so a cookie of one dealer is
/// refused by every other without a database look-up, as is anything forged.
pub fn sign_session(key: &[u8], dealer: &str, id: &str) -> String {
    let sig = hex(&mac(key, &["v2", dealer, id]).finalize().into_bytes());
    format!("v2.{id}.{sig}")
}

/// The session id a cookie value carries, if it is signed for `dealer`.
pub fn session_id<'t>(key: &[u8], dealer: &str, token: &'t str) -> Option<&'t str> {
    let mut parts = token.split('.');
    let (Some("v2"), Some(id), Some(sig), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    mac(key, &["v2", dealer, id])
        .verify_slice(&unhex(sig)?)
        .ok()
        .map(|()| id)
}

/// The key a session is stored under: a keyed hash of its id, so the
/// database alone holds no usable cookie.
pub fn session_key_of(key: &[u8], id: &str) -> String {
    hex(&mac(key, &["sid", id]).finalize().into_bytes())
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
    fn codes_match_only_their_hash() {
        let h = hash_code(KEY, "a", "0412345678", "123456");
        assert!(code_matches(KEY, "a", "0412345678", "123456", &h));
        assert!(!code_matches(KEY, "a", "0412345678", "123457", &h));
        assert!(
            !code_matches(KEY, "a", "0412345679", "123456", &h),
            "another number"
        );
        assert!(
            !code_matches(KEY, "b", "0412345678", "123456", &h),
            "another dealer"
        );
        assert!(!code_matches(b"other-key", "a", "0412345678", "123456", &h));
        assert!(
            !code_matches(KEY, "a", "0412345678", "123456", "zz"),
            "a corrupt hash never matches"
        );
    }

    #[test]
    fn why_a_guess_cannot_be_checked() {
        let stored = |attempts, expires_at| StoredCode {
            hash: String::new(),
            expires_at,
            attempts,
            sent_at: 0,
        };
        assert_eq!(why_no_guess(None, 5), NoGuess::NoCode);
        assert_eq!(why_no_guess(Some(&stored(0, 5)), 5), NoGuess::Expired);
        assert_eq!(
            why_no_guess(Some(&stored(MAX_CODE_ATTEMPTS, 5)), 5),
            NoGuess::Expired,
            "expiry first: either way a new code is needed"
        );
        assert_eq!(
            why_no_guess(Some(&stored(MAX_CODE_ATTEMPTS, 9)), 5),
            NoGuess::TooManyAttempts
        );
        assert_eq!(
            why_no_guess(Some(&stored(1, 9)), 5),
            NoGuess::NoCode,
            "raced"
        );
    }

    #[test]
    fn cooldown_counts_down_from_the_last_code() {
        assert_eq!(cooldown_remaining(100, 60, 100), 60);
        assert_eq!(cooldown_remaining(100, 60, 159), 1);
        assert_eq!(cooldown_remaining(100, 60, 160), 0);
        assert_eq!(cooldown_remaining(0, 60, 1_000_000), 0);
    }

    #[test]
    fn session_cookies_carry_a_signed_id_and_no_phone() {
        let id = new_session_id(&[0xab; 16]).unwrap();
        assert_eq!(id.len(), 32);
        assert_eq!(new_session_id(&[1; 8]), None, "too little randomness");
        let t = sign_session(KEY, "alpha", &id);
        assert!(t.starts_with("v2.") && !t.contains("0412345678"));
        assert_eq!(session_id(KEY, "alpha", &t), Some(id.as_str()));
        assert_eq!(session_id(KEY, "beta", &t), None, "another dealer's cookie");
        assert_eq!(session_id(b"other", "alpha", &t), None, "another key");
        let other = new_session_id(&[0xcd; 16]).unwrap();
        let forged = t.replace(&id, &other);
        assert_eq!(session_id(KEY, "alpha", &forged), None);
        for junk in [
            "",
            "v2",
            "v2.a.b",
            "v1.alpha.0412345678.9999999999.00",
            &format!("{t}.x"),
            &format!("v2.{id}.zz"),
        ] {
            assert_eq!(session_id(KEY, "alpha", junk), None, "{junk}");
        }
        let stored = session_key_of(KEY, &id);
        assert_eq!(stored.len(), 64);
        assert!(
            !stored.contains(&id) && !t.contains(&stored),
            "the database holds no cookie"
        );
        assert_ne!(stored, session_key_of(b"other", &id));
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
