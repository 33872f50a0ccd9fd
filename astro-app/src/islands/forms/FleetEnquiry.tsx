/**
 * The fleet enquiry form (docs/behaviour/search.md §5: a fleet enquiry sends analytics
 * event 19), for the fleet page (`/fleet`). Category fleet: a message is
 * asked for unless the dealer switched messages off. Hydrated when
 * visible; a plain form post before.
 */
import { EVENTS } from '../../lib/events';
import type { Location } from '../../types/site';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, dealerDefaults, locationField, messageField, consentFields, type FormConfig } from './specs';

export function fleetFields(config: FormConfig, locations: Pick<Location, 'id' | 'name'>[]): FieldSpec[] {
  const fields: FieldSpec[] = [
    ...contactFields(),
    { name: 'company', rule: 'text', required: false, label: 'Business name', input: 'text', autoComplete: 'organization' },
    { name: 'fleet_size', rule: 'text', required: false, label: 'How many vehicles?', input: 'text' },
  ];
  const location = locationField(locations);
  if (location) fields.push(location);
  fields.push(messageField('fleet', config, undefined, 'What do you need?'), ...consentFields(config));
  return fields;
}

export interface FleetEnquiryProps {
  config: FormConfig;
  locations: Pick<Location, 'id' | 'name'>[];
  heading?: string;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function FleetEnquiry({ config, locations, heading = 'Fleet enquiry', fetchImpl, navigate }: FleetEnquiryProps) {
  return (
    <section className="enquiry" aria-labelledby="fleet-enquiry-heading">
      <h2 id="fleet-enquiry-heading">{heading}</h2>
      <LeadForm
        formId="fleet-enquiry"
        settings={config}
        fields={fleetFields(config, locations)}
        category="fleet"
        subcategory="Fleet Enquiry"
        defaults={dealerDefaults(config, locations)}
        submitLabel="Send fleet enquiry"
        event={{ id: EVENTS.fleet_enquiry }}
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
