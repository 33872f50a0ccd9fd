/**
 * Withdraw marketing consent (/unsubscribe; docs/behaviour/forms.md §
 * "Parts, feedback and unsubscribe"). Every lead form offers the
 * marketing opt-in, so every dealer's site has this page: the Spam Act
 * 2003 asks for a functional unsubscribe that asks for nothing but the
 * address to stop. An e-mail address or a mobile is enough (the name is
 * optional); no opt-in, no terms. It reaches the dealer's CRM as its own
 * lead category (unsubscribe). Hydrated when visible; a plain form post
 * before.
 */
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { dealerDefaults, type FormConfig } from './specs';

export function unsubscribeFields(): FieldSpec[] {
  return [
    { name: 'email', rule: 'email', required: false, requiredUnless: 'phone', missing: 'unsubscribe_missing', label: 'Email', input: 'email', autoComplete: 'email', hint: 'The address our e-mails reach. An email address or a mobile number is enough.' },
    { name: 'phone', rule: 'phone', required: false, label: 'Mobile', input: 'tel', autoComplete: 'tel', hint: 'The number our text messages reach.' },
    { name: 'name', rule: 'name', required: false, label: 'Name', input: 'text', autoComplete: 'name' },
    { name: 'message', rule: 'message', required: false, label: 'Anything you would like us to know?', input: 'textarea' },
  ];
}

export interface UnsubscribeProps {
  config: FormConfig;
  heading?: string;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export default function Unsubscribe({ config, heading = 'Stop our offers and news', fetchImpl, navigate }: UnsubscribeProps) {
  return (
    <section className="enquiry" aria-labelledby="unsubscribe-heading">
      <h2 id="unsubscribe-heading">{heading}</h2>
      <LeadForm
        formId="unsubscribe"
        settings={config}
        fields={unsubscribeFields()}
        category="unsubscribe"
        subcategory="Unsubscribe"
        defaults={dealerDefaults(config, [])}
        submitLabel="Unsubscribe"
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
