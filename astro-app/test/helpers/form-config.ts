/**
 * The forms' settings of the Brisbane demo dealer as the form islands'
 * tests give them (`formConfig(site)` builds the same shape from site.json):
 * messages and terms required, no captcha, no quick amounts. `over`
 * changes what a test needs (the analytics sink, the API's origin...).
 */
import type { FormConfig } from '../../src/islands/forms/specs';

export const TEST_LOCATIONS = [
  { id: 'bmg-newstead', name: 'Newstead' },
  { id: 'bmg-springwood', name: 'Springwood' },
];

export function testFormConfig(over: Partial<FormConfig> = {}): FormConfig {
  return {
    apiBase: '',
    successPath: '/success/',
    captchaSiteKey: null,
    analyticsSink: false,
    dealershipSlug: 'brisbane-motor-group',
    messageRequired: true,
    termsRequired: true,
    optInText: 'Send me offers and news by email and SMS. I can unsubscribe at any time.',
    defaultState: 'QLD',
    budgetPresets: [],
    ...over,
  };
}
