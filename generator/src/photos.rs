//! The build's check of photos served by the site itself (a feed's photo
//! URL that is a site path, such as the demo dealers'): every size the
//! pages ask for (the photo as it is, the `src` width and each `srcset`
//! width of `images.url_template`) must be one of the site's public files,
//! or the shopper gets the not-found placeholder. Photos on an image host
//! are the host's business and are not checked.

use std::collections::BTreeMap;
use std::path::Path;

use dealer_config::images::photo_url;
use dealer_config::model::ImagesConfig;

use crate::stock::present::Car;

/// A photo file the pages would ask for that the site does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingPhoto {
    /// Site path, e.g. "/images/photos/suv-1-480.jpg".
    pub path: String,
    /// The first car showing it.
    pub car: String,
    /// How many cars show it.
    pub cars: usize,
}

impl std::fmt::Display for MissingPhoto {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let others = match self.cars {
            1 => String::new(),
            n => format!(" and {} other car(s)", n - 1),
        };
        write!(
            f,
            "photo `{}` (car {}{others}) is not in the site's public files; the page would show the not-found placeholder",
            self.path, self.car
        )
    }
}

/// Every size of every site-path photo of `cars` missing under `public`.
pub fn missing_local_photos(
    cars: &[Car],
    images: &ImagesConfig,
    public: &Path,
) -> Vec<MissingPhoto> {
    let template = images.url_template.as_deref();
    let mut widths: Vec<u32> = images.srcset_widths.clone();
    widths.push(images.width);
    let mut found: BTreeMap<String, bool> = BTreeMap::new();
    let mut missing: BTreeMap<String, MissingPhoto> = BTreeMap::new();
    for car in cars {
        let mut seen_here = std::collections::HashSet::new();
        for url in &car.images {
            if !url.starts_with('/') || url.starts_with("//") {
                continue;
            }
            let mut sizes = vec![url.clone()];
            sizes.extend(
                widths
                    .iter()
                    .map(|w| photo_url(template, url, *w, images.quality)),
            );
            for size in sizes {
                let path = size.split(['?', '#']).next().unwrap_or(&size).to_string();
                let exists = *found
                    .entry(path.clone())
                    .or_insert_with(|| public.join(path.trim_start_matches('/')).is_file());
                if exists || !seen_here.insert(path.clone()) {
                    continue;
                }
                missing
                    .entry(path.clone())
                    .and_modify(|m| m.cars += 1)
                    .or_insert(MissingPhoto {
                        path,
                        car: car.slug.clone(),
                        cars: 1,
                    });
            }
        }
    }
    missing.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site_data::test_support::cars;

    #[test]
    fn every_size_the_pages_ask_for_must_be_a_public_file() {
        let dir = tempfile::tempdir().unwrap();
        let public = dir.path();
        std::fs::create_dir_all(public.join("images/photos")).unwrap();
        for f in ["suv-1.jpg", "suv-1-480.jpg", "suv-1-640.jpg"] {
            std::fs::write(public.join("images/photos").join(f), b"x").unwrap();
        }
        let mut shown = cars(&[("Kia", "used"), ("Kia", "new")]);
        for c in &mut shown {
            c.images = vec![
                "/images/photos/suv-1.jpg".into(),
                "https://cdn.example.com/a.jpg".into(),
            ];
        }
        let images = ImagesConfig {
            url_template: Some("{base}-{width}.{ext}".into()),
            width: 640,
            quality: 75,
            srcset_widths: vec![480, 960],
        };
        let missing = missing_local_photos(&shown, &images, public);
        assert_eq!(missing.len(), 1, "{missing:?}");
        assert_eq!(missing[0].path, "/images/photos/suv-1-960.jpg");
        assert_eq!((missing[0].car.as_str(), missing[0].cars), ("c-0", 2));
        assert!(missing[0].to_string().contains("and 1 other car(s)"));
        // Without a template only the photo itself is asked for.
        let plain = ImagesConfig {
            url_template: None,
            ..images
        };
        assert!(missing_local_photos(&shown, &plain, public).is_empty());
    }
}
