/**
 * The contact page's general enquiry form with its category select
 * (docs/behaviour/content.md §5: shown for general enquiries, required, General Enquiry by
 * default). A careers enquiry is re-labelled: it goes as a General Enquiry
 * with subcategory "Career Enquiry" and records event 51 instead of 22
 * (docs/behaviour/content.md §4, §7); a fleet enquiry records event 19 (docs/behaviour/search.md §5); a
 * service booking asks for the car's registration too; a Parts Enquiry (only where
 * a location serves parts) goes as category parts. `?enquiry=fleet`
 * (the search page's Fleet "Get In Touch") or `?enquiry=careers` chooses
 * the category on arrival. Hydrated when visible; a plain form post before.
 */
import { useEffect, useState } from 'react';
import { formEnquiryEvent } from '../../lib/events';
import type { FormValues } from '../../lib/forms/rules';
import type { Location } from '../../types/site';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, dealerDefaults, locationField, messageField, consentFields, type FormConfig } from './specs';

/** The select's choices: what the shopper reads, the subcategory sent (the select's value) and the lead category. */
export const ENQUIRY_CATEGORIES = [
  { label: 'General Enquiry', subcategory: 'General Enquiry', category: 'general', choice: 'general' },
  { label: 'Service Booking', subcategory: 'Service Booking', category: 'service', choice: 'service' },
  { label: 'Fleet Enquiry', subcategory: 'Fleet Enquiry', category: 'fleet', choice: 'fleet' },
  // Re-labelled: a General Enquiry with subcategory Career Enquiry (docs/behaviour/content.md §4).
  { label: 'Careers Enquiry', subcategory: 'Career Enquiry', category: 'general', choice: 'careers' },
  // Only where a location serves parts (FormConfig.partsEnquiry).
  { label: 'Parts Enquiry', subcategory: 'Parts Enquiry', category: 'parts', choice: 'parts' },
] as const;

type Choice = (typeof ENQUIRY_CATEGORIES)[number];

/** The select's choices for this dealer: Parts Enquiry only with a parts counter. */
export function enquiryChoices(config: Pick<FormConfig, 'partsEnquiry'>): readonly Choice[] {
  return ENQUIRY_CATEGORIES.filter((c) => c.choice !== 'parts' || config.partsEnquiry === true);
}

export function categoryOf(values: FormValues): Choice {
  return ENQUIRY_CATEGORIES.find((c) => c.subcategory === values['subcategory']) ?? ENQUIRY_CATEGORIES[0];
}

export function generalFields(config: FormConfig, locations: Pick<Location, 'id' | 'name'>[], choice: Choice): FieldSpec[] {
  const choices = enquiryChoices(config);
  const fields: FieldSpec[] = [
    {
      name: 'subcategory',
      rule: 'choice',
      required: true,
      label: 'Enquiry type',
      input: 'select',
      options: choices.map((c) => ({ value: c.subcategory, label: c.label })),
      choices: choices.map((c) => c.subcategory),
      missing: 'category_missing',
    },
    ...contactFields(),
  ];
  const location = locationField(locations);
  if (location) fields.push(location);
  if (choice.choice === 'service') {
    fields.push({ name: 'rego', rule: 'rego', required: false, label: 'Registration', input: 'rego', hint: 'The plate of the car to be serviced.' });
    // The dealer's extras (service.additional_services), sent as the lead's additional_services.
    const extras = config.additionalServices ?? [];
    if (extras.length > 0) {
      fields.push({ name: 'additional_services', rule: 'choices', required: false, label: 'While it is with us', input: 'checkboxes', options: extras.map((e) => ({ value: e, label: e })), choices: extras });
    }
  }
  fields.push(messageField(choice.choice === 'careers' ? 'careers' : choice.category, config), ...consentFields(config));
  return fields;
}

export interface GeneralEnquiryProps {
  config: FormConfig;
  locations: Pick<Location, 'id' | 'name'>[];
  /** Heading level of the form's title. */
  heading?: string;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function GeneralEnquiry({ config, locations, heading = 'Send us an enquiry', fetchImpl, navigate }: GeneralEnquiryProps) {
  const [choice, setChoice] = useState<Choice>(ENQUIRY_CATEGORIES[0]);
  const [initial, setInitial] = useState<FormValues | undefined>(undefined);
  useEffect(() => {
    const asked = new URLSearchParams(window.location.search).get('enquiry');
    const found = enquiryChoices(config).find((c) => c.choice === asked);
    if (found && found !== ENQUIRY_CATEGORIES[0]) {
      setChoice(found);
      setInitial({ subcategory: found.subcategory });
    }
  }, [config]);
  return (
    <section className="enquiry" aria-labelledby="general-enquiry-heading">
      <h2 id="general-enquiry-heading">{heading}</h2>
      <LeadForm
        formId="general-enquiry"
        settings={config}
        fields={generalFields(config, locations, choice)}
        category={(values) => {
          const c = categoryOf(values);
          return { category: c.category, subcategory: c.subcategory };
        }}
        // category: what a post without JavaScript files the lead under (the select sends the subcategory).
        defaults={{ ...dealerDefaults(config, locations), category: 'general' }}
        initialValues={initial}
        onValues={(values) => setChoice(categoryOf(values))}
        submitLabel="Send enquiry"
        event={{ id: (values) => formEnquiryEvent(categoryOf(values).choice) }}
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
