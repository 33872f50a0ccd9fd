//! Deadlines of the worker's outbound calls, all in one place. Every `fetch`
//! the worker makes to a third party runs within its call's deadline (the
//! shell's `outbound::within`), so a slow or hanging receiver can hold
//! neither a shopper's request nor a queue batch:
//!
//! | call                      | deadline | when it passes                                  |
//! |---------------------------|----------|-------------------------------------------------|
//! | finance quote provider    | 3 s      | 502: no quote (the car page shows none, silently) |
//! | lead webhook / mail relay | 10 s     | a failed attempt: retried with backoff (never dropped) |
//! | SMS webhook (sign-in code)| 5 s      | 503 "could not send the code", the shopper retries |
//! | Turnstile siteverify      | 5 s      | the lead is stored anyway, marked unverified (never lost) |
//! | valuation service         | 5 s      | no estimate ("unavailable"); the answers go with the lead |
//! | payment provider (Stripe) | 8 s      | 503, the hold is released, the shopper may try again |
//!
//! The deadline covers the whole exchange (connecting, the answer's headers
//! and any body that is read); when it passes the fetch is aborted through
//! its `AbortSignal`, so the connection is closed rather than left running.

/// The kinds of outbound call, each with its own deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// The dealer's upstream finance quote provider: a shopper is waiting,
    /// and a car page without a quote is fine (the page stays silent).
    Quote,
    /// One lead delivery attempt to a webhook or the mail relay: nobody is
    /// waiting, but a queue batch is; a timeout is retried with backoff.
    Delivery,
    /// The SMS webhook sending a sign-in code: a shopper is waiting.
    Sms,
    /// Turnstile's siteverify: a shopper is waiting for their enquiry.
    Turnstile,
    /// The dealer's valuation service: a shopper is waiting.
    Valuation,
    /// Creating the payment session: a shopper is waiting, but a payment
    /// provider may take a few seconds and a retry costs a new hold.
    Payment,
}

impl Call {
    /// How long the call may take, in seconds.
    pub const fn deadline_secs(self) -> u64 {
        match self {
            Call::Quote => 3,
            Call::Delivery => 10,
            Call::Sms => 5,
            Call::Turnstile => 5,
            Call::Valuation => 5,
            Call::Payment => 8,
        }
    }
}

/// The call did not finish within its deadline (and was aborted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOut(pub Call);

impl std::fmt::Display for TimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no answer within {} s", self.0.deadline_secs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_per_call_kind() {
        // A shopper waits for a quote and a code; a delivery attempt may take
        // longer but must fit the delivery lease with both targets.
        assert_eq!(Call::Quote.deadline_secs(), 3);
        assert_eq!(Call::Sms.deadline_secs(), 5);
        assert_eq!(Call::Delivery.deadline_secs(), 10);
        assert_eq!(Call::Turnstile.deadline_secs(), 5);
        assert_eq!(Call::Valuation.deadline_secs(), 5);
        assert_eq!(Call::Payment.deadline_secs(), 8);
    }

    #[test]
    fn timeout_message_names_the_deadline() {
        assert_eq!(
            TimedOut(Call::Delivery).to_string(),
            "no answer within 10 s"
        );
        assert_eq!(TimedOut(Call::Quote).to_string(), "no answer within 3 s");
    }
}
