/**
 * The enquiry form of an offer (the offers pages: /offers/{id} and the
 * special offers list). The lead names the offer (`page_id`, subcategory
 * "Offer Enquiry: {offer}") and the offer's make and model; the message
 * starts with the offer's name, so an open question costs the shopper
 * nothing. It is a general enquiry (event 22): category `offer` is the
 * car's Make an Offer, which needs an amount. Hydrated when visible; a
 * plain form post before.
 */
import { EVENTS } from '../../lib/events';
import type { Location } from '../../types/site';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, dealerDefaults, locationField, messageField, postcodeField, termsFields, type FormConfig } from './specs';

export interface OfferSummary {
  /** The offer's id (/offers/{id}). */
  id: string;
  name: string;
  manufacturer?: string | null;
  model?: string | null;
}

export function offerEnquiryFields(config: FormConfig, locations: Pick<Location, 'id' | 'name'>[]): FieldSpec[] {
  const fields: FieldSpec[] = [...contactFields(), postcodeField(false)];
  const location = locationField(locations, undefined, 'Preferred location');
  if (location) fields.push(location);
  fields.push(messageField('general', config), ...termsFields(config));
  return fields;
}

export interface OfferEnquiryProps {
  config: FormConfig;
  offer: OfferSummary;
  locations: Pick<Location, 'id' | 'name'>[];
  heading?: string;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function OfferEnquiry({ config, offer, locations, heading = 'Enquire about this offer', fetchImpl, navigate }: OfferEnquiryProps) {
  const defaults: Record<string, string | boolean> = { ...dealerDefaults(config, locations), page_id: offer.id };
  if (offer.manufacturer) defaults['make'] = offer.manufacturer;
  if (offer.model) defaults['model'] = offer.model;
  const headingId = `offer-enquiry-${offer.id}`;
  return (
    <section className="enquiry" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <LeadForm
        formId={`offer-${offer.id}`}
        settings={config}
        fields={offerEnquiryFields(config, locations)}
        category="general"
        subcategory={`Offer Enquiry: ${offer.name}`.slice(0, 100)}
        defaults={defaults}
        initialValues={{ message: `I'm interested in the ${offer.name} offer.` }}
        submitLabel="Send enquiry"
        event={{ id: EVENTS.form_enquiry, data: { offer_id: offer.id } }}
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
