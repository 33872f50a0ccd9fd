//! Links on every page: the menu, the footer, the home hero, the
//! sell-your-car banner, service booking, reviews and social profiles.

use crate::model::{DealerConfig, FooterGroup, NavItem};

use super::urls::{check_href, check_https};
use super::{root, Ctx};

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    let nav: &[NavItem] = if cx.skip.ok("navigation") {
        &cfg.navigation
    } else {
        &[]
    };
    for (i, item) in nav.iter().enumerate() {
        let p = root().key("navigation").index(i);
        match &item.href {
            Some(h) => check_href(h, &p.clone().key("href"), cx),
            None if item.children.is_empty() && item.menu.is_none() => {
                cx.err(
                    &p,
                    format!(
                        "menu entry `{}` has neither `href`, `children` nor `menu`",
                        item.label
                    ),
                );
            }
            None => {}
        }
        for (j, c) in item.children.iter().enumerate() {
            check_href(&c.href, &p.clone().key("children").index(j).key("href"), cx);
        }
    }
    let groups: &[FooterGroup] = if cx.skip.ok("footer") {
        &cfg.footer.groups
    } else {
        &[]
    };
    for (i, g) in groups.iter().enumerate() {
        for (j, l) in g.links.iter().enumerate() {
            let path = root()
                .key("footer")
                .key("groups")
                .index(i)
                .key("links")
                .index(j)
                .key("href");
            check_href(&l.href, &path, cx);
        }
    }
    if cx.skip.ok("home") {
        check_href(&cfg.home.cta_href, &root().key("home").key("cta_href"), cx);
    }
    if cx.skip.ok("sell_your_car") {
        check_href(
            &cfg.sell_your_car.href,
            &root().key("sell_your_car").key("href"),
            cx,
        );
    }
    let external = [
        ("service", "booking_url", cfg.service.booking_url.as_ref()),
        ("reviews", "review_url", cfg.reviews.review_url.as_ref()),
        ("social", "facebook_url", cfg.social.facebook_url.as_ref()),
        ("social", "instagram_url", cfg.social.instagram_url.as_ref()),
        ("social", "youtube_url", cfg.social.youtube_url.as_ref()),
        ("social", "linkedin_url", cfg.social.linkedin_url.as_ref()),
    ];
    for (section, key, url) in external {
        if let Some(url) = url.filter(|_| cx.skip.ok(section)) {
            check_https(
                url,
                &root().key(section).key(key),
                &format!("`{url}` is not an https:// link"),
                cx,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    #[test]
    fn menu_entries_link_somewhere() {
        let over = "navigation:\n  - { label: Stock, href: search }\n  - { label: About }\n  - { label: More, children: [{ label: Team, href: /team }, { label: Old, href: \"http://old.example.com\" }] }\n";
        let keys: Vec<String> = problems(over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "navigation[0].href",
                "navigation[1]",
                "navigation[2].children[1].href"
            ]
        );
        assert!(problem_at(over, "navigation[1]")
            .message
            .contains("neither `href`, `children` nor `menu`"));
        accepted("navigation:\n  - { label: Stock, href: /search }\n  - { label: More, children: [{ label: Team, href: /team }] }\n");
    }

    #[test]
    fn footer_and_banner_links_are_checked() {
        problem_at(
            "footer: { groups: [{ title: Company, links: [{ label: Jobs, href: jobs.html }] }] }\n",
            "footer.groups[0].links[0].href",
        );
        problem_at(
            "sell_your_car: { href: \"sell your car\" }\n",
            "sell_your_car.href",
        );
        accepted("footer: { groups: [{ title: Company, links: [{ label: Jobs, href: \"https://jobs.example.com.au\" }] }] }\n");
    }

    #[test]
    fn external_profiles_are_https() {
        for (section, key) in [
            ("social", "facebook_url"),
            ("social", "linkedin_url"),
            ("reviews", "review_url"),
            ("service", "booking_url"),
        ] {
            let over = format!("{section}: {{ {key}: \"http://example.com/x\" }}\n");
            let p = problem_at(&over, &format!("{section}.{key}"));
            assert_eq!(p.message, "`http://example.com/x` is not an https:// link");
            accepted(&format!(
                "{section}: {{ {key}: \"https://example.com/x\" }}\n"
            ));
        }
    }
}
