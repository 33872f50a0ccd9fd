//! WIP
pub fn field_reference(_l: &dealer_config::Loader) -> anyhow::Result<String> {
    anyhow::bail!("not built yet")
}
