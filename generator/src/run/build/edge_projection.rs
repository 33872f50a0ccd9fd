//! The edge projection: what the worker knows of a dealer (its config, the
//! visible cars' facts) and the KV entries a deployment writes.

use dealer_rules::edge_config::{
    EdgeAnalytics, EdgeCaptcha, EdgeCar, EdgeCheckout, EdgeConfig, EdgeFeatures, EdgeFinance,
    EdgeForms, EdgeLocation, EdgePayment, EdgeQuoteProvider, EdgeTradeIn, EdgeValuationService,
    LeadRouting, PaymentProvider,
};

/// The facts the edge worker needs (rules/src/edge_config.rs).
pub fn edge_config(slug: &str, cfg: &dealer_config::DealerConfig) -> EdgeConfig {
    let origins = std::iter::once(&cfg.site_url)
        .chain(&cfg.edge.extra_origins)
        .map(|o| dealer_rules::edge_config::normalize_origin(o))
        .collect();
    EdgeConfig {
        dealer: slug.to_string(),
        name: cfg.name.clone(),
        origins,
        locations: cfg
            .locations
            .iter()
            .map(|l| EdgeLocation {
                id: l.id.clone(),
                name: l.name.clone(),
                phone: l.phone.clone(),
                lead_email: l.lead_email.clone(),
            })
            .collect(),
        leads: LeadRouting {
            email: cfg.leads.email.clone(),
            webhook_url: cfg.leads.webhook_url.clone(),
        },
        features: EdgeFeatures {
            watchlist: cfg.features.watchlist,
            phone_reveal: cfg.features.phone_reveal,
            trade_in: cfg.features.trade_in,
        },
        dealership_id: cfg.dealership_id,
        forms: EdgeForms {
            message_required: cfg.forms.message_required,
            terms_required: cfg.forms.terms_required,
            success_path: cfg.forms.success_path.clone(),
            opt_in_text: cfg.forms.opt_in_text.clone(),
            // The check makes captcha-on-without-a-widget an error; the
            // filter only keeps a stray widget of a dealer with captcha off
            // from switching the captcha on.
            captcha: cfg
                .forms
                .turnstile
                .as_ref()
                .filter(|_| cfg.features.captcha)
                .map(|t| EdgeCaptcha {
                    secret_name: t.secret_name.clone(),
                }),
        },
        finance: EdgeFinance {
            // Only the URL and the secret's NAME: the key itself is a worker
            // secret and never appears in generated output.
            quote_provider: cfg
                .finance
                .quote_provider
                .as_ref()
                .map(|q| EdgeQuoteProvider {
                    url: q.url.clone(),
                    secret_name: q.secret_name.clone(),
                }),
        },
        analytics: EdgeAnalytics {
            enabled: cfg.edge.analytics_sink,
        },
        rate_limits: cfg.edge.rate_limits.resolve(),
        checkout: EdgeCheckout {
            enabled: cfg.features.checkout.enabled,
            path: match cfg.features.checkout.path {
                dealer_config::model::CheckoutPath::Checkout => "checkout".into(),
                dealer_config::model::CheckoutPath::BuyOnline => "buy-online".into(),
            },
            hold_hours: cfg.features.checkout.hold_hours,
            payment: cfg.features.checkout.payment.as_ref().map(|p| EdgePayment {
                provider: match p.provider {
                    dealer_config::model::PaymentProvider::Stripe => PaymentProvider::Stripe,
                },
                secret_name: p.secret_name.clone(),
                webhook_secret_name: p.webhook_secret_name.clone(),
            }),
            unpaid_holds: cfg.features.checkout.deposit == 0,
        },
        trade_in: EdgeTradeIn {
            valuation: cfg
                .trade_in
                .valuation
                .as_ref()
                .map(|v| EdgeValuationService {
                    url: v.url.clone(),
                    secret_name: v.secret_name.clone(),
                }),
            save_valuation: cfg.trade_in.save_valuation,
        },
        // As the worker compares them: normalised (the check refuses what is not one word).
        popular_searches_deny: cfg
            .search
            .popular_searches_deny
            .iter()
            .filter_map(|w| dealer_rules::search_words::normalise(w))
            .filter(|w| !w.is_empty())
            .collect(),
    }
}

/// What the worker knows of each visible car: the facts a lead's vehicle
/// is filled from and whether it may be reserved, as the car's page shows
/// them.
pub fn edge_cars(
    cfg: &dealer_config::DealerConfig,
    cars: &[crate::pipeline::stock::present::Car],
) -> Vec<EdgeCar> {
    let base = cfg.site_url.trim_end_matches('/');
    cars.iter()
        .map(|c| EdgeCar {
            id: c.id.clone(),
            slug: c.slug.clone(),
            name: c.name.clone(),
            stock_number: c.stocknum.clone(),
            vin: c.vin.clone(),
            year: c.year,
            make: c.make.clone(),
            model: c.model.clone(),
            badge: c.badge.clone(),
            car_type: c.car_type.as_str().into(),
            status: c.status.as_str().into(),
            reserved: c.reserved,
            price: c.price,
            price_text: c.price_text.clone(),
            km: c.km,
            url: format!("{base}/cars/{}/", c.slug),
            location_id: c.location.id.clone(),
            checkout: c.checkout,
            deposit: cfg.features.checkout.deposit,
        })
        .collect()
}

/// The words of the visible stock the keyword search reads (the fields
/// its vocabulary is built from): a reported search counts towards the
/// dealer's popular searches only with these words
/// ([`dealer_rules::search_words`]).
pub fn edge_stock_words(cars: &[crate::pipeline::stock::present::Car]) -> String {
    dealer_rules::search_words::stock_words(cars.iter().flat_map(|c| {
        [
            Some(c.name.as_str()),
            Some(c.make.as_str()),
            Some(c.model.as_str()),
            c.badge.as_deref(),
            c.series.as_deref(),
            c.body.as_deref(),
            c.fuel.as_deref(),
            c.transmission.as_deref(),
            c.colour.as_deref(),
            c.drive.as_deref(),
            Some(c.car_type.as_str()),
        ]
        .into_iter()
        .flatten()
    }))
}

/// Every KV entry the worker reads for this dealer, in the format of
/// `wrangler kv bulk put` (`[{"key", "value"}]`): the config, one origin
/// key per allowed origin, the visible cars' slugs (the worker counts
/// views of these cars only), the stock's search words, and per visible
/// car its facts (by slug) and its id's slug. One key per car rather than one document: a lead reads
/// the one car it names (a few hundred bytes) however big the stock.
pub fn edge_kv(
    edge: &EdgeConfig,
    cars: &[EdgeCar],
    stock_words: &str,
) -> anyhow::Result<serde_json::Value> {
    use dealer_rules::edge_config::{
        car_id_key, car_key, car_list, cars_key, dealer_key, origin_key,
    };
    let mut entries = vec![serde_json::json!({
        "key": dealer_key(&edge.dealer),
        "value": serde_json::to_string(edge)?,
    })];
    for origin in &edge.origins {
        entries.push(serde_json::json!({ "key": origin_key(origin), "value": edge.dealer }));
    }
    entries.push(serde_json::json!({
        "key": cars_key(&edge.dealer),
        "value": car_list(cars.iter().map(|c| c.slug.as_str())),
    }));
    entries.push(serde_json::json!({
        "key": dealer_rules::search_words::search_words_key(&edge.dealer),
        "value": stock_words,
    }));
    for car in cars {
        entries.push(serde_json::json!({
            "key": car_key(&edge.dealer, &car.slug),
            "value": serde_json::to_string(car)?,
        }));
        entries.push(serde_json::json!({
            "key": car_id_key(&edge.dealer, &car.id),
            "value": car.slug,
        }));
    }
    Ok(serde_json::Value::Array(entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fact the worker reads about a dealer comes from the YAML model.
    #[test]
    fn edge_config_carries_the_worker_facts() {
        let cfg: dealer_config::DealerConfig = serde_json::from_value(serde_json::json!({
            "template": "t", "name": "Demo", "site_url": "https://Demo.example", "dealership_id": 77,
            "edge": {"extra_origins": ["https://staging.demo.example"], "analytics_sink": true,
                     "rate_limits": {"leads": {"per_client": 50}, "code_cooldown_secs": 30}},
            "forms": {"message_required": false},
            "finance": {"calculator": {"default_interest_rate": 8.5, "establishment_fee": 395.0},
                        "quote_provider": {"url": "https://quotes.example/q", "secret_name": "YOUX_API_KEY"}},
            "locations": [], "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "x.json"},
        }))
        .expect("minimal dealer config");
        let edge = edge_config("demo", &cfg);
        assert_eq!(
            edge.origins,
            ["https://demo.example", "https://staging.demo.example"]
        );
        assert_eq!(edge.dealership_id, Some(77));
        assert!(!edge.forms.message_required);
        assert!(edge.analytics.enabled);
        let provider = edge.finance.quote_provider.unwrap();
        assert_eq!(
            (provider.url.as_str(), provider.secret_name.as_str()),
            ("https://quotes.example/q", "YOUX_API_KEY")
        );
        let defaults = dealer_rules::edge_config::EdgeRateLimits::default();
        assert_eq!(edge.rate_limits.leads.per_client, 50);
        assert_eq!(edge.rate_limits.leads.per_dealer, defaults.leads.per_dealer);
        assert_eq!(edge.rate_limits.views, defaults.views);
        assert_eq!(edge.rate_limits.code_cooldown_secs, 30);
        // The JSON written next to the site must load in the worker.
        let json = serde_json::to_string(&edge_config("demo", &cfg)).unwrap();
        let back: EdgeConfig = serde_json::from_str(&json).unwrap();
        assert_eq!(back.dealer, "demo");
        assert_eq!(back.rate_limits, edge_config("demo", &cfg).rate_limits);
    }

    /// The KV entries: the config, every origin, the visible cars' slugs,
    /// and per car its facts and its id's slug.
    #[test]
    fn edge_kv_lists_every_key_the_worker_reads() {
        let cfg: dealer_config::DealerConfig = serde_json::from_value(serde_json::json!({
            "template": "t", "name": "Demo", "site_url": "https://demo.example",
            "edge": {"extra_origins": ["https://staging.demo.example"]},
            "locations": [], "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "x.json"},
        }))
        .expect("minimal dealer config");
        let edge = edge_config("demo", &cfg);
        let stock =
            crate::pipeline::site_data::test_support::cars(&[("Kia", "new"), ("MG", "used")]);
        let cars = edge_cars(&cfg, &stock);
        let words = edge_stock_words(&stock);
        let kv = edge_kv(&edge, &cars, &words).unwrap();
        let keys: Vec<&str> = kv
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["key"].as_str().unwrap())
            .collect();
        assert_eq!(
            keys,
            [
                "dealer:demo",
                "origin:https://demo.example",
                "origin:https://staging.demo.example",
                "cars:demo",
                "search-words:demo",
                "car:demo:c-0",
                "car-id:demo:0",
                "car:demo:c-1",
                "car-id:demo:1",
            ]
        );
        assert_eq!(kv[3]["value"], "c-0\nc-1");
        // The stock's words, for the edge's popular-search check.
        let list = kv[4]["value"].as_str().unwrap();
        assert_eq!(list, words);
        for word in ["kia", "mg", "new", "used"] {
            assert!(list.split('\n').any(|w| w == word), "{word} in {list:?}");
        }
        assert_eq!(kv[1]["value"], "demo");
        assert_eq!(kv[6]["value"], "c-0", "id → slug");
        let config: EdgeConfig = serde_json::from_str(kv[0]["value"].as_str().unwrap()).unwrap();
        assert_eq!(config, edge);
        let car: EdgeCar = serde_json::from_str(kv[7]["value"].as_str().unwrap()).unwrap();
        assert_eq!(car, cars[1]);
        assert_eq!(
            (car.make.as_str(), car.car_type.as_str(), car.url.as_str()),
            ("MG", "used", "https://demo.example/cars/c-1/")
        );
    }

    /// Per car: the facts a lead's vehicle is filled from, and whether the
    /// dealer's checkout rules let it be reserved.
    #[test]
    fn edge_cars_carry_the_page_facts_and_checkout_rules() {
        use crate::pipeline::stock::{feed, present};
        let records = serde_json::json!([
            {"id": 7, "slug": "a-7", "make": "Kia", "model": "Rio", "badge": "S", "year": 2022, "car_type": "used",
             "status": "in_stock", "price": 18990, "stocknum": "K7", "vin": "KNADN512AN6000007", "km": 12000.4,
             "location_id": "a"},
            {"id": 8, "slug": "b-8", "make": "MG", "model": "ZS", "year": 2024, "car_type": "new", "status": "in_stock"},
            {"id": 9, "slug": "c-9", "make": "Kia", "model": "EV6", "year": 2024, "car_type": "used", "status": "in_stock",
             "reserved": true},
            {"id": 10, "slug": "d-10", "make": "Kia", "model": "EV6", "year": 2024, "car_type": "used", "status": "sold",
             "sold_date_timestamp": 1}
        ]);
        let feed = feed::parse(&records.to_string(), "f.json").unwrap();
        let cfg = crate::pipeline::site_data::test_support::config_with(serde_json::json!({
            "features": {"checkout": {"enabled": true, "deposit": 500, "car_types": ["used"], "makes": ["KIA"]}}
        }));
        let cars: Vec<present::Car> = feed
            .cars
            .iter()
            .map(|c| present::present(c, &cfg, chrono::Utc::now()))
            .collect();
        let edge = edge_cars(&cfg, &cars);
        let rio = &edge[0];
        assert_eq!(
            (
                rio.id.as_str(),
                rio.stock_number.as_deref(),
                rio.vin.as_deref(),
                rio.year,
                rio.km
            ),
            ("7", Some("K7"), Some("KNADN512AN6000007"), 2022, 12000)
        );
        assert_eq!((rio.price, rio.price_text.as_str()), (18990.0, "$18,990"));
        assert_eq!((rio.location_id.as_str(), rio.deposit), ("a", 500));
        assert_eq!(rio.url, "https://www.demo.com.au/cars/a-7/");
        let reservable: Vec<bool> = edge.iter().map(|c| c.checkout).collect();
        // Used Kia in stock: yes; a new MG: type and make excluded; a
        // reserved car; a sold car.
        assert_eq!(reservable, [true, false, false, false]);
        assert_eq!(
            cars.iter().map(|c| c.checkout).collect::<Vec<_>>(),
            reservable,
            "the page shows the same rule"
        );
    }

    /// The dealer's denied words reach the worker as it compares them, and
    /// the consent wording as the site shows it.
    #[test]
    fn edge_config_carries_the_denied_words_and_the_opt_in_wording() {
        let cfg = crate::pipeline::site_data::test_support::config_with(serde_json::json!({
            "search": {"popular_searches_deny": ["Lemon", "RIVALMOTORS"]},
            "forms": {"opt_in_text": "Send me Demo offers by SMS."}
        }));
        let edge = edge_config("demo", &cfg);
        assert_eq!(edge.popular_searches_deny, ["lemon", "rivalmotors"]);
        assert_eq!(edge.forms.opt_in_text, "Send me Demo offers by SMS.");
    }

    /// The forms, checkout and trade-in settings reach the worker.
    #[test]
    fn edge_config_carries_the_form_settings() {
        let cfg = crate::pipeline::site_data::test_support::config_with(serde_json::json!({
            "features": {"captcha": true, "trade_in": false,
                "checkout": {"enabled": true, "path": "buy-online", "hold_hours": 72,
                    "payment": {"provider": "stripe", "secret_name": "SK_DEMO", "webhook_secret_name": "WH_DEMO"}}},
            "forms": {"terms_required": false, "success_path": "/thank-you",
                "turnstile": {"site_key": "0x4AAAAAAAB1cD2eF3gH4iJ5", "secret_name": "TS_DEMO"}},
            "trade_in": {"valuation": {"url": "https://valuations.example/v1", "secret_name": "VAL_DEMO"}, "save_valuation": true}
        }));
        let edge = edge_config("demo", &cfg);
        assert!(!edge.forms.terms_required && !edge.features.trade_in);
        assert_eq!(edge.forms.success_path, "/thank-you");
        assert_eq!(edge.forms.captcha.as_ref().unwrap().secret_name, "TS_DEMO");
        assert!(edge.checkout.enabled);
        assert_eq!(
            (edge.checkout.path.as_str(), edge.checkout.hold_hours),
            ("buy-online", 72)
        );
        let pay = edge.checkout.payment.as_ref().unwrap();
        assert_eq!(
            (pay.secret_name.as_str(), pay.webhook_secret_name.as_str()),
            ("SK_DEMO", "WH_DEMO")
        );
        assert_eq!(
            edge.trade_in.valuation.as_ref().unwrap().url,
            "https://valuations.example/v1"
        );
        assert!(edge.trade_in.save_valuation);
        let json = serde_json::to_string(&edge).unwrap();
        assert!(
            !json.contains("0x4AAAAAAAB1cD2eF3gH4iJ5"),
            "the worker needs no site key"
        );

        // Captcha off: a widget left in the file does not switch it on.
        let off = crate::pipeline::site_data::test_support::config_with(serde_json::json!({
            "forms": {"turnstile": {"site_key": "0x4AAAAAAAB1cD2eF3gH4iJ5", "secret_name": "TS_DEMO"}}
        }));
        assert_eq!(edge_config("demo", &off).forms.captcha, None);
        let defaults = edge_config("demo", &crate::pipeline::site_data::test_support::config());
        assert!(defaults.forms.terms_required && defaults.features.trade_in);
        assert_eq!(defaults.forms.success_path, "/success");
        assert_eq!(defaults.checkout.hold_hours, 48);
        // A deposit: paid holds, no sign-in for them. None: the mobile is
        // verified first, so the worker opens sign-in for it.
        assert!(!edge.checkout.unpaid_holds);
        let unpaid = crate::pipeline::site_data::test_support::config_with(serde_json::json!({
            "features": {"watchlist": false, "checkout": {"enabled": true, "deposit": 0}}
        }));
        let unpaid = edge_config("demo", &unpaid);
        assert!(unpaid.checkout.unpaid_holds && unpaid.sign_in());
    }
}
