//! Forms and what the edge needs for them: the captcha widget, the
//! payment account behind online reservations, the valuation service, the
//! success page. Every setting here is read by the edge worker, so a
//! missing piece would make a switch silently do nothing: each is an error
//! (or, for a setting that is merely unused, a warning).

use dealer_rules::edge_config::is_opt_in_text;

use crate::model::DealerConfig;

use super::urls::check_https;
use super::{root, Ctx, KeyPath};

/// Longest worker secret name accepted.
const SECRET_NAME_MAX: usize = 64;

/// A worker secret name as `wrangler secret put` takes it and as it is
/// read in the worker: a letter, then letters, digits or underscores.
fn is_secret_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    name.len() <= SECRET_NAME_MAX
        && bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn check_secret_name(name: &str, path: &KeyPath, cx: &mut Ctx) {
    if !is_secret_name(name) {
        cx.err(
            path,
            format!("`{name}` is not a worker secret name"),
        )
        .hint = Some(
            "name the secret (set with `wrangler secret put NAME`), e.g. STRIPE_SECRET_KEY_MYDEALER: a letter, then letters, digits or _; never the secret itself".into(),
        );
    }
}

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    captcha(cfg, cx);
    checkout(cfg, cx);
    trade_in(cfg, cx);
    success_path(&cfg.forms.success_path, cx);
    budget_presets(&cfg.forms.budget_presets, cx);
    opt_in_text(&cfg.forms.opt_in_text, cx);
}

/// The opt-in's words: the worker records them with each consent and
/// refuses a config whose words it could not (the same rule).
fn opt_in_text(text: &str, cx: &mut Ctx) {
    if !is_opt_in_text(text) {
        cx.err(
            &root().key("forms").key("opt_in_text"),
            "the marketing opt-in's words must be one line of 1 to 300 characters",
        )
        .hint = Some(
            "say what the shopper will receive and how to withdraw, e.g. \"Send me offers and news by email and SMS. I can unsubscribe at any time.\"".into(),
        );
    }
}

/// Most quick amounts a form shows (they wrap to two rows on a phone).
const MAX_BUDGET_PRESETS: usize = 8;

/// The finance form's quick amounts: a few, ascending, each a plausible loan.
fn budget_presets(amounts: &[u32], cx: &mut Ctx) {
    let at = root().key("forms").key("budget_presets");
    if amounts.len() > MAX_BUDGET_PRESETS {
        cx.err(
            &at,
            format!(
                "{} quick amounts: the form shows at most {MAX_BUDGET_PRESETS}",
                amounts.len()
            ),
        );
    }
    for (i, a) in amounts.iter().enumerate() {
        if !(1_000..=5_000_000).contains(a) {
            cx.err(
                &at.clone().index(i),
                format!("${a} is not a loan amount the form offers"),
            )
            .expected = Some("whole dollars from 1000 to 5000000".into());
        } else if i > 0 && amounts[i - 1] >= *a {
            cx.err(
                &at.clone().index(i),
                format!(
                    "{a} does not come after {}: list the amounts from the smallest",
                    amounts[i - 1]
                ),
            );
        }
    }
}

fn captcha(cfg: &DealerConfig, cx: &mut Ctx) {
    let at = root().key("forms").key("turnstile");
    match (&cfg.forms.turnstile, cfg.features.captcha) {
        (None, true) => {
            cx.err(
                &root().key("features").key("captcha"),
                "captcha is on but the dealer has no Turnstile widget",
            )
            .hint = Some(
                "add forms.turnstile with the widget's site_key and the secret_name of its secret key, or set captcha: false".into(),
            );
        }
        (Some(t), on) => {
            if !on {
                cx.warn(
                    &at,
                    "a Turnstile widget is set but features.captcha is off: no captcha is shown",
                );
            }
            let key = t.site_key.trim();
            if key.is_empty()
                || key.len() > 100
                || !key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            {
                cx.err(
                    &at.clone().key("site_key"),
                    format!("`{}` is not a Turnstile site key", t.site_key),
                )
                .hint = Some("copy the site key from the widget's page in the Cloudflare dashboard, e.g. 0x4AAAAAAAB1cD2eF3gH4iJ5".into());
            }
            check_secret_name(&t.secret_name, &at.key("secret_name"), cx);
        }
        (None, false) => {}
    }
}

fn checkout(cfg: &DealerConfig, cx: &mut Ctx) {
    let c = &cfg.features.checkout;
    let at = root().key("features").key("checkout");
    match &c.payment {
        None if c.enabled && c.deposit > 0 => {
            cx.err(
                &at.clone().key("payment"),
                format!(
                    "online reservations take a ${} deposit but no payment account is set",
                    c.deposit
                ),
            )
            .hint = Some(
                "add payment: { provider: stripe, secret_name: ..., webhook_secret_name: ... }, or set deposit: 0 to reserve without payment".into(),
            );
        }
        None => {}
        Some(p) => {
            let p_at = at.clone().key("payment");
            check_secret_name(&p.secret_name, &p_at.clone().key("secret_name"), cx);
            check_secret_name(
                &p.webhook_secret_name,
                &p_at.clone().key("webhook_secret_name"),
                cx,
            );
            if p.secret_name == p.webhook_secret_name {
                cx.err(
                    &p_at.clone().key("webhook_secret_name"),
                    "the webhook signing secret and the API key are different secrets",
                );
            }
            if !c.enabled || c.deposit == 0 {
                cx.warn(
                    &p_at,
                    "a payment account is set but no deposit is taken (checkout is off or the deposit is 0)",
                );
            }
        }
    }
}

fn trade_in(cfg: &DealerConfig, cx: &mut Ctx) {
    let at = root().key("trade_in");
    if let Some(v) = &cfg.trade_in.valuation {
        let v_at = at.clone().key("valuation");
        check_https(
            &v.url,
            &v_at.clone().key("url"),
            "the valuation service must be an https:// URL",
            cx,
        );
        check_secret_name(&v.secret_name, &v_at.clone().key("secret_name"), cx);
    }
    let used = cfg.trade_in.valuation.is_some() || cfg.trade_in.save_valuation;
    if used && !cfg.features.trade_in {
        cx.warn(
            &at,
            "trade-in valuations are set up but features.trade_in is off: they are not offered",
        );
    }
    faq(cfg, &at.clone().key("faq"), cx);
}

/// Most questions a trade-in FAQ shows (a page of answers, not a manual).
const MAX_FAQ: usize = 20;

/// A FAQ's questions: each a line of text with an answer, a few of them,
/// shown only where the trade-in page exists.
fn faq(cfg: &DealerConfig, at: &KeyPath, cx: &mut Ctx) {
    let items = &cfg.trade_in.faq;
    if items.is_empty() {
        return;
    }
    if !cfg.features.trade_in {
        cx.warn(
            at,
            "a trade-in FAQ, but features.trade_in is off: there is no /trade-in/ page to show it",
        );
    }
    if items.len() > MAX_FAQ {
        cx.err(
            at,
            format!("{} questions: the FAQ shows at most {MAX_FAQ}", items.len()),
        );
    }
    for (i, item) in items.iter().enumerate() {
        let item_at = at.clone().index(i);
        let q = item.question.trim();
        if q.is_empty() || q.chars().count() > 200 || q.contains('\n') {
            cx.err(
                &item_at.clone().key("question"),
                "a question is one line of at most 200 characters",
            );
        }
        let a = item.answer.trim();
        if a.is_empty() || a.chars().count() > 2_000 {
            cx.err(
                &item_at.clone().key("answer"),
                "an answer is some text of at most 2,000 characters",
            );
        }
    }
}

/// The page a form posted without JavaScript is sent to: a path on the
/// dealer's site (the worker puts it in a Location header after the
/// dealer's own origin).
fn success_path(path: &str, cx: &mut Ctx) {
    if !dealer_rules::edge_config::is_site_path(path) {
        cx.err(
            &root().key("forms").key("success_path"),
            format!("`{path}` is not a page path on the site"),
        )
        .expected = Some("a path such as /success or /thank-you".into());
    }
}

#[cfg(test)]
mod tests {
    use super::is_secret_name;
    use crate::check::testing::{accepted, problem_at, problems};
    use crate::diagnostic::Severity;

    const PAYMENT: &str =
        "payment: { provider: stripe, secret_name: STRIPE_KEY_T, webhook_secret_name: STRIPE_HOOK_T }";

    #[test]
    fn secret_names() {
        for ok in ["A", "STRIPE_SECRET_KEY", "turnstile_2"] {
            assert!(is_secret_name(ok), "{ok}");
        }
        for bad in [
            "",
            "1KEY",
            "sk_live_123 456",
            "KEY-1",
            "sk-live",
            &"A".repeat(65),
        ] {
            assert!(!is_secret_name(bad), "{bad}");
        }
    }

    #[test]
    fn captcha_needs_a_turnstile_widget() {
        let p = problem_at("features: { captcha: true }\n", "features.captcha");
        assert_eq!(
            p.message,
            "captcha is on but the dealer has no Turnstile widget"
        );
        assert!(p.hint.unwrap().contains("forms.turnstile"));
        accepted("features: { captcha: true }\nforms: { turnstile: { site_key: 0x4AAAAAAAB1cD2eF3gH4iJ5, secret_name: TURNSTILE_SECRET_T } }\n");
        let p = problem_at(
            "features: { captcha: true }\nforms: { turnstile: { site_key: \"0x4 bad\", secret_name: \"secret value!\" } }\n",
            "forms.turnstile.site_key",
        );
        assert_eq!(p.message, "`0x4 bad` is not a Turnstile site key");
        let p = problem_at(
            "features: { captcha: true }\nforms: { turnstile: { site_key: 0x4AAAAAAAB1cD2eF3gH4iJ5, secret_name: \"secret value!\" } }\n",
            "forms.turnstile.secret_name",
        );
        assert_eq!(p.message, "`secret value!` is not a worker secret name");
    }

    #[test]
    fn an_unused_widget_is_a_warning() {
        let all = problems(
            "forms: { turnstile: { site_key: 0x4AAAAAAAB1cD2eF3gH4iJ5, secret_name: TURNSTILE_SECRET_T } }\n",
        );
        assert_eq!(all.len(), 1, "{all:#?}");
        assert_eq!(all[0].key, "forms.turnstile");
        assert_eq!(all[0].severity, Severity::Warning);
    }

    #[test]
    fn a_deposit_needs_a_payment_account() {
        let p = problem_at(
            "features: { checkout: { enabled: true, deposit: 300 } }\n",
            "features.checkout.payment",
        );
        assert_eq!(
            p.message,
            "online reservations take a $300 deposit but no payment account is set"
        );
        accepted("features: { checkout: { enabled: true, deposit: 0 } }\n");
        accepted("features: { checkout: { enabled: false } }\n");
        accepted(&format!(
            "features: {{ checkout: {{ enabled: true, {PAYMENT} }} }}\n"
        ));
        let p = problem_at(
            "features: { checkout: { enabled: true, payment: { provider: stripe, secret_name: SAME, webhook_secret_name: SAME } } }\n",
            "features.checkout.payment.webhook_secret_name",
        );
        assert!(p.message.contains("different secrets"));
        let p = problem_at(
            "features: { checkout: { enabled: true, payment: { provider: stripe, secret_name: \"sk_live_abc def\", webhook_secret_name: H } } }\n",
            "features.checkout.payment.secret_name",
        );
        assert!(p.hint.unwrap().contains("never the secret itself"));
        problem_at(
            "features: { checkout: { enabled: true, payment: { provider: paypal, secret_name: A, webhook_secret_name: B } } }\n",
            "features.checkout.payment.provider",
        );
        let all = problems(&format!(
            "features: {{ checkout: {{ enabled: true, deposit: 0, {PAYMENT} }} }}\n"
        ));
        assert_eq!(all.len(), 1, "{all:#?}");
        assert_eq!(all[0].severity, Severity::Warning);
    }

    #[test]
    fn the_valuation_service_is_https_with_a_secret_name() {
        accepted("trade_in: { valuation: { url: \"https://valuations.example/v1\", secret_name: VALUATION_KEY }, save_valuation: true }\n");
        let p = problem_at(
            "trade_in: { valuation: { url: \"http://valuations.example/v1\", secret_name: VALUATION_KEY } }\n",
            "trade_in.valuation.url",
        );
        assert_eq!(p.message, "the valuation service must be an https:// URL");
        let all = problems("features: { trade_in: false }\ntrade_in: { save_valuation: true }\n");
        assert_eq!(all.len(), 1, "{all:#?}");
        assert_eq!(
            (all[0].key.as_str(), all[0].severity),
            ("trade_in", Severity::Warning)
        );
    }

    #[test]
    fn a_trade_in_faq_is_a_few_questions_with_answers_on_the_trade_in_page() {
        let on = "features: { trade_in: true }\n";
        accepted(&format!(
            "{on}trade_in: {{ faq: [{{ question: Do I have to buy from you?, answer: No. }}] }}\n"
        ));
        let p = problem_at(
            &format!("{on}trade_in: {{ faq: [{{ question: '  ', answer: No. }}] }}\n"),
            "trade_in.faq[0].question",
        );
        assert!(p.message.contains("one line"), "{p:?}");
        let p = problem_at(
            &format!("{on}trade_in: {{ faq: [{{ question: Why?, answer: '' }}] }}\n"),
            "trade_in.faq[0].answer",
        );
        assert!(p.message.contains("an answer is some text"), "{p:?}");
        let many = (0..21)
            .map(|i| format!("{{ question: Q{i}?, answer: A. }}"))
            .collect::<Vec<_>>()
            .join(", ");
        let p = problem_at(
            &format!("{on}trade_in: {{ faq: [{many}] }}\n"),
            "trade_in.faq",
        );
        assert!(p.message.contains("at most 20"), "{p:?}");
        let w = problem_at(
            "features: { trade_in: false }\ntrade_in: { faq: [{ question: Why?, answer: Because. }] }\n",
            "trade_in.faq",
        );
        assert_eq!(w.severity, Severity::Warning);
        assert!(w.message.contains("features.trade_in is off"), "{w:?}");
    }

    #[test]
    fn opt_in_text_is_one_short_line() {
        accepted(
            "forms: { opt_in_text: \"Send me Ford offers by SMS. Reply STOP to opt out.\" }\n",
        );
        for bad in [
            "\"  \"".to_string(),
            "\"Offers\\nand news\"".to_string(),
            format!("\"{}\"", "a".repeat(301)),
        ] {
            let p = problem_at(
                &format!("forms: {{ opt_in_text: {bad} }}\n"),
                "forms.opt_in_text",
            );
            assert!(p.message.contains("one line of 1 to 300"), "{p:?}");
        }
    }

    #[test]
    fn budget_presets_are_a_few_ascending_loan_amounts() {
        accepted("forms: { budget_presets: [300000, 400000, 800000] }\n");
        accepted("forms: { budget_presets: [] }\n");
        let p = problem_at(
            "forms: { budget_presets: [5000, 5000] }\n",
            "forms.budget_presets[1]",
        );
        assert!(p.message.contains("does not come after"), "{p:?}");
        let p = problem_at(
            "forms: { budget_presets: [500] }\n",
            "forms.budget_presets[0]",
        );
        assert!(p.message.contains("is not a loan amount"), "{p:?}");
        let p = problem_at(
            "forms: { budget_presets: [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000] }\n",
            "forms.budget_presets",
        );
        assert!(p.message.contains("at most 8"), "{p:?}");
    }

    #[test]
    fn the_success_page_is_a_site_path() {
        accepted("forms: { success_path: /thank-you }\n");
        for bad in [
            "thank-you",
            "//evil.example/x",
            "https://evil.example",
            "/a?b=1",
            "/a b",
        ] {
            let p = problem_at(
                &format!("forms: {{ success_path: \"{bad}\" }}\n"),
                "forms.success_path",
            );
            assert!(p.message.contains("is not a page path"), "{bad}: {p:?}");
        }
    }
}
