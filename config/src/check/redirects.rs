//! The dealer's `redirects` (the old site's addresses) as the CDN will
//! read them (crate::redirect_rules): each a site path to a site path or
//! an https URL, none that loops or hands on to another, none over the
//! CDN's limits. Whether a target is a page of the site, and whether a
//! `from` shadows one, is known once the pages are: `dealergen check`
//! (planning the pages from the dealer file and its stock) and the build
//! check those (generator/src/publish/redirects.rs `dealer_redirects`),
//! with the same lines and keys.

use crate::model::DealerRedirect;
use crate::redirect_rules::{
    is_dynamic, placeholders, query_from, target_path, RuleSet, MAX_DYNAMIC, MAX_LINE, MAX_QUERY,
    MAX_STATIC,
};

use super::urls::check_https;
use super::{root, Ctx};

/// Where the platform's own pages and rules live: a dealer redirect there
/// would take over a car page, an asset or the edge's API.
const RESERVED: [&str; 4] = ["/api/", "/_astro/", "/cars/", "/_"];

pub(super) fn check(redirects: &[DealerRedirect], cx: &mut Ctx) {
    let at = |i: usize, key: &str| root().key("redirects").index(i).key(key);
    let mut fine = vec![true; redirects.len()];
    for (i, r) in redirects.iter().enumerate() {
        let ok_from = check_from(&r.from, i, cx);
        let ok_to = check_to(r, i, cx);
        if ![301, 302].contains(&r.status) {
            cx.err(
                &at(i, "status"),
                format!("status {} is neither 301 nor 302", r.status),
            )
            .hint =
                Some("301: moved for good (search engines move the ranking); 302: for now".into());
        }
        if r.from.len() + r.to.len() + 5 > MAX_LINE {
            cx.err(
                &at(i, "to"),
                format!("the rule is longer than the CDN's {MAX_LINE} characters a line"),
            );
        }
        fine[i] = ok_from && ok_to;
    }
    // The rules among themselves, as the CDN holds them (a query-string
    // rule is the site worker's: no line of `_redirects`, but its target
    // may still hand on to one).
    let text: String = redirects
        .iter()
        .map(|r| {
            if r.from.contains('?') {
                "# the site worker's\n".to_string()
            } else {
                format!("{} {} {}\n", r.from, r.to, r.status)
            }
        })
        .collect();
    let set = RuleSet::parse(&text);
    for (i, r) in redirects.iter().enumerate() {
        if let Some(j) = redirects[..i].iter().position(|o| o.from == r.from) {
            cx.err(
                &at(i, "from"),
                format!("`{}` is redirected twice (also redirects[{j}])", r.from),
            )
            .hint = Some("the CDN uses the first rule only: keep one".into());
            continue;
        }
        if !fine[i] || r.to.starts_with("https://") {
            continue;
        }
        let path = target_path(&r.to);
        let Some((next, _)) = set.find(path) else {
            continue;
        };
        let j = next.line - 1;
        if j == i {
            cx.err(
                &at(i, "to"),
                format!("`{}` redirects to itself: a loop", r.from),
            );
        } else if leads_back(&set, path, &r.from) {
            cx.err(
                &at(i, "to"),
                format!(
                    "`{}` and redirects[{j}] send a shopper round in a loop",
                    r.from
                ),
            )
            .hint = Some("each old address should go straight to a page".into());
        } else {
            cx.err(
                &at(i, "to"),
                format!("`{}` is a chain: `{path}` is itself redirected (redirects[{j}], to `{}`)", r.from, next.to),
            )
            .hint = Some(format!("point it at `{}` directly: every hop costs the shopper a round trip and search engines some of the ranking", next.to));
        }
    }
    let queries = redirects.iter().filter(|r| r.from.contains('?')).count();
    let statics = redirects
        .iter()
        .filter(|r| !r.from.contains('?') && !is_dynamic(&r.from))
        .count();
    let dynamics = redirects.len() - statics - queries;
    if queries > MAX_QUERY {
        cx.err(&root().key("redirects"), format!("{queries} redirects of addresses with a query string: at most {MAX_QUERY} a site"))
            .hint = Some("each makes the site worker's script run first for its path: keep the ones the old site's analytics still show".into());
    }
    if statics > MAX_STATIC {
        cx.err(&root().key("redirects"), format!("{statics} redirects of single addresses: the CDN reads at most {MAX_STATIC} a site"))
            .hint = Some("drop the addresses nobody visits any more (the old site's analytics say which), or cover a folder with one `/folder/*` rule".into());
    }
    if dynamics > MAX_DYNAMIC {
        cx.err(&root().key("redirects"), format!("{dynamics} redirects with `*` or `:name`: the CDN reads at most {MAX_DYNAMIC} a site"))
            .hint = Some("merge rules of one folder into one `/folder/*` rule".into());
    }
}

/// `migration.accept_missing`: site paths, a `*` only at the end, each once.
pub(super) fn check_accept_missing(paths: &[String], cx: &mut Ctx) {
    for (i, p) in paths.iter().enumerate() {
        let at = root().key("migration").key("accept_missing").index(i);
        if !p.starts_with('/') || p.starts_with("//") || p.contains(char::is_whitespace) {
            cx.err(&at, format!("`{p}` is not a site path")).hint =
                Some("an old address as a path, e.g. /old-promo-2019 or /wp-content/*".into());
        } else if p.trim_end_matches('*').contains('*') {
            cx.err(&at, format!("`{p}` has a `*` that is not its end"));
        } else if paths[..i].contains(p) {
            cx.err(&at, format!("`{p}` is listed twice"));
        }
    }
}

/// Whether following the rules from `path` comes back to `from` (within
/// as many hops as there are rules).
fn leads_back(set: &RuleSet, path: &str, from: &str) -> bool {
    let mut at = path.to_string();
    for _ in 0..=(set.counts.0 + set.counts.1) {
        let Some((_, to)) = set.find(&at) else {
            return false;
        };
        if to.starts_with("https://") {
            return false;
        }
        let next = target_path(&to);
        if next == from {
            return true;
        }
        at = next.to_string();
    }
    true
}

fn check_from(full: &str, i: usize, cx: &mut Ctx) -> bool {
    let at = root().key("redirects").index(i).key("from");
    // A query string is the site worker's to match (redirect_rules::QueryRule):
    // its pairs are checked here, its path as any other.
    let (from, query_problem) = match full.split_once('?') {
        Some((path, _)) if !full.contains('#') => (path, query_from(full).and_then(Result::err)),
        _ => (full, None),
    };
    let problem = if let Some(p) = query_problem {
        Some(p)
    } else if !from.starts_with('/') || from.starts_with("//") {
        Some(format!("`{from}` is not a site path"))
    } else if from.contains(char::is_whitespace) {
        Some(format!(
            "`{from}` contains a space (write it as %20, as the old site's links had it)"
        ))
    } else if full.contains('#') {
        Some(format!("`{full}` has a #fragment: browsers never send it"))
    } else if from == "/" || from.is_empty() {
        Some(if full.contains('?') {
            format!("`{full}`: the home page's own visits would all run the site worker's script")
        } else {
            "`/` is the home page".to_string()
        })
    } else if let Some(p) = RESERVED.iter().find(|p| from.starts_with(**p)) {
        Some(format!(
            "`{from}` is under `{p}`, where the platform's own pages and files are"
        ))
    } else if from.matches('*').count() > 1 || (from.contains('*') && !from.ends_with('*')) {
        Some(format!("`{from}` has a `*` that is not its end"))
    } else {
        None
    };
    match problem {
        Some(message) => {
            let hint = if full.contains('?') {
                "a plain path and name=value pairs, e.g. /used-cars?make=toyota (the site worker matches the pairs; other names may come too)"
            } else {
                "an old address is a path like /diamond-advantage or /blog/*, as the old site's sitemap lists it"
            };
            cx.err(&at, message).hint = Some(hint.into());
            false
        }
        None => true,
    }
}

fn check_to(r: &DealerRedirect, i: usize, cx: &mut Ctx) -> bool {
    let at = root().key("redirects").index(i).key("to");
    if r.to.starts_with("https://") || r.to.starts_with("http://") {
        return check_https(
            &r.to,
            &at,
            "a redirect leaves the site only for an https:// address",
            cx,
        );
    }
    if !r.to.starts_with('/') || r.to.starts_with("//") || r.to.contains(char::is_whitespace) {
        cx.err(
            &at,
            format!("`{}` is neither a site path nor an https:// address", r.to),
        )
        .expected = Some("a page of this site such as /about-us/, or https://…".into());
        return false;
    }
    let known = placeholders(&r.from);
    for name in placeholders(&r.to) {
        let defined = if name == "splat" {
            r.from.contains('*')
        } else {
            known.contains(&name)
        };
        if !defined {
            cx.err(&at, format!("`:{name}` is not in `from` (`{}`)", r.from)).hint = Some(
                "`:splat` stands for what the `from`'s `*` matched, `:name` for its `:name` segment".into(),
            );
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at};

    #[test]
    fn old_addresses_go_to_site_paths_or_https_addresses() {
        accepted(
            "redirects:\n  - { from: /diamond-advantage, to: /about-us/ }\n  - { from: /news/*, to: \"/blog/:splat\", status: 302 }\n  - { from: /team/:person, to: \"https://group.example.com.au/people/:person\" }\n",
        );
        let p = problem_at(
            "redirects:\n  - { from: diamond, to: /about-us/ }\n",
            "redirects[0].from",
        );
        assert_eq!(p.message, "`diamond` is not a site path");
        assert_eq!(p.span.line, 2);
        let p = problem_at(
            "redirects:\n  - { from: /a, to: \"http://x.example/\" }\n",
            "redirects[0].to",
        );
        assert_eq!(
            p.message,
            "a redirect leaves the site only for an https:// address"
        );
        let p = problem_at(
            "redirects:\n  - { from: /a, to: about-us }\n",
            "redirects[0].to",
        );
        assert!(p.message.contains("neither a site path"), "{}", p.message);
        // A query string: a plain path with name=value pairs, answered by the site worker.
        accepted("redirects:\n  - { from: \"/used-cars?make=toyota&body=suv\", to: /search/ }\n  - { from: \"/print?car_id=1\", to: /search/ }\n");
        for (from, says) in [
            ("/news/*?page=2", "after a pattern"),
            ("/used-cars?make", "not a name=value pair"),
            ("/?page=about", "home page"),
            ("/cars/x?y=1", "under `/cars/`"),
        ] {
            let p = problem_at(
                &format!("redirects:\n  - {{ from: \"{from}\", to: /search/ }}\n"),
                "redirects[0].from",
            );
            assert!(p.message.contains(says), "{from}: {}", p.message);
        }
        // Its target is checked as any other: not a chain.
        let p = problem_at(
            "redirects:\n  - { from: \"/used-cars?make=kia\", to: /kia }\n  - { from: /kia, to: /search/kia/ }\n",
            "redirects[0].to",
        );
        assert!(p.message.contains("is a chain"), "{}", p.message);
        let p = problem_at(
            "redirects:\n  - { from: /cars/old-one, to: /search/ }\n",
            "redirects[0].from",
        );
        assert!(p.message.contains("under `/cars/`"), "{}", p.message);
        let p = problem_at(
            "redirects:\n  - { from: /a, to: \"/b/:splat\" }\n",
            "redirects[0].to",
        );
        assert!(
            p.message.starts_with("`:splat` is not in `from`"),
            "{}",
            p.message
        );
        let p = problem_at(
            "redirects:\n  - { from: /a, to: /b, status: 307 }\n",
            "redirects[0].status",
        );
        assert!(p.message.contains("307"), "{}", p.message);
    }

    #[test]
    fn loops_chains_and_repeats_are_refused() {
        let p = problem_at("redirects:\n  - { from: /a, to: /a }\n", "redirects[0].to");
        assert_eq!(p.message, "`/a` redirects to itself: a loop");
        let two = "redirects:\n  - { from: /a, to: /b }\n  - { from: /b, to: /a }\n";
        let p = problem_at(two, "redirects[0].to");
        assert_eq!(
            p.message,
            "`/a` and redirects[1] send a shopper round in a loop"
        );
        let chain = "redirects:\n  - { from: /buying, to: /old-finance }\n  - { from: /old-finance, to: /finance/ }\n";
        let p = problem_at(chain, "redirects[0].to");
        assert_eq!(p.message, "`/buying` is a chain: `/old-finance` is itself redirected (redirects[1], to `/finance/`)");
        assert!(p.hint.unwrap().contains("point it at `/finance/` directly"));
        // A splat rule catches a target too; the query string is not the path.
        let p = problem_at("redirects:\n  - { from: /a, to: \"/news/x?y=1\" }\n  - { from: /news/*, to: /blog/ }\n", "redirects[0].to");
        assert!(p.message.contains("is a chain"), "{}", p.message);
        let p = problem_at(
            "redirects:\n  - { from: /a, to: /b }\n  - { from: /a, to: /c }\n",
            "redirects[1].from",
        );
        assert_eq!(p.message, "`/a` is redirected twice (also redirects[0])");
    }

    #[test]
    fn accepted_missing_addresses_are_paths() {
        accepted("migration: { accept_missing: [/old-promo, /wp-content/*] }\n");
        let p = problem_at(
            "migration: { accept_missing: [old-promo] }\n",
            "migration.accept_missing[0]",
        );
        assert_eq!(p.message, "`old-promo` is not a site path");
        let p = problem_at(
            "migration: { accept_missing: [/a/*/b] }\n",
            "migration.accept_missing[0]",
        );
        assert!(p.message.contains("not its end"));
    }

    #[test]
    fn the_cdns_limits_count_the_dealers_rules() {
        let many: String = (0..101)
            .map(|i| format!("  - {{ from: \"/f{i}/*\", to: /x/ }}\n"))
            .collect();
        let p = problem_at(&format!("redirects:\n{many}"), "redirects");
        assert!(
            p.message.starts_with("101 redirects with `*`"),
            "{}",
            p.message
        );
    }
}
