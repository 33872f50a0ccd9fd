/**
 * The location's phone on the car page of a dealer that masks it
 * (`features.phone_reveal`; docs/behaviour/search.md §4, §7, §8). Masked ("(07) 3555 XXXX")
 * until clicked; the click asks POST /api/phone-reveal, which records the
 * reveal (and event 25 in the dealer's sink), shows the number it answers
 * as a call link and puts event 25 in the dataLayer. The page carries no
 * unmasked number: a failed reveal (offline, rate-limited) is logged to the
 * console (docs/behaviour/search.md §8), says so in a live region, links the
 * location's page (which shows its number) and leaves the button for
 * another try (docs/behaviour/phone-reveal.md). Dealers who show the number
 * get a plain link instead, whose clicks lib/event-clicks.ts records.
 */
import { useEffect, useRef, useState } from 'react';
import { EVENTS, sendEvent } from '../lib/events';
import { revealPhone, telLink } from '../lib/phone';

export interface PhoneRevealProps {
  apiBase: string;
  carId: string;
  locationId: string;
  /** The spec's website_id (the dealer's slug). */
  websiteId: string;
  /** Masked number shown before the click. */
  masked: string;
  /** The location's page, which shows its number: where a failed reveal sends the shopper to call. */
  contact?: { href: string; name: string };
  className?: string;
  fetchImpl?: typeof fetch;
}

export default function PhoneReveal(props: PhoneRevealProps) {
  const { apiBase, carId, locationId, websiteId, masked, contact, fetchImpl, className = 'button button--outline' } = props;
  const [phone, setPhone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  // Set by a click: the button is replaced by the link, and keyboard focus goes with it (which also reads it out).
  const moveFocus = useRef(false);
  useEffect(() => {
    if (phone !== null && moveFocus.current) link.current?.focus();
  }, [phone]);

  if (phone !== null) {
    // data-event="": the reveal was the recorded click (event 25), the call is not another.
    return (
      <a ref={link} className={className} href={telLink(phone)} data-event="" data-phone-revealed="true">
        Call {phone}
      </a>
    );
  }

  async function onReveal() {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    const found = await revealPhone({ apiBase, carId, locationId, websiteId, fetchImpl });
    setBusy(false);
    if (found) {
      // The worker put this click in the dealer's sink; the dataLayer gets it here.
      sendEvent({ apiBase, sink: false, fetchImpl }, EVENTS.phone_click, {}, carId);
      moveFocus.current = true;
      setPhone(found);
    } else {
      setFailed(true);
    }
  }

  return (
    <>
      <button type="button" className={className} onClick={onReveal} aria-busy={busy}>
        {masked} <span className="phone-reveal__cta">Show number</span>
      </button>
      <p className="phone-reveal__error" role="alert">
        {/* The shopper can still call: the location's page shows its number (never this page). */}
        {failed && (
          <>
            The number could not be shown just now. Please try again
            {contact ? (
              <>
                , or call from <a href={contact.href}>our {contact.name} page</a>.
              </>
            ) : (
              '.'
            )}
          </>
        )}
      </p>
    </>
  );
}
