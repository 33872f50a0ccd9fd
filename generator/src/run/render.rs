//! Writes a generated Astro project, a dealer's own (`sites/<slug>/`) or a
//! batch of dealers (`sites/.batch-<n>/`, the `batch` module): the thin files
//! from `templates/site/` (`*.j2` rendered with minijinja, strict undefined
//! so a typo is an error; every other file copied as it is), a copy of the
//! shared app (`app/`, whose `src/routes/` are the pages of both kinds) and
//! the data the pages read (`src/data/`).
//!
//! Dealer data travels as JSON files, never spliced into code. What a
//! template does print is written as a JSON literal (see `environment`),
//! so no value, however hostile, can become code in the generated project.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use minijinja::{Environment, Error, ErrorKind, UndefinedBehavior};
use serde::Serialize;
use walkdir::WalkDir;

use crate::project::Project;

/// Values the site templates may print (each as a JSON literal).
#[derive(Debug, Serialize)]
pub struct TemplateContext {
    /// What the project builds, for the header of its generated files: a
    /// dealer's slug, or "a batch of N dealers".
    pub project: String,
}

/// Folder of the shared app inside each generated project. Astro treats
/// files outside the project whose only common ancestor with it is `/` as
/// project-relative (a build in /tmp of an app in /work fails with "No
/// cached compile metadata"), so the app is copied in rather than referenced.
pub const APP_DIR: &str = "app";

/// The parts of astro-app a site build reads.
pub const APP_PARTS: [&str; 2] = ["src", "public"];

/// The template environment. Its formatter prints every value as a JSON
/// literal, with the characters that could end a JavaScript comment or an
/// HTML context escaped, whatever the template around it does: `{{ x }}`
/// is a quoted, escaped string, and there is no `|safe` way around it.
pub fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_keep_trailing_newline(true);
    env.set_formatter(|out, _state, value| {
        let json = serde_json::to_string(value).map_err(|e| {
            Error::new(
                ErrorKind::BadSerialization,
                "a template value cannot be written as JSON",
            )
            .with_source(e)
        })?;
        out.write_str(&js_safe(&json)).map_err(Error::from)
    });
    env
}

/// JSON that stays one literal in any JavaScript or HTML context: the
/// line separators end a `//` comment, `<`/`>`/`&` matter inside HTML, and
/// `'` inside a single-quoted string.
fn js_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '\u{2028}' | '\u{2029}' | '<' | '>' | '&' | '\'' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// Renders the project into `site_dir`, with `data` (paths under
/// `src/data/`, and their text). Only files whose bytes differ are written,
/// and files of `src/` and `app/` that this project no longer has are
/// removed, so nothing of an earlier build lingers and an unchanged file
/// keeps its modification time: `dealergen dev`'s live preview runs
/// `astro dev` on a project written this way, and a rewritten file is a
/// change its watcher acts on (a rewritten astro.config.mjs restarts it).
/// The output and the page cache (`.astro-cache/`) are not touched here.
pub fn write_project<N: AsRef<str>>(
    project: &Project,
    site_dir: &Path,
    ctx: &TemplateContext,
    data: &[(N, String)],
) -> Result<()> {
    let templates = project.site_templates_dir();
    let env = environment();
    std::fs::create_dir_all(site_dir)
        .with_context(|| format!("cannot create {}", site_dir.display()))?;
    let mut kept = Kept::default();

    let mut count = 0;
    for entry in WalkDir::new(&templates).sort_by_file_name() {
        let entry = entry.with_context(|| format!("cannot read {}", templates.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(&templates)
            .expect("walkdir yields children");
        let rel_str = rel.to_string_lossy().replace('\\', "/");
        let source = std::fs::read_to_string(entry.path())
            .with_context(|| format!("cannot read template {}", entry.path().display()))?;
        // Only *.j2 files are templates: an .astro page full of `{{ }}`
        // JSX must reach Astro untouched.
        let (out_rel, text) = match rel_str.strip_suffix(".j2") {
            Some(out_rel) => (
                out_rel.to_string(),
                env.render_str(&source, ctx)
                    .map_err(|e| anyhow::anyhow!("template {}: {e:#}", entry.path().display()))?,
            ),
            None => (rel_str.clone(), source),
        };
        kept.write(&site_dir.join(&out_rel), text.as_bytes())?;
        count += 1;
    }
    anyhow::ensure!(
        count > 0,
        "no site templates found in {}",
        templates.display()
    );

    kept.write(
        &site_dir.join("package.json"),
        site_package_json(project)?.as_bytes(),
    )?;
    for part in APP_PARTS {
        kept.tree(
            &project.astro_app_dir().join(part),
            &site_dir.join(APP_DIR).join(part),
            part == "public",
        )?;
    }
    for (name, json) in data {
        kept.write(
            &site_dir.join("src/data").join(name.as_ref()),
            json.as_bytes(),
        )?;
    }
    for fresh in ["src", APP_DIR] {
        kept.remove_others(&site_dir.join(fresh))?;
    }
    link_node_modules(project, site_dir)?;
    Ok(())
}

/// The files a project write put in place (written, or found already
/// holding the same bytes), so that the others can go.
#[derive(Default)]
struct Kept(std::collections::HashSet<PathBuf>);

impl Kept {
    /// `bytes` into `path`, unless it already holds them.
    fn write(&mut self, path: &Path, bytes: &[u8]) -> Result<()> {
        if std::fs::read(path).ok().as_deref() != Some(bytes) {
            write_file(path, bytes)?;
        }
        self.0.insert(path.to_path_buf());
        Ok(())
    }

    /// The files under `from` into `to` (see [`copy_or_link_tree`]), each
    /// left alone when it is already the same file or the same bytes.
    fn tree(&mut self, from: &Path, to: &Path, link: bool) -> Result<()> {
        each_file(from, to, |source, target| {
            self.0.insert(target.to_path_buf());
            if same_file(source, target) {
                return Ok(());
            }
            if !link && std::fs::read(source).ok() == std::fs::read(target).ok() {
                return Ok(());
            }
            if std::fs::symlink_metadata(target).is_ok() {
                std::fs::remove_file(target)
                    .with_context(|| format!("cannot replace {}", target.display()))?;
            }
            place(source, target, link)
        })
    }

    /// Removes the files under `dir` that were not put in place, and the
    /// folders left empty.
    fn remove_others(&self, dir: &Path) -> Result<()> {
        if !dir.exists() {
            return Ok(());
        }
        for entry in WalkDir::new(dir).contents_first(true) {
            let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
            let path = entry.path();
            if entry.file_type().is_dir() {
                if path != dir && std::fs::read_dir(path)?.next().is_none() {
                    std::fs::remove_dir(path)
                        .with_context(|| format!("cannot remove {}", path.display()))?;
                }
            } else if !self.0.contains(path) {
                std::fs::remove_file(path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
            }
        }
        Ok(())
    }
}

/// Whether `a` and `b` are one file (a hard link of the other).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    let _ = (a, b);
    false
}

/// `from` at `to`: a hard link when `link` and the file system allows, else a copy.
fn place(from: &Path, to: &Path, link: bool) -> Result<()> {
    if link && std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))
}

/// The site's own package.json: the runtime dependencies of the checkout's
/// (Astro, its React integration, React). Astro bundles the integrations
/// it finds in the project's package.json; without one next to a site
/// outside the checkout, `@astrojs/react`'s renderer stays external and the
/// build fails with "Received protocol 'astro:'".
pub(crate) fn site_package_json(project: &Project) -> Result<String> {
    let path = project.root.join("package.json");
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read {} (the Node toolchain of the checkout)",
            path.display()
        )
    })?;
    let root: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not valid JSON", path.display()))?;
    let dependencies = root
        .get("dependencies")
        .filter(|d| d.is_object())
        .with_context(|| format!("{} has no \"dependencies\" object", path.display()))?;
    let site = serde_json::json!({
        "name": "dealergen-site",
        "private": true,
        "type": "module",
        "description": "Generated by dealergen; dependencies are those of the checkout's package.json, linked through node_modules.",
        "dependencies": dependencies,
    });
    Ok(serde_json::to_string_pretty(&site)? + "\n")
}

pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Copies the files under `from` to `to`, keeping the folder layout, with
/// hard links instead of copies when `link` (and the file system allows):
/// the shared app's photos are most of a project's bytes, and nothing
/// writes to them in place.
pub(crate) fn copy_or_link_tree(from: &Path, to: &Path, link: bool) -> Result<()> {
    each_file(from, to, |source, target| place(source, target, link))
}

/// Walks the files under `from`, creating their folders under `to`, and
/// calls `file(source, target)` for each. A linked folder (the root of
/// `from` may be a symlink) is a folder.
fn each_file(
    from: &Path,
    to: &Path,
    mut file: impl FnMut(&Path, &Path) -> Result<()>,
) -> Result<()> {
    for entry in WalkDir::new(from) {
        let entry = entry.with_context(|| format!("cannot read {}", from.display()))?;
        let rel = entry
            .path()
            .strip_prefix(from)
            .expect("walkdir yields children");
        let target = to.join(rel);
        if entry.file_type().is_dir() || (entry.path_is_symlink() && entry.path().is_dir()) {
            std::fs::create_dir_all(&target)
                .with_context(|| format!("cannot create {}", target.display()))?;
        } else {
            file(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Every site shares the one node_modules at the root (no install per dealer).
pub(crate) fn link_node_modules(project: &Project, site_dir: &Path) -> Result<()> {
    let link = site_dir.join("node_modules");
    let target: PathBuf = project.node_modules();
    if std::fs::symlink_metadata(&link).is_ok() {
        if std::fs::read_link(&link).ok().as_deref() == Some(target.as_path()) {
            return Ok(());
        }
        std::fs::remove_file(&link).or_else(|_| std::fs::remove_dir_all(&link))?;
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, &link)
        .with_context(|| format!("cannot link {}", link.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str =
        "x'});\"\n</script><script>alert(1)</script>\u{2028}process.exit(7)//`${1}`";

    fn render(template: &str, value: &str) -> String {
        environment()
            .render_str(template, minijinja::context! { value })
            .unwrap()
    }

    /// A checkout with one template, one app source and one public file.
    fn checkout() -> (tempfile::TempDir, Project) {
        let root = tempfile::tempdir().unwrap();
        let files = [
            ("templates/site/astro.config.mjs.j2", "// {{ project }}\n"),
            ("templates/site/src/env.d.ts", "/// types\n"),
            ("astro-app/src/lib/a.ts", "export const a = 1;\n"),
            ("astro-app/public/photo.jpg", "jpeg"),
            ("package.json", r#"{"dependencies":{"astro":"7"}}"#),
        ];
        for (rel, text) in files {
            let path = root.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let project = Project::new(root.path());
        (root, project)
    }

    fn mtime(path: &Path) -> std::time::SystemTime {
        std::fs::metadata(path).unwrap().modified().unwrap()
    }

    #[test]
    fn a_second_write_leaves_unchanged_files_alone_and_removes_what_went() {
        let (root, project) = checkout();
        let site = root.path().join("sites/x");
        let ctx = TemplateContext {
            project: "x".into(),
        };
        let data = [
            ("site.json", "{}".to_string()),
            ("cars.json", "[]".to_string()),
        ];
        write_project(&project, &site, &ctx, &data).unwrap();
        let config = site.join("astro.config.mjs");
        assert_eq!(std::fs::read_to_string(&config).unwrap(), "// \"x\"\n");
        // A stray file in src/ (an earlier build's) and one in app/.
        std::fs::write(site.join("src/data/old.json"), "{}").unwrap();
        std::fs::create_dir_all(site.join("app/src/gone")).unwrap();
        std::fs::write(site.join("app/src/gone/b.ts"), "").unwrap();
        let before = [
            config.clone(),
            site.join("app/src/lib/a.ts"),
            site.join("src/data/site.json"),
        ]
        .map(|p| mtime(&p));
        std::thread::sleep(std::time::Duration::from_millis(20));
        let data = [
            ("site.json", "{}".to_string()),
            ("cars.json", "[1]".to_string()),
        ];
        write_project(&project, &site, &ctx, &data).unwrap();
        let after = [
            config.clone(),
            site.join("app/src/lib/a.ts"),
            site.join("src/data/site.json"),
        ]
        .map(|p| mtime(&p));
        assert_eq!(before, after, "unchanged files were rewritten");
        assert_eq!(
            std::fs::read_to_string(site.join("src/data/cars.json")).unwrap(),
            "[1]"
        );
        assert!(!site.join("src/data/old.json").exists());
        assert!(
            !site.join("app/src/gone").exists(),
            "an emptied folder stays"
        );
        assert_eq!(
            std::fs::read(site.join("app/public/photo.jpg")).unwrap(),
            b"jpeg"
        );
        // A changed public file is replaced, not written through its link.
        std::fs::remove_file(project.public_dir().join("photo.jpg")).unwrap();
        std::fs::write(project.public_dir().join("photo.jpg"), "png").unwrap();
        write_project(&project, &site, &ctx, &data).unwrap();
        assert_eq!(
            std::fs::read(site.join("app/public/photo.jpg")).unwrap(),
            b"png"
        );
    }

    #[test]
    fn every_printed_value_is_one_escaped_json_literal() {
        let out = render("const v = {{ value }};", HOSTILE);
        assert_eq!(
            out,
            r#"const v = "x\u0027});\"\n\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e\u2028process.exit(7)//`${1}`";"#
        );
        // It reads back as the very same text.
        let literal = out
            .strip_prefix("const v = ")
            .unwrap()
            .strip_suffix(';')
            .unwrap();
        assert_eq!(serde_json::from_str::<String>(literal).unwrap(), HOSTILE);
    }

    #[test]
    fn a_value_cannot_leave_a_comment_or_be_marked_safe() {
        let out = render("// for {{ value }}\n", "a\u{2028}b\nc");
        assert_eq!(out.lines().count(), 1, "{out:?}");
        assert!(!out.contains('\u{2028}'));
        assert_eq!(render("{{ value|safe }}", "a'b"), r#""a\u0027b""#);
    }

    #[test]
    fn an_undefined_value_is_an_error_not_an_empty_string() {
        let err = environment()
            .render_str("{{ missing }}", minijinja::context! {})
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UndefinedError);
    }
}
