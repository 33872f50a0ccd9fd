/**
 * The finance enquiry (`#finance-form` on the finance page). Finance links
 * carry preferredDealership, vehiclePriceBudget, car_id and car_type
 * (docs/behaviour/car-page.md §2): the form starts from them (the location chosen, the
 * budget filled in, the car named and sent as the lead's car). Hydrated
 * when visible; a plain form post before (without the link's values).
 */
import { useEffect, useState } from 'react';
import { EVENTS, vehicleEnquiryEvent } from '../../lib/events';
import { findCar } from '../../lib/forms/car-lookup';
import type { FormValues } from '../../lib/forms/rules';
import type { WatchlistCar } from '../../lib/watchlist-cars';
import type { Location } from '../../types/site';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, dealerDefaults, locationField, messageField, postcodeField, consentFields, type FormConfig } from './specs';

export function financeFields(config: FormConfig, locations: Pick<Location, 'id' | 'name'>[]): FieldSpec[] {
  const fields: FieldSpec[] = [...contactFields(), postcodeField(true)];
  const location = locationField(locations, undefined, 'Preferred dealership');
  if (location) fields.push(location);
  fields.push(
    { name: 'vehiclePriceBudget', rule: 'money', required: false, label: 'How much would you like to borrow?', input: 'money', presets: config.budgetPresets },
    messageField('finance', config),
    ...consentFields(config),
  );
  return fields;
}

/** The finance link's parameters the form uses. */
export function linkValues(search: string, locations: Pick<Location, 'id'>[]): { values: FormValues; carId: string; carType: string } {
  const q = new URLSearchParams(search);
  const values: FormValues = {};
  const dealership = q.get('preferredDealership') ?? '';
  if (locations.some((l) => l.id === dealership)) values['location_id'] = dealership;
  const budget = (q.get('vehiclePriceBudget') ?? '').replace(/[^\d]/g, '');
  if (budget) values['vehiclePriceBudget'] = String(Math.round(Number(budget)));
  const carType = q.get('car_type') ?? '';
  return { values, carId: (q.get('car_id') ?? '').slice(0, 64), carType: ['new', 'used', 'demo'].includes(carType) ? carType : '' };
}

export interface FinanceEnquiryProps {
  config: FormConfig;
  locations: Pick<Location, 'id' | 'name'>[];
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function FinanceEnquiry({ config, locations, fetchImpl, navigate }: FinanceEnquiryProps) {
  const [link, setLink] = useState<ReturnType<typeof linkValues> | null>(null);
  const [car, setCar] = useState<WatchlistCar | null>(null);
  useEffect(() => {
    const found = linkValues(window.location.search, locations);
    setLink(found);
    if (found.carId) void findCar(found.carId, fetchImpl).then(setCar);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration: the query string
  }, []);
  const defaults: Record<string, string | boolean> = { ...dealerDefaults(config, locations) };
  if (link?.carId) defaults['car_id'] = link.carId;
  if (link?.carType) defaults['car_type'] = link.carType;
  return (
    <section className="enquiry" id="finance-form" aria-labelledby="finance-form-heading" tabIndex={-1}>
      <h2 id="finance-form-heading">Finance enquiry</h2>
      {car && (
        <p className="enquiry__about">
          About the <a href={`/cars/${car.slug}/`}>{car.name}</a>
          {car.price_text ? `, ${car.price_text}` : ''}.
        </p>
      )}
      <LeadForm
        formId="finance-enquiry"
        settings={config}
        fields={financeFields(config, locations)}
        category="finance"
        subcategory="Finance Enquiry"
        defaults={defaults}
        // The link's values arrive after hydration: they fill the fields the shopper has not (the form stays, with its focus).
        initialValues={link?.values}
        submitLabel="Send finance enquiry"
        event={{ id: link?.carId ? vehicleEnquiryEvent({ carType: link.carType }) : EVENTS.form_enquiry, ...(link?.carId ? { carId: link.carId } : {}) }}
        lastLead={car ? { car: { name: car.name, slug: car.slug, car_type: link?.carType ?? '' } } : undefined}
        successQuery={link?.carType ? { car_type: link.carType } : undefined}
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
