// @vitest-environment jsdom
/**
 * The parts enquiry, the unsubscribe form, the customer feedback survey
 * and the review-feedback page (docs/behaviour/forms.md § "Parts,
 * feedback and unsubscribe"; spec rows B54, C17).
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FeedbackSurvey from '../src/islands/forms/FeedbackSurvey';
import GeneralEnquiry from '../src/islands/forms/GeneralEnquiry';
import PartsEnquiry from '../src/islands/forms/PartsEnquiry';
import Unsubscribe from '../src/islands/forms/Unsubscribe';
import { DEFAULT_NAME, NAME_MAX, fillFeedback } from '../src/lib/content/feedback';
import { successView } from '../src/lib/forms/success';
import { mockApi } from './helpers/api-mock';
import { TEST_LOCATIONS, testFormConfig } from './helpers/form-config';

const config = testFormConfig();
const counters = TEST_LOCATIONS;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
afterEach(cleanup);

const api = () => mockApi({ 'POST /api/leads': { status: 201, body: { lead_id: 'l1' } }, 'POST /api/events': { status: 202, body: {} } });
const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const lead = (calls: { path: string; body: unknown }[]) => calls.find((c) => c.path === '/api/leads')?.body as Record<string, unknown> | undefined;
function contact() {
  type('Name', 'Sam Citizen');
  type('Email', 'sam@example.com.au');
  type('Phone', '0412 345 678');
}
const agree = () => fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));

describe('the parts enquiry (C17)', () => {
  it('asks which parts, for which car and at which counter, and files the lead as category parts', async () => {
    window.history.replaceState(null, '', '/parts/');
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<PartsEnquiry config={config} locations={counters} fetchImpl={fetchImpl} navigate={navigate} />);
    contact();
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send parts enquiry' }));
    // The parts are the point of the enquiry, and a counter of two must be chosen.
    const alert = screen.getByRole('alert').textContent ?? '';
    expect(alert).toContain('Please enter a message.');
    expect(alert).toContain('Please choose a location.');
    expect(lead(calls)).toBeUndefined();
    type('Parts counter', 'bmg-springwood');
    type(/^Your car/, '2019 Toyota HiLux SR5');
    type(/^Registration/, 'abc 123');
    type(/^VIN/, 'MR0FZ29G301234567');
    type('Which parts or accessories do you need?', 'A towbar and wiring harness');
    fireEvent.click(screen.getByRole('button', { name: 'Send parts enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=parts'));
    expect(lead(calls)).toMatchObject({
      category: 'parts',
      subcategory: 'Parts Enquiry',
      location_id: 'bmg-springwood',
      customer_vehicle: '2019 Toyota HiLux SR5',
      vin: 'MR0FZ29G301234567',
      message: 'A towbar and wiring harness',
    });
  });

  it('the contact form offers a Parts Enquiry only where a location serves parts, filed as category parts', async () => {
    const { unmount } = render(<GeneralEnquiry config={config} locations={[counters[0]!]} />);
    const options = () => [...(screen.getByLabelText('Enquiry type') as HTMLSelectElement).options].map((o) => o.text);
    expect(options()).not.toContain('Parts Enquiry');
    unmount();
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<GeneralEnquiry config={{ ...config, partsEnquiry: true }} locations={[counters[0]!]} fetchImpl={fetchImpl} navigate={navigate} />);
    expect(options()).toContain('Parts Enquiry');
    type('Enquiry type', 'Parts Enquiry');
    contact();
    type('Message', 'Floor mats for a 2021 Corolla');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=parts'));
    expect(lead(calls)).toMatchObject({ category: 'parts', subcategory: 'Parts Enquiry' });
  });
});

describe('unsubscribe (withdrawing the opt-in)', () => {
  it('needs only an e-mail address or a mobile: no name, no terms, no opt-in; files as category unsubscribe', async () => {
    window.history.replaceState(null, '', '/unsubscribe/');
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<Unsubscribe config={config} fetchImpl={fetchImpl} navigate={navigate} />);
    expect(screen.queryByRole('checkbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(screen.getByRole('alert').textContent).toContain('Please enter the email address or mobile number to unsubscribe.');
    expect(lead(calls)).toBeUndefined();
    type(/^Mobile/, '0412 345 678');
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=unsubscribe'));
    const sent = lead(calls)!;
    expect(sent).toMatchObject({ category: 'unsubscribe', subcategory: 'Unsubscribe', phone: '0412345678' });
    expect(sent['opt_in']).not.toBe(true);
    expect(sent['terms_conditions']).not.toBe(true);
  });

  it('an address that is given is still checked', () => {
    render(<Unsubscribe config={config} />);
    type(/^Email/, 'sam@');
    type(/^Mobile/, '0412 345 678');
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(screen.getByRole('alert').textContent).toContain('Please enter a valid email address');
  });
});

describe('the customer feedback survey (B54)', () => {
  it('takes the name from the review-feedback link, asks what the visit was about and what went wrong, files as category feedback', async () => {
    window.history.replaceState(null, '', '/customer-feedback-survey/?first_name=Jo');
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<FeedbackSurvey config={config} locations={counters} fetchImpl={fetchImpl} navigate={navigate} />);
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Jo'));
    type('Email', 'jo@example.com.au');
    type('Phone', '0412 345 678');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    const alert = screen.getByRole('alert').textContent ?? '';
    expect(alert).toContain('Please choose an option.');
    expect(alert).toContain('Please enter a message.');
    type('Which of our locations?', 'bmg-newstead');
    type('What was your visit about?', 'A service or repair');
    type('What went wrong?', 'The car was not ready when promised.');
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=feedback'));
    expect(lead(calls)).toMatchObject({ category: 'feedback', subcategory: 'Customer Feedback Survey', name: 'Jo', visit_reason: 'A service or repair', location_id: 'bmg-newstead' });
  });
});

describe('the review-feedback page (B54)', () => {
  const page = () => {
    document.body.innerHTML = `<h1>Thank you, <span data-feedback-name>${DEFAULT_NAME}</span></h1>
      <p>Thank you for choosing <span data-feedback-dealership>Brisbane Motor Group</span>.</p>
      <a href="https://g.page/r/x/review">Leave a review</a><a data-feedback-survey href="/customer-feedback-survey/">I had a bad experience</a>`;
  };
  const survey = () => document.querySelector('a[data-feedback-survey]')!.getAttribute('href');

  it('greets by the link’s first name at the link’s dealership, and carries the name to the survey', () => {
    page();
    fillFeedback(document, '?first_name=Jo&dealership_name=BMG%20Springwood%20Service');
    expect(document.querySelector('h1')!.textContent).toBe('Thank you, Jo');
    expect(document.querySelector('[data-feedback-dealership]')!.textContent).toBe('BMG Springwood Service');
    expect(survey()).toBe('/customer-feedback-survey/?first_name=Jo');
  });

  it('keeps the defaults without names ("Valued Customer", the dealer’s name) and the survey link as it is', () => {
    page();
    fillFeedback(document, '?first_name=%20%20&utm_source=email');
    expect(document.querySelector('h1')!.textContent).toBe(`Thank you, ${DEFAULT_NAME}`);
    expect(document.querySelector('[data-feedback-dealership]')!.textContent).toBe('Brisbane Motor Group');
    expect(survey()).toBe('/customer-feedback-survey/');
  });

  it('shows a name from a link anyone can write as text only, without control characters, cut to its length', () => {
    page();
    fillFeedback(document, `?first_name=${encodeURIComponent('<img src=x onerror=alert(1)>\u202e\n' + 'x'.repeat(100))}`);
    const name = document.querySelector('[data-feedback-name]')!;
    expect(name.querySelector('img')).toBeNull();
    expect(name.textContent!.startsWith('<img src=x onerror=alert(1)>')).toBe(true);
    expect([...name.textContent!].some((c) => c.charCodeAt(0) < 0x20 || c === '\u202e')).toBe(false);
    expect([...name.textContent!].length).toBeLessThanOrEqual(NAME_MAX);
  });
});

describe('the success page’s words for the new categories', () => {
  it('thanks each in its own words', () => {
    expect(successView('?category=parts', null).title).toBe('Thank you for your parts enquiry');
    expect(successView('?category=feedback', null).title).toBe('Thank you for telling us');
    expect(successView('?category=unsubscribe', null)).toMatchObject({ title: 'You are unsubscribed' });
  });
});
