//! `dealergen new`: a dealer file from a template preset (and an empty
//! stock feed), written only when it validates.

use anyhow::{bail, Context, Result};
use dealer_config::diagnostic::render_human;
use dealer_config::Loader;

use crate::project::Project;

pub fn run(project: &Project, slug: &str, template: &str, name: Option<&str>) -> Result<i32> {
    if slug.is_empty()
        || !slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        bail!("`{slug}` is not a valid slug: use lower-case letters, digits and dashes, e.g. gold-coast-kia");
    }
    let loader = Loader::new(project.presets_dir());
    let presets = loader.presets();
    if !presets.iter().any(|p| p == template) {
        bail!(
            "no template preset `{template}`; available: {}",
            presets.join(", ")
        );
    }
    let file = project.dealer_file(slug);
    if file.exists() {
        bail!("{} already exists", file.display());
    }
    let name = name.map(String::from).unwrap_or_else(|| {
        slug.split('-')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(" ")
    });
    let feed_rel = format!("stock/{slug}.json");
    let feed = project.dealers_dir.join(&feed_rel);
    let created_feed = !feed.exists();
    if created_feed {
        std::fs::create_dir_all(feed.parent().expect("has parent"))?;
        std::fs::write(&feed, "[]\n")?;
    }
    let text = crate::scaffold::dealer_yaml(slug, template, &name, &feed_rel);
    std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
    // The scaffold must validate; if it does not, leave nothing behind.
    if let Err(r) = loader.load(&file) {
        let _ = std::fs::remove_file(&file);
        if created_feed {
            let _ = std::fs::remove_file(&feed);
        }
        eprint!("{}", render_human(&r.diagnostics, &r.files));
        bail!(
            "the scaffold for `{slug}` did not validate (a bug in dealergen); nothing was written"
        );
    }
    println!("created {}", file.display());
    if created_feed {
        println!(
            "created {} (empty stock feed: point stock.feed at the real one)",
            feed.display()
        );
    }
    println!("next: edit the file, then `dealergen check --dealer {slug}` and `dealergen build --dealer {slug}`");
    Ok(0)
}
