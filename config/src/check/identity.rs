//! Who the dealer is and how to reach them: site address and API origins,
//! contact phone and e-mail, lead delivery, gated routes.

use dealer_rules::contact;

use crate::model::DealerConfig;

use super::urls::{check_https, check_origin};
use super::{root, Ctx, KeyPath};

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    if cx.skip.ok("site_url") {
        check_origin(&cfg.site_url, &root().key("site_url"), cx);
    }
    if cx.skip.ok("edge") {
        for (i, o) in cfg.edge.extra_origins.iter().enumerate() {
            check_origin(o, &root().key("edge").key("extra_origins").index(i), cx);
        }
        if !cfg.edge.api_base.is_empty() {
            check_origin(&cfg.edge.api_base, &root().key("edge").key("api_base"), cx);
        }
    }
    if cx.skip.ok("contact") {
        check_email(&cfg.contact.email, &root().key("contact").key("email"), cx);
        check_phone(&cfg.contact.phone, &root().key("contact").key("phone"), cx);
    }
    if cx.skip.ok("leads") {
        if let Some(v) = &cfg.leads.email {
            check_email(v, &root().key("leads").key("email"), cx);
        }
        if let Some(url) = &cfg.leads.webhook_url {
            let path = root().key("leads").key("webhook_url");
            let not_https = "the lead webhook must be an https:// URL";
            if !check_https(url, &path, not_https, cx) {
                if let Some(p) = cx.out.last_mut().filter(|p| p.message == not_https) {
                    p.hint =
                        Some("leads carry personal details; they only travel encrypted".into());
                }
            }
        }
    }
    if cx.skip.ok("gated_routes") {
        check_gated_routes(&cfg.gated_routes, cx);
    }
}

fn check_gated_routes(routes: &[String], cx: &mut Ctx) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, route) in routes.iter().enumerate() {
        let path = root().key("gated_routes").index(i);
        if !route.starts_with('/') || route.starts_with("//") || route.contains(char::is_whitespace)
        {
            cx.err(&path, format!("`{route}` is not a site path")).hint = Some(
                "gated routes are paths starting with /, e.g. /finance or /cars/{slug}/checkout"
                    .into(),
            );
        } else if seen.contains(&route.as_str()) {
            cx.err(&path, format!("`{route}` is listed twice"));
        }
        seen.push(route);
    }
}

pub(super) fn check_email(v: &str, path: &KeyPath, cx: &mut Ctx) {
    if !contact::is_valid_email(v) {
        cx.err(path, format!("`{v}` is not an e-mail address"));
    }
}

pub(super) fn check_phone(phone: &str, path: &KeyPath, cx: &mut Ctx) {
    // The lead forms' own parser (rules::contact), plus the 13/1300/1800
    // numbers a dealer may publish but a shopper never types as their own.
    let ok = contact::parse_au_phone(phone).is_some() || contact::is_au_service_number(phone);
    if !ok {
        cx.err(path, format!("`{phone}` is not an Australian phone number"))
            .expected = Some("e.g. (07) 3555 0100, 0412 345 678, 1300 555 010 or 13 22 33".into());
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    #[test]
    fn the_lead_webhook_must_be_https() {
        let p = problem_at(
            "leads: { webhook_url: \"http://crm.example.com.au/leads\" }\n",
            "leads.webhook_url",
        );
        assert_eq!(p.message, "the lead webhook must be an https:// URL");
        assert!(p.hint.unwrap().contains("encrypted"));
        assert_eq!(p.span.line, 1);
        let p = problem_at(
            "leads: { webhook_url: \"https://crm example.com.au/leads\" }\n",
            "leads.webhook_url",
        );
        assert!(p.message.contains("contains a space"), "{}", p.message);
        accepted("leads: { webhook_url: \"https://crm.example.com.au/leads?dealer=7\" }\n");
    }

    #[test]
    fn lead_and_contact_emails_are_checked() {
        let p = problem_at("leads: { email: leads-at-example }\n", "leads.email");
        assert_eq!(p.message, "`leads-at-example` is not an e-mail address");
        let p = problem_at(
            "contact: { phone: \"555\", email: sales@test.com.au }\n",
            "contact.phone",
        );
        assert!(p.expected.unwrap().contains("1300"));
        accepted("contact: { phone: 1300 555 010, email: sales@test.com.au }\n");
    }

    #[test]
    fn gated_routes_are_site_paths_listed_once() {
        let over = "gated_routes: [/my-garage, finance, //evil.example, /my-garage, \"/a b\"]\n";
        let keys: Vec<String> = problems(over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "gated_routes[1]",
                "gated_routes[2]",
                "gated_routes[3]",
                "gated_routes[4]"
            ]
        );
        let p = problem_at(over, "gated_routes[1]");
        assert_eq!(p.message, "`finance` is not a site path");
        assert!(p.hint.unwrap().contains("/cars/{slug}/checkout"));
        assert_eq!(
            problem_at(over, "gated_routes[3]").message,
            "`/my-garage` is listed twice"
        );
        accepted("gated_routes: [/my-garage, \"/cars/{slug}/checkout\", /finance]\n");
    }

    #[test]
    fn site_address_and_api_origins_are_origins() {
        let p = problem_at("site_url: https://www.test.com.au/\n", "site_url");
        assert!(p.message.contains("ends with a slash"), "{}", p.message);
        assert_eq!(p.hint.as_deref(), Some("write `https://www.test.com.au`"));
        let p = problem_at(
            "edge: { extra_origins: [\"https://staging.test.com.au/shop\"] }\n",
            "edge.extra_origins[0]",
        );
        assert!(p.message.contains("not a site address"), "{}", p.message);
        let p = problem_at(
            "edge: { api_base: \"ftp://api.test.com.au\" }\n",
            "edge.api_base",
        );
        assert!(p.message.contains("not a site address"), "{}", p.message);
        accepted("edge: { api_base: \"https://api.dealergen.com.au\", extra_origins: [\"http://localhost:4321\"] }\n");
    }
}
