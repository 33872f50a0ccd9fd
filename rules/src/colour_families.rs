//! Colour families: the plain colour a shopper names ("white ute") for the
//! manufacturer's colour a feed carries ("Crystal White Pearl", "Eclipse
//! Black", "Gun Metallic"). The build maps every shown car's colour to its
//! family ([`family_of`]); the search index has the family as a facet
//! (Colour) and the keyword box reads a family word as that filter. A
//! colour no family claims is reported by the build, never silently left
//! out of every Colour filter; a dealer adds words to a family under
//! `search.colour_families`.
//!
//! The index and the Colour filter name a family by its label ("Silver/Grey");
//! astro-app/src/lib/search/vocabulary/intents.json (`colour_families`) has
//! the same labels with the words a shopper types for each, and a test
//! (generator's search_index) holds the two to the same list.

/// One colour family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColourFamily {
    /// Its id: the facet value and the key under `search.colour_families`.
    pub id: &'static str,
    /// As the Colour filter shows it.
    pub label: &'static str,
    /// Words that name the family outright ("white", "silver"): a colour
    /// with one of them is of this family, whatever else it says.
    pub plain: &'static [&'static str],
    /// Words of the trade's colour names that mean the family when no plain
    /// word does ("Glacier", "Eclipse", "Gunmetal").
    pub evocative: &'static [&'static str],
}

/// The families, in the order the Colour filter lists them.
pub const FAMILIES: &[ColourFamily] = &[
    ColourFamily {
        id: "white",
        label: "White",
        plain: &["white", "ivory", "alabaster"],
        evocative: &[
            "glacier",
            "arctic",
            "polar",
            "snow",
            "frost",
            "frosted",
            "chalk",
            "pearl",
            "ice",
            "cloud",
            "porcelain",
            "blizzard",
            "diamond",
            "moonstone",
        ],
    },
    ColourFamily {
        id: "black",
        label: "Black",
        plain: &["black", "ebony", "onyx"],
        evocative: &[
            "eclipse", "jet", "obsidian", "phantom", "nero", "ink", "caviar", "midnight", "night",
            "raven", "panther", "cosmic", "carbon",
        ],
    },
    ColourFamily {
        id: "grey",
        label: "Silver/Grey",
        plain: &["silver", "grey", "gray"],
        evocative: &[
            "graphite",
            "gunmetal",
            "gun",
            "charcoal",
            "titanium",
            "platinum",
            "steel",
            "slate",
            "magnetite",
            "magnetic",
            "tungsten",
            "chrome",
            "ash",
            "smoke",
            "storm",
            "pewter",
            "mercury",
            "concrete",
            "cement",
            "lunar",
            "meteor",
            "metal",
            "iron",
            "shadow",
            "machine",
            "sterling",
            "quicksilver",
        ],
    },
    ColourFamily {
        id: "blue",
        label: "Blue",
        plain: &["blue", "navy"],
        evocative: &[
            "azure",
            "cobalt",
            "sapphire",
            "aqua",
            "teal",
            "ocean",
            "marine",
            "denim",
            "indigo",
            "cyan",
            "lapis",
            "turquoise",
            "sky",
            "horizon",
            "lagoon",
            "deep sea",
        ],
    },
    ColourFamily {
        id: "red",
        label: "Red",
        plain: &["red", "maroon", "burgundy", "crimson"],
        evocative: &[
            "ruby",
            "scarlet",
            "cherry",
            "garnet",
            "wine",
            "flame",
            "vermilion",
            "lava",
            "rosso",
            "merlot",
            "claret",
            "magma",
        ],
    },
    ColourFamily {
        id: "green",
        label: "Green",
        plain: &["green", "olive", "khaki"],
        evocative: &[
            "emerald",
            "jade",
            "forest",
            "lime",
            "mint",
            "sage",
            "moss",
            "eucalyptus",
            "jungle",
            "racing green",
        ],
    },
    ColourFamily {
        id: "yellow",
        label: "Yellow/Orange",
        plain: &["yellow", "orange"],
        evocative: &[
            "amber",
            "mustard",
            "lemon",
            "tangerine",
            "sunburst",
            "saffron",
            "mango",
            "citrus",
            "sunset",
        ],
    },
    ColourFamily {
        id: "brown",
        label: "Brown/Bronze",
        plain: &["brown", "bronze", "copper"],
        evocative: &[
            "chocolate",
            "mocha",
            "coffee",
            "tan",
            "caramel",
            "chestnut",
            "mahogany",
            "rust",
            "cocoa",
            "espresso",
            "walnut",
            "earth",
            "terracotta",
        ],
    },
    ColourFamily {
        id: "beige",
        label: "Beige/Gold",
        plain: &["beige", "gold", "champagne", "cream"],
        evocative: &[
            "sand", "fawn", "latte", "desert", "sahara", "dune", "wheat", "stone",
        ],
    },
    ColourFamily {
        id: "purple",
        label: "Purple",
        plain: &["purple", "violet"],
        evocative: &["plum", "lilac", "lavender", "mauve", "magenta", "amethyst"],
    },
];

/// The family with this id.
pub fn family(id: &str) -> Option<&'static ColourFamily> {
    FAMILIES.iter().find(|f| f.id == id)
}

/// Whether `phrase` (lower case, words separated by spaces) starts at word `i` of `words`.
fn starts_at(words: &[String], i: usize, phrase: &str) -> bool {
    let want: Vec<&str> = phrase.split_whitespace().collect();
    !want.is_empty()
        && words.len() >= i + want.len()
        && want.iter().enumerate().all(|(k, w)| words[i + k] == *w)
}

/// Whether `phrase` occurs in `words` as whole words.
fn has_phrase(words: &[String], phrase: &str) -> bool {
    (0..words.len()).any(|i| starts_at(words, i, phrase))
}

/// The family of a feed's colour name, or None when no family claims it.
/// `extra` are the dealer's words per family id (`search.colour_families`),
/// read first: a dealer's "Pearl" under white wins over any built-in word.
/// Then, left to right, the first word that names a family outright (so
/// "Silver Pearl" is silver, "Deep Crystal Blue" blue); then the trade's
/// evocative words ("Glacier", "Eclipse", "Gun Metallic").
pub fn family_of<'a>(
    colour: &str,
    extra: impl IntoIterator<Item = (&'a str, &'a [String])>,
) -> Option<&'static str> {
    let words: Vec<String> = colour
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        return None;
    }
    for (id, list) in extra {
        if list.iter().any(|p| has_phrase(&words, &p.to_lowercase())) {
            if let Some(f) = family(id) {
                return Some(f.id);
            }
        }
    }
    // The family of the leftmost word (or phrase) some family lists.
    let first = |pick: fn(&ColourFamily) -> &'static [&'static str]| {
        (0..words.len()).find_map(|i| {
            FAMILIES
                .iter()
                .find(|f| pick(f).iter().any(|p| starts_at(&words, i, p)))
                .map(|f| f.id)
        })
    };
    first(|f| f.plain).or_else(|| first(|f| f.evocative))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(colour: &str) -> Option<&'static str> {
        family_of(colour, [])
    }

    #[test]
    fn the_trades_colour_names_fall_into_their_families() {
        for (colour, family) in [
            ("Arctic White", "white"),
            ("Glacier White", "white"),
            ("Crystal White Pearl", "white"),
            ("Glacier", "white"),
            ("Eclipse Black", "black"),
            ("Jet Black Mica", "black"),
            ("Eclipse", "black"),
            ("Silver Pearl", "grey"),
            ("Gun Metallic", "grey"),
            ("Graphite", "grey"),
            ("Magnetite Grey", "grey"),
            ("Deep Crystal Blue", "blue"),
            ("Soul Red Crystal", "red"),
            ("Burgundy", "red"),
            ("British Racing Green", "green"),
            ("Sunburst Yellow", "yellow"),
            ("Bronze Metallic", "brown"),
            ("Champagne Gold", "beige"),
            ("Royal Purple", "purple"),
            ("WHITE", "white"),
            ("silver/grey", "grey"),
        ] {
            assert_eq!(of(colour), Some(family), "{colour}");
        }
    }

    #[test]
    fn a_plain_word_beats_an_evocative_one_whatever_the_order() {
        // "Midnight" alone would be black; "Blue" names the family outright.
        assert_eq!(of("Midnight Blue"), Some("blue"));
        assert_eq!(of("Pearl Black"), Some("black"));
        assert_eq!(of("Storm Blue"), Some("blue"));
    }

    #[test]
    fn a_colour_no_family_claims_is_none_and_a_dealers_word_claims_it() {
        assert_eq!(of("Nebula"), None);
        assert_eq!(of(""), None);
        assert_eq!(of(" - "), None);
        let extra = [("purple".to_string(), vec!["Nebula".to_string()])];
        let with = |colour| {
            family_of(
                colour,
                extra.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
            )
        };
        assert_eq!(with("Nebula Pearl"), Some("purple"));
        // The dealer's words are read first.
        let pearl = [("beige".to_string(), vec!["pearl".to_string()])];
        assert_eq!(
            family_of(
                "Pearl",
                pearl.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
            ),
            Some("beige")
        );
        // A phrase matches whole words only.
        let phrase = [("green".to_string(), vec!["sea foam".to_string()])];
        let by_phrase = |c| family_of(c, phrase.iter().map(|(k, v)| (k.as_str(), v.as_slice())));
        assert_eq!(by_phrase("Sea Foam Metallic"), Some("green"));
        assert_eq!(by_phrase("Seafoam"), None);
    }

    #[test]
    fn ids_are_unique_and_no_word_is_in_two_families() {
        let mut seen = std::collections::BTreeMap::new();
        for f in FAMILIES {
            for w in f.plain.iter().chain(f.evocative) {
                if let Some(other) = seen.insert(*w, f.id) {
                    panic!("{w} is in {other} and {}", f.id);
                }
            }
        }
        let ids: std::collections::BTreeSet<_> = FAMILIES.iter().map(|f| f.id).collect();
        assert_eq!(ids.len(), FAMILIES.len());
    }
}
