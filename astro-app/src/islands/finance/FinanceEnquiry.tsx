/**
 * The finance page's enquiry form (#finance-form). A calculator's Enquire
 * Now link carries the car here (preferredDealership, vehiclePriceBudget,
 * car_id, car_type: lib/finance/links.ts); once hydrated this reads them
 * and hands them to the shared enquiry form in its finance mode: the lead
 * names the car and the location, and the message starts with the budget.
 * Without them it is a general finance enquiry.
 */
import { useEffect, useState } from 'react';
import EnquiryForm from '../EnquiryForm';
import { dollars } from '../../lib/format';
import { readFinanceRequest, type FinanceRequest } from '../../lib/finance/links';

export interface FinanceEnquiryProps {
  apiBase: string;
  analytics: boolean;
  /** The dealer's location ids: a preferredDealership naming another is ignored. */
  locationIds: string[];
  fetchImpl?: typeof fetch;
}

/** The message a request pre-fills: "I'm interested in finance for a used vehicle of about $30,990 (car 4711)." */
export function financeMessage(r: FinanceRequest): string {
  if (!r.carId && !r.vehiclePriceBudget) return '';
  const kind = r.carType && /^(new|used|demo)$/.test(r.carType) ? `${r.carType} vehicle` : 'vehicle';
  const budget = r.vehiclePriceBudget ? ` of about ${dollars(r.vehiclePriceBudget)}` : '';
  const car = r.carId ? ` (car ${r.carId})` : '';
  return `I'm interested in finance for a ${kind}${budget}${car}.`;
}

export default function FinanceEnquiry(props: FinanceEnquiryProps) {
  // Read after hydration: the static HTML has no query string.
  const [request, setRequest] = useState<FinanceRequest | null>(null);
  useEffect(() => setRequest(readFinanceRequest(window.location.search)), []);
  const r = request ?? { preferredDealership: null, vehiclePriceBudget: null, carId: null, carType: null };
  const locationId = r.preferredDealership && props.locationIds.includes(r.preferredDealership) ? r.preferredDealership : '';
  return (
    <EnquiryForm
      // A new form once the request is read, so its message starts from it.
      key={request ? 'read' : 'static'}
      apiBase={props.apiBase}
      carId={r.carId ?? ''}
      locationId={locationId}
      carName={r.carId ? 'vehicle you chose' : 'finance options'}
      enquiry="finance"
      carType={r.carType ?? undefined}
      analytics={props.analytics}
      defaultMessage={financeMessage(r)}
      {...(props.fetchImpl ? { fetchImpl: props.fetchImpl } : {})}
    />
  );
}
