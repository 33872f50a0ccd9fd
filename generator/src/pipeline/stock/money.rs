//! How an amount of money reads on a page.

/// "$34,990".
pub fn dollars(amount: f64) -> String {
    let whole = amount.round() as i64;
    let digits = whole.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{}${out}", if whole < 0 { "-" } else { "" })
}
