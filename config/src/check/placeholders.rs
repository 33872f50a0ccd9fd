//! The placeholders `dealergen new` writes (its scaffold marks each with a
//! `# CHANGE ME` comment: the site address, phone, e-mail, a street) still
//! in a dealer file: each is a warning at its value, so a new dealer's site
//! never goes live with `(07) 3000 0000` without anybody being told. YAML
//! comments are not in the parsed tree, so the file's text is read for the
//! mark and the tree for the key on that line.

use super::KeyPath;
use crate::diagnostic::Problem;
use crate::yaml::{Node, Span};

/// The mark the scaffold puts beside each placeholder.
pub const MARK: &str = "CHANGE ME";

/// A warning for each value on a line whose comment says [`MARK`].
pub(crate) fn check(tree: &Node, text: &str) -> Vec<Problem> {
    let marked: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| line.split_once('#').is_some_and(|(_, c)| c.contains(MARK)))
        .map(|(i, _)| i + 1)
        .collect();
    if marked.is_empty() {
        return Vec::new();
    }
    let mut values = Vec::new();
    scalars(tree, &mut KeyPath::default(), &mut values);
    marked
        .iter()
        .filter_map(|line| values.iter().find(|(_, span)| span.line == *line))
        .map(|(key, span)| {
            Problem::warning(
                *span,
                key.to_string(),
                format!("`{key}` is still the placeholder `dealergen new` wrote (marked {MARK})"),
            )
            .hint("set the dealer's own value and remove the CHANGE ME comment before the site goes live")
        })
        .collect()
}

/// Every scalar value of `node` with its key path, in file order.
fn scalars(node: &Node, path: &mut KeyPath, out: &mut Vec<(KeyPath, Span)>) {
    match node {
        Node::Map(entries, _) => {
            for (key, value) in entries {
                path.push_key(&key.name);
                scalars(value, path, out);
                path.pop();
            }
        }
        Node::Seq(items, _) => {
            for (i, item) in items.iter().enumerate() {
                path.push_index(i);
                scalars(item, path, out);
                path.pop();
            }
        }
        Node::Scalar(_, span) => out.push((path.clone(), *span)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<Problem> {
        let tree = crate::yaml::parse(text, 0).unwrap();
        check(&tree, text)
    }

    #[test]
    fn each_marked_placeholder_is_a_warning_at_its_key() {
        let found = problems(
            "name: X\ncontact:\n  phone: (07) 3000 0000   # CHANGE ME\n  email: a@b.au\nlocations:\n  - address:\n      street: 1 Example St   # CHANGE ME: the street\n",
        );
        let at: Vec<(String, usize)> = found.iter().map(|p| (p.key.clone(), p.span.line)).collect();
        assert_eq!(
            at,
            [
                ("contact.phone".to_string(), 3),
                ("locations[0].address.street".to_string(), 7)
            ]
        );
        assert!(found.iter().all(|p| p.severity == crate::Severity::Warning));
        assert!(found[0]
            .message
            .contains("`contact.phone` is still the placeholder"));
    }

    #[test]
    fn a_file_without_the_mark_is_quiet() {
        assert!(problems("name: CHANGE ME Motors\ncontact: { phone: 07 3000 0000 }\n").is_empty());
    }
}
