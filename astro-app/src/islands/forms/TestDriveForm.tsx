/**
 * Book a test drive without a car chosen (/book-test-drive): the location,
 * the make and model the shopper has in mind, and a preferred date and
 * time (docs/behaviour/search.md §5: optional). A lead of category test_drive; the form's
 * event is the general form's 22 (the car events 14/15/17 need a car).
 * Hydrated when visible; a plain form post before.
 */
import { EVENTS } from '../../lib/events';
import type { Location } from '../../types/site';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, dealerDefaults, locationField, messageField, consentFields, type FormConfig } from './specs';

export function testDriveFields(config: FormConfig, locations: Pick<Location, 'id' | 'name'>[], makes: string[]): FieldSpec[] {
  const fields: FieldSpec[] = [...contactFields()];
  const location = locationField(locations, undefined, 'Where would you like to drive?');
  if (location) fields.push(location);
  if (makes.length > 0) {
    fields.push({ name: 'make', rule: 'choice', required: false, label: 'Make', input: 'select', emptyOption: 'Any make', options: makes.map((m) => ({ value: m, label: m })), choices: makes });
  }
  fields.push(
    { name: 'model', rule: 'text', required: false, label: 'Model', input: 'text', hint: 'e.g. Corolla, Sportage or RAV4.' },
    { name: 'preferred_date', rule: 'date', required: false, label: 'Preferred date', input: 'date' },
    { name: 'preferred_time', rule: 'time', required: false, label: 'Preferred time', input: 'time' },
    messageField('test_drive', config),
    ...consentFields(config),
  );
  return fields;
}

export interface TestDriveFormProps {
  config: FormConfig;
  /** Sales locations. */
  locations: Pick<Location, 'id' | 'name'>[];
  /** Makes in stock, most cars first. */
  makes: string[];
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function TestDriveForm({ config, locations, makes, fetchImpl, navigate }: TestDriveFormProps) {
  return (
    <section className="enquiry" aria-labelledby="test-drive-heading">
      <h2 id="test-drive-heading">Your test drive</h2>
      <LeadForm
        formId="book-test-drive"
        settings={config}
        fields={testDriveFields(config, locations, makes)}
        category="test_drive"
        subcategory="Book a Test Drive"
        defaults={dealerDefaults(config, locations)}
        submitLabel="Request test drive"
        event={{ id: EVENTS.form_enquiry }}
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
