//! Analytics event ids: the events a dealer site sends to `POST /api/events`
//! and the one the worker records itself (a phone reveal is a phone click).
//! The sites' TypeScript constants and this table are pinned by the same
//! cases (`rules/vectors/events.json`), so an id the site sends is one the
//! worker accepts.

/// One kind of analytics event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    pub id: u32,
    /// Short snake_case name, as in the vector file.
    pub name: &'static str,
}

/// A shopper revealed (clicked) a dealer phone number; also recorded by the
/// worker for every `POST /api/phone-reveal` of a dealer with the sink on.
pub const PHONE_CLICK: u32 = 25;

/// Every event id the worker accepts. The ids come from the old platform's
/// analytics, so existing reports keep their meaning; six of them (4, 18,
/// 48, 49, 60, 61) were logged by its car page without a described action,
/// and dealergen's car page sends them for the actions their names give
/// (docs/behaviour/analytics.md).
pub const EVENTS: [Event; 15] = [
    Event {
        id: 4,
        name: "car_page_view",
    },
    Event {
        id: 14,
        name: "vehicle_enquiry",
    },
    Event {
        id: 15,
        name: "vehicle_enquiry_used",
    },
    Event {
        id: 17,
        name: "vehicle_enquiry_test_drive_only",
    },
    Event {
        id: 18,
        name: "history_report_open",
    },
    Event {
        id: 19,
        name: "fleet_enquiry",
    },
    Event {
        id: 22,
        name: "form_enquiry",
    },
    Event {
        id: PHONE_CLICK,
        name: "phone_click",
    },
    Event {
        id: 26,
        name: "finance_calculator_first_use",
    },
    Event {
        id: 39,
        name: "save_car",
    },
    Event {
        id: 48,
        name: "car_print",
    },
    Event {
        id: 49,
        name: "car_share",
    },
    Event {
        id: 51,
        name: "careers_enquiry",
    },
    Event {
        id: 60,
        name: "favourite_add",
    },
    Event {
        id: 61,
        name: "photo_viewer_open",
    },
];

/// Whether the worker accepts event `id`.
pub fn is_known(id: u32) -> bool {
    EVENTS.iter().any(|e| e.id == id)
}

/// The accepted ids, ascending (for messages).
pub fn ids() -> Vec<u32> {
    EVENTS.iter().map(|e| e.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_names_the_phone_click() {
        let ids = ids();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
        assert!(is_known(PHONE_CLICK));
        assert_eq!(
            EVENTS.iter().find(|e| e.id == PHONE_CLICK).unwrap().name,
            "phone_click"
        );
        assert!(!is_known(0) && !is_known(62) && !is_known(999));
    }
}
