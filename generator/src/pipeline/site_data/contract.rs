//! The JSON Schema of the data files the generator hands the Astro app;
//! astro-app's TypeScript types are generated from it.

use schemars::JsonSchema;

use super::page_table::PageEntry;
use super::SiteData;
use crate::pipeline::search_index::SearchIndex;
use crate::pipeline::stock::present::Car;

/// The data files in one document, so the schema (and the TypeScript
/// generated from it) names every type once.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, title = "SiteContract")]
#[allow(dead_code)] // only its schema is used
struct SiteContract {
    /// src/data/site.json
    site: SiteData,
    /// src/data/cars.json
    cars: Vec<Car>,
    /// src/data/pages.json: the page table, sorted by path
    pages: Vec<PageEntry>,
    /// src/data/search-index.json
    search_index: SearchIndex,
}

/// JSON Schema of `site.json` and `cars.json` as the generator writes them
/// (serialisation view: every field is always present). astro-app's
/// TypeScript types are generated from it (astro-app/src/types/).
pub fn contract_schema_text() -> String {
    let generator = schemars::generate::SchemaSettings::draft07()
        .for_serialize()
        .into_generator();
    let schema = generator.into_root_schema_for::<SiteContract>();
    let mut s = serde_json::to_string_pretty(&schema).expect("schema serialises");
    s.push('\n');
    s
}
