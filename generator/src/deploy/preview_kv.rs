//! What a preview puts in the previews' edge KV: the dealer's build entries
//! (`edge-kv.json`) under a dealer id of the preview's own
//! (`<slug>--<preview>`), so two pull requests changing one dealer do not
//! overwrite each other's config or cars, with the preview's address as
//! the only origin and no lead webhook or e-mail: a lead sent from a
//! preview stays in the previews' D1 and reaches nobody.

use anyhow::{bail, Context, Result};
use dealer_rules::edge_config::{dealer_key, origin_key};
use serde_json::Value;

use crate::run::release::KvEntry;

/// The dealer id the previews' edge knows a dealer's preview by.
pub fn dealer_id(slug: &str, preview: &str) -> String {
    format!("{slug}--{preview}")
}

/// The KV key listing every key a preview wrote (a JSON array), so another
/// push deletes the keys it no longer writes and `--remove` deletes them all.
pub fn keys_key(dealer_id: &str) -> String {
    format!("preview-keys:{dealer_id}")
}

/// The build's KV entries of dealer `slug` as the preview's (`id` from
/// [`dealer_id`], reached from `origin`), plus the [`keys_key`] entry.
pub fn entries(build: &[KvEntry], slug: &str, id: &str, origin: &str) -> Result<Vec<KvEntry>> {
    let mut out = Vec::with_capacity(build.len() + 2);
    let mut has_config = false;
    for KvEntry { key, value } in build {
        let (kind, rest) = key.split_once(':').unwrap_or((key, ""));
        let renamed = match kind {
            // The production origins lead to production's dealer, not here.
            "origin" => continue,
            "dealer" | "cars" | "search-words" if rest == slug => format!("{kind}:{id}"),
            "car" | "car-id" if rest.starts_with(&format!("{slug}:")) => {
                format!("{kind}:{id}{}", &rest[slug.len()..])
            }
            _ => bail!(
                "edge-kv.json of {slug} has the key `{key}`, which a preview does not know how to carry (dealergen writes dealer:, origin:, cars:, search-words:, car: and car-id: keys of the dealer)"
            ),
        };
        let value = if kind == "dealer" {
            has_config = true;
            sandboxed(value, id, origin).with_context(|| format!("edge-kv.json: `{key}`"))?
        } else {
            value.to_string()
        };
        out.push(KvEntry {
            key: renamed,
            value,
        });
    }
    if !has_config {
        bail!("edge-kv.json of {slug} has no `{}` entry", dealer_key(slug));
    }
    out.push(KvEntry {
        key: origin_key(origin),
        value: id.to_string(),
    });
    let mut keys: Vec<&str> = out.iter().map(|e| e.key.as_str()).collect();
    keys.sort_unstable();
    let list = serde_json::to_string(&keys)?;
    out.push(KvEntry {
        key: keys_key(id),
        value: list,
    });
    Ok(out)
}

/// A dealer's edge config as its preview's: named `id`, reached from
/// `origin` only, delivering leads nowhere.
fn sandboxed(config: &str, id: &str, origin: &str) -> Result<String> {
    let mut c: Value = serde_json::from_str(config).context("not the dealer's edge config")?;
    if !c.is_object() || !c["leads"].is_object() {
        bail!("not the dealer's edge config (no `leads`)");
    }
    c["dealer"] = id.into();
    c["origins"] = serde_json::json!([origin]);
    c["leads"]["webhook_url"] = Value::Null;
    c["leads"]["email"] = Value::Null;
    for l in c["locations"].as_array_mut().into_iter().flatten() {
        if l.is_object() {
            l["lead_email"] = Value::Null;
        }
    }
    Ok(c.to_string())
}

/// The keys a preview wrote, from its [`keys_key`] value.
pub fn written(list: &str) -> Result<Vec<String>> {
    serde_json::from_str(list).context("the preview's key list is not a JSON list of keys")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(key: &str, value: &str) -> KvEntry {
        KvEntry {
            key: key.into(),
            value: value.into(),
        }
    }

    fn build() -> Vec<KvEntry> {
        let config = serde_json::json!({
            "dealer": "tiny", "origins": ["https://tiny.example"],
            "locations": [{"id": "a", "lead_email": "a@tiny.example"}],
            "leads": {"email": "leads@tiny.example", "webhook_url": "https://crm.example/hook"}
        });
        vec![
            kv("dealer:tiny", &config.to_string()),
            kv("origin:https://tiny.example", "tiny"),
            kv("cars:tiny", "a-1\nb-2"),
            kv("search-words:tiny", "kia\nrio"),
            kv("car:tiny:a-1", "{\"id\":\"1\"}"),
            kv("car-id:tiny:1", "a-1"),
        ]
    }

    #[test]
    fn a_preview_has_its_own_dealer_id_origin_and_no_lead_delivery() {
        let id = dealer_id("tiny", "pr-7");
        assert_eq!(id, "tiny--pr-7");
        let origin = "https://pr-7-site-tiny.acct.workers.dev";
        let out = entries(&build(), "tiny", &id, origin).unwrap();
        let keys: Vec<&str> = out.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "dealer:tiny--pr-7",
                "cars:tiny--pr-7",
                "search-words:tiny--pr-7",
                "car:tiny--pr-7:a-1",
                "car-id:tiny--pr-7:1",
                "origin:https://pr-7-site-tiny.acct.workers.dev",
                "preview-keys:tiny--pr-7",
            ]
        );
        let config: Value = serde_json::from_str(&out[0].value).unwrap();
        assert_eq!(config["dealer"], "tiny--pr-7");
        assert_eq!(config["origins"], serde_json::json!([origin]));
        assert_eq!(config["leads"]["webhook_url"], Value::Null);
        assert_eq!(config["leads"]["email"], Value::Null);
        assert_eq!(config["locations"][0]["lead_email"], Value::Null);
        assert_eq!(out[1].value, "a-1\nb-2");
        assert_eq!(
            out[2].value, "kia\nrio",
            "the stock's search words, as built"
        );
        assert_eq!(out[5].value, "tiny--pr-7");
        let mut listed = written(&out[6].value).unwrap();
        listed.sort();
        let mut expected: Vec<String> = keys[..6].iter().map(|k| k.to_string()).collect();
        expected.sort();
        assert_eq!(listed, expected);
    }

    #[test]
    fn keys_of_another_dealer_or_kind_and_a_missing_config_are_refused() {
        let mut other = build();
        other.push(kv("car:other:x", "{}"));
        let e = entries(&other, "tiny", "tiny--p", "https://p.example").unwrap_err();
        assert!(e.to_string().contains("`car:other:x`"), "{e}");
        let mut unknown = build();
        unknown.push(kv("rates:tiny", "1"));
        assert!(entries(&unknown, "tiny", "tiny--p", "https://p.example").is_err());
        let e = entries(&build()[1..], "tiny", "tiny--p", "https://p.example").unwrap_err();
        assert!(e.to_string().contains("no `dealer:tiny` entry"), "{e}");
    }
}
