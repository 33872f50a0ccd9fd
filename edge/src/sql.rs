//! D1 statements through a few boxed, non-generic helpers that answer rows
//! as JSON values. Each typed `first::<Row>()` call site instantiates its
//! own copy of D1's result decoding and of the future polling it; sharing
//! one copy keeps the worker (shipped to every edge location) small.

use std::future::Future;
use std::pin::Pin;

use dealer_edge_core::http::ApiError;
use serde_json::Value;
use worker::wasm_bindgen::JsValue;
use worker::D1Database;

use crate::internal;

pub type Boxed<'a, T> = Pin<Box<dyn Future<Output = Result<T, ApiError>> + 'a>>;

/// A statement and its parameters (`?1`, `?2`...).
pub struct Stmt<'a> {
    pub sql: &'a str,
    pub params: Vec<JsValue>,
}

pub fn stmt(sql: &str, params: Vec<JsValue>) -> Stmt<'_> {
    Stmt { sql, params }
}

/// The first row, if any. `what` names the statement in the log.
pub fn first<'a>(db: &'a D1Database, what: &'static str, s: Stmt<'a>) -> Boxed<'a, Option<Value>> {
    Box::pin(async move {
        db.prepare(s.sql)
            .bind(&s.params)
            .map_err(internal(what))?
            .first::<Value>(None)
            .await
            .map_err(internal(what))
    })
}

/// Every row.
pub fn all<'a>(db: &'a D1Database, what: &'static str, s: Stmt<'a>) -> Boxed<'a, Vec<Value>> {
    Box::pin(async move {
        db.prepare(s.sql)
            .bind(&s.params)
            .map_err(internal(what))?
            .all()
            .await
            .map_err(internal(what))?
            .results::<Value>()
            .map_err(internal(what))
    })
}

/// Runs a statement for its effect.
pub fn run<'a>(db: &'a D1Database, what: &'static str, s: Stmt<'a>) -> Boxed<'a, ()> {
    Box::pin(async move {
        db.prepare(s.sql)
            .bind(&s.params)
            .map_err(internal(what))?
            .run()
            .await
            .map_err(internal(what))?;
        Ok(())
    })
}

/// Statements in one transaction; the rows each returned.
pub fn batch<'a>(
    db: &'a D1Database,
    what: &'static str,
    stmts: Vec<Stmt<'a>>,
) -> Boxed<'a, Vec<Vec<Value>>> {
    Box::pin(async move {
        let mut prepared = Vec::with_capacity(stmts.len());
        for s in stmts {
            prepared.push(db.prepare(s.sql).bind(&s.params).map_err(internal(what))?);
        }
        let results = db.batch(prepared).await.map_err(internal(what))?;
        Ok(results
            .iter()
            .map(|r| r.results::<Value>().unwrap_or_default())
            .collect())
    })
}

/// A text column.
pub fn text<'v>(row: &'v Value, column: &str) -> Option<&'v str> {
    row.get(column).and_then(Value::as_str)
}

/// A whole-number column (D1 answers numbers as JSON numbers).
pub fn number(row: &Value, column: &str) -> Option<u64> {
    row.get(column)
        .and_then(Value::as_f64)
        .filter(|n| *n >= 0.0)
        .map(|n| n as u64)
}

/// A unix time or count as a D1 parameter.
pub fn int(n: u64) -> JsValue {
    JsValue::from(n as f64)
}

/// An optional text parameter (NULL when absent).
pub fn opt(v: Option<&str>) -> JsValue {
    v.map_or(JsValue::NULL, JsValue::from)
}
