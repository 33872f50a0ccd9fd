//! `dealergen deploy` and `rollback` against a stand-in wrangler
//! (tests/deploy_fake_wrangler.py, put on PATH as `wrangler`) that keeps a
//! little account in a temporary folder: KV, secrets, pending migrations,
//! worker versions. Releases are laid out by hand as `build` writes them
//! (`sites/<slug>/releases/<id>/`, `current` a link to one).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const TINY: &str = "tiny-dealer";
const SECOND: &str = "second-dealer";

use crate::support::repo_root;

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn path(&self) -> &Path {
        self.dir.path()
    }
    fn sites(&self) -> PathBuf {
        self.path().join("sites")
    }
    fn state(&self) -> PathBuf {
        self.path().join("account")
    }
    fn config(&self) -> PathBuf {
        self.path().join("deploy.toml")
    }

    /// Two dealers (one with its API on another host), an edge worker
    /// "build", the real migrations, a deploy config and an empty account
    /// where every secret is set.
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let f = Fixture { dir };
        let p = f.path();
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers");
        std::fs::create_dir_all(p.join("dealers/stock")).unwrap();
        std::fs::copy(
            fixtures.join("stock/tiny.json"),
            p.join("dealers/stock/tiny.json"),
        )
        .unwrap();
        let tiny = std::fs::read_to_string(fixtures.join("tiny-dealer.yaml")).unwrap();
        std::fs::write(p.join("dealers/tiny-dealer.yaml"), &tiny).unwrap();
        let second = tiny
            .replace("name: Tiny Motors\n", "name: Second Motors\n")
            .replace(
                "https://www.tinymotors.com.au",
                "https://www.secondmotors.net",
            )
            + "edge: { api_base: \"https://api.secondmotors.net\" }\n";
        std::fs::write(p.join("dealers/second-dealer.yaml"), second).unwrap();

        // The edge: the checkout's wrangler.toml pointed at a stub worker.
        let edge = p.join("edge");
        std::fs::create_dir_all(edge.join("build/worker")).unwrap();
        std::fs::write(
            edge.join("build/worker/shim.mjs"),
            "export class DealerGate {}\nexport default { async fetch() { return new Response('ok'); } };\n",
        )
        .unwrap();
        let toml = std::fs::read_to_string(repo_root().join("wrangler.toml"))
            .unwrap()
            .replace("edge/build/worker/shim.mjs", "build/worker/shim.mjs")
            .replace("\"edge/migrations\"", "\"migrations\"");
        std::fs::write(edge.join("wrangler.toml"), toml).unwrap();
        std::fs::create_dir_all(edge.join("migrations")).unwrap();
        for m in std::fs::read_dir(repo_root().join("edge/migrations")).unwrap() {
            let m = m.unwrap();
            std::fs::copy(m.path(), edge.join("migrations").join(m.file_name())).unwrap();
        }
        std::fs::write(f.config(), good_config(&edge.join("wrangler.toml"))).unwrap();

        // The stand-in wrangler and its account.
        std::fs::create_dir_all(p.join("bin")).unwrap();
        let fake = p.join("bin/wrangler");
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/deploy_fake_wrangler.py"),
            &fake,
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::create_dir_all(f.state()).unwrap();
        f.set_secrets(&[
            "SESSION_SECRET",
            "STRIPE_SECRET_KEY_TINY",
            "STRIPE_WEBHOOK_SECRET_TINY",
            "MAIL_RELAY_URL",
            "TURNSTILE_SECOND",
        ]);
        f.save(
            &format!("pending-{D1}.json"),
            &serde_json::json!(["0004_forms.sql"]),
        );
        f
    }

    fn save(&self, name: &str, v: &Value) {
        std::fs::write(self.state().join(name), serde_json::to_string(v).unwrap()).unwrap();
    }
    fn load(&self, name: &str) -> Value {
        std::fs::read_to_string(self.state().join(name))
            .map(|t| serde_json::from_str(&t).unwrap())
            .unwrap_or(Value::Null)
    }
    fn set_secrets(&self, names: &[&str]) {
        self.save("secrets-dealergen-edge.json", &serde_json::json!(names));
    }
    fn fail(&self, argv: &str, cwd: &str) {
        self.save("fail.json", &serde_json::json!([[argv, cwd]]));
    }
    fn kv(&self) -> Value {
        self.load(&format!("kv-{KV}.json"))
    }
    /// The previews' KV namespace.
    fn preview_kv(&self) -> Value {
        self.load(&format!("kv-{PREVIEW_KV}.json"))
    }
    /// The keys of each `kv bulk put` so far, and forget them.
    fn kv_writes(&self) -> Vec<Vec<String>> {
        self.take_log("kv-writes.jsonl")
            .into_iter()
            .map(|v| serde_json::from_value(v).unwrap())
            .collect()
    }
    /// The lines of the stand-in's log `name` (one JSON value each), and forget them.
    fn take_log(&self, name: &str) -> Vec<Value> {
        let log = self.state().join(name);
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
    /// wrangler calls so far (argv joined), and forget them.
    fn calls(&self) -> Vec<String> {
        self.take_log("log.jsonl")
            .into_iter()
            .map(|v| {
                let argv: Vec<String> = v["argv"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap().to_string())
                    .collect();
                let cwd = Path::new(v["cwd"].as_str().unwrap())
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                // Temporary files have random names.
                let argv: Vec<String> = argv
                    .into_iter()
                    .map(|a| {
                        if a.contains("/.tmp") {
                            "<tmpfile>".into()
                        } else {
                            a
                        }
                    })
                    .collect();
                self.clean(&format!("[{cwd}] {}", argv.join(" ")))
            })
            .collect()
    }

    /// A release of a dealer, made `current` (the one before becomes `previous`).
    fn release(&self, slug: &str, id: &str, key: &str, version: &str) {
        let site = self.sites().join(slug);
        let dir = site.join("releases").join(id);
        std::fs::create_dir_all(dir.join("dist/cars/car-1")).unwrap();
        std::fs::write(
            dir.join("dist/index.html"),
            format!("<h1>{slug} {version}</h1>"),
        )
        .unwrap();
        std::fs::write(dir.join("dist/404.html"), "<h1>Not found</h1>").unwrap();
        std::fs::write(
            dir.join("dist/cars/car-1/index.html"),
            format!("car 1 {version}"),
        )
        .unwrap();
        std::fs::write(
            dir.join("dist/_headers"),
            "/*\n  X-Content-Type-Options: nosniff\n",
        )
        .unwrap();
        let origin = if slug == TINY {
            "https://www.tinymotors.com.au"
        } else {
            "https://www.secondmotors.net"
        };
        let extra = if slug == TINY {
            r#""checkout":{"enabled":true,"path":"checkout","hold_hours":48,"payment":{"provider":"stripe","secret_name":"STRIPE_SECRET_KEY_TINY","webhook_secret_name":"STRIPE_WEBHOOK_SECRET_TINY"}}"#
        } else {
            r#""forms":{"message_required":true,"captcha":{"secret_name":"TURNSTILE_SECOND"}}"#
        };
        let email = if slug == TINY {
            "null"
        } else {
            "\"leads@second.example\""
        };
        let edge = format!(
            r#"{{"dealer":"{slug}","name":"{slug} {version}","origins":["{origin}"],"locations":[],"leads":{{"email":{email},"webhook_url":null}},"features":{{"watchlist":false,"phone_reveal":false,"trade_in":false}},{extra}}}"#
        );
        std::fs::write(dir.join("edge-config.json"), &edge).unwrap();
        // Release v1 has a car that v2 no longer has (sold).
        let mut kv = vec![
            serde_json::json!({"key": format!("dealer:{slug}"), "value": edge}),
            serde_json::json!({"key": format!("origin:{origin}"), "value": slug}),
            serde_json::json!({"key": format!("car:{slug}:car-1"), "value": format!("{{\"v\":\"{version}\"}}")}),
        ];
        if version == "v1" {
            kv.push(serde_json::json!({"key": format!("car:{slug}:sold-car"), "value": "{}"}));
        }
        std::fs::write(
            dir.join("edge-kv.json"),
            serde_json::to_string(&kv).unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("build-key"), format!("{key}\n")).unwrap();
        std::fs::write(
            dir.join("release.json"),
            format!(r#"{{"slug":"{slug}","key":"{key}","release":"{id}","built_at":"2026-11-23T00:00:00Z","pages":2,"dealergen_version":"0.1.0"}}"#),
        )
        .unwrap();
        let current = site.join("current");
        if let Ok(old) = std::fs::read_link(&current) {
            let _ = std::fs::remove_file(site.join("previous"));
            std::os::unix::fs::symlink(old, site.join("previous")).unwrap();
            std::fs::remove_file(&current).unwrap();
        }
        std::os::unix::fs::symlink(format!("releases/{id}"), &current).unwrap();
    }

    /// Runs dealergen; (exit code, stdout, stderr).
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_env(args, true)
    }

    fn run_env(&self, args: &[&str], token: bool) -> (i32, String, String) {
        let path = format!(
            "{}:{}",
            self.path().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_dealergen"));
        cmd.current_dir(self.path())
            .arg("--root")
            .arg(repo_root())
            .arg("--dealers-dir")
            .arg(self.path().join("dealers"))
            .arg("--sites-dir")
            .arg(self.sites())
            .args(args)
            .arg("--config")
            .arg(self.config())
            .env("PATH", path)
            .env("FAKE_WRANGLER_STATE", self.state())
            .env_remove("DEALERGEN_WRANGLER")
            .env_remove("CLOUDFLARE_ACCOUNT_ID");
        if token {
            cmd.env("CLOUDFLARE_API_TOKEN", "test-token-not-a-secret");
        } else {
            cmd.env_remove("CLOUDFLARE_API_TOKEN");
        }
        let out = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code().unwrap_or(-1), stdout, stderr)
    }

    /// Output with the temporary folder's path taken out.
    fn clean(&self, text: &str) -> String {
        let p = self.path().canonicalize().unwrap();
        text.replace(&p.display().to_string(), "<tmp>")
            .replace(&self.path().display().to_string(), "<tmp>")
    }

    fn deployed(&self, slug: &str) -> Value {
        let kv = self.kv();
        serde_json::from_str(
            kv[format!("deployed:{slug}")]
                .as_str()
                .expect("a deployment record"),
        )
        .unwrap()
    }
}

/// The KV namespace and D1 database of production, and of the previews.
const KV: &str = "fedcba9876543210fedcba9876543210";
const D1: &str = "0b0f0c3e-1111-2222-3333-444455556666";
const PREVIEW_KV: &str = "abababababababababababababababab";
const PREVIEW_D1: &str = "0b0f0c3e-9999-2222-3333-444455556666";

fn good_config(edge_toml: &Path) -> String {
    format!(
        r#"account_id = "0123456789abcdef0123456789abcdef"
zones = ["tinymotors.com.au", "secondmotors.net"]

[edge]
name = "dealergen-edge"
wrangler_toml = "{}"

[kv]
namespace_id = "{KV}"

[d1]
database_name = "dealergen"
database_id = "{D1}"

[preview]
kv_namespace_id = "{PREVIEW_KV}"
d1_database_name = "dealergen-preview"
d1_database_id = "{PREVIEW_D1}"
"#,
        edge_toml.display()
    )
}

const K1: &str = "aaaaaaaaaaaa1111111111111111111111111111111111111111111111111111";
const K2: &str = "bbbbbbbbbbbb2222222222222222222222222222222222222222222222222222";
const K3: &str = "cccccccccccc3333333333333333333333333333333333333333333333333333";
const R1: &str = "20261120T010000Z-aaaaaaaaaaaa";
const R2: &str = "20261123T010000Z-bbbbbbbbbbbb";
const R3: &str = "20261123T020000Z-cccccccccccc";

fn uploads(calls: &[String]) -> Vec<&String> {
    calls
        .iter()
        .filter(|c| {
            !(c.contains(" kv key get ")
                || c.contains("secret list")
                || c.contains("migrations list")
                || c.contains("versions list"))
        })
        .collect()
}

#[test]
fn a_dry_run_prints_the_plan_writes_the_configs_and_changes_nothing() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.release(SECOND, R3, K3, "v1");
    // tiny-dealer is live with release 1, second-dealer never deployed.
    let (code, out, err) = f.run(&["deploy", "--dealer", TINY]);
    assert_eq!(code, 0, "{out}{err}");
    f.release(TINY, R2, K2, "v2");
    f.calls();
    let before = f.kv();

    let (code, out, err) = f.run(&["deploy", "--all", "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    insta::assert_snapshot!("dry_run_output", f.clean(&out));
    let calls = f.calls();
    assert!(
        uploads(&calls).is_empty(),
        "a dry run only reads: {calls:#?}"
    );
    assert_eq!(f.kv(), before);

    let site: Value = serde_json::from_str(
        &std::fs::read_to_string(f.sites().join(".deploy/tiny-dealer/wrangler.json")).unwrap(),
    )
    .unwrap();
    insta::assert_snapshot!(
        "site_wrangler_json",
        serde_json::to_string_pretty(&site).unwrap()
    );
    let edge = std::fs::read_to_string(f.sites().join(".deploy/edge/wrangler.json")).unwrap();
    let edge: Value = serde_json::from_str(&edge).unwrap();
    insta::assert_snapshot!(
        "edge_wrangler_json",
        serde_json::to_string_pretty(&edge).unwrap()
    );
    let manifest =
        std::fs::read_to_string(f.sites().join(".deploy/tiny-dealer/assets.tsv")).unwrap();
    assert_eq!(manifest.lines().count(), 5, "header + 4 files: {manifest}");
    assert!(
        manifest.contains("cars/car-1/index.html\t8\t"),
        "{manifest}"
    );
}

#[test]
fn a_step_up_widget_is_deployed_as_a_variable_and_its_secret_required() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    let config = std::fs::read_to_string(f.config()).unwrap().replace(
        "name = \"dealergen-edge\"\n",
        "name = \"dealergen-edge\"\nstep_up_site_key = \"0x4AAAAAAAplatform\"\n",
    );
    std::fs::write(f.config(), config).unwrap();
    let (code, out, err) = f.run_env(&["deploy", "--dealer", TINY, "--dry-run"], false);
    assert_eq!(code, 0, "{out}{err}");
    let edge: Value = serde_json::from_str(
        &std::fs::read_to_string(f.sites().join(".deploy/edge/wrangler.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        edge["vars"]["STEP_UP_TURNSTILE_SITE_KEY"],
        "0x4AAAAAAAplatform"
    );
    let required: Vec<&str> = edge["secrets"]["required"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        required.contains(&"STEP_UP_TURNSTILE_SECRET"),
        "{required:?}"
    );
    assert!(
        out.contains("STEP_UP_TURNSTILE_SECRET"),
        "named among the secrets needed: {out}"
    );
}

#[test]
fn a_dry_run_without_credentials_says_what_it_cannot_know() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    let (code, out, err) = f.run_env(&["deploy", "--dealer", TINY, "--dry-run"], false);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("remote state: cannot be read (CLOUDFLARE_API_TOKEN is not set): every dealer is treated as changed"), "{out}");
    assert!(out.contains("dealer tiny-dealer: deploy release 20261120T010000Z-aaaaaaaaaaaa (deployed key unknown"), "{out}");
    assert!(out.contains("secrets of dealergen-edge: cannot check (CLOUDFLARE_API_TOKEN is not set); needed: SESSION_SECRET, STRIPE_SECRET_KEY_TINY, STRIPE_WEBHOOK_SECRET_TINY"), "{out}");
    assert!(
        f.calls().is_empty(),
        "nothing asked of Cloudflare without a token"
    );
    // A real deployment refuses to start.
    let (code, _, err) = f.run_env(&["deploy", "--dealer", TINY], false);
    assert_eq!(code, 1);
    assert!(err.contains("CLOUDFLARE_API_TOKEN is not set"), "{err}");
}

#[test]
fn a_deployment_applies_migrations_deploys_the_edge_then_each_dealer_and_records_it() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.release(SECOND, R3, K3, "v1");
    let (code, out, err) = f.run(&["deploy", "--all"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("2 dealer(s) deployed, 0 failed, 0 skipped"),
        "{out}"
    );
    let calls = f.calls();
    let ups: Vec<&String> = uploads(&calls);
    insta::assert_debug_snapshot!("first_deployment_uploads", ups);
    // Migrations before the worker, the worker before the sites.
    assert_eq!(f.load(&format!("pending-{D1}.json")), serde_json::json!([]));
    let workers = f.load("workers.json");
    assert_eq!(
        workers["dealergen-edge"]["routes"],
        serde_json::json!(["api.secondmotors.net/api/*", "www.tinymotors.com.au/api/*"])
    );
    assert_eq!(
        workers["dealergen-site-tiny-dealer"]["routes"],
        serde_json::json!(["www.tinymotors.com.au/*"])
    );
    assert!(workers["dealergen-site-tiny-dealer"]["assets"]
        .as_str()
        .unwrap()
        .ends_with(&format!("tiny-dealer/releases/{R1}/dist")));
    let rec = f.deployed(TINY);
    assert_eq!(rec["key"], K1);
    assert_eq!(rec["release"], R1);
    assert_eq!(rec["version"], "dealergen-site-tiny-dealer-v1");
    assert_eq!(rec["previous"], Value::Null);
    let kv = f.kv();
    assert!(
        kv[format!("release:{TINY}:{R1}")].is_string(),
        "the release's entries are kept for rollback"
    );
    assert_eq!(kv["car:tiny-dealer:sold-car"], "{}");

    // Nothing changed: --changed deploys nothing, not even the edge.
    let (code, out, _) = f.run(&["deploy", "--changed"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "dealer tiny-dealer: skip: unchanged (release 20261120T010000Z-aaaaaaaaaaaa is live)"
        ),
        "{out}"
    );
    assert!(
        out.contains("edge worker dealergen-edge: unchanged, not redeployed"),
        "{out}"
    );
    assert!(uploads(&f.calls()).is_empty());
}

#[test]
fn changed_deploys_only_the_dealer_whose_build_key_differs() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.release(SECOND, R3, K3, "v1");
    assert_eq!(f.run(&["deploy", "--all"]).0, 0);
    f.calls();
    f.release(TINY, R2, K2, "v2");

    let (code, out, err) = f.run(&["deploy", "--changed", "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("dealer tiny-dealer: deploy release {R2} (build key differs from the deployed release {R1})")), "{out}");
    assert!(out.contains("KV: 2 of 3 keys put (1 car:, 1 dealer:, 1 origin:): 0 new, 2 changed, 1 unchanged; 1 deleted"), "{out}");
    assert!(
        out.contains(&format!(
            "against release {R1}: 2 new or changed, 0 removed"
        )),
        "{out}"
    );
    assert!(
        out.contains("dealer second-dealer: skip: unchanged"),
        "{out}"
    );
    f.calls();

    f.kv_writes();
    let (code, out, err) = f.run(&["deploy", "--changed"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("1 dealer(s) deployed, 0 failed, 1 skipped"),
        "{out}"
    );
    // Only the keys whose value changed are written again (an hourly
    // refresh changes a few of a dealer's hundreds of keys).
    assert_eq!(
        f.kv_writes(),
        [["car:tiny-dealer:car-1", "dealer:tiny-dealer"]],
        "{out}"
    );
    let calls = f.calls();
    let deploys: Vec<&String> = calls.iter().filter(|c| c.contains("] deploy ")).collect();
    assert_eq!(deploys.len(), 1, "{calls:#?}");
    assert!(
        deploys[0].starts_with("[tiny-dealer] deploy --config wrangler.json"),
        "{deploys:?}"
    );
    let rec = f.deployed(TINY);
    assert_eq!(rec["release"], R2);
    assert_eq!(rec["previous"]["release"], R1);
    // The sold car's key went with release 1.
    assert_eq!(f.kv()["car:tiny-dealer:sold-car"], Value::Null);
    assert_eq!(f.kv()["car:tiny-dealer:car-1"], "{\"v\":\"v2\"}");

    // A third release: the first one's entries are no longer kept.
    assert!(f.kv()[format!("release:{TINY}:{R1}")].is_string());
    f.release(
        TINY,
        "20261124T010000Z-eeeeeeeeeeee",
        "eeeeeeeeeeee5555",
        "v3",
    );
    assert_eq!(f.run(&["deploy", "--changed"]).0, 0);
    let kv = f.kv();
    let kept: Vec<&String> = kv
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| k.starts_with("release:tiny-dealer:"))
        .collect();
    assert_eq!(
        kept,
        [
            &format!("release:{TINY}:{R2}"),
            &format!("release:{TINY}:20261124T010000Z-eeeeeeeeeeee")
        ]
    );
}

#[test]
fn missing_secrets_are_named_and_nothing_is_uploaded() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.release(SECOND, R3, K3, "v1");
    f.set_secrets(&["SESSION_SECRET", "STRIPE_SECRET_KEY_TINY", "SOMETHING_ELSE"]);
    let (code, out, err) = f.run(&["deploy", "--all"]);
    assert_eq!(code, 1, "{out}{err}");
    insta::assert_snapshot!(
        "missing_secrets",
        out.lines()
            .filter(|l| l.contains("secret")
                || l.contains("MISSING")
                || l.starts_with("  ") && l.contains("needed by")
                || l.contains("FAILED"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let calls = f.calls();
    assert!(uploads(&calls).is_empty(), "{calls:#?}");
    assert_eq!(f.kv(), Value::Null);
    // The dry run says the same and fails too, so CI sees it before merging.
    let (code, out, _) = f.run(&["deploy", "--all", "--dry-run"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("a deployment would stop now: secrets missing"),
        "{out}"
    );
}

#[test]
fn a_failing_site_upload_names_the_dealer_puts_its_config_back_and_the_others_go_on() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.release(SECOND, R3, K3, "v1");
    assert_eq!(f.run(&["deploy", "--all"]).0, 0);
    let kv_before = f.kv();
    f.release(TINY, R2, K2, "v2");
    // Second dealer's new release too, so both are deployed in this run.
    f.release(
        SECOND,
        "20261123T030000Z-dddddddddddd",
        "dddddddddddd4444",
        "v2",
    );
    f.calls();
    f.fail("deploy --config wrangler.json", "tiny-dealer");

    let (code, out, err) = f.run(&["deploy", "--changed"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("FAILED tiny-dealer: site worker dealergen-site-tiny-dealer not deployed:"),
        "{out}"
    );
    assert!(
        out.contains("injected failure"),
        "wrangler's own words are shown: {out}"
    );
    assert!(
        out.contains(&format!("its edge config was put back to release {R1}")),
        "{out}"
    );
    assert!(
        out.contains("deployed second-dealer: release 20261123T030000Z-dddddddddddd"),
        "{out}"
    );
    assert!(
        out.contains("1 dealer(s) deployed, 1 failed, 0 skipped"),
        "{out}"
    );
    // tiny-dealer is whole: release 1's config and site, release 1 recorded.
    let kv = f.kv();
    for key in [
        "dealer:tiny-dealer",
        "car:tiny-dealer:car-1",
        "car:tiny-dealer:sold-car",
    ] {
        assert_eq!(kv[key], kv_before[key], "{key}");
    }
    assert_eq!(f.deployed(TINY)["release"], R1);
    assert_eq!(
        f.load("workers.json")["dealergen-site-tiny-dealer"]["live"],
        "dealergen-site-tiny-dealer-v1"
    );
    assert_eq!(
        f.deployed(SECOND)["release"],
        "20261123T030000Z-dddddddddddd"
    );
    assert!(f.deployed(SECOND)["switching_to"].is_null());
    // KV was put back: the record is release 1's, unmarked.
    assert!(f.deployed(TINY)["switching_to"].is_null());

    // A run killed while it changed KV leaves its mark on the record
    // (written before any entry): the next deployment does not trust KV to
    // hold release 1's entries, writes every key, then records a finished
    // deployment.
    let mut kv = f.kv();
    let mut rec = f.deployed(TINY);
    rec["switching_to"] = R2.into();
    kv[format!("deployed:{TINY}")] = serde_json::to_string(&rec).unwrap().into();
    f.save(&format!("kv-{KV}.json"), &kv);
    f.save("fail.json", &serde_json::json!([]));
    let (code, out, err) = f.run(&["deploy", "--changed", "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "KV: 3 of 3 keys put (every key: the deployment of release {R2} did not finish)"
        )),
        "{out}"
    );
    f.kv_writes();
    let (code, out, err) = f.run(&["deploy", "--changed"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        f.kv_writes(),
        [[
            "car:tiny-dealer:car-1",
            "dealer:tiny-dealer",
            "origin:https://www.tinymotors.com.au"
        ]],
        "{out}"
    );
    assert_eq!(f.deployed(TINY)["release"], R2);
    assert!(f.deployed(TINY)["switching_to"].is_null());
}

#[test]
fn a_failing_platform_step_stops_before_any_dealer() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.fail("d1 migrations apply", "");
    let (code, out, _) = f.run(&["deploy", "--dealer", TINY]);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAILED D1 migrations") && out.contains("no dealer was deployed"),
        "{out}"
    );
    assert!(!f
        .calls()
        .iter()
        .any(|c| c.contains("] deploy ") || c.contains("bulk put")));
}

#[test]
fn rollback_returns_a_dealer_to_its_previous_deployment_from_remote_state() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    assert_eq!(f.run(&["deploy", "--dealer", TINY]).0, 0);
    let kv_v1 = f.kv();
    f.release(TINY, R2, K2, "v2");
    assert_eq!(f.run(&["deploy", "--dealer", TINY]).0, 0);
    assert_eq!(
        f.load("workers.json")["dealergen-site-tiny-dealer"]["live"],
        "dealergen-site-tiny-dealer-v2"
    );
    // From a machine with no sites/ at all: everything comes from the account.
    std::fs::remove_dir_all(f.sites()).unwrap();
    f.calls();

    let (code, out, err) = f.run(&["rollback", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    insta::assert_snapshot!("rollback_dry_run", out);
    assert!(uploads(&f.calls()).is_empty());

    let (code, out, err) = f.run(&["rollback", "--dealer", TINY]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("rolled back tiny-dealer to release {R1}")),
        "{out}"
    );
    let calls = f.calls();
    assert!(
        calls.iter().any(|c| c.contains(
            "rollback dealergen-site-tiny-dealer-v1 --name dealergen-site-tiny-dealer --yes"
        )),
        "{calls:#?}"
    );
    assert_eq!(
        f.load("workers.json")["dealergen-site-tiny-dealer"]["live"],
        "dealergen-site-tiny-dealer-v1"
    );
    let kv = f.kv();
    for key in [
        "dealer:tiny-dealer",
        "car:tiny-dealer:car-1",
        "car:tiny-dealer:sold-car",
    ] {
        assert_eq!(kv[key], kv_v1[key], "{key} is release 1's again");
    }
    let rec = f.deployed(TINY);
    assert_eq!(rec["release"], R1);
    assert_eq!(rec["rolled_back_from"]["release"], R2);

    // Once is the limit, and --changed leaves the rolled-back release out.
    let (code, _, err) = f.run(&["rollback", "--dealer", TINY]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no earlier deployment is recorded (it was rolled back to already"),
        "{err}"
    );
    f.release(TINY, R2, K2, "v2");
    let (code, out, _) = f.run(&["deploy", "--changed", "--dry-run"]);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("dealer tiny-dealer: skip: release {R2} was rolled back; deploy it with --dealer tiny-dealer")), "{out}");
}

#[test]
fn a_failing_rollback_leaves_the_dealer_as_it_was() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    assert_eq!(f.run(&["deploy", "--dealer", TINY]).0, 0);
    f.release(TINY, R2, K2, "v2");
    assert_eq!(f.run(&["deploy", "--dealer", TINY]).0, 0);
    let kv_v2 = f.kv();
    f.fail("rollback", "");
    let (code, _, err) = f.run(&["rollback", "--dealer", TINY]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "the edge config was put back to release {R2}: nothing changed"
        )),
        "{err}"
    );
    assert_eq!(f.kv(), kv_v2);

    // A rollback that stops after marking the record, while putting the
    // entries back, leaves the mark: the next deployment writes every key.
    f.fail("bulk put", "");
    let (code, _, err) = f.run(&["rollback", "--dealer", TINY]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(f.deployed(TINY)["release"], R2);
    assert_eq!(f.deployed(TINY)["switching_to"], R1);
}

#[test]
fn a_bad_deploy_config_is_named_by_file_line_and_key() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    let good = std::fs::read_to_string(f.config()).unwrap();
    let bad = good
        .replace("fedcba9876543210fedcba9876543210", "my-namespace")
        .replace("\"secondmotors.net\"", "\"https://secondmotors.net\"");
    std::fs::write(f.config(), bad).unwrap();
    let (code, out, err) = f.run(&["deploy", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!("bad_config", f.clean(&err));
    assert!(f.calls().is_empty());

    std::fs::write(f.config(), good.replace("[d1]\n", "[d1]\nid = 3\n")).unwrap();
    let (code, _, err) = f.run(&["deploy", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 1);
    assert!(
        f.clean(&err)
            .contains("error: deploy.toml:12: d1.id: unknown field `id`"),
        "{err}"
    );

    // A host in none of the zones.
    std::fs::write(f.config(), good.replace(", \"secondmotors.net\"", "")).unwrap();
    let (code, _, err) = f.run(&["deploy", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("dealer `second-dealer`: host api.secondmotors.net is in none of the zones"),
        "{err}"
    );

    // Placeholder ids: fine for a dry run, refused for a deployment.
    std::fs::write(
        f.config(),
        good.replace(
            "0123456789abcdef0123456789abcdef",
            "00000000000000000000000000000000",
        ),
    )
    .unwrap();
    assert_eq!(f.run(&["deploy", "--dealer", TINY, "--dry-run"]).0, 0);
    let (code, _, err) = f.run(&["deploy", "--dealer", TINY]);
    assert_eq!(code, 1);
    assert!(
        f.clean(&err)
            .contains("deploy.toml:1: account_id: still the placeholder id"),
        "{err}"
    );
}

#[test]
fn a_dealer_without_a_build_is_named() {
    let f = Fixture::new();
    let (code, _, err) = f.run(&["deploy", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("dealer `tiny-dealer` has no build to deploy")
            && err.contains("dealergen build --dealer tiny-dealer"),
        "{err}"
    );
    let (code, _, err) = f.run(&["deploy", "--dealer", "tiny-dealr", "--dry-run"]);
    assert_eq!(code, 1);
    assert!(err.contains("did you mean `tiny-dealer`?"), "{err}");
}

/// The real wrangler (the project's, from scripts/install.sh) checks the
/// generated configs with its own `deploy --dry-run`: offline, no account.
#[test]
fn wrangler_itself_accepts_the_generated_configs() {
    let root = repo_root();
    let wrangler = root.join("node_modules/.bin/wrangler");
    assert!(
        wrangler.is_file(),
        "{} is missing: run `bash scripts/install.sh` (this test needs the real wrangler)",
        wrangler.display()
    );
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.release(SECOND, R3, K3, "v1");
    let (code, out, err) = f.run_env(&["deploy", "--all", "--dry-run"], false);
    assert_eq!(code, 0, "{out}{err}");
    // And a pull request's preview config (the same worker, no routes).
    let (code, out, err) = f.run_env(
        &["deploy", "--preview", "pr-7", "--all", "--dry-run"],
        false,
    );
    assert_eq!(code, 0, "{out}{err}");
    let path = format!(
        "{}:{}",
        root.join("node_modules/node/bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (worker, expect) in [
        (
            "edge",
            vec![
                "env.CONFIG (fedcba9876543210fedcba9876543210)",
                "env.DB (dealergen)",
                "env.COUNTERS (DealerGate)",
                "env.LEAD_QUEUE (dealergen-leads)",
            ],
        ),
        (
            TINY,
            vec![
                "from the assets directory",
                "tiny-dealer/releases/20261120T010000Z-aaaaaaaaaaaa/dist",
            ],
        ),
        (
            SECOND,
            vec![
                "from the assets directory",
                "second-dealer/releases/20261123T020000Z-cccccccccccc/dist",
            ],
        ),
        (
            "preview/pr-7/tiny-dealer",
            vec![
                "from the assets directory",
                "tiny-dealer/releases/20261120T010000Z-aaaaaaaaaaaa/dist",
            ],
        ),
        // The previews' edge: the same worker with the previews' data.
        (
            "preview/pr-7/@edge",
            vec![
                "env.CONFIG (abababababababababababababababab)",
                "env.DB (dealergen-preview)",
                "env.LEAD_QUEUE (dealergen-leads-preview)",
                "env.SMS_PROVIDER (\"log\")",
            ],
        ),
    ] {
        let dir = f.sites().join(".deploy").join(worker);
        let out = Command::new(&wrangler)
            .args([
                "deploy",
                "--dry-run",
                "--config",
                "wrangler.json",
                "--outdir",
            ])
            .arg(f.path().join("bundle").join(worker.replace('/', "-")))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("XDG_CONFIG_HOME", f.path().join("xdg"))
            .env("WRANGLER_SEND_METRICS", "false")
            .env("CLOUDFLARE_CF_FETCH_ENABLED", "false")
            .env("CI", "true")
            .env_remove("CLOUDFLARE_API_TOKEN")
            .env_remove("CLOUDFLARE_ACCOUNT_ID")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success(),
            "wrangler refused {worker}'s config:\n{text}"
        );
        assert!(text.contains("--dry-run: exiting now."), "{text}");
        // Wrangler warns about fields it does not know: a generated config has none.
        assert!(
            !text.contains("WARNING") && !text.contains("Unexpected fields"),
            "{worker}:\n{text}"
        );
        for e in expect {
            assert!(text.contains(e), "{worker}: no `{e}` in:\n{text}");
        }
    }
}

/// CI deploys the platform once, then the dealers of each shard without it.
#[test]
fn edge_only_then_no_edge_split_the_platform_from_the_dealers() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    let (code, out, err) = f.run(&["deploy", "--edge-only"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 dealer(s) deployed"), "{out}");
    let calls = f.calls();
    assert!(
        calls.iter().any(|c| c.contains("d1 migrations apply")),
        "{calls:#?}"
    );
    assert!(
        calls.iter().any(|c| c.starts_with("[edge] deploy")),
        "{calls:#?}"
    );
    assert!(
        !calls.iter().any(|c| c.contains("[tiny-dealer]")),
        "{calls:#?}"
    );

    let (code, out, err) = f.run(&["deploy", "--changed", "--no-edge", "--shard", "1/1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("not part of this run (--no-edge)"), "{out}");
    let calls = f.calls();
    assert!(
        !calls
            .iter()
            .any(|c| c.contains("d1 migrations") || c.starts_with("[edge]")),
        "{calls:#?}"
    );
    assert!(
        calls.iter().any(|c| c.starts_with("[tiny-dealer] deploy")),
        "{calls:#?}"
    );
    // second-dealer has no build here: skipped, not an error.
    assert!(
        out.contains("dealer second-dealer: skip (no build in this checkout"),
        "{out}"
    );
}

/// A machine that has not built the edge worker still sees the dealers'
/// part of a dry run; the run says a deployment would stop, and exits 1.
#[test]
fn a_dry_run_without_the_edge_build_shows_the_dealers_and_says_it_would_stop() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    std::fs::remove_file(f.path().join("edge/build/worker/shim.mjs")).unwrap();
    let (code, out, err) = f.run(&["deploy", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("edge worker dealergen-edge: the edge worker is not built")
            && out.contains("run `bash scripts/edge/build.sh`; a deployment would stop here"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "dealer tiny-dealer: deploy release {R1} (never deployed)"
        )),
        "{out}"
    );
    // The real thing stops before asking anything of Cloudflare but the state.
    let (code, _, err) = f.run(&["deploy", "--dealer", TINY]);
    assert_eq!(code, 1);
    assert!(err.contains("the edge worker is not built"), "{err}");
    assert!(uploads(&f.calls()).is_empty());
}

/// What is deployed cannot be read (an outage, a token without KV rights):
/// a dry run says so and treats the dealer as changed; a deployment refuses
/// to go on, since it would lose the rollback point.
#[test]
fn unreadable_deploy_state_is_changed_for_a_dry_run_and_stops_a_deployment() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.fail("kv key get deployed:", "");
    let (code, out, err) = f.run(&["deploy", "--changed", "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("dealer tiny-dealer: deploy release 20261120T010000Z-aaaaaaaaaaaa (deployed key unknown (wrangler kv key get deployed:tiny-dealer failed:"), "{out}");
    assert!(out.contains("injected failure"), "{out}");
    f.calls();
    let (code, out, _) = f.run(&["deploy", "--changed"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAILED: what is deployed cannot be read (tiny-dealer); nothing was uploaded"),
        "{out}"
    );
    assert!(uploads(&f.calls()).is_empty());
}

/// A site Cloudflare would refuse (here a file over 25 MiB; or more files
/// than the plan allows: asset_limits) stops the deployment before any
/// upload, naming the dealer and the file; the dry run says so and fails.
#[test]
fn a_site_over_the_platform_limits_is_named_and_nothing_is_uploaded() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.release(SECOND, R3, K3, "v1");
    let huge = f
        .sites()
        .join(TINY)
        .join("releases")
        .join(R1)
        .join("dist/brochure.pdf");
    // 25 MiB and one byte, sparse: nothing is written to disk.
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(25 * 1024 * 1024 + 1)
        .unwrap();
    let (code, out, err) = f.run(&["deploy", "--all", "--dry-run"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "  OVER THE LIMITS: brochure.pdf is 25.0 MiB, over the 25 MiB a static asset may be"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "a deployment would stop now: over the Workers free plan's limits: tiny-dealer"
        ),
        "{out}"
    );
    let (code, out, err) = f.run(&["deploy", "--all"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "FAILED: over the Workers free plan's limits: tiny-dealer; nothing was uploaded"
        ),
        "{out}"
    );
    let calls = f.calls();
    assert!(uploads(&calls).is_empty(), "{calls:#?}");
    // Without the file, the same deployment goes out.
    std::fs::remove_file(&huge).unwrap();
    let (code, out, err) = f.run(&["deploy", "--all"]);
    assert_eq!(code, 0, "{out}{err}");
}

/// `deploy --preview pr-7`: each built dealer's site as a Worker Preview of
/// its site worker (its URL printed and written for the pull request's
/// comment), production's versions, routes and KV untouched; a dry run
/// calls nothing; `--remove` deletes the previews and passes over a dealer
/// that has none.
/// Production's workers (the previews' edge taken out) and production's KV.
fn production(f: &Fixture) -> (Value, Value) {
    let mut workers = f.load("workers.json");
    if let Some(w) = workers.as_object_mut() {
        w.remove("dealergen-edge-preview");
    }
    (workers, f.kv())
}

#[test]
fn a_preview_uploads_the_built_sites_beside_production_with_an_api_of_its_own_and_is_removed() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    f.release(SECOND, R3, K3, "v1");
    let (code, out, err) = f.run(&["deploy", "--all"]);
    assert_eq!(code, 0, "{out}{err}");
    // The pull request's build of tiny-dealer (v1 stock: with a car that
    // the next push no longer has); second-dealer is not built here.
    f.release(TINY, R2, K2, "v1");
    std::fs::remove_file(f.sites().join(SECOND).join("current")).unwrap();
    f.calls();
    let before = production(&f);

    // A dry run writes the configs and calls nothing, without a token.
    let (code, out, err) = f.run_env(
        &["deploy", "--preview", "pr-7", "--all", "--dry-run"],
        false,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("preview tiny-dealer: would run `wrangler preview --name pr-7` for worker dealergen-site-tiny-dealer")
            && out.contains("then put its API's dealer tiny-dealer--pr-7 in KV namespace abababababababababababababababab")
            && out.contains("previews' edge worker dealergen-edge-preview: would apply the D1 migrations to dealergen-preview"),
        "{out}"
    );
    assert!(f.calls().is_empty(), "a dry run called wrangler");
    let read = |rel: &str| -> Value {
        serde_json::from_str(
            &std::fs::read_to_string(f.sites().join(".deploy/preview/pr-7").join(rel)).unwrap(),
        )
        .unwrap()
    };
    let config = read("tiny-dealer/wrangler.json");
    assert_eq!(config["name"], "dealergen-site-tiny-dealer");
    // Its /api/* goes (the script first) to the previews' edge, bound for the preview only.
    assert_eq!(
        config["previews"],
        serde_json::json!({"services": [{"binding": "EDGE", "service": "dealergen-edge-preview"}]})
    );
    assert!(
        config["assets"]["run_worker_first"]
            .as_array()
            .unwrap()
            .contains(&"/api/*".into()),
        "{config}"
    );
    for production_only in ["routes", "workers_dev", "preview_urls", "services"] {
        assert!(
            config.get(production_only).is_none(),
            "{production_only} in {config}"
        );
    }
    // The previews' edge: production's code and bindings with data of its own.
    let edge = read("@edge/wrangler.json");
    assert_eq!(edge["name"], "dealergen-edge-preview");
    assert_eq!(edge["kv_namespaces"][0]["id"], PREVIEW_KV);
    assert_eq!(edge["d1_databases"][0]["database_id"], PREVIEW_D1);
    assert_eq!(edge["routes"], serde_json::json!([]));
    assert_eq!(edge["workers_dev"], false);
    assert_eq!(edge["vars"]["SMS_PROVIDER"], "log");
    assert_eq!(
        edge["queues"]["producers"][0]["queue"],
        "dealergen-leads-preview"
    );
    assert!(edge.get("secrets").is_none(), "{edge}");

    let (code, out, err) = f.run(&["deploy", "--preview", "pr-7", "--all"]);
    assert_eq!(code, 0, "{out}{err}");
    let url = "https://pr-7-dealergen-site-tiny-dealer.fake-account.workers.dev";
    assert!(
        out.contains(&format!(
            "preview tiny-dealer: {url} (its API: dealer tiny-dealer--pr-7"
        )),
        "{out}"
    );
    assert!(
        !out.contains("preview second-dealer"),
        "an unbuilt dealer is previewed: {out}"
    );
    let calls = f.calls();
    let expected = [
        "[@edge] d1 migrations apply DB --remote --config wrangler.json".to_string(),
        "[@edge] deploy --config wrangler.json --message dealergen 0.1.0 previews".to_string(),
        "[@edge] secret list --name dealergen-edge-preview --format json --config wrangler.json".to_string(),
        "[@edge] secret put SESSION_SECRET --name dealergen-edge-preview --config wrangler.json".to_string(),
        format!("[tiny-dealer] preview --config wrangler.json --name pr-7 --message dealergen tiny-dealer {R2} --json"),
    ];
    assert_eq!(&calls[..5], &expected, "{calls:#?}");
    assert!(
        calls[5..]
            .iter()
            .all(|c| c.starts_with("[state] kv ") && c.contains(PREVIEW_KV)),
        "{calls:#?}"
    );
    // The previews' edge: a new database gets every migration; a session secret of its own.
    assert_eq!(
        f.load(&format!("pending-{PREVIEW_D1}.json")),
        serde_json::json!([])
    );
    assert_eq!(
        f.load("secrets-dealergen-edge-preview.json"),
        serde_json::json!(["SESSION_SECRET"])
    );
    let previews = f.load("previews.json");
    let tiny = &previews["dealergen-site-tiny-dealer"]["pr-7"];
    assert!(
        tiny["assets"]
            .as_str()
            .unwrap()
            .ends_with(&format!("tiny-dealer/releases/{R2}/dist")),
        "{previews}"
    );
    // The preview's API: the dealer under an id of its own, reached from
    // the preview's address only, delivering leads nowhere.
    let kv = f.preview_kv();
    let dealer: Value =
        serde_json::from_str(kv["dealer:tiny-dealer--pr-7"].as_str().unwrap()).unwrap();
    assert_eq!(dealer["dealer"], "tiny-dealer--pr-7");
    assert_eq!(dealer["origins"], serde_json::json!([url]));
    assert_eq!(
        dealer["leads"],
        serde_json::json!({"email": null, "webhook_url": null})
    );
    assert_eq!(kv[format!("origin:{url}")], "tiny-dealer--pr-7");
    assert!(kv.get("car:tiny-dealer--pr-7:sold-car").is_some(), "{kv}");
    assert!(
        kv.as_object()
            .unwrap()
            .keys()
            .all(|k| k.contains("tiny-dealer--pr-7") || k == &format!("origin:{url}")),
        "{kv}"
    );
    assert_eq!(production(&f), before, "a preview changed production");
    let written: Value = serde_json::from_str(
        &std::fs::read_to_string(f.sites().join(".deploy/preview/pr-7/previews.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        written,
        serde_json::json!({"name": "pr-7", "dealers": {"tiny-dealer": url}})
    );

    // A second push updates the same preview; the car sold since leaves its API.
    f.release(TINY, R2, K2, "v2");
    let (code, out, err) = f.run(&["deploy", "--preview", "pr-7", "--dealer", TINY]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        f.load("previews.json")["dealergen-site-tiny-dealer"]["pr-7"]["deployments"],
        2
    );
    let kv = f.preview_kv();
    assert!(kv.get("car:tiny-dealer--pr-7:sold-car").is_none(), "{kv}");
    assert_eq!(kv["car:tiny-dealer--pr-7:car-1"], "{\"v\":\"v2\"}");

    // The pull request closes: every dealer's preview of that name goes,
    // with what its API had in KV.
    f.calls();
    let (code, out, err) = f.run(&["deploy", "--preview", "pr-7", "--remove", "--all"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(
            "preview tiny-dealer: removed (its API's dealer tiny-dealer--pr-7: 3 KV keys deleted)"
        ),
        "{out}"
    );
    assert!(
        out.contains("preview second-dealer: none to remove\n"),
        "{out}"
    );
    assert_eq!(
        f.load("previews.json")["dealergen-site-tiny-dealer"],
        serde_json::json!({})
    );
    assert_eq!(f.preview_kv(), serde_json::json!({}));
    assert_eq!(production(&f), before);
    assert!(
        f.calls().iter().all(|c| c
            .contains("preview delete --name pr-7 --worker-name dealergen-site-")
            || (c.contains(" kv ") && c.contains(PREVIEW_KV))),
        "only preview deletions"
    );

    // A failure that is not "none there" is named and fails the run.
    f.release(TINY, R2, K2, "v2");
    f.fail("preview --config", "tiny-dealer");
    let (code, _, err) = f.run(&["deploy", "--preview", "pr-7", "--dealer", TINY]);
    assert_eq!(code, 1);
    assert!(
        err.contains("preview tiny-dealer: wrangler preview failed")
            && err.contains("injected failure"),
        "{err}"
    );
    // The previews' edge failing: no preview is made (its API would be missing).
    f.fail("deploy --config", "@edge");
    f.calls();
    let (code, _, err) = f.run(&["deploy", "--preview", "pr-7", "--dealer", TINY]);
    assert_eq!(code, 1);
    assert!(
        err.contains("FAILED previews' edge worker dealergen-edge-preview: deploy")
            && err.contains("no preview was made"),
        "{err}"
    );
    assert!(
        !f.calls().iter().any(|c| c.contains("] preview --config")),
        "a preview was made without its API"
    );

    // Names wrangler and a workers.dev host would refuse are refused first.
    let (code, _, err) = f.run(&["deploy", "--preview", "PR 7", "--all"]);
    assert_ne!(code, 0);
    assert!(err.contains("is not a preview name"), "{err}");
    // A preview is not a production deployment's variant.
    let (code, _, err) = f.run(&["deploy", "--preview", "pr-7", "--changed"]);
    assert_eq!(code, 2, "{err}");
    // Without [preview], a preview is refused, naming what is missing.
    let cfg = std::fs::read_to_string(f.config()).unwrap();
    std::fs::write(f.config(), &cfg[..cfg.find("[preview]").unwrap()]).unwrap();
    let (code, _, err) = f.run(&["deploy", "--preview", "pr-7", "--all", "--dry-run"]);
    assert_ne!(code, 0);
    assert!(err.contains("no [preview] table"), "{err}");
}

/// The ads feeds go up with the site (they are files of its dist) and
/// their addresses on the site's host are printed, in the plan and after
/// the deployment, for the dealer to give Google and Meta.
#[test]
fn the_ads_feeds_are_deployed_with_the_site_and_their_addresses_printed() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    let feeds = f
        .sites()
        .join(TINY)
        .join("releases")
        .join(R1)
        .join("dist/feeds");
    std::fs::create_dir_all(&feeds).unwrap();
    std::fs::write(
        feeds.join("google-vehicle-ads.tsv"),
        "id\ttitle\n1\tA car\n",
    )
    .unwrap();
    std::fs::write(
        feeds.join("meta-vehicles.csv"),
        "vehicle_id,title\n1,A car\n",
    )
    .unwrap();

    let (code, out, err) = f.run(&["deploy", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    for line in [
        "  ads feed https://www.tinymotors.com.au/feeds/google-vehicle-ads.tsv (17 B)",
        "  ads feed https://www.tinymotors.com.au/feeds/meta-vehicles.csv (25 B)",
    ] {
        assert!(out.contains(line), "`{line}` missing:\n{out}");
    }
    let manifest =
        std::fs::read_to_string(f.sites().join(".deploy/tiny-dealer/assets.tsv")).unwrap();
    assert!(
        manifest.contains("feeds/google-vehicle-ads.tsv\t17\t"),
        "{manifest}"
    );

    let (code, out, err) = f.run(&["deploy", "--dealer", TINY]);
    assert_eq!(code, 0, "{out}{err}");
    let deployed = out
        .find("deployed tiny-dealer: release")
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        out[deployed..].contains(
            "\n  ads feed: https://www.tinymotors.com.au/feeds/google-vehicle-ads.tsv\n  ads feed: https://www.tinymotors.com.au/feeds/meta-vehicles.csv\n"
        ),
        "{out}"
    );
}

/// `dealergen status` with the deployment's credentials: the release
/// Cloudflare serves (KV, as the deployment recorded it) and the leads the
/// edge has not delivered (D1 through `wrangler d1 execute`, answered by
/// real SQLite with the edge's migrations); a delivery failing for hours
/// needs a person. Without the token it says what it could not read.
#[test]
fn status_reads_the_deployed_release_and_the_leads_not_delivered() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    let (code, out, err) = f.run(&["deploy", "--dealer", TINY]);
    assert_eq!(code, 0, "{out}{err}");
    // Leads as the edge stores them: one delivered, one failing since 3 hours, one pending just now.
    let sql = "INSERT INTO leads (id, dealer, category, payload, created_at, delivery_status, last_error) VALUES \
        ('l1', 'tiny-dealer', 'enquiry', '{}', strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-5 hours'), 'delivered', NULL), \
        ('l2', 'tiny-dealer', 'enquiry', '{}', strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-3 hours'), 'retrying', 'webhook: 502 Bad Gateway'), \
        ('l3', 'tiny-dealer', 'enquiry', '{}', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'pending', NULL)";
    let fake = f.path().join("bin/wrangler");
    let insert = Command::new(&fake)
        .args([
            "d1",
            "execute",
            "DB",
            "--remote",
            "--json",
            "--command",
            sql,
        ])
        .env("FAKE_WRANGLER_STATE", f.state())
        .env("CLOUDFLARE_API_TOKEN", "test-token-not-a-secret")
        .output()
        .unwrap();
    assert!(
        insert.status.success(),
        "{}",
        String::from_utf8_lossy(&insert.stderr)
    );

    let (code, out, err) = f.run(&["status", "--dealer", TINY, "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let s = &v[0];
    assert_eq!(code, 1, "a failing delivery needs a person: {s}");
    assert_eq!(s["release_deployed"]["release"], R1, "{s}");
    assert_eq!(s["release_deployed"]["is_built_release"], true, "{s}");
    assert_eq!(
        (
            s["leads"]["waiting"].as_u64(),
            s["leads"]["failing"].as_u64()
        ),
        (Some(2), Some(1)),
        "{s}"
    );
    assert_eq!(s["leads"]["last_error"], "webhook: 502 Bad Gateway");
    assert!(
        s["needs_person"].as_array().unwrap().iter().any(|n| n
            .as_str()
            .unwrap()
            .starts_with("1 lead(s) failing delivery, the oldest since")),
        "{s}"
    );
    assert_eq!(s["not_checked"], serde_json::json!([]), "{s}");

    let (_, out, _) = f.run_env(&["status", "--dealer", TINY, "--format", "json"], false);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["leads"], Value::Null);
    assert!(
        v[0]["not_checked"][0]
            .as_str()
            .unwrap()
            .ends_with("CLOUDFLARE_API_TOKEN is not set"),
        "{}",
        v[0]
    );
}

/// The account's Worker limit: the plan counts a site worker per dealer,
/// the edge and the previews' edge, prints it, and refuses before
/// uploading anything when the platform would pass the plan's limit (100
/// Workers on Free, 500 on Paid).
#[test]
fn the_dry_run_counts_the_accounts_workers_and_refuses_past_the_plans_limit() {
    let f = Fixture::new();
    f.release(TINY, R1, K1, "v1");
    let (code, out, err) = f.run(&["deploy", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Workers on the account: 4 of the Workers free plan's 100"),
        "{out}"
    );
    // 98 more dealers: 100 site workers, the edge and the previews' edge make 102.
    let tiny = std::fs::read_to_string(f.path().join("dealers/tiny-dealer.yaml")).unwrap();
    for i in 0..98 {
        let copy = tiny
            .replace("name: Tiny Motors\n", &format!("name: Tiny Motors {i}\n"))
            .replace(
                "https://www.tinymotors.com.au",
                &format!("https://d{i}.tinymotors.com.au"),
            );
        std::fs::write(f.path().join(format!("dealers/tiny-{i}.yaml")), copy).unwrap();
    }
    let (code, out, err) = f.run(&["deploy", "--dealer", TINY, "--dry-run"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("Workers on the account: 102 of the Workers free plan's 100"),
        "{out}"
    );
    assert!(
        out.contains("a deployment would stop now: the account would hold 102 Workers (one site worker per dealer, 100 dealers, and the edge and the previews' edge), over the Workers free plan's 100"),
        "{out}"
    );
    // What the dry runs asked (read-only) is set aside: the log from here is the real run's.
    let _ = f.calls();
    let (code, out, _) = f.run(&["deploy", "--dealer", TINY]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAILED: the account would hold 102 Workers")
            && out.contains("; nothing was uploaded"),
        "{out}"
    );
    let calls = f.calls();
    assert!(
        calls.iter().all(|c| !c.contains("deploy --config")
            && !c.contains("bulk put")
            && !c.contains("migrations apply")),
        "nothing uploaded: {calls:?}"
    );
}
