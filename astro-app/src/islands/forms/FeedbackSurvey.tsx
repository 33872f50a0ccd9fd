/**
 * The customer feedback survey (/customer-feedback-survey; docs/behaviour/
 * forms.md § "Parts, feedback and unsubscribe"): where the review-feedback
 * page's "I had a bad experience" leads. The shopper says where, about
 * what and what went wrong; it reaches the dealer's CRM as its own lead
 * category (feedback), so a manager can call back before a bad review is
 * written. `?first_name=` (from the review-feedback link) fills in the
 * name. Hydrated when visible; a plain form post before.
 */
import { useEffect, useState } from 'react';
import type { FormValues } from '../../lib/forms/rules';
import type { Location } from '../../types/site';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, dealerDefaults, locationField, messageField, consentFields, type FormConfig } from './specs';
import { greetingName } from '../../lib/content/feedback';

/** What the visit was about (sent as `visit_reason`). */
export const VISIT_REASONS = ['Buying a car', 'Selling or trading in a car', 'A service or repair', 'Parts or accessories', 'Something else'] as const;

export function surveyFields(config: FormConfig, locations: Pick<Location, 'id' | 'name'>[]): FieldSpec[] {
  const fields: FieldSpec[] = [...contactFields()];
  const location = locationField(locations, undefined, 'Which of our locations?');
  if (location) fields.push(location);
  fields.push(
    {
      name: 'visit_reason',
      rule: 'choice',
      required: true,
      label: 'What was your visit about?',
      input: 'select',
      emptyOption: 'Choose one',
      options: VISIT_REASONS.map((r) => ({ value: r, label: r })),
      choices: VISIT_REASONS,
    },
    messageField('feedback', config, undefined, 'What went wrong?'),
    ...consentFields(config),
  );
  return fields;
}

export interface FeedbackSurveyProps {
  config: FormConfig;
  locations: Pick<Location, 'id' | 'name'>[];
  heading?: string;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function FeedbackSurvey({ config, locations, heading = 'Tell us what went wrong', fetchImpl, navigate }: FeedbackSurveyProps) {
  const [initial, setInitial] = useState<FormValues | undefined>(undefined);
  useEffect(() => {
    const name = greetingName(new URLSearchParams(window.location.search).get('first_name'));
    if (name) setInitial({ name });
  }, []);
  return (
    <section className="enquiry" aria-labelledby="feedback-survey-heading">
      <h2 id="feedback-survey-heading">{heading}</h2>
      <LeadForm
        formId="feedback-survey"
        settings={config}
        fields={surveyFields(config, locations)}
        category="feedback"
        subcategory="Customer Feedback Survey"
        defaults={dealerDefaults(config, locations)}
        initialValues={initial}
        submitLabel="Send feedback"
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
