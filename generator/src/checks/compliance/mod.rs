//! The finance compliance check, run on every built page before a site is
//! published: any page that shows an interest rate or a repayment must show
//! the comparison rate beside it, at least as prominent, with the
//! comparison-rate warning (docs/behaviour/car-page.md §9 and Australian credit law: a rate
//! without its comparison rate is a misleading credit advertisement). A page
//! that breaks it fails the dealer's build, naming the page and the car;
//! the previous site stays up.
//!
//! ## The markup contract (what the site's finance components write)
//!
//! - `data-finance-block` on the element that groups one set of figures
//!   (the car's finance panel, a quote, the calculator).
//! - `data-finance="rate" | "repayment" | "comparison"` on each figure
//!   (for an `<input>`, its `value` is the figure), with one size class
//!   `fin-size-sm < fin-size-md < fin-size-lg < fin-size-xl` (the site's
//!   CSS gives each class its font size and nothing else sets a figure's).
//! - `data-finance="warning"` on the element holding
//!   [`COMPARISON_WARNING`](dealer_rules::finance_display::COMPARISON_WARNING).
//!
//! A block with a rate or repayment that holds a number must hold a
//! comparison figure with a percentage whose size class ranks at least as
//! high as every rate and repayment in it, and the warning. Figures outside
//! a block, without a size class, or under an inline font size fail:
//! their prominence cannot be judged from the HTML.
//!
//! Everything else a shopper reads (dealer comments, offers, disclaimers,
//! legal text) is scanned for stated rates ("5.99% p.a.", "0% finance") and
//! repayments ("finance from $99"): each needs a comparison rate in the same
//! paragraph (`patterns`), and the warning on the page.

mod page;
pub mod patterns;

use std::fmt;
use std::path::Path;

use rayon::prelude::*;

pub use page::{check_html, SIZES};

/// One page's problems.
#[derive(Debug, Clone, PartialEq)]
pub struct PageProblems {
    /// Site path, e.g. "/cars/2021-kia-rio-s-4711/".
    pub page: String,
    /// The car the page is about, for car pages.
    pub car: Option<String>,
    pub problems: Vec<String>,
}

/// Every non-compliant page of a dealer's built site.
#[derive(Debug, Clone, PartialEq)]
pub struct Violations {
    pub dealer: String,
    pub pages: Vec<PageProblems>,
}

/// How many pages the message lists in full (the count says the rest).
const LISTED: usize = 10;

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: finance compliance: {} page(s) show an interest rate or repayment without a compliant comparison rate; the site was not published",
            self.dealer,
            self.pages.len()
        )?;
        for p in self.pages.iter().take(LISTED) {
            let car = p
                .car
                .as_deref()
                .map(|c| format!(" (car {c})"))
                .unwrap_or_default();
            for problem in &p.problems {
                write!(f, "\n  {}: {}{car}: {problem}", self.dealer, p.page)?;
            }
        }
        if self.pages.len() > LISTED {
            write!(f, "\n  … and {} more page(s)", self.pages.len() - LISTED)?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

/// "cars/x/index.html" → ("/cars/x/", Some("x")).
fn page_and_car(rel: &Path) -> (String, Option<String>) {
    let rel = rel.to_string_lossy().replace('\\', "/");
    let page = match rel.strip_suffix("index.html") {
        Some(dir) => format!("/{dir}"),
        None => format!("/{rel}"),
    };
    let car = page
        .strip_prefix("/cars/")
        .and_then(|rest| rest.strip_suffix('/'))
        .filter(|slug| !slug.is_empty() && !slug.contains('/'))
        .map(String::from);
    (page, car)
}

/// Checks the given pages of a dealer's site, each as (its file relative
/// to the site's root, its HTML). The build passes only the pages its
/// published release did not have (`publish::known`).
pub fn check_pages<'a>(
    dealer: &str,
    pages: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<(), Violations> {
    let pages: Vec<(&str, &str)> = pages.collect();
    let bad: Vec<PageProblems> = pages
        .par_iter()
        .filter_map(|&(file, html)| {
            if !patterns::worth_parsing(html) {
                return None;
            }
            let problems = check_html(html);
            if problems.is_empty() {
                return None;
            }
            let (page, car) = page_and_car(Path::new(file));
            Some(PageProblems {
                page,
                car,
                problems,
            })
        })
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(Violations {
            dealer: dealer.to_string(),
            pages: bad,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_and_cars_are_named() {
        assert_eq!(
            page_and_car(Path::new("cars/2021-kia-rio-4711/index.html")),
            (
                "/cars/2021-kia-rio-4711/".into(),
                Some("2021-kia-rio-4711".into())
            )
        );
        assert_eq!(page_and_car(Path::new("index.html")), ("/".into(), None));
        assert_eq!(
            page_and_car(Path::new("404.html")),
            ("/404.html".into(), None)
        );
        assert_eq!(
            page_and_car(Path::new("finance/index.html")),
            ("/finance/".into(), None)
        );
    }

    #[test]
    fn a_site_with_one_bad_page_names_the_dealer_page_and_car() {
        let page =
            |file: &'static str, body: &str| (file, format!("<html><body>{body}</body></html>"));
        let mut pages = vec![
            page("index.html", "<p>Welcome. 10% off accessories.</p>"),
            page("cars/a-1/index.html", "<p>Great car.</p>"),
            page(
                "cars/b-2/index.html",
                "<p>Finance at 5.99% p.a. available.</p>",
            ),
        ];
        let check = |pages: &[(&'static str, String)]| {
            check_pages("demo", pages.iter().map(|(f, h)| (*f, h.as_str())))
        };
        let err = check(&pages).unwrap_err();
        assert_eq!(err.pages.len(), 1);
        assert_eq!(
            err.to_string(),
            "demo: finance compliance: 1 page(s) show an interest rate or repayment without a compliant comparison rate; the site was not published\n  \
             demo: /cars/b-2/ (car b-2): the text states “Finance at 5.99%” without a comparison rate in the same paragraph: “Finance at 5.99% p.a. available.”"
        );
        pages.pop();
        assert_eq!(check(&pages), Ok(()));
    }
}
