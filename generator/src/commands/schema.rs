//! `dealergen schema`: the dealer file's JSON Schema, the site data's, or
//! the field reference (docs/dealer-yaml.md), printed or written.

use anyhow::{Context, Result};
use dealer_config::Loader;

use crate::project::Project;

pub fn schema_text() -> String {
    let mut s = serde_json::to_string_pretty(dealer_config::schema()).expect("schema serialises");
    s.push('\n');
    s
}

pub fn run(project: &Project, write: bool, site_data: bool, docs: bool) -> Result<i32> {
    let (text, path) = if docs {
        (
            crate::docs::field_reference(&Loader::new(project.presets_dir()))?,
            project.field_reference_file(),
        )
    } else if site_data {
        (
            crate::pipeline::site_data::contract_schema_text(),
            project.site_data_schema_file(),
        )
    } else {
        (schema_text(), project.schema_file())
    };
    if write {
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    } else {
        print!("{text}");
    }
    Ok(0)
}
