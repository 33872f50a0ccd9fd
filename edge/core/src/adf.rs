//! ADF/XML (Auto-lead Data Format 1.0), the format dealer CRMs read lead
//! e-mails in: one `<prospect>` with the vehicle of interest (as the
//! dealer's stock has it), the shopper's own car for a trade-in, the
//! customer's contact, the vendor (dealer / location) and the provider (us).
//! Elements are written in the order of the ADF 1.0 DTD, so a validating
//! CRM reads them: vehicle `(id*, year, make, model, vin?, stock?, trim?,
//! odometer?, price*, comments?)`, customer `(contact, timeframe?,
//! comments?)`, contact `(name+, email?, phone*, address?)`.

use serde_json::Value;

use crate::lead::{Lead, LeadCategory};
use crate::lead_parts::LeadVehicle;
use dealer_rules::edge_config::EdgeConfig;

/// Name this platform gives itself as the ADF `<provider>` (and as the
/// `source` of the ids it writes).
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

/// ADF `interest` of the car of interest for each form. A trade-in form's
/// car of interest is still one to buy; the shopper's own car is a second
/// `<vehicle interest="trade-in">`.
pub fn interest(category: LeadCategory) -> &'static str {
    match category {
        LeadCategory::TestDrive => "test-drive",
        _ => "buy",
    }
}

/// ADF vehicle `status` from a car type (demo cars are sold as used);
/// `None` for anything else.
pub fn vehicle_status(car_type: Option<&str>) -> Option<&'static str> {
    match car_type?.to_ascii_lowercase().as_str() {
        "new" => Some("new"),
        "used" | "demo" => Some("used"),
        _ => None,
    }
}

fn element(out: &mut String, indent: usize, name: &str, attrs: &str, text: &str) {
    out.push_str(&" ".repeat(indent));
    out.push_str(&format!("<{name}{attrs}>{}</{name}>\n", escape(text)));
}

/// Whole dollars, or cents when there are any ("52990", "19999.50").
fn amount(dollars: f64) -> String {
    if dollars.fract() == 0.0 {
        format!("{dollars:.0}")
    } else {
        format!("{dollars:.2}")
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn answer_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The car of interest. A car from the stock carries its facts; a car no
/// longer in the stock only its id (and the page's claims in comments);
/// ADF needs year, make and model in every vehicle, so they are written
/// empty when unknown.
fn car_of_interest(x: &mut String, lead: &Lead) {
    let vehicle = lead.vehicle.clone().unwrap_or_default();
    let status_attr = vehicle_status(vehicle.car_type.as_deref())
        .map(|s| format!(" status=\"{s}\""))
        .unwrap_or_default();
    x.push_str(&format!(
        "    <vehicle interest=\"{}\"{status_attr}>\n",
        interest(lead.category)
    ));
    if let Some(id) = &vehicle.id {
        element(x, 6, "id", &format!(" source=\"{PROVIDER_NAME}-car\""), id);
    }
    element(
        x,
        6,
        "year",
        "",
        &vehicle.year.map(|y| y.to_string()).unwrap_or_default(),
    );
    element(x, 6, "make", "", vehicle.make.as_deref().unwrap_or(""));
    element(x, 6, "model", "", vehicle.model.as_deref().unwrap_or(""));
    if let Some(vin) = &vehicle.vin {
        element(x, 6, "vin", "", vin);
    }
    if let Some(stock) = &vehicle.stock_number {
        element(x, 6, "stock", "", stock);
    }
    if let Some(trim) = &vehicle.badge {
        element(x, 6, "trim", "", trim);
    }
    if let Some(km) = vehicle.km {
        element(
            x,
            6,
            "odometer",
            " status=\"original\" units=\"km\"",
            &km.to_string(),
        );
    }
    if let Some(price) = vehicle.price.filter(|p| *p > 0.0) {
        element(
            x,
            6,
            "price",
            " type=\"asking\" currency=\"AUD\"",
            &amount(price),
        );
    }
    if let Some(offer) = lead.offer_amount {
        element(
            x,
            6,
            "price",
            " type=\"offer\" currency=\"AUD\"",
            &amount(offer),
        );
    }
    let comments = vehicle_comments(lead, &vehicle);
    if !comments.is_empty() {
        element(x, 6, "comments", "", &comments.join("\n"));
    }
    x.push_str("    </vehicle>\n");
}

fn vehicle_comments(lead: &Lead, vehicle: &LeadVehicle) -> Vec<String> {
    let mut lines = Vec::new();
    match (&vehicle.url, vehicle.verified) {
        (Some(url), _) => lines.push(url.clone()),
        (None, _) => {
            if let Some(url) = &lead.url {
                lines.push(format!("Sent from {url}"));
            }
        }
    }
    if lead.vehicle.is_some() && !vehicle.verified {
        // Only the id the form sent (in <id>) and this line: what the page
        // claimed of the car (year, make, stock number) is the sender's own
        // text, and the dealer's CRM must not show it as a vehicle's facts.
        lines.push("This car is no longer in the published stock".into());
    }
    if let Some(price_text) = vehicle
        .price_text
        .as_deref()
        .filter(|_| vehicle.price == Some(0.0))
    {
        lines.push(format!("Price shown: {price_text}"));
    }
    lines
}

/// The shopper's own car in a trade-in: written when the lead says
/// anything about it (rego, kilometres, year/make/model, answers).
fn trade_in_vehicle(x: &mut String, lead: &Lead) {
    let t = lead.trade_in_vehicle.clone().unwrap_or_default();
    let has_any = lead.rego.is_some()
        || lead.kms.is_some()
        || !t.is_empty()
        || !lead.adjustment_answers.is_empty();
    if !has_any {
        return;
    }
    x.push_str("    <vehicle interest=\"trade-in\" status=\"used\">\n");
    element(
        x,
        6,
        "year",
        "",
        &t.year.map(|y| y.to_string()).unwrap_or_default(),
    );
    element(x, 6, "make", "", t.make.as_deref().unwrap_or(""));
    element(x, 6, "model", "", t.model.as_deref().unwrap_or(""));
    if let Some(variant) = &t.variant {
        element(x, 6, "trim", "", variant);
    }
    if let Some(km) = lead.kms {
        element(
            x,
            6,
            "odometer",
            " status=\"original\" units=\"km\"",
            &km.to_string(),
        );
    }
    let mut lines = Vec::new();
    if let Some(rego) = &lead.rego {
        match &lead.rego_state {
            Some(state) => lines.push(format!("Rego: {rego} ({state})")),
            None => lines.push(format!("Rego: {rego}")),
        }
    }
    for (question, answer) in &lead.adjustment_answers {
        lines.push(format!("{question}: {}", answer_text(answer)));
    }
    if let Some(accepted) = lead.offer_accepted {
        lines.push(format!("Offer accepted: {}", yes_no(accepted)));
    }
    if !lines.is_empty() {
        element(x, 6, "comments", "", &lines.join("\n"));
    }
    x.push_str("    </vehicle>\n");
}

/// Everything the shopper told us that has no ADF element of its own.
fn customer_comments(lead: &Lead) -> String {
    let mut lines = vec![match &lead.subcategory {
        Some(sub) => format!("Form: {} ({sub})", lead.category.as_str()),
        None => format!("Form: {}", lead.category.as_str()),
    }];
    if let Some(message) = &lead.message {
        lines.push(message.clone());
    }
    if let Some(place) = &lead.distribution_location {
        lines.push(format!("Where: {place}"));
    }
    let mut opts = vec![format!("marketing {}", yes_no(lead.opt_in))];
    if let Some(b) = lead.opt_in_finance {
        opts.push(format!("finance {}", yes_no(b)));
    }
    if let Some(b) = lead.opt_in_trade {
        opts.push(format!("trade-in {}", yes_no(b)));
    }
    lines.push(format!("Opt-in: {}", opts.join(", ")));
    if let Some(c) = &lead.consent {
        // The record of consent, in the words the shopper agreed to.
        lines.push(format!(
            "Marketing consent: \"{}\" ({}, {} on {})",
            c.text,
            c.method,
            c.given_at,
            c.page.as_deref().unwrap_or("an unnamed page")
        ));
    }
    if let Some(b) = lead.has_trade_in {
        lines.push(format!("Has a trade-in: {}", yes_no(b)));
    }
    if let Some(b) = lead.wants_finance {
        lines.push(format!("Wants finance: {}", yes_no(b)));
    }
    if let Some(m) = &lead.preferred_contact_method {
        lines.push(format!("Preferred contact: {m}"));
    }
    if !lead.additional_services.is_empty() {
        lines.push(format!(
            "Additional services: {}",
            lead.additional_services.join(", ")
        ));
    }
    if let Some(attrs) = &lead.lead_attributes {
        if !attrs.visited_pages.is_empty() {
            lines.push(format!("Visited pages: {}", attrs.visited_pages.join(" ")));
        }
        if !attrs.linked_query_params.is_empty() {
            let params: Vec<String> = attrs
                .linked_query_params
                .iter()
                .map(|(k, v)| format!("{k}={}", answer_text(v)))
                .collect();
            lines.push(format!("Campaign: {}", params.join("&")));
        }
    }
    if let Some(previous) = &lead.previous_lead_id {
        lines.push(format!("Follows lead {previous}"));
    }
    if let Some(hold) = &lead.hold_id {
        lines.push(format!("Reservation hold {hold}"));
    }
    lines.join("\n")
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

    // A trade-in sent without a car of interest is only about the
    // shopper's car.
    let trade_in_only = lead.category == LeadCategory::TradeIn && lead.vehicle.is_none();
    let before = x.len();
    trade_in_vehicle(&mut x, lead);
    if !(trade_in_only && x.len() > before) {
        let trade_in = x.split_off(before);
        car_of_interest(&mut x, lead);
        x.push_str(&trade_in);
    }

    x.push_str("    <customer>\n      <contact>\n");
    match &lead.last_name {
        Some(last) => {
            element(&mut x, 8, "name", " part=\"first\"", &lead.name);
            element(&mut x, 8, "name", " part=\"last\"", last);
        }
        None => element(&mut x, 8, "name", " part=\"full\"", &lead.name),
    }
    let preferred = lead.preferred_contact_method.as_deref();
    let pref = |yes: bool| if yes { " preferredcontact=\"1\"" } else { "" };
    // An unsubscribe may give only one of them: no empty element for the other.
    if !lead.email.is_empty() {
        element(
            &mut x,
            8,
            "email",
            pref(preferred == Some("Email")),
            &lead.email,
        );
    }
    let phone_type = if lead.phone.starts_with("04") {
        "cellphone"
    } else {
        "voice"
    };
    if !lead.phone.is_empty() {
        element(
            &mut x,
            8,
            "phone",
            &format!(
                " type=\"{phone_type}\"{}",
                pref(matches!(preferred, Some("Phone" | "SMS")))
            ),
            &lead.phone,
        );
    }
    if let Some(postcode) = &lead.postcode {
        x.push_str("        <address>\n");
        element(&mut x, 10, "postalcode", "", postcode);
        element(&mut x, 10, "country", "", "AU");
        x.push_str("        </address>\n");
    }
    x.push_str("      </contact>\n");
    if let Some(date) = &lead.preferred_date {
        let when = match &lead.preferred_time {
            Some(time) => format!("{date}T{time}:00"),
            None => date.clone(),
        };
        x.push_str("      <timeframe>\n");
        element(
            &mut x,
            8,
            "description",
            "",
            &format!("Preferred: {}", when.replace('T', " ")),
        );
        element(&mut x, 8, "earliestdate", "", &when);
        x.push_str("      </timeframe>\n");
    }
    element(&mut x, 6, "comments", "", &customer_comments(lead));
    x.push_str("    </customer>\n");

    let location = lead
        .location_id
        .as_deref()
        .and_then(|id| config.locations.iter().find(|l| l.id == id));
    x.push_str("    <vendor>\n");
    if let Some(id) = config.dealership_id {
        element(
            &mut x,
            6,
            "id",
            &format!(" source=\"{PROVIDER_NAME}-dealership\""),
            &id.to_string(),
        );
    }
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
    use crate::vehicle::{fill, tests::car};
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

    /// A test-drive lead for the stock car 1234, filled as the worker does.
    fn lead(extra: Value) -> Lead {
        let mut body = json!({
            "category": "test_drive", "name": "Jo <Bloggs>", "email": "jo@example.com.au",
            "phone": "0412 345 678", "message": "Saturday \"morning\" & arvo?", "terms_conditions": true,
            "car_id": 1234, "location_id": "perth", "postcode": "6000",
            "url": "https://alpha.example/cars/x?a=1&b=2",
            "car_type": "demo", "make": "Ferrari", "model": "HiLux", "year": 2021,
            "preferred_date": "2026-11-22", "preferred_time": "09:30"
        });
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let mut lead = validate_lead(&body, &config(), 1_795_132_800).unwrap();
        fill(&mut lead, &config(), Some(&car()));
        lead
    }

    #[test]
    fn full_document() {
        // The shopper ticked the marketing opt-in: its record is in the comments.
        let xml = render(
            &lead(json!({"opt_in": true})),
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
      <id source="dealergen-car">1234</id>
      <year>2021</year>
      <make>Toyota</make>
      <model>HiLux</model>
      <vin>MR0HA3CD100123456</vin>
      <stock>T1234</stock>
      <trim>SR5</trim>
      <odometer status="original" units="km">41000</odometer>
      <price type="asking" currency="AUD">52990</price>
      <comments>https://alpha.example/cars/2021-toyota-hilux-sr5-1234/</comments>
    </vehicle>
    <customer>
      <contact>
        <name part="full">Jo &lt;Bloggs&gt;</name>
        <email>jo@example.com.au</email>
        <phone type="cellphone">0412345678</phone>
        <address>
          <postalcode>6000</postalcode>
          <country>AU</country>
        </address>
      </contact>
      <timeframe>
        <description>Preferred: 2026-11-22 09:30:00</description>
        <earliestdate>2026-11-22T09:30:00</earliestdate>
      </timeframe>
      <comments>Form: test_drive
Saturday &quot;morning&quot; &amp; arvo?
Opt-in: marketing yes
Marketing consent: &quot;Send me offers and news by email and SMS. I can unsubscribe at any time.&quot; (ticked an unticked box on the website&apos;s form, 2026-11-20T00:00:00Z on https://alpha.example/cars/x?a=1&amp;b=2)</comments>
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
        assert_eq!(interest(LeadCategory::TradeIn), "buy");
        assert_eq!(interest(LeadCategory::TestDrive), "test-drive");
        assert_eq!(interest(LeadCategory::Finance), "buy");
        assert_eq!(vehicle_status(Some("NEW")), Some("new"));
        assert_eq!(vehicle_status(Some("demo")), Some("used"));
        assert_eq!(vehicle_status(Some("boat")), None);
    }

    #[test]
    fn a_trade_in_carries_the_shoppers_car_after_the_car_of_interest() {
        let l = lead(
            json!({"category": "trade_in", "subcategory": "3. Offer Accepted", "offer_accepted": true,
            "rego": "abc123", "regoState": "QLD", "kms": 85000, "trade_in_year": 2017, "trade_in_make": "Mazda",
            "trade_in_model": "3", "adjustmentAnswers": {"accident": "no"}}),
        );
        let xml = render(&l, &config(), "l", "t");
        let buy = xml
            .find(r#"<vehicle interest="buy" status="used">"#)
            .expect(&xml);
        let trade = xml
            .find(r#"<vehicle interest="trade-in" status="used">"#)
            .expect(&xml);
        assert!(buy < trade);
        assert!(xml.contains("<make>Mazda</make>"));
        assert!(xml.contains(r#"<odometer status="original" units="km">85000</odometer>"#));
        assert!(
            xml.contains("Rego: ABC123 (QLD)\naccident: no\nOffer accepted: yes"),
            "{xml}"
        );
        assert!(xml.contains("Form: trade_in (3. Offer Accepted)"));

        // The /trade-in page: no car of interest, only the shopper's car.
        let mut body = json!({"category": "trade_in", "name": "Jo", "email": "jo@example.com", "phone": "0412345678",
            "terms_conditions": true, "rego": "XYZ9", "kms": 1000});
        body["regoState"] = json!("wa");
        let l = validate_lead(&body, &config(), 1_795_132_800).unwrap();
        let xml = render(&l, &config(), "l", "t");
        assert_eq!(xml.matches("<vehicle ").count(), 1, "{xml}");
        assert!(xml.contains(r#"<vehicle interest="trade-in""#));
    }

    #[test]
    fn a_car_gone_from_the_stock_is_named_as_such() {
        let body = json!({"category": "enquiry", "name": "Jo", "email": "jo@example.com", "phone": "0412345678",
            "message": "Hi", "terms_conditions": true, "car_id": 999, "make": "Kia", "model": "Rio", "year": 2020,
            "stock_number": "K9"});
        let mut l = validate_lead(&body, &config(), 1_795_132_800).unwrap();
        fill(&mut l, &config(), None);
        let xml = render(&l, &config(), "l", "t");
        assert!(xml.contains(r#"<id source="dealergen-car">999</id>"#));
        assert!(
            xml.contains("<year></year>\n      <make></make>\n      <model></model>"),
            "{xml}"
        );
        assert!(
            xml.contains("<comments>This car is no longer in the published stock</comments>"),
            "{xml}"
        );
        for claimed in ["Kia", "Rio", "2020", "K9"] {
            assert!(
                !xml.contains(claimed),
                "the sender's own {claimed} is not a vehicle fact: {xml}"
            );
        }
    }

    #[test]
    fn offers_names_attributes_and_preferences() {
        let l = lead(
            json!({"category": "offer", "offer_amount": "$49,500", "last_name": "Bloggs",
            "PreferredContactMethod": "Email", "opt_in": false, "opt_in_finance": true, "opt_in_trade": true,
            "lead_attributes": {"visited_pages": ["/", "/cars/x/"], "linked_query_params": {"utm_source": "google"}}}),
        );
        let xml = render(&l, &config(), "l", "t");
        assert!(
            xml.contains(r#"<price type="offer" currency="AUD">49500</price>"#),
            "{xml}"
        );
        assert!(xml.contains(r#"<name part="first">Jo &lt;Bloggs&gt;</name>"#));
        assert!(xml.contains(r#"<name part="last">Bloggs</name>"#));
        assert!(xml.contains(r#"<email preferredcontact="1">"#));
        assert!(xml.contains("Opt-in: marketing no, finance yes, trade-in yes"));
        assert!(xml.contains("Visited pages: / /cars/x/\nCampaign: utm_source=google"));
    }

    #[test]
    fn escaping_keeps_the_document_well_formed() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape("x\u{1}y\u{ffff}\n"), "xy\n");
        let xml = render(
            &lead(json!({"subcategory": "</comments><evil/>"})),
            &config(),
            "<id>",
            "t",
        );
        assert!(!xml.contains("<evil/>"));
        assert!(xml.contains("&lt;id&gt;"));
    }

    #[test]
    fn an_unsubscribe_with_only_a_mobile_has_no_empty_email() {
        let body = json!({"category": "unsubscribe", "phone": "0412 345 678", "url": "https://alpha.example/unsubscribe/"});
        let l = validate_lead(&body, &config(), 1_795_132_800).unwrap();
        let xml = render(&l, &config(), "l", "t");
        assert!(!xml.contains("<email"), "{xml}");
        assert!(
            xml.contains(r#"<phone type="cellphone">0412345678</phone>"#),
            "{xml}"
        );
        assert!(xml.contains("Form: unsubscribe"), "{xml}");
        assert!(xml.contains("<service>unsubscribe</service>"), "{xml}");
    }

    #[test]
    fn unknown_location_has_no_vendor_contact() {
        let mut l = lead(json!({}));
        l.location_id = None;
        let xml = render(&l, &config(), "l", "t");
        assert!(xml.contains("<vendorname>Alpha &amp; Sons Motors</vendorname>\n    </vendor>"));
    }
}
