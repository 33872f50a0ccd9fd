//! `config/deploy.toml`: where the platform lives on Cloudflare (account,
//! KV namespace, D1 database, zones, worker names). No credentials: those
//! come from the environment (`CLOUDFLARE_API_TOKEN`, `CLOUDFLARE_ACCOUNT_ID`).
//!
//! Every error names the file, the line and the key, like the dealer YAML's.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

/// The deploy configuration, checked.
#[derive(Debug, Clone)]
pub struct DeployConfig {
    /// The file it was read from.
    pub file: PathBuf,
    /// Cloudflare account id (32 hex digits) every worker, KV namespace and
    /// D1 database below belongs to.
    pub account_id: String,
    /// The edge worker (the dealers' API).
    pub edge: EdgeTarget,
    /// The static sites: one Workers static-assets worker per dealer.
    pub sites: SitesTarget,
    /// KV namespace bound as `CONFIG`: the dealers' edge config, and the
    /// deploy state (`deployed:<slug>`, `release:<slug>:<id>`).
    pub kv_namespace_id: String,
    /// D1 database bound as `DB` (its name and id).
    pub d1_database_name: String,
    pub d1_database_id: String,
    /// Cloudflare zones (domains) the dealers' hosts live in; a host is
    /// routed in the longest zone it equals or ends with.
    pub zones: Vec<String>,
    /// The edge worker behind the pull requests' previews (`[preview]`),
    /// with resources of its own; `None`: `deploy --preview` refuses.
    pub preview: Option<PreviewTarget>,
    /// Ids still at the all-zero placeholder of the example file: fine for
    /// a dry run, refused by a real deployment.
    pub placeholders: Vec<ConfigError>,
}

#[derive(Debug, Clone)]
pub struct EdgeTarget {
    /// Worker name of the edge API.
    pub name: String,
    /// The edge's wrangler.toml (bindings, queues, crons, Durable Objects),
    /// relative to the checkout root: the deployed config is derived from it
    /// so bindings are declared once.
    pub wrangler_toml: PathBuf,
    /// The platform's Turnstile site key (public) for the step-up under a
    /// flood: a dealer without a captcha of its own whose lead budget is
    /// spent has its forms show this widget. Deployed as the worker
    /// variable `STEP_UP_TURNSTILE_SITE_KEY`; its secret
    /// `STEP_UP_TURNSTILE_SECRET` is then required. None: no step-up (leads
    /// over the budget are held).
    pub step_up_site_key: Option<String>,
    /// Days the edge keeps delivered leads, their deliveries and
    /// valuations, analytics events, phone reveals and finished holds
    /// (dealer_rules::retention; a lead not yet delivered is never
    /// deleted). Deployed as the worker variable `RETENTION_DAYS`.
    pub retention_days: u32,
}

/// The API behind previews (`deploy --preview`): a worker built from the
/// same edge as production, with a KV namespace and D1 database of its own,
/// so a preview's shopper calls never read or write production's data.
#[derive(Debug, Clone)]
pub struct PreviewTarget {
    /// Worker name of the previews' edge API (default `<edge.name>-preview`).
    pub edge_name: String,
    /// KV namespace bound as `CONFIG` in the previews' edge: each preview's
    /// dealer config and cars.
    pub kv_namespace_id: String,
    /// D1 database bound as `DB` in the previews' edge: the previews' leads.
    pub d1_database_name: String,
    pub d1_database_id: String,
}

#[derive(Debug, Clone)]
pub struct SitesTarget {
    /// A dealer's site worker is named `<name_prefix><slug>`.
    pub name_prefix: String,
    /// Compatibility date of the site workers.
    pub compatibility_date: String,
    /// The account's Workers plan, whose limits a site must fit (files per
    /// site, bytes per file: asset_limits). Default free.
    pub plan: crate::checks::asset_limits::Plan,
}

/// A problem in the deploy configuration, with where it is.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{file}:{line}: {key}: {message}")]
pub struct ConfigError {
    pub file: String,
    pub line: usize,
    pub key: String,
    pub message: String,
}

/// All problems of the file at once.
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct ConfigErrors(pub Vec<ConfigError>);

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    account_id: Spanned<String>,
    zones: Spanned<Vec<Spanned<String>>>,
    edge: Spanned<RawEdge>,
    sites: Option<Spanned<RawSites>>,
    kv: Spanned<RawKv>,
    d1: Spanned<RawD1>,
    preview: Option<Spanned<RawPreview>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPreview {
    #[serde(default)]
    edge_name: Option<Spanned<String>>,
    kv_namespace_id: Spanned<String>,
    d1_database_name: Spanned<String>,
    d1_database_id: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEdge {
    name: Spanned<String>,
    #[serde(default)]
    wrangler_toml: Option<Spanned<String>>,
    #[serde(default)]
    step_up_site_key: Option<Spanned<String>>,
    #[serde(default)]
    retention_days: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSites {
    #[serde(default)]
    name_prefix: Option<Spanned<String>>,
    #[serde(default)]
    compatibility_date: Option<Spanned<String>>,
    #[serde(default)]
    plan: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKv {
    namespace_id: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawD1 {
    database_name: Spanned<String>,
    database_id: Spanned<String>,
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

struct Checker<'a> {
    file: String,
    text: &'a str,
    errors: Vec<ConfigError>,
}

impl Checker<'_> {
    fn err(&mut self, span: Range<usize>, key: &str, message: impl Into<String>) {
        self.errors.push(ConfigError {
            file: self.file.clone(),
            line: line_of(self.text, span.start),
            key: key.into(),
            message: message.into(),
        });
    }

    fn hex(&mut self, v: &Spanned<String>, key: &str, len: usize) -> String {
        let s = v.get_ref().trim();
        if s.len() != len || !s.chars().all(|c| c.is_ascii_hexdigit()) {
            self.err(
                v.span(),
                key,
                format!(
                    "`{s}` is not a Cloudflare id ({len} hex digits); copy it from the dashboard"
                ),
            );
        }
        s.to_ascii_lowercase()
    }

    fn not_empty(&mut self, v: &Spanned<String>, key: &str) -> String {
        let s = v.get_ref().trim().to_string();
        if s.is_empty() {
            self.err(v.span(), key, "is empty");
        }
        s
    }

    fn uuid(&mut self, v: &Spanned<String>, key: &str) -> String {
        let s = v.get_ref().trim().to_ascii_lowercase();
        if !is_uuid(&s) {
            self.err(
                v.span(),
                key,
                format!(
                    "`{s}` is not a D1 database id (a UUID, e.g. 0b0f0c3e-...); `wrangler d1 list` shows it"
                ),
            );
        }
        s
    }

    fn name(&mut self, v: &Spanned<String>, key: &str) -> String {
        let s = v.get_ref().trim();
        if !is_worker_name(s) {
            self.err(
                v.span(),
                key,
                format!("`{s}` is not a worker name (lower-case letters, digits and dashes, at most 63)"),
            );
        }
        s.to_string()
    }
}

/// Worker names: lower-case letters, digits and dashes, not starting or
/// ending with a dash (Cloudflare's rule; it becomes a DNS label).
pub fn is_worker_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && !s.starts_with('-')
        && !s.ends_with('-')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The example file's all-zero ids.
fn is_placeholder(id: &str) -> bool {
    let s = id.trim();
    !s.is_empty() && s.chars().all(|ch| ch == '0' || ch == '-')
}

fn is_uuid(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 5
        && parts
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(p, n)| p.len() == n && p.chars().all(|c| c.is_ascii_hexdigit()))
}

fn is_zone(s: &str) -> bool {
    s.contains('.')
        && !s.starts_with('.')
        && !s.ends_with('.')
        && s.split('.').all(|l| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
}

/// Default path of the file, relative to the checkout root.
pub const DEFAULT_FILE: &str = "config/deploy.toml";

impl DeployConfig {
    /// Reads and checks `file`; `shown` is how messages name it.
    pub fn load(file: &Path, shown: &str) -> Result<DeployConfig, anyhow::Error> {
        let text = std::fs::read_to_string(file).map_err(|e| {
            anyhow::anyhow!(
                "{shown}: cannot read it ({e}); the repository's config/deploy.toml is the template: copy it there and replace its all-zero placeholder ids (docs/deploy.md)"
            )
        })?;
        Ok(Self::parse(&text, shown, file)?)
    }

    pub fn parse(text: &str, shown: &str, file: &Path) -> Result<DeployConfig, ConfigErrors> {
        let mut c = Checker {
            file: shown.to_string(),
            text,
            errors: Vec::new(),
        };
        let raw: Raw = match toml::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                let span = e.span().unwrap_or(0..0);
                let key = key_at(text, span.start);
                c.err(span, &key, e.message().trim().to_string());
                return Err(ConfigErrors(c.errors));
            }
        };
        let mut placeholders = Vec::new();
        let mut ids = vec![
            (&raw.account_id, "account_id"),
            (&raw.kv.get_ref().namespace_id, "kv.namespace_id"),
            (&raw.d1.get_ref().database_id, "d1.database_id"),
        ];
        if let Some(p) = &raw.preview {
            ids.push((&p.get_ref().kv_namespace_id, "preview.kv_namespace_id"));
            ids.push((&p.get_ref().d1_database_id, "preview.d1_database_id"));
        }
        for (v, key) in ids {
            if is_placeholder(v.get_ref()) {
                placeholders.push(ConfigError {
                    file: shown.to_string(),
                    line: line_of(text, v.span().start),
                    key: key.into(),
                    message: "still the placeholder id: put your Cloudflare account's".into(),
                });
            }
        }
        let account_id = c.hex(&raw.account_id, "account_id", 32);
        let kv = raw.kv.into_inner();
        let kv_namespace_id = c.hex(&kv.namespace_id, "kv.namespace_id", 32);
        let d1 = raw.d1.into_inner();
        let d1_database_name = c.not_empty(&d1.database_name, "d1.database_name");
        let d1_database_id = c.uuid(&d1.database_id, "d1.database_id");
        let edge = raw.edge.into_inner();
        let edge_name = c.name(&edge.name, "edge.name");
        let step_up_site_key = edge.step_up_site_key.as_ref().map(|k| {
            let key = k.get_ref().trim();
            if key.is_empty()
                || key.len() > 100
                || !key.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
            {
                c.err(
                    k.span(),
                    "edge.step_up_site_key",
                    format!("`{key}` is not a Turnstile site key (letters, digits, `_` and `-`, such as 0x4AAAAAAA…)"),
                );
            }
            key.to_string()
        });
        let retention_days = match &edge.retention_days {
            None => dealer_rules::retention::DEFAULT_DAYS,
            Some(d) => {
                let (min, max) = (
                    dealer_rules::retention::MIN_DAYS,
                    dealer_rules::retention::MAX_DAYS,
                );
                match u32::try_from(*d.get_ref())
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                {
                    Some(n) => n,
                    None => {
                        c.err(
                            d.span(),
                            "edge.retention_days",
                            format!("{} days: the edge keeps leads from {min} to {max} days (a lead not yet delivered always)", d.get_ref()),
                        );
                        dealer_rules::retention::DEFAULT_DAYS
                    }
                }
            }
        };
        let preview = raw.preview.map(|p| {
            let p = p.into_inner();
            let target = PreviewTarget {
                edge_name: match &p.edge_name {
                    Some(n) => c.name(n, "preview.edge_name"),
                    None => format!("{edge_name}-preview"),
                },
                kv_namespace_id: c.hex(&p.kv_namespace_id, "preview.kv_namespace_id", 32),
                d1_database_name: c.not_empty(&p.d1_database_name, "preview.d1_database_name"),
                d1_database_id: c.uuid(&p.d1_database_id, "preview.d1_database_id"),
            };
            // A preview must never read or write production's data.
            let span = |v: &Option<Spanned<String>>| v.as_ref().map_or(0..0, |v| v.span());
            for (equal, value, at, key, production) in [
                (
                    target.edge_name == edge_name,
                    &target.edge_name,
                    span(&p.edge_name),
                    "preview.edge_name",
                    "edge.name",
                ),
                (
                    target.kv_namespace_id == kv_namespace_id,
                    &target.kv_namespace_id,
                    p.kv_namespace_id.span(),
                    "preview.kv_namespace_id",
                    "kv.namespace_id",
                ),
                (
                    target.d1_database_id == d1_database_id,
                    &target.d1_database_id,
                    p.d1_database_id.span(),
                    "preview.d1_database_id",
                    "d1.database_id",
                ),
            ] {
                // Placeholders are refused by a deployment anyway.
                if equal && !is_placeholder(value) {
                    c.err(at, key, format!("is production's ({production}): previews need their own, or a shopper's test in a preview reaches production's data"));
                }
            }
            target
        });
        let wrangler_toml = edge
            .wrangler_toml
            .map(|w| PathBuf::from(w.into_inner()))
            .unwrap_or_else(|| PathBuf::from("wrangler.toml"));
        let (name_prefix, compatibility_date, plan) = match raw.sites {
            None => (
                "dealergen-site-".to_string(),
                DEFAULT_COMPAT.to_string(),
                crate::checks::asset_limits::Plan::default(),
            ),
            Some(s) => {
                let s = s.into_inner();
                let prefix = match s.name_prefix {
                    None => "dealergen-site-".to_string(),
                    Some(p) => {
                        let v = p.get_ref().trim().to_string();
                        // The prefix plus a slug must be a worker name.
                        if !is_worker_name(&format!("{v}x")) || v.len() > 40 {
                            c.err(
                                p.span(),
                                "sites.name_prefix",
                                format!("`{v}` cannot start a worker name (lower-case letters, digits and dashes, at most 40)"),
                            );
                        }
                        v
                    }
                };
                let date = match s.compatibility_date {
                    None => DEFAULT_COMPAT.to_string(),
                    Some(d) => {
                        let v = d.get_ref().trim().to_string();
                        if chrono::NaiveDate::parse_from_str(&v, "%Y-%m-%d").is_err() {
                            c.err(
                                d.span(),
                                "sites.compatibility_date",
                                format!("`{v}` is not a date like 2025-09-01"),
                            );
                        }
                        v
                    }
                };
                let plan = match s.plan {
                    None => crate::checks::asset_limits::Plan::default(),
                    Some(p) => {
                        let v = p.get_ref().trim().to_string();
                        crate::checks::asset_limits::Plan::parse(&v).unwrap_or_else(|| {
                            c.err(
                                p.span(),
                                "sites.plan",
                                format!("`{v}` is not a Workers plan: \"free\" or \"paid\""),
                            );
                            crate::checks::asset_limits::Plan::default()
                        })
                    }
                };
                (prefix, date, plan)
            }
        };
        let zones_span = raw.zones.span();
        let mut zones = Vec::new();
        for (i, z) in raw.zones.into_inner().into_iter().enumerate() {
            let v = z.get_ref().trim().to_ascii_lowercase();
            if !is_zone(&v) {
                c.err(
                    z.span(),
                    &format!("zones[{i}]"),
                    format!("`{v}` is not a domain name like brisbanemotorgroup.com.au"),
                );
            } else if zones.contains(&v) {
                c.err(
                    z.span(),
                    &format!("zones[{i}]"),
                    format!("`{v}` is listed twice"),
                );
            } else {
                zones.push(v);
            }
        }
        if zones.is_empty() && c.errors.iter().all(|e| !e.key.starts_with("zones")) {
            c.err(
                zones_span,
                "zones",
                "no zone: list the domains the dealers' sites live in",
            );
        }
        if !c.errors.is_empty() {
            return Err(ConfigErrors(c.errors));
        }
        Ok(DeployConfig {
            file: file.to_path_buf(),
            account_id,
            edge: EdgeTarget {
                name: edge_name,
                wrangler_toml,
                step_up_site_key,
                retention_days,
            },
            sites: SitesTarget {
                name_prefix,
                compatibility_date,
                plan,
            },
            kv_namespace_id,
            d1_database_name,
            d1_database_id,
            zones,
            preview,
            placeholders,
        })
    }

    /// The site worker of a dealer.
    pub fn site_worker(&self, slug: &str) -> String {
        format!("{}{slug}", self.sites.name_prefix)
    }

    /// The zone `host` is routed in: the longest configured zone it equals
    /// or is a subdomain of.
    pub fn zone_of(&self, host: &str) -> Option<&str> {
        let host = host.to_ascii_lowercase();
        self.zones
            .iter()
            .filter(|z| host == **z || host.ends_with(&format!(".{z}")))
            .max_by_key(|z| z.len())
            .map(String::as_str)
    }
}

/// Compatibility date of the site workers unless `sites.compatibility_date` says otherwise.
pub(super) const DEFAULT_COMPAT: &str = "2025-09-01";

/// The dotted key of the TOML line holding `offset` (the table header above
/// it plus the key on the line), for errors serde reports without a path.
fn key_at(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line_end = text[line_start..]
        .find('\n')
        .map(|i| line_start + i)
        .unwrap_or(text.len());
    let line = text[line_start..line_end].trim();
    let table = before[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
    if line.starts_with('[') {
        return line
            .trim_matches(|c| c == '[' || c == ']')
            .trim()
            .to_string();
    }
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().to_string())
        .unwrap_or_default();
    match (table, key.is_empty()) {
        (Some(t), false) => format!("{t}.{key}"),
        (Some(t), true) => t,
        (None, false) => key,
        (None, true) => "(top level)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"account_id = "0123456789abcdef0123456789abcdef"
zones = ["example.com.au", "shop.example.com.au"]

[edge]
name = "dealergen-edge"

[kv]
namespace_id = "fedcba9876543210fedcba9876543210"

[d1]
database_name = "dealergen"
database_id = "0b0f0c3e-1111-2222-3333-444455556666"
"#;

    fn parse(t: &str) -> Result<DeployConfig, ConfigErrors> {
        DeployConfig::parse(t, "config/deploy.toml", Path::new("config/deploy.toml"))
    }

    #[test]
    fn a_good_file_reads_with_defaults() {
        let c = parse(GOOD).unwrap();
        assert_eq!(c.site_worker("x"), "dealergen-site-x");
        assert_eq!(c.edge.wrangler_toml, PathBuf::from("wrangler.toml"));
        assert_eq!(c.zone_of("www.example.com.au"), Some("example.com.au"));
        assert_eq!(
            c.zone_of("a.shop.example.com.au"),
            Some("shop.example.com.au")
        );
        assert_eq!(c.zone_of("example.com.au"), Some("example.com.au"));
        assert_eq!(c.zone_of("notexample.com.au"), None);
        assert_eq!(c.sites.plan, crate::checks::asset_limits::Plan::Free);
    }

    #[test]
    fn previews_have_data_of_their_own_named_by_line() {
        assert!(parse(GOOD).unwrap().preview.is_none());
        let with = |kv: &str, db: &str| {
            format!("{GOOD}\n[preview]\nkv_namespace_id = \"{kv}\"\nd1_database_name = \"p\"\nd1_database_id = \"{db}\"\n")
        };
        let own = with(
            "abababababababababababababababab",
            "0b0f0c3e-9999-2222-3333-444455556666",
        );
        let p = parse(&own).unwrap().preview.unwrap();
        assert_eq!(p.edge_name, "dealergen-edge-preview");
        assert_eq!(p.kv_namespace_id, "abababababababababababababababab");
        let shared = with(
            "fedcba9876543210fedcba9876543210",
            "0b0f0c3e-1111-2222-3333-444455556666",
        );
        let e = parse(&shared).unwrap_err().to_string();
        assert!(
            e.contains(
                "config/deploy.toml:15: preview.kv_namespace_id: is production's (kv.namespace_id)"
            ) && e.contains(
                "config/deploy.toml:17: preview.d1_database_id: is production's (d1.database_id)"
            ),
            "{e}"
        );
        let e = parse(&with("nope", "x")).unwrap_err().to_string();
        assert!(
            e.contains("preview.kv_namespace_id: `nope` is not a Cloudflare id")
                && e.contains("preview.d1_database_id: `x` is not a D1 database id"),
            "{e}"
        );
    }

    #[test]
    fn a_step_up_widget_makes_its_secret_a_platform_secret() {
        let c = parse(GOOD).unwrap();
        assert_eq!(c.edge.step_up_site_key, None);
        assert!(!super::super::secrets::platform(&c.edge).contains_key("STEP_UP_TURNSTILE_SECRET"));
        let with = GOOD.replace(
            "name = \"dealergen-edge\"\n",
            "name = \"dealergen-edge\"\nstep_up_site_key = \"0x4AAAAAAAplatform\"\n",
        );
        let c = parse(&with).unwrap();
        assert_eq!(
            c.edge.step_up_site_key.as_deref(),
            Some("0x4AAAAAAAplatform")
        );
        let secrets = super::super::secrets::platform(&c.edge);
        assert!(
            secrets.contains_key("SESSION_SECRET")
                && secrets.contains_key("STEP_UP_TURNSTILE_SECRET")
        );
        let bad = parse(&with.replace("0x4AAAAAAAplatform", "not a key")).unwrap_err();
        assert!(bad.to_string().contains("edge.step_up_site_key"), "{bad}");
    }

    #[test]
    fn retention_days_default_to_a_year_and_stay_within_bounds() {
        assert_eq!(parse(GOOD).unwrap().edge.retention_days, 365);
        let with = |days: &str| {
            GOOD.replace(
                "name = \"dealergen-edge\"\n",
                &format!("name = \"dealergen-edge\"\nretention_days = {days}\n"),
            )
        };
        assert_eq!(parse(&with("90")).unwrap().edge.retention_days, 90);
        for bad in ["7", "0", "-1", "4000"] {
            let e = parse(&with(bad)).unwrap_err().to_string();
            assert!(
                e.contains("edge.retention_days") && e.contains("from 30 to 3650"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn the_workers_plan_is_free_or_paid() {
        let paid = format!("{GOOD}\n[sites]\nplan = \"paid\"\n");
        assert_eq!(
            parse(&paid).unwrap().sites.plan,
            crate::checks::asset_limits::Plan::Paid
        );
        let e = parse(&paid.replace("\"paid\"", "\"business\""))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("config/deploy.toml:15: sites.plan: `business` is not a Workers plan"),
            "{e}"
        );
    }

    #[test]
    fn every_bad_value_is_named_with_its_line() {
        let bad = GOOD
            .replace("0123456789abcdef0123456789abcdef", "acct")
            .replace("\"dealergen-edge\"", "\"Dealergen_Edge\"")
            .replace("0b0f0c3e-1111-2222-3333-444455556666", "nope")
            .replace("\"shop.example.com.au\"", "\"https://x\"");
        let e = parse(&bad).unwrap_err().to_string();
        assert!(
            e.contains("config/deploy.toml:1: account_id: `acct` is not a Cloudflare id"),
            "{e}"
        );
        assert!(
            e.contains("config/deploy.toml:2: zones[1]: `https://x` is not a domain"),
            "{e}"
        );
        assert!(e.contains("config/deploy.toml:5: edge.name:"), "{e}");
        assert!(e.contains("config/deploy.toml:12: d1.database_id:"), "{e}");
    }

    #[test]
    fn unknown_and_missing_keys_are_named() {
        let e = parse(&GOOD.replace("[kv]\n", "[kv]\nnamespace = \"x\"\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("config/deploy.toml:8: kv.namespace: unknown field `namespace`"),
            "{e}"
        );
        let e = parse(&GOOD.replace("name = \"dealergen-edge\"\n", ""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `name`"), "{e}");
        assert!(e.contains(":4: edge"), "{e}");
    }
}
