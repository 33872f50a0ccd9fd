//! The models list and the New Vehicles mega-menu: one page per model
//! (unique slugs), a make for every model of a multi-brand dealer, images
//! and links that work, and a mega-menu only with models to show.

use std::collections::HashMap;

use crate::model::{DealerConfig, NavMenu};
use crate::slug::{kebab, model_slug};

use super::urls::{check_href, check_image};
use super::{root, Ctx};

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    if cx.skip.ok("models") {
        let mut slugs: HashMap<String, usize> = HashMap::new();
        for (i, m) in cfg.models.iter().enumerate() {
            let path = root().key("models").index(i);
            let slug = model_slug(m);
            if slug.is_empty() || kebab(&slug) != slug {
                cx.err(
                    &path
                        .clone()
                        .key(if m.slug.is_some() { "slug" } else { "name" }),
                    format!("`{slug}` cannot be the address of the model's page"),
                )
                .hint = Some(
                    "set `slug` to lower-case words joined by dashes, e.g. rav4-hybrid".into(),
                );
            } else if let Some(first) = slugs.insert(slug.clone(), i) {
                cx.err(
                    &path.clone().key("name"),
                    format!("model page /models/{slug}/ would be made twice"),
                )
                .hint = Some(format!(
                    "models[{first}] gets the same slug; set `slug` on one of them"
                ));
            }
            if m.manufacturer.is_none() && cfg.manufacturer.is_none() {
                cx.err(
                    &path.clone().key("manufacturer"),
                    format!("model `{}` needs its make", m.name),
                )
                .hint = Some(
                    "a dealer of several makes names the make of each model, e.g. manufacturer: Kia"
                        .into(),
                );
            }
            check_image(&m.image, &path.clone().key("image"), cx);
            if let Some(u) = &m.accessories_url {
                check_href(u, &path.clone().key("accessories_url"), cx);
            }
            if let Some(u) = &m.override_url {
                check_href(u, &path.clone().key("override_url"), cx);
            }
        }
    }
    if cx.skip.ok("model_menu") {
        for (i, l) in cfg.model_menu.mobile_links.iter().enumerate() {
            check_href(
                &l.href,
                &root()
                    .key("model_menu")
                    .key("mobile_links")
                    .index(i)
                    .key("href"),
                cx,
            );
        }
    }
    if cx.skip.ok("navigation") {
        for (i, item) in cfg.navigation.iter().enumerate() {
            let Some(menu) = item.menu else { continue };
            let path = root().key("navigation").index(i);
            if item.href.is_some() || !item.children.is_empty() {
                cx.err(
                    &path.clone().key("menu"),
                    format!(
                        "menu entry `{}` has `menu` and its own `href` or `children`",
                        item.label
                    ),
                )
                .hint = Some(
                    "the site builds this dropdown's links: remove `href` and `children`".into(),
                );
            }
            if menu == NavMenu::Models && cfg.models.is_empty() && cx.skip.ok("models") {
                cx.err(
                    &path.clone().key("menu"),
                    "the models menu needs a `models` list",
                )
                .hint = Some("list the dealer's models under `models:`".into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    fn model(name: &str, extra: &str) -> String {
        let image = if extra.contains("image:") {
            ""
        } else {
            ", image: /images/m.svg"
        };
        format!("  - {{ name: {name}, body: suvs-4wds{image}{extra} }}\n")
    }

    #[test]
    fn each_model_gets_its_own_page() {
        let over = format!(
            "manufacturer: Toyota\nmodels:\n{}{}",
            model("RAV4 Hybrid", ""),
            model("RAV4-Hybrid", "")
        );
        let p = problem_at(&over, "models[1].name");
        assert_eq!(
            p.message,
            "model page /models/rav4-hybrid/ would be made twice"
        );
        let p = problem_at(
            &format!(
                "manufacturer: Toyota\nmodels:\n{}",
                model("RAV4", ", slug: RAV 4")
            ),
            "models[0].slug",
        );
        assert!(p.hint.unwrap().contains("rav4-hybrid"));
        accepted(&format!(
            "manufacturer: Toyota\nmodels:\n{}{}",
            model("RAV4 Hybrid", ""),
            model("RAV4-Hybrid", ", slug: rav4-hybrid-2")
        ));
    }

    #[test]
    fn models_of_a_multi_brand_dealer_name_their_make() {
        let p = problem_at(
            &format!("models:\n{}", model("Sportage", "")),
            "models[0].manufacturer",
        );
        assert_eq!(p.message, "model `Sportage` needs its make");
        accepted(&format!(
            "models:\n{}",
            model("Sportage", ", manufacturer: Kia")
        ));
    }

    #[test]
    fn model_images_links_and_menus_are_checked() {
        let over = format!(
            "manufacturer: Toyota\nmodels:\n{}model_menu: {{ mobile_links: [{{ label: Quote, href: get-quote }}] }}\n",
            model("Camry", ", image: camry.png, override_url: \"http://toyota.example.com\", accessories_url: accessories")
        );
        let keys: Vec<String> = problems(&over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "models[0].image",
                "models[0].override_url",
                "models[0].accessories_url",
                "model_menu.mobile_links[0].href"
            ]
        );
    }

    #[test]
    fn the_models_menu_needs_models_and_no_links_of_its_own() {
        let p = problem_at(
            "navigation:\n  - { label: New Vehicles, menu: models }\n",
            "navigation[0].menu",
        );
        assert_eq!(p.message, "the models menu needs a `models` list");
        let p = problem_at(
            "navigation:\n  - { label: Pre-owned, menu: pre_owned, href: /search/ }\n",
            "navigation[0].menu",
        );
        assert!(p.message.contains("has `menu` and its own `href`"));
        accepted("navigation:\n  - { label: Pre-owned, menu: pre_owned }\n");
        accepted(&format!(
            "manufacturer: Toyota\nmodels:\n{}navigation:\n  - {{ label: New Vehicles, menu: models }}\n",
            model("Camry", "")
        ));
    }
}
