/**
 * The enquiry form of an offer (the offer page, /offers/{id}/). The lead
 * names the offer (`page_id`, subcategory "Offer Enquiry: {offer}") and
 * the offer's make and model; the message starts with the offer's name, so
 * an open question costs the shopper nothing. It is a general enquiry
 * (event 22): category `offer` is the car's Make an Offer, which needs an
 * amount. The shopper may ask for a test drive instead (category
 * test_drive, subcategory "Book a Test Drive"), chosen on arrival by the
 * offer's Book A Test Drive button (`?enquiry=test-drive`).
 *
 * A sent lead goes to the success page, or, when the page gives `thanks`
 * (the dealer's `offers_display.thank_you_title` / `thank_you_text`), the
 * form makes way for that title and text, focus on the title.
 * Hydrated when visible; a plain form post before.
 */
import { useEffect, useRef, useState } from 'react';
import { EVENTS } from '../../lib/events';
import type { FormValues } from '../../lib/forms/rules';
import type { Location } from '../../types/site';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, dealerDefaults, locationField, messageField, postcodeField, consentFields, type FormConfig } from './specs';

export interface OfferSummary {
  /** The offer's id (/offers/{id}). */
  id: string;
  name: string;
  manufacturer?: string | null;
  model?: string | null;
}

/** The subcategory of a test drive asked for from an offer (as the book-a-test-drive form's). */
export const OFFER_TEST_DRIVE = 'Book a Test Drive';

/** The subcategory of a question about the offer. */
export function offerSubcategory(offer: Pick<OfferSummary, 'name'>): string {
  return `Offer Enquiry: ${offer.name}`.slice(0, 100);
}

/** The lead's category for the shopper's choice. */
export function offerCategory(values: FormValues): 'general' | 'test_drive' {
  return values['subcategory'] === OFFER_TEST_DRIVE ? 'test_drive' : 'general';
}

export function offerEnquiryFields(config: FormConfig, locations: Pick<Location, 'id' | 'name'>[], offer: Pick<OfferSummary, 'name'>, category: string = 'general'): FieldSpec[] {
  const ask = offerSubcategory(offer);
  const fields: FieldSpec[] = [
    {
      name: 'subcategory',
      rule: 'choice',
      required: true,
      label: 'I would like to',
      input: 'radio',
      options: [
        { value: ask, label: 'Ask about this offer' },
        { value: OFFER_TEST_DRIVE, label: 'Book a test drive' },
      ],
      choices: [ask, OFFER_TEST_DRIVE],
    },
    ...contactFields(),
    postcodeField(false),
  ];
  const location = locationField(locations, undefined, 'Preferred location');
  if (location) fields.push(location);
  fields.push(messageField(category, config), ...consentFields(config));
  return fields;
}

export interface OfferThanks {
  /** `offers_display.thank_you_title`. */
  title: string;
  /** `offers_display.thank_you_text`. */
  text: string;
}

export interface OfferEnquiryProps {
  config: FormConfig;
  offer: OfferSummary;
  locations: Pick<Location, 'id' | 'name'>[];
  heading?: string;
  /** Shown in place of the form once it is sent (instead of going to the success page). */
  thanks?: OfferThanks;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function OfferEnquiry({ config, offer, locations, heading = 'Enquire about this offer', thanks, fetchImpl, navigate }: OfferEnquiryProps) {
  const ask = offerSubcategory(offer);
  const [category, setCategory] = useState<'general' | 'test_drive'>('general');
  const [initial, setInitial] = useState<FormValues>({ subcategory: ask });
  const [sent, setSent] = useState(false);
  const thanksHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Read after hydration: the server-rendered HTML has no query string.
    if (new URLSearchParams(window.location.search).get('enquiry') === 'test-drive') {
      setInitial({ subcategory: OFFER_TEST_DRIVE });
      setCategory('test_drive');
    }
  }, []);
  useEffect(() => {
    if (sent) thanksHeading.current?.focus();
  }, [sent]);
  const defaults: Record<string, string | boolean> = {
    ...dealerDefaults(config, locations),
    // What a post without JavaScript files the lead under (the radios send the subcategory).
    category: 'general',
    page_id: offer.id,
  };
  if (offer.manufacturer) defaults['make'] = offer.manufacturer;
  if (offer.model) defaults['model'] = offer.model;
  const headingId = `offer-enquiry-${offer.id}`;
  return (
    <section className="enquiry" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      {sent && thanks ? (
        <div className="enquiry__thanks" data-offer-thanks>
          <h3 ref={thanksHeading} tabIndex={-1}>
            {thanks.title}
          </h3>
          <p>{thanks.text}</p>
        </div>
      ) : (
        <LeadForm
          formId={`offer-${offer.id}`}
          settings={config}
          fields={offerEnquiryFields(config, locations, offer, category)}
          category={(values) => ({ category: offerCategory(values), subcategory: values['subcategory'] === OFFER_TEST_DRIVE ? OFFER_TEST_DRIVE : ask })}
          defaults={defaults}
          initialValues={{ ...initial, message: `I'm interested in the ${offer.name} offer.` }}
          onValues={(values) => setCategory(offerCategory(values))}
          submitLabel="Send enquiry"
          event={{ id: EVENTS.form_enquiry, data: { offer_id: offer.id } }}
          onSent={thanks ? () => setSent(true) : undefined}
          fetchImpl={fetchImpl}
          navigate={navigate}
        />
      )}
    </section>
  );
}
