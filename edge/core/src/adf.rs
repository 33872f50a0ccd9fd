//! ADF/XML (Auto-lead Data Format 1.0), the format dealer CRMs read lead
//! e-mails in: one `<prospect>` with the vehicle of interest, the customer's
//! contact, the vendor (dealer / location) and the provider (us).

use serde_json::Value;

use crate::lead::{Lead, LeadCategory};
use dealer_rules::edge_config::EdgeConfig;

/// Name this platform gives itself as the ADF `<provider>`.
pub const PROVIDER_NAME: &str = "dealergen";

/// Escapes text for XML element content and attribute values. Control
/// characters XML 1.0 cannot carry at all are dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// ADF `interest` of the vehicle for each form.
pub fn interest(category: LeadCategory) -> &'static str {
    match category {
        LeadCategory::TestDrive => "test-drive",
        LeadCategory::TradeIn => "trade-in",
        _ => "buy",
    }
}

/// ADF vehicle `status` from the car type the form sent (demo cars are
/// sold as used); `None` when the form did not say.
pub fn vehicle_status(car_type: Option<&str>) -> Option<&'static str> {
    match car_type?.to_ascii_lowercase().as_str() {
        "new" => Some("new"),
        "used" | "demo" => Some("used"),
        _ => None,
    }
}

fn extra_text(lead: &Lead, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| match lead.extra.get(*k)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

fn element(out: &mut String, indent: usize, name: &str, attrs: &str, text: &str) {
    out.push_str(&" ".repeat(indent));
    out.push_str(&format!("<{name}{attrs}>{}</{name}>\n", escape(text)));
}

/// Renders one lead. `lead_id` and `created_at` (ISO 8601) come from the
/// stored row, so a re-delivery renders the very same document.
pub fn render(lead: &Lead, config: &EdgeConfig, lead_id: &str, created_at: &str) -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?adf version=\"1.0\"?>\n<adf>\n",
    );
    x.push_str("  <prospect status=\"new\">\n");
    element(
        &mut x,
        4,
        "id",
        &format!(" sequence=\"1\" source=\"{PROVIDER_NAME}\""),
        lead_id,
    );
    element(&mut x, 4, "requestdate", "", created_at);

    let car_type = extra_text(lead, &["car_type", "vehicleStatus", "vehicle_status"]);
    let status_attr = vehicle_status(car_type.as_deref())
        .map(|s| format!(" status=\"{s}\""))
        .unwrap_or_default();
    x.push_str(&format!(
        "    <vehicle interest=\"{}\"{status_attr}>\n",
        interest(lead.category)
    ));
    if let Some(car_id) = &lead.car_id {
        element(&mut x, 6, "id", " source=\"stock\"", car_id);
    }
    for (tag, keys) in [
        ("year", &["year", "vehicleYear"][..]),
        ("make", &["make", "vehicleMake"][..]),
        ("model", &["model", "vehicleModel"][..]),
        ("trim", &["variant", "vehicleGrade"][..]),
        ("stock", &["stock_number"][..]),
        ("vin", &["vin"][..]),
    ] {
        if let Some(v) = extra_text(lead, keys) {
            element(&mut x, 6, tag, "", &v);
        }
    }
    if let Some(km) = extra_text(lead, &["km", "vehicleKilometers"]) {
        element(
            &mut x,
            6,
            "odometer",
            " status=\"original\" units=\"km\"",
            &km,
        );
    }
    if let Some(url) = &lead.url {
        element(&mut x, 6, "comments", "", url);
    }
    x.push_str("    </vehicle>\n");

    x.push_str("    <customer>\n      <contact>\n");
    element(&mut x, 8, "name", " part=\"full\"", &lead.name);
    element(&mut x, 8, "email", "", &lead.email);
    element(&mut x, 8, "phone", " type=\"voice\"", &lead.phone);
    if let Some(postcode) = &lead.postcode {
        x.push_str("        <address>\n");
        element(&mut x, 10, "postalcode", "", postcode);
        element(&mut x, 10, "country", "", "AU");
        x.push_str("        </address>\n");
    }
    x.push_str("      </contact>\n");
    let mut comments = format!("Form: {}", lead.category.as_str());
    if let Some(sub) = extra_text(lead, &["subcategory"]) {
        comments.push_str(&format!(" ({sub})"));
    }
    if let Some(message) = &lead.message {
        comments.push('\n');
        comments.push_str(message);
    }
    element(&mut x, 6, "comments", "", &comments);
    x.push_str("    </customer>\n");

    let location = lead
        .location_id
        .as_deref()
        .and_then(|id| config.locations.iter().find(|l| l.id == id));
    x.push_str("    <vendor>\n");
    element(&mut x, 6, "vendorname", "", &config.name);
    if let Some(loc) = location {
        x.push_str("      <contact>\n");
        element(&mut x, 8, "name", " part=\"full\"", &loc.name);
        element(&mut x, 8, "phone", " type=\"voice\"", &loc.phone);
        x.push_str("      </contact>\n");
    }
    x.push_str("    </vendor>\n");

    x.push_str("    <provider>\n");
    element(&mut x, 6, "name", " part=\"full\"", PROVIDER_NAME);
    element(&mut x, 6, "service", "", lead.category.as_str());
    if let Some(origin) = config.origins.first() {
        element(&mut x, 6, "url", "", origin);
    }
    x.push_str("    </provider>\n  </prospect>\n</adf>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lead::validate_lead;
    use serde_json::json;

    fn config() -> EdgeConfig {
        serde_json::from_value(json!({
            "dealer": "alpha", "name": "Alpha & Sons Motors", "origins": ["https://alpha.example"],
            "locations": [{"id": "perth", "name": "Alpha Perth", "phone": "08 9123 4567", "lead_email": null}],
            "leads": {"email": "leads@alpha.example", "webhook_url": null},
            "features": {"watchlist": true, "phone_reveal": true}
        }))
        .unwrap()
    }

    fn lead(extra: Value) -> Lead {
        let mut body = json!({
            "category": "test_drive", "name": "Jo <Bloggs>", "email": "jo@example.com.au",
            "phone": "0412 345 678", "message": "Saturday \"morning\" & arvo?", "terms_conditions": true,
            "car_id": 1234, "location_id": "perth", "postcode": "6000",
            "url": "https://alpha.example/cars/x?a=1&b=2",
            "car_type": "demo", "make": "Toyota", "model": "HiLux", "year": 2021, "km": 12000
        });
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        validate_lead(&body, &config()).unwrap()
    }

    #[test]
    fn full_document() {
        let xml = render(
            &lead(json!({})),
            &config(),
            "lead-1",
            "2026-01-02T03:04:05.000Z",
        );
        let expected = r#"<?xml version="1.0" encoding="UTF-8"?>
<?adf version="1.0"?>
<adf>
  <prospect status="new">
    <id sequence="1" source="dealergen">lead-1</id>
    <requestdate>2026-01-02T03:04:05.000Z</requestdate>
    <vehicle interest="test-drive" status="used">
      <id source="stock">1234</id>
      <year>2021</year>
      <make>Toyota</make>
      <model>HiLux</model>
      <odometer status="original" units="km">12000</odometer>
      <comments>https://alpha.example/cars/x?a=1&amp;b=2</comments>
    </vehicle>
    <customer>
      <contact>
        <name part="full">Jo &lt;Bloggs&gt;</name>
        <email>jo@example.com.au</email>
        <phone type="voice">0412345678</phone>
        <address>
          <postalcode>6000</postalcode>
          <country>AU</country>
        </address>
      </contact>
      <comments>Form: test_drive
Saturday &quot;morning&quot; &amp; arvo?</comments>
    </customer>
    <vendor>
      <vendorname>Alpha &amp; Sons Motors</vendorname>
      <contact>
        <name part="full">Alpha Perth</name>
        <phone type="voice">08 9123 4567</phone>
      </contact>
    </vendor>
    <provider>
      <name part="full">dealergen</name>
      <service>test_drive</service>
      <url>https://alpha.example</url>
    </provider>
  </prospect>
</adf>
"#;
        assert_eq!(xml, expected);
    }

    #[test]
    fn interest_and_status_per_form() {
        assert_eq!(interest(LeadCategory::TradeIn), "trade-in");
        assert_eq!(interest(LeadCategory::Enquiry), "buy");
        assert_eq!(interest(LeadCategory::Finance), "buy");
        assert_eq!(vehicle_status(Some("NEW")), Some("new"));
        assert_eq!(vehicle_status(Some("used")), Some("used"));
        assert_eq!(vehicle_status(Some("boat")), None);
        let xml = render(
            &lead(
                json!({"car_type": "new", "category": "trade_in", "subcategory": "3. Offer Accepted"}),
            ),
            &config(),
            "l",
            "t",
        );
        assert!(
            xml.contains(r#"<vehicle interest="trade-in" status="new">"#),
            "{xml}"
        );
        assert!(xml.contains("Form: trade_in (3. Offer Accepted)"));
    }

    #[test]
    fn escaping_keeps_the_document_well_formed() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape("x\u{1}y\u{ffff}\n"), "xy\n");
        let xml = render(
            &lead(json!({"make": "</make><evil/>"})),
            &config(),
            "<id>",
            "t",
        );
        assert!(!xml.contains("<evil/>"));
        assert!(xml.contains("&lt;id&gt;"));
    }

    #[test]
    fn unknown_location_has_no_vendor_contact() {
        let mut l = lead(json!({}));
        l.location_id = None;
        let xml = render(&l, &config(), "l", "t");
        assert!(xml.contains("<vendorname>Alpha &amp; Sons Motors</vendorname>\n    </vendor>"));
    }
}
