/**
 * The car page's multi-step enquiry form (docs/behaviour/car-page.md §4 "Multi-step enquiry
 * form"), hydrated when it scrolls into view. Step 1 asks who the shopper
 * is, step 2 what they want; the last step sends. Without JavaScript (or
 * before hydration) both steps show as one plain form that posts to the
 * edge.
 *
 * The kind of enquiry comes from the link (`?enquiry=test-drive|finance|
 * offer|trade-in|photos|similar`, the result cards' buttons): it sets the
 * lead's category and subcategory, the heading and the fields (test drive:
 * preferred date and time, and the car location's distribution locations
 * when it has any; offer: the amount; photos: the hidden request text). A
 * sold car always asks for something similar (docs/behaviour/content.md §4). A sent lead
 * records event 17/15/14 (docs/behaviour/car-page.md §7) and goes to the success page with
 * the category and car type.
 */
import { useEffect, useState } from 'react';
import { enquiryTypeOf, requestedEnquiry, type EnquiryType } from '../../lib/enquiry';
import { vehicleEnquiryEvent } from '../../lib/events';
import { carDefaults, vehicleDetails, type CarFacts } from '../../lib/forms/payload';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, messageField, consentFields, type FormConfig } from './specs';

export interface EnquiryFormProps {
  config: FormConfig;
  car: CarFacts;
  /** The car location's distribution locations (the test drive's select). */
  distributionLocations?: string[];
  /** The car location's name (the select's "no preference" choice names it). */
  locationName?: string;
  /** The kind asked for by the page; the query's `?enquiry=` wins once hydrated. */
  enquiry?: string;
  /** Not in stock: the form asks for something similar whatever was requested. */
  sold?: boolean;
  /** Heading of the plain enquiry. */
  title?: string;
  /**
   * The kind stays the page's `enquiry`: the link's `?enquiry=` is not read
   * (a form in a dialog, e.g. the finance calculator's Get Finance Now).
   */
  fixed?: boolean;
  /** Pre-filled message, instead of the kind's own (the calculator's repayment). */
  message?: string;
  /** Id of the heading, when the page shows this form twice (the calculator's dialog). */
  headingId?: string;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

/** The steps' titles. */
export const ENQUIRY_STEPS = ['Your details', 'Your enquiry'];

/** The fields of a kind of enquiry, in order, with their steps. */
export function enquiryFields(type: EnquiryType, config: FormConfig, distribution: string[] = [], locationName = ''): FieldSpec[] {
  const fields: FieldSpec[] = [...contactFields(0)];
  if (type.kind === 'offer') {
    fields.push({ name: 'offer_amount', rule: 'money', required: true, missing: 'offer_missing', label: 'Your offer', input: 'money', hint: 'In dollars, e.g. 25000.', step: 1 });
  }
  if (type.dateTime) {
    fields.push(
      { name: 'preferred_date', rule: 'date', required: false, label: 'Preferred date', input: 'date', step: 1 },
      { name: 'preferred_time', rule: 'time', required: false, label: 'Preferred time', input: 'time', step: 1 },
    );
    if (distribution.length > 0) {
      fields.push({
        name: 'distribution_location',
        rule: 'choice',
        required: false,
        label: 'Where would you like to see the car?',
        input: 'select',
        emptyOption: locationName ? `At ${locationName}` : 'No preference',
        options: distribution.map((d) => ({ value: d, label: d })),
        choices: distribution,
        step: 1,
      });
    }
  }
  if (type.kind === 'enquiry') {
    fields.push(
      {
        name: 'do-you-have-a-trade-in',
        rule: 'choice',
        required: false,
        label: 'Do you have a trade-in?',
        input: 'radio',
        options: [
          { value: 'Yes', label: 'Yes' },
          { value: 'No', label: 'No' },
        ],
        choices: ['Yes', 'No'],
        step: 1,
      },
      { name: 'opt_in_finance', rule: 'checkbox', required: false, label: 'I would like to hear about finance for this car.', input: 'checkbox', step: 1 },
      // The enquiry's finance and trade opt-ins, both optional and unticked
      // (docs/behaviour/spec-rows.md C74).
      { name: 'opt_in_trade', rule: 'checkbox', required: false, label: 'I would like a valuation of my trade-in.', input: 'checkbox', step: 1 },
    );
  }
  fields.push(messageField(type.category, config, 1), ...consentFields(config, 1));
  return fields;
}

function submitLabel(type: EnquiryType): string {
  if (type.kind === 'test-drive') return 'Request test drive';
  if (type.kind === 'offer') return 'Send offer';
  return 'Send enquiry';
}

export default function EnquiryForm(props: EnquiryFormProps) {
  const { config, car, sold = false } = props;
  const [type, setType] = useState(() => enquiryTypeOf(props.enquiry, sold));
  useEffect(() => {
    if (props.fixed) return;
    // Read after hydration: the server-rendered HTML has no query string.
    const requested = requestedEnquiry(window.location.search);
    if (requested !== null) setType(enquiryTypeOf(requested, sold));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration: the query string
  }, []);
  const headingId = props.headingId ?? `enquiry-heading-${car.id}`;
  const message = props.message || type.defaultMessage;
  const title = type.kind === 'enquiry' ? (props.title ?? type.title) : type.title;
  const fields = enquiryFields(type, config, props.distributionLocations, props.locationName);
  return (
    <section className="enquiry" aria-labelledby={headingId} data-enquiry={type.kind}>
      <h2 id={headingId}>{title}</h2>
      <LeadForm
        // A link's kind (read after hydration) changes the fields and the
        // message in place: a new form would drop what was typed and the focus.
        formId={`enquiry-${type.kind}`}
        settings={config}
        fields={fields}
        steps={ENQUIRY_STEPS}
        category={type.category}
        subcategory={type.subcategory}
        defaults={carDefaults(car, config.dealershipSlug)}
        hiddenText={type.hiddenText || undefined}
        initialValues={message ? { message } : undefined}
        submitLabel={submitLabel(type)}
        event={{ id: vehicleEnquiryEvent({ tag: car.tag, carType: car.car_type }), data: vehicleDetails(car), carId: car.id }}
        lastLead={{ car: { name: car.name, slug: car.slug, car_type: car.car_type } }}
        successQuery={{ car_type: car.car_type }}
        fetchImpl={props.fetchImpl}
        navigate={props.navigate}
      />
    </section>
  );
}
