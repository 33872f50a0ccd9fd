//! WIP
use crate::project::Project;
use anyhow::Result;
pub fn run(_p: &Project, _a: crate::cli::DiffArgs) -> Result<i32> {
    anyhow::bail!("not built yet")
}
