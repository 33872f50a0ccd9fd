/**
 * The location's phone on the car page (spec 000 §4, §7, §8). Masked
 * ("(07) 3555 XXXX") until clicked; the click asks POST /api/phone-reveal,
 * which records the reveal and event 25, and shows the number it answers.
 * A failed reveal (offline, rate-limited) must not leave the shopper with a
 * button that does nothing: the location's number (public on its location
 * page anyway) is shown instead, or without one a message; either way focus
 * or a live region tells screen readers. Dealers who show the phone at once
 * get a plain link here, which sends event 25 when the dealer records analytics.
 */
import { useEffect, useRef, useState } from 'react';
import { EVENT_PHONE_CLICK, track } from '../lib/analytics';
import { revealPhone, telLink } from '../lib/phone';

export interface PhoneRevealProps {
  apiBase: string;
  carId: string;
  locationId: string;
  /** The spec's website_id (the dealer's slug). */
  websiteId: string;
  /** Masked number shown before the click (reveal on). */
  masked?: string;
  /** The number, only when the dealer shows it without a reveal. */
  phone?: string;
  /** Shown when the reveal call fails (reveal on): the location's number. */
  fallbackPhone?: string;
  analytics: boolean;
  className?: string;
  fetchImpl?: typeof fetch;
}

export default function PhoneReveal(props: PhoneRevealProps) {
  const { apiBase, carId, locationId, websiteId, masked, analytics, fetchImpl, className = 'button button--outline' } = props;
  const [phone, setPhone] = useState<string | null>(props.phone ?? null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  // Set by a click: the button is replaced by the link, and keyboard focus goes with it (which also reads it out).
  const moveFocus = useRef(false);
  useEffect(() => {
    if (phone !== null && moveFocus.current) link.current?.focus();
  }, [phone]);

  if (phone !== null) {
    // Revealed through the API: the click was already recorded (event 25).
    const onCall = props.phone ? () => track({ apiBase, enabled: analytics, fetchImpl }, EVENT_PHONE_CLICK, carId) : undefined;
    return (
      <a ref={link} className={className} href={telLink(phone)} onClick={onCall} data-phone-revealed="true">
        Call {phone}
      </a>
    );
  }

  async function onReveal() {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    const found = (await revealPhone({ apiBase, carId, locationId, websiteId, fetchImpl })) ?? props.fallbackPhone ?? null;
    setBusy(false);
    if (found) {
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
        {failed ? 'The number could not be shown just now. Please try again.' : ''}
      </p>
    </>
  );
}
