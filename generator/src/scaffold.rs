//! The dealer file `dealergen new` writes: every required key, with values
//! that validate, and comments saying what to change.

pub fn dealer_yaml(slug: &str, template: &str, name: &str, feed: &str) -> String {
    format!(
        r##"# yaml-language-server: $schema=./dealer.schema.json
# {name}: created by `dealergen new {slug} --template {template}`.
# Values marked CHANGE ME are placeholders. Everything not listed here comes
# from templates/presets/{template}.yaml; override a key by adding it here.
template: {template}
name: {name}
site_url: https://www.{slug}.com.au   # CHANGE ME: the public address, no trailing slash
timezone: Australia/Brisbane
theme:
  logo: /images/no-photo.svg          # CHANGE ME: your logo, a file in the site's public files
contact:
  phone: (07) 3000 0000               # CHANGE ME
  email: sales@{slug}.com.au          # CHANGE ME
stock:
  feed: {feed}
locations:
  - id: {slug}-main
    name: {name}
    primary: true
    phone: (07) 3000 0000             # CHANGE ME
    address:
      street: 1 Example St            # CHANGE ME
      suburb: Brisbane City
      state: QLD
      postcode: "4000"
    hours:
      sales: {{ mon: "08:30-17:30", tue: "08:30-17:30", wed: "08:30-17:30", thu: "08:30-17:30", fri: "08:30-17:30", sat: "08:30-16:00" }}
navigation:
  - {{ label: Home, href: / }}
  - {{ label: Our Stock, href: /search/ }}
  - {{ label: Contact, href: /contact-us/ }}
footer:
  groups:
    - title: Company
      links:
        - {{ label: Contact us, href: /contact-us/ }}
        - {{ label: Privacy policy, href: /privacy-policy }}
  legal_text: Prices include GST. Finance is subject to approval.
"##
    )
}
