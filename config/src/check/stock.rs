//! The stock feed: it must be there when the site is built.

use std::path::Path;

use crate::model::StockConfig;

use super::{root, Ctx};

pub(super) fn check(stock: &StockConfig, dealer_dir: &Path, cx: &mut Ctx) {
    let feed = dealer_dir.join(&stock.feed);
    if !feed.is_file() {
        cx.err(
            &root().key("stock").key("feed"),
            format!("stock feed `{}` does not exist", stock.feed),
        )
        .hint = Some(format!(
            "the path is relative to the dealer file's folder; looked for {}",
            feed.display()
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at};

    #[test]
    fn the_feed_must_exist_next_to_the_dealer_file() {
        let p = problem_at("stock: { feed: missing.json }\n", "stock.feed");
        assert_eq!(p.message, "stock feed `missing.json` does not exist");
        assert!(p
            .hint
            .unwrap()
            .contains("relative to the dealer file's folder"));
        // A folder is not a feed.
        problem_at("stock: { feed: . }\n", "stock.feed");
        accepted("stock: { feed: stock.json }\n");
    }
}
