//! Per-dealer switches the worker enforces before doing any work: a call
//! for a feature the dealer has switched off is answered 404, as if the
//! endpoint did not exist for that site.

use dealer_rules::edge_config::EdgeConfig;

use crate::http::ApiError;

/// Sign-in (`/api/auth/*`) is open for the watchlist and for holds
/// without a deposit ([`EdgeConfig::sign_in`]).
pub fn require_sign_in(config: &EdgeConfig) -> Result<(), ApiError> {
    if config.sign_in() {
        Ok(())
    } else {
        Err(ApiError::new(
            404,
            "Sign-in is not available on this website.",
        ))
    }
}

/// The watchlist must be switched on for the dealer.
pub fn require_watchlist(config: &EdgeConfig) -> Result<(), ApiError> {
    if config.features.watchlist {
        Ok(())
    } else {
        Err(ApiError::new(
            404,
            "The watchlist is not available on this website.",
        ))
    }
}

/// `POST /api/events` records only for dealers with the analytics sink on.
pub fn require_analytics(config: &EdgeConfig) -> Result<(), ApiError> {
    if config.analytics.enabled {
        Ok(())
    } else {
        Err(ApiError::new(
            404,
            "Analytics events are not collected for this dealer.",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config(watchlist: bool, analytics: bool) -> EdgeConfig {
        serde_json::from_value(json!({
            "dealer": "a", "name": "A", "origins": [], "locations": [],
            "leads": {"email": null, "webhook_url": null},
            "features": {"watchlist": watchlist, "phone_reveal": false},
            "analytics": {"enabled": analytics}
        }))
        .unwrap()
    }

    #[test]
    fn switched_off_features_answer_404() {
        assert_eq!(require_watchlist(&config(true, false)), Ok(()));
        assert_eq!(
            require_watchlist(&config(false, true)).unwrap_err().status,
            404
        );
        assert_eq!(require_analytics(&config(false, true)), Ok(()));
        let off = require_analytics(&config(true, false)).unwrap_err();
        assert_eq!(off.status, 404);
        assert!(off.error.contains("not collected"), "{}", off.error);
    }
}
