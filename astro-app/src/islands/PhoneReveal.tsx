/**
 * The location's phone on the car page (spec 000 §4, §7, §8). Masked
 * ("(07) 3555 XXXX") until clicked; the click asks POST /api/phone-reveal,
 * which records the reveal and event 25, and shows the number it answers.
 * A failed reveal is only logged. Dealers who show the phone at once get a
 * plain link here, which sends event 25 when the dealer records analytics.
 */
import { useRef, useState } from 'react';
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
  analytics: boolean;
  className?: string;
  fetchImpl?: typeof fetch;
}

export default function PhoneReveal(props: PhoneRevealProps) {
  const { apiBase, carId, locationId, websiteId, masked, analytics, fetchImpl, className = 'button button--outline' } = props;
  const [phone, setPhone] = useState<string | null>(props.phone ?? null);
  const [busy, setBusy] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);

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
    const found = await revealPhone({ apiBase, carId, locationId, websiteId, fetchImpl });
    setBusy(false);
    if (found) {
      setPhone(found);
      // The button is replaced by the link: keep keyboard focus on it.
      requestAnimationFrame(() => link.current?.focus());
    }
  }

  return (
    <button type="button" className={className} onClick={onReveal} aria-busy={busy}>
      {masked} <span className="phone-reveal__cta">Show number</span>
    </button>
  );
}
