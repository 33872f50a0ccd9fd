/**
 * The parts enquiry (the parts page, /parts; docs/behaviour/forms.md §
 * "Parts, feedback and unsubscribe"): what parts or accessories the
 * shopper needs, for which car (registration, VIN or the car in words),
 * to which parts counter. Category parts: the dealer's CRM files it apart
 * from sales. A message is asked for unless the dealer switched messages
 * off. Hydrated when visible; a plain form post before.
 */
import type { Location } from '../../types/site';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, dealerDefaults, locationField, messageField, consentFields, type FormConfig } from './specs';

export function partsFields(config: FormConfig, locations: Pick<Location, 'id' | 'name'>[]): FieldSpec[] {
  const fields: FieldSpec[] = [...contactFields()];
  const location = locationField(locations, undefined, 'Parts counter');
  if (location) fields.push(location);
  fields.push(
    { name: 'customer_vehicle', rule: 'text', required: false, label: 'Your car', input: 'text', hint: 'Year, make and model, e.g. 2019 Toyota HiLux SR5.' },
    { name: 'rego', rule: 'rego', required: false, label: 'Registration', input: 'rego' },
    { name: 'vin', rule: 'text', required: false, label: 'VIN', input: 'text', hint: 'The 17 characters on the registration papers: the surest way to the right part.' },
    messageField('parts', config, undefined, 'Which parts or accessories do you need?'),
    ...consentFields(config),
  );
  return fields;
}

export interface PartsEnquiryProps {
  config: FormConfig;
  /** The locations that serve parts. */
  locations: Pick<Location, 'id' | 'name'>[];
  heading?: string;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function PartsEnquiry({ config, locations, heading = 'Ask our parts team', fetchImpl, navigate }: PartsEnquiryProps) {
  return (
    <section className="enquiry" aria-labelledby="parts-enquiry-heading">
      <h2 id="parts-enquiry-heading">{heading}</h2>
      <LeadForm
        formId="parts-enquiry"
        settings={config}
        fields={partsFields(config, locations)}
        category="parts"
        subcategory="Parts Enquiry"
        defaults={dealerDefaults(config, locations)}
        submitLabel="Send parts enquiry"
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
