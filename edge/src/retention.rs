//! The cron's retention pass: what the edge has kept past the platform's
//! `retention_days` goes, a bounded batch a statement a run
//! (dealer_rules::retention: which rows, and never a lead that has not
//! reached the dealer). Failures are logged by the helper; the next run
//! tries again.

use dealer_rules::retention;
use worker::{console_error, Env};

use crate::api;
use crate::sql::{self, int, stmt};

pub async fn prune(env: &Env) {
    let Ok(db) = env.d1("DB") else { return };
    let var = env.var(retention::VAR).ok().map(|v| v.to_string());
    let days = retention::days(var.as_deref()).unwrap_or_else(|e| {
        console_error!("cron: {e}");
        retention::DEFAULT_DAYS
    });
    let cutoff = api::now().saturating_sub(u64::from(days) * 86_400);
    for (what, sql) in retention::STATEMENTS {
        let _ = sql::run(
            &db,
            what,
            stmt(sql, vec![int(cutoff), int(u64::from(retention::BATCH))]),
        )
        .await;
    }
}
