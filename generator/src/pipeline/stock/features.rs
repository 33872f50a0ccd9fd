//! The equipment shoppers filter on: which of a car's feed features are
//! search filters (the `filtered_features` facet the search index builds,
//! and the list a car carries in cars.json).

/// The equipment shoppers filter on (the `filtered_features` facet): a
/// car's features are matched to these names ignoring case; other
/// equipment stays on the car page only. At most 31 (one bit each).
pub const FEATURE_FILTERS: [&str; 30] = [
    "Apple CarPlay",
    "Android Auto",
    "Reversing Camera",
    "360 Degree Camera",
    "Rear Parking Sensors",
    "Satellite Navigation",
    "Adaptive Cruise Control",
    "Blind Spot Monitor",
    "Head-up Display",
    "Keyless Entry & Start",
    "Wireless Phone Charger",
    "Premium Sound System",
    "Dual-zone Climate Control",
    "Leather-accented Seats",
    "Heated Front Seats",
    "Ventilated Front Seats",
    "Power Driver Seat",
    "Third-row Seating",
    "Sunroof",
    "Panoramic Sunroof",
    "Power Tailgate",
    "Power Sliding Doors",
    "Roof Rails",
    "Tow Bar",
    "Rear Differential Lock",
    "Vehicle-to-Load (V2L)",
    "DC Fast Charging (CCS2)",
    "Ensuite with Separate Shower",
    "Roll-out Awning",
    "Diesel Heater",
];

/// The features of a car shoppers can filter on, by their names in
/// [`FEATURE_FILTERS`] and in its order.
pub fn filtered_features(features: &[String]) -> Vec<String> {
    FEATURE_FILTERS
        .iter()
        .filter(|f| features.iter().any(|g| g.trim().eq_ignore_ascii_case(f)))
        .map(|f| f.to_string())
        .collect()
}
