//! Which cars offer a trade-in valuation (docs/behaviour/content.md §4:
//! in stock, not coming soon, not reserved, priced over $200, and the
//! dealer offers trade-ins). The build decides it for each car page's
//! sidebar; the search cards decide it for each hit by the same cases
//! (rules/vectors/trade-in.json).

/// A valuation needs the car priced above this many dollars.
pub const MIN_PRICE: f64 = 200.0;

/// Whether `car` offers a trade-in valuation where the dealer's
/// `features.trade_in` is `offered`.
pub fn may_value(offered: bool, status: &str, reserved: bool, price: f64) -> bool {
    offered && status == "in_stock" && !reserved && price > MIN_PRICE
}
