//! Photos served by the site itself (a feed's photo URL that is a site
//! path, such as the demo dealers'). Every size the pages ask for (the
//! photo as it is, and with `images.url_template` the `src` width and each
//! `srcset` width) that is a site path must be one of the site's public
//! files: the publish step refuses a site with a dead link, so one missing
//! file would keep the whole site (every car, every price) from
//! publishing. A shown car's photo that the site cannot serve is therefore
//! left out of the car, with a feed warning naming the car and the file,
//! before any page or the search index is made; the car keeps its page
//! (with the site's no-photo placeholder when it has no photo left).
//!
//! Sizes on an image host (a template such as
//! `https://img.example.com{url}?w={width}`) are the host's business and
//! are not looked for among the public files. The photo itself is still a
//! site path there: the host resizes the site's file, and the pages name
//! it as it is (Open Graph, JSON-LD), so it must exist all the same.

use std::collections::HashMap;
use std::path::Path;

use dealer_config::images::photo_url;
use dealer_config::model::ImagesConfig;

use super::feed::decode::Shape;
use super::feed::{Effect, FeedCar, FeedWarning, FieldProblem};
use crate::pipeline::url_path::percent_decode;

/// What a photo left out of a car was expected to be.
const SITE_PHOTO: Shape = Shape(
    "a site path of a file in the site's public files (astro-app/public), in every size `images.url_template` makes of it, or a photo URL on an image host",
);

/// Leaves out of `cars` every photo the pages would ask the site for that
/// is not under `public` (in one of its sizes), and says so per photo.
/// `photos_count` is left as the feed gave it: the visibility rules and
/// the browser's search judged the car by it, and a missing file must not
/// hide a car the dealer listed.
pub fn drop_missing_local_photos(
    cars: &mut [FeedCar],
    images: &ImagesConfig,
    public: &Path,
) -> Vec<FeedWarning> {
    let mut widths: Vec<u32> = images.srcset_widths.clone();
    widths.push(images.width);
    widths.sort_unstable();
    widths.dedup();
    let mut exists: HashMap<String, bool> = HashMap::new();
    let mut warnings = Vec::new();
    for car in cars {
        car.images.retain(|url| {
            let Some(missing) = missing_size(url, images, &widths, public, &mut exists) else {
                return true;
            };
            let found = match missing {
                Missing::Photo => format!("\"{url}\", a file the site's public files do not have"),
                Missing::Size { width, path } => format!(
                    "\"{url}\", whose {width} px size {path} (images.url_template) the site's public files do not have"
                ),
            };
            warnings.push(FeedWarning {
                record: car.record.clone(),
                problem: FieldProblem {
                    field: "images".into(),
                    found,
                    expected: SITE_PHOTO,
                    effect: Effect::PhotoLeftOut,
                },
            });
            false
        });
    }
    warnings
}

/// Which file of a photo the site does not have.
#[derive(Debug, PartialEq, Eq)]
enum Missing {
    /// The photo as the feed names it.
    Photo,
    /// One of the sizes `images.url_template` makes of it.
    Size { width: u32, path: String },
}

/// The first file of `url` the pages would ask the site for that `public`
/// does not have; None for a photo on an image host or one that is complete.
fn missing_size(
    url: &str,
    images: &ImagesConfig,
    widths: &[u32],
    public: &Path,
    exists: &mut HashMap<String, bool>,
) -> Option<Missing> {
    if !is_site_path(url) {
        return None;
    }
    let mut has = |size: &str| -> bool {
        let path = size.split(['?', '#']).next().unwrap_or(size);
        *exists
            .entry(path.to_string())
            .or_insert_with(|| public_file(public, path))
    };
    if !has(url) {
        return Some(Missing::Photo);
    }
    let template = images.url_template.as_deref();
    widths.iter().find_map(|&width| {
        let size = photo_url(template, url, width, images.quality);
        (is_site_path(&size) && !has(&size)).then(|| Missing::Size {
            path: size.split(['?', '#']).next().unwrap_or(&size).to_string(),
            width,
        })
    })
}

/// A path of the site ("/images/a.jpg"), not an address on another host
/// ("https://…", "//cdn…") or a data URL.
fn is_site_path(url: &str) -> bool {
    url.starts_with('/') && !url.starts_with("//")
}

/// Whether the site path (no query or fragment) is a file under `public`,
/// decoded as the link check decodes it; a path climbing out is not.
fn public_file(public: &Path, path: &str) -> bool {
    let Some(decoded) = percent_decode(path) else {
        return false;
    };
    if decoded.split('/').any(|seg| seg == "..") {
        return false;
    }
    public.join(decoded.trim_start_matches('/')).is_file()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::stock::feed;
    use serde_json::json;

    fn feed_cars(images: &[&[&str]]) -> Vec<FeedCar> {
        let records: Vec<_> = images
            .iter()
            .enumerate()
            .map(|(i, photos)| {
                json!({"id": i + 1, "slug": format!("c-{i}"), "stocknum": format!("S{i}"),
                    "make": "Kia", "model": "Rio", "year": 2020, "car_type": "used",
                    "status": "in_stock", "images": photos})
            })
            .collect();
        feed::parse(&serde_json::to_string(&records).unwrap(), "f.json")
            .unwrap()
            .cars
    }

    fn public_with(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, b"x").unwrap();
        }
        dir
    }

    #[test]
    fn photos_not_in_the_public_files_are_left_out_with_a_warning_naming_car_and_path() {
        let public = public_with(&["images/photos/here.jpg", "images/my photo.jpg"]);
        let mut cars = feed_cars(&[
            &[
                "/images/photos/here.jpg",
                "/images/photos/gone.jpg",
                "https://cdn.example.com/a.jpg",
                "/images/my%20photo.jpg",
                "/images/../../etc/hostname",
            ],
            &["/images/photos/gone.jpg"],
        ]);
        let warnings =
            drop_missing_local_photos(&mut cars, &ImagesConfig::default(), public.path());
        assert_eq!(
            cars[0].images,
            [
                "/images/photos/here.jpg",
                "https://cdn.example.com/a.jpg",
                "/images/my%20photo.jpg"
            ]
        );
        // A car left without photos is kept (the pages show the placeholder).
        assert!(cars[1].images.is_empty());
        let lines: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert_eq!(
            lines[0],
            "stock number S0 (record 1, id 1, slug c-0): `images` is \"/images/photos/gone.jpg\", a file the site's public files do not have; expected a site path of a file in the site's public files (astro-app/public), in every size `images.url_template` makes of it, or a photo URL on an image host. The car is shown without that photo."
        );
        assert!(
            lines[1].contains("\"/images/../../etc/hostname\""),
            "{}",
            lines[1]
        );
        assert!(lines[2].starts_with("stock number S1 (record 2, id 2, slug c-1)"));
    }

    #[test]
    fn with_a_template_every_size_on_the_site_must_be_a_public_file_and_host_sizes_are_not_looked_for(
    ) {
        let public = public_with(&[
            "images/photos/suv-1.jpg",
            "images/photos/suv-1-480.jpg",
            "images/photos/suv-1-640.jpg",
            "images/photos/suv-2.jpg",
            "images/photos/suv-2-480.jpg",
            "images/photos/suv-2-640.jpg",
            "images/photos/suv-2-960.jpg",
        ]);
        let sized = ImagesConfig {
            url_template: Some("{base}-{width}.{ext}".into()),
            width: 640,
            quality: 75,
            srcset_widths: vec![480, 960],
        };
        let mut cars = feed_cars(&[&["/images/photos/suv-1.jpg", "/images/photos/suv-2.jpg"]]);
        let warnings = drop_missing_local_photos(&mut cars, &sized, public.path());
        assert_eq!(cars[0].images, ["/images/photos/suv-2.jpg"]);
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].to_string().contains(
                "`images` is \"/images/photos/suv-1.jpg\", whose 960 px size /images/photos/suv-1-960.jpg (images.url_template) the site's public files do not have"
            ),
            "{}",
            warnings[0]
        );

        // An image host resizes the site's photo: its sizes are not public
        // files, but the photo itself must be one.
        let host = ImagesConfig {
            url_template: Some("https://img.example.com{url}?w={width}&q={quality}".into()),
            ..sized
        };
        let mut cars = feed_cars(&[&["/images/photos/suv-1.jpg", "/images/photos/gone.jpg"]]);
        let warnings = drop_missing_local_photos(&mut cars, &host, public.path());
        assert_eq!(cars[0].images, ["/images/photos/suv-1.jpg"]);
        assert_eq!(warnings.len(), 1, "one warning per photo, not per size");
        assert!(warnings[0]
            .to_string()
            .contains("\"/images/photos/gone.jpg\", a file"));
    }
}
