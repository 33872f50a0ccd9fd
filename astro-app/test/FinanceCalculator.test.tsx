// @vitest-environment jsdom
/**
 * The calculator island (docs/behaviour/car-page.md, Finance calculator panel): typed inputs
 * recompute the repayment and total, the help and clamping, the frequency,
 * event 26 once, the comparison rate beside the figures, and the enquiry.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FinanceCalculator, { type FinanceCalculatorProps } from '../src/islands/finance/FinanceCalculator';
import type { CalculatorSettings } from '../src/types/site';
import { mockApi } from './helpers/api-mock';

afterEach(cleanup);

const STANDARD: CalculatorSettings = {
  variant: 'standard', min_price: 1000, max_price: 250000, min_interest_rate: 0.5, max_interest_rate: 15, default_interest_rate: 10,
  default_term_years: 5, establishment_fee: 0, show_frequency: true, round_down: false, fees: [], comparison_rate_range: null, enquiry: 'link',
};
const LENDER: CalculatorSettings = {
  ...STANDARD, variant: 'lender', min_price: 5000, min_interest_rate: 7.5, max_interest_rate: 14.5, establishment_fee: 1360.5,
  show_frequency: false, round_down: true, comparison_rate_range: { from: 8.38, to: 19.42 },
};
const WARNING = 'WARNING: This comparison rate is true only for the example given and may not include all fees and charges.';
const CAR = { id: '410073', carType: 'used', locationId: 'bmg-newstead' };
/** The dialog's enquiry form: the page's formConfig(site) and carFacts(car). */
const ENQUIRY: NonNullable<FinanceCalculatorProps['enquiry']> = {
  config: { apiBase: '', successPath: '/success/', captchaSiteKey: null, analyticsSink: false, dealershipSlug: 'brisbane-motor-group', messageRequired: true, termsRequired: true, optInText: 'Send me offers and news by email and SMS. I can unsubscribe at any time.', defaultState: 'QLD', budgetPresets: [] },
  car: { id: '410073', slug: '2021-kia-rio-s-410073', name: '2021 Kia Rio S', year: 2021, make: 'Kia', model: 'Rio', badge: 'S', km: 41000, car_type: 'used', status: 'in_stock', stocknum: 'K073', tag: null, location_id: 'bmg-newstead' },
};

function setup(over: Partial<FinanceCalculatorProps> = {}) {
  const api = mockApi({ 'POST /api/events': { status: 204, body: {} }, 'POST /api/leads': { status: 201, body: { lead_id: 'L1' } } });
  const props: FinanceCalculatorProps = {
    apiBase: '', analytics: true, settings: STANDARD, price: 30000, car: CAR, lender: null, comparison: '10.45% p.a.', warning: WARNING,
    financePage: '/finance/', fetchImpl: api.fetchImpl, ...over,
  };
  const view = render(<FinanceCalculator {...props} />);
  const input = (label: string) => within(view.container).getByLabelText(label) as HTMLInputElement;
  const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
  const result = () => view.container.querySelector('[data-finance="repayment"]')!.textContent;
  const summary = (term: string) => {
    const dt = [...view.container.querySelectorAll('dt')].find((d) => d.textContent === term)!;
    return dt.nextElementSibling!.textContent;
  };
  return { ...api, view, input, type, result, summary };
}

describe('FinanceCalculator', () => {
  it('starts from the car price and recomputes on every change (the vectors\' spec example)', () => {
    const c = setup();
    expect(c.result()).toBe('$147/wk*');
    expect(screen.getByText(/Your weekly repayment is calculated to be/)).toBeTruthy();
    expect(c.summary('Total repayments')).toBe('$38,220');
    expect(c.summary('Loan Term')).toBe('5 years');
    c.type('Interest rate in %', '6.29');
    expect(c.result()).toBe('$135/wk*');
    c.type('Deposit or trade-in (optional)', '$10,000');
    c.type('Purchase Price', '$45,990');
    c.type('Interest rate in %', '8.5');
    expect(c.result()).toBe('$171/wk*');
    expect(c.summary('Total repayments')).toBe('$44,460');
  });

  it('fortnight and month, with their labels', () => {
    const c = setup();
    fireEvent.change(screen.getByLabelText('Repayment frequency'), { target: { value: 'fortnight' } });
    expect(c.result()).toBe('$294/fn*');
    expect(screen.getByText(/Your fortnightly repayment/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Repayment frequency'), { target: { value: 'month' } });
    expect(c.result()).toBe('$638/mo*');
    expect(c.summary('Total repayments')).toBe('$38,280');
  });

  it('25 or less shows Enquire for Finance and a blank total', () => {
    const c = setup();
    c.type('Purchase Price', '6000');
    c.type('Interest rate in %', '0');
    fireEvent.blur(c.input('Interest rate in %'));
    // 0 is below the 0.5 minimum: clamped to 0.5 %, still under $26 a week.
    expect(c.input('Interest rate in %').value).toBe('0.5');
    expect(c.result()).toBe('Enquire for Finance');
    expect(c.summary('Total repayments')).toBe('');
    expect(screen.queryByText(/is calculated to be/)).toBeNull();
  });

  it('the red help at or beyond the price limits; the price is not clamped', () => {
    const c = setup();
    c.type('Purchase Price', '1000');
    // The price's help names the limits beside the field, and takes the repayment's place.
    const help = document.getElementById(c.input('Purchase Price').getAttribute('aria-describedby')!)!;
    expect(help.textContent).toBe('Cannot be less than 1000 or more than 250000');
    expect(c.result()).toBe('Cannot be less than 1000 or more than 250000');
    expect(c.input('Purchase Price').getAttribute('aria-invalid')).toBe('true');
    expect(c.input('Purchase Price').getAttribute('aria-describedby')).toBe(help.id);
    c.type('Purchase Price', '1001');
    expect(screen.queryByText(/Cannot be less than/)).toBeNull();
    c.type('Purchase Price', '300000');
    expect(document.getElementById(c.input('Purchase Price').getAttribute('aria-describedby')!)!.textContent).toBe('Cannot be less than 1000 or more than 250000');
    // Beyond the limits there is no repayment: the result says why instead.
    expect(c.result()).toBe('Cannot be less than 1000 or more than 250000');
    expect(c.summary('Repayments')).toBe('–');
    fireEvent.blur(c.input('Purchase Price'));
    expect(c.input('Purchase Price').value).toBe('300000');
    c.type('Purchase Price', '250000');
    expect(c.result()).toBe('Cannot be less than 1000 or more than 250000');
    c.type('Purchase Price', '249999');
    expect(c.result()).toMatch(/^\$[\d,]+\/wk\*$/);
    // A negative price is below the minimum, not 20 without its minus: it stays as typed, with the help.
    c.type('Purchase Price', '-20');
    fireEvent.blur(c.input('Purchase Price'));
    expect(c.input('Purchase Price').value).toBe('-20');
    expect(c.result()).toBe('Cannot be less than 1000 or more than 250000');
    // Text with no number is not read as 0: it stays, marked, with its message.
    c.type('Purchase Price', 'abc');
    fireEvent.blur(c.input('Purchase Price'));
    expect(c.input('Purchase Price').value).toBe('abc');
    expect(c.input('Purchase Price').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(c.input('Purchase Price').getAttribute('aria-describedby')!)!.textContent).toBe('Enter the purchase price in dollars, e.g. 30000.');
  });

  it('clamps term, rate, deposit and residual to their limits', () => {
    const c = setup();
    c.type('Loan term in years', '12');
    expect(c.summary('Loan Term')).toBe('7 years');
    fireEvent.blur(c.input('Loan term in years'));
    expect(c.input('Loan term in years').value).toBe('7');
    c.type('Interest rate in %', '40%');
    fireEvent.blur(c.input('Interest rate in %'));
    expect(c.input('Interest rate in %').value).toBe('15');
    c.type('Deposit or trade-in (optional)', '999999');
    fireEvent.blur(c.input('Deposit or trade-in (optional)'));
    expect(c.input('Deposit or trade-in (optional)').value).toBe('250000');
    // An empty term is not 1 year: it stays empty and says so.
    c.type('Loan term in years', '');
    fireEvent.blur(c.input('Loan term in years'));
    expect(c.input('Loan term in years').value).toBe('');
    expect(c.input('Loan term in years').getAttribute('aria-invalid')).toBe('true');
  });

  /** The message a field's aria-describedby names (its hint left out). */
  const messageOf = (el: HTMLElement) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((i) => i.endsWith('-error') || i.endsWith('-help'))
      .map((i) => document.getElementById(i)?.textContent)
      .join(' ');

  it('a term that is not a number is no year: the field is invalid with its message and no repayment shows', () => {
    const c = setup();
    c.type('Loan term in years', 'abc');
    const term = c.input('Loan term in years');
    expect(term.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(term)).toBe('Enter a loan term of 1 to 7 years, e.g. 5.');
    expect(c.result()).toBe('Enter a loan term of 1 to 7 years, e.g. 5.');
    expect(c.summary('Repayments')).toBe('–');
    expect(c.summary('Total repayments')).toBe('');
    fireEvent.blur(term);
    expect(term.value).toBe('abc');
  });

  it('a term beyond 7 says that 7 is used, before it is corrected on leaving the field', () => {
    const c = setup();
    c.type('Loan term in years', '99');
    const term = c.input('Loan term in years');
    expect(term.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(term)).toBe('A loan term is 1 to 7 years: 7 years is used.');
    expect(c.summary('Loan Term')).toBe('7 years');
    fireEvent.blur(term);
    expect(term.value).toBe('7');
    expect(term.getAttribute('aria-invalid')).toBeNull();
    expect(messageOf(term)).toBe('');
    // The correction is not silent: the note stays beside the 7, named by the field, until the field is typed in again.
    const note = document.getElementById(`${term.id}-note`)!;
    expect(note.textContent).toBe('A loan term is 1 to 7 years: 7 years is used.');
    expect(term.getAttribute('aria-describedby')!.split(' ')).toContain(note.id);
    c.type('Loan term in years', '5');
    expect(document.getElementById(`${term.id}-note`)).toBeNull();
  });

  it('a negative rate is below the lowest rate, which is used and said, never its value without the minus', () => {
    const c = setup();
    c.type('Interest rate in %', '-3');
    const rate = c.input('Interest rate in %');
    expect(rate.getAttribute('aria-invalid')).toBe('true');
    const said = messageOf(rate);
    const [, lo] = /^The interest rate can be ([\d.]+) to [\d.]+: ([\d.]+) is used\.$/.exec(said) ?? [];
    expect(said).toMatch(new RegExp(`: ${lo} is used\\.$`));
    fireEvent.blur(rate);
    expect(rate.value).toBe(lo);
    expect(document.getElementById(`${rate.id}-note`)!.textContent).toBe(said);
  });

  it('an empty price shows no old result; a deposit above the price says why there is no repayment', () => {
    const c = setup();
    expect(c.result()).toBe('$147/wk*');
    c.type('Purchase Price', '');
    expect(c.result()).toBe('Enter the purchase price.');
    expect(c.input('Purchase Price').getAttribute('aria-invalid')).toBe('true');
    expect(c.summary('Total repayments')).toBe('');
    c.type('Purchase Price', '30000');
    c.type('Deposit or trade-in (optional)', '40000');
    const deposit = c.input('Deposit or trade-in (optional)');
    expect(deposit.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(deposit)).toBe('The deposit or trade-in covers the purchase price: there is nothing to finance.');
    expect(c.result()).toBe('The deposit or trade-in covers the purchase price: there is nothing to finance.');
    c.type('Deposit or trade-in (optional)', '10000');
    expect(deposit.getAttribute('aria-invalid')).toBeNull();
    expect(c.result()).toMatch(/^\$\d+\/wk\*$/);
  });

  it('screen readers hear the headline once the figures settle, not on every keystroke', async () => {
    vi.useFakeTimers();
    try {
      const c = setup();
      const live = c.view.container.querySelector('[aria-live]')!;
      expect(c.view.container.querySelectorAll('[aria-live]')).toHaveLength(1);
      expect(live.contains(c.view.container.querySelector('[data-finance="repayment"]'))).toBe(false);
      expect(live.textContent).toBe('');
      for (const typed of ['6', '6.2', '6.29']) {
        c.type('Interest rate in %', typed);
        await act(async () => {
          vi.advanceTimersByTime(200);
        });
        expect(live.textContent).toBe('');
      }
      expect(c.result()).toBe('$135/wk*');
      await act(async () => {
        vi.advanceTimersByTime(800);
      });
      expect(live.textContent).toBe('Your weekly repayment is calculated to be $135/wk*');
    } finally {
      vi.useRealTimers();
    }
  });

  it('arrow keys step the term and rate by 0.5', () => {
    const c = setup();
    fireEvent.keyDown(c.input('Loan term in years'), { key: 'ArrowUp' });
    expect(c.input('Loan term in years').value).toBe('5.5');
    fireEvent.keyDown(c.input('Interest rate in %'), { key: 'ArrowDown' });
    expect(c.input('Interest rate in %').value).toBe('9.5');
  });

  it('sends event 26 once, on the first change of any input or the frequency', async () => {
    const c = setup();
    expect(c.calls).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Repayment frequency'), { target: { value: 'month' } });
    c.type('Purchase Price', '20000');
    c.type('Interest rate in %', '9');
    await waitFor(() => expect(c.calls.filter((x) => x.path === '/api/events')).toHaveLength(1));
    expect(c.calls[0]!.body).toMatchObject({ event_id: 26, car_id: '410073' });
    const w = window as { dataLayer?: { event_id: number }[] };
    delete w.dataLayer;
    const quiet = setup({ analytics: false });
    quiet.type('Purchase Price', '20000');
    quiet.type('Interest rate in %', '9');
    await act(async () => {});
    expect(quiet.calls).toHaveLength(0);
    // Without the sink the dealer's tag manager still gets it, once.
    expect((window as { dataLayer?: { event_id: number }[] }).dataLayer?.map((e) => e.event_id)).toEqual([26]);
    delete w.dataLayer;
  });

  it('starts from the lender figures and shows its comparison rate as large as the repayment, with the warning', () => {
    const c = setup({
      lender: { interest_rate: 7.35, term_years: 5, deposit: 3049, balloon: 9147, establishment_fee: 395 },
      comparison: '8.37% p.a.',
      price: 30490,
    });
    expect(c.input('Interest rate in %').value).toBe('7.35');
    expect(c.input('Deposit or trade-in (optional)').value).toBe('3049');
    expect(c.input('Residual repayment (optional)').value).toBe('9147');
    const block = c.view.container.querySelector('[data-finance-block]')!;
    const comparison = block.querySelector('[data-finance="comparison"]')!;
    expect(comparison.textContent).toBe('8.37% p.a.');
    expect(comparison.className).toBe(block.querySelector('[data-finance="repayment"]')!.className);
    expect(block.querySelector('[data-finance="rate"]')!.className).toBe('fin-size-md');
    expect(block.querySelector('[data-finance="warning"]')!.textContent).toBe(WARNING);
  });

  it('without a comparison rate to show, the rate starts empty and nothing is shown', () => {
    const c = setup({ comparison: null });
    expect(c.input('Interest rate in %').value).toBe('');
    expect(c.result()).toBe('Enter an interest rate to see your repayment.');
    expect(c.view.container.querySelector('[data-finance="comparison"]')).toBeNull();
    expect(c.view.container.querySelector('[data-finance="warning"]')).toBeNull();
    c.type('Interest rate in %', '10');
    expect(c.result()).toBe('$147/wk*'); // the shopper's own rate is calculated
  });

  it('a dealer without a default rate: the rate starts empty even with a comparison rate; the arrow keys start from the lowest rate', () => {
    const c = setup({ settings: { ...STANDARD, default_interest_rate: null } });
    expect(c.input('Interest rate in %').value).toBe('');
    expect(c.result()).toBe('Enter an interest rate to see your repayment.');
    fireEvent.keyDown(c.input('Interest rate in %'), { key: 'ArrowUp' });
    expect(c.input('Interest rate in %').value).toBe('1');
  });

  it('the lender variant: weekly only, its fee and rounding, its limits', () => {
    const c = setup({ settings: LENDER, comparison: '8.38% to 19.42% p.a.' });
    expect(screen.queryByLabelText('Repayment frequency')).toBeNull();
    // $30,000 at 10% over 5 years with the 1,360.50 fee: 153.something, rounded down.
    expect(c.result()).toBe('$153/wk*');
    expect(c.summary('Total repayments')).toBe('$41,140.50');
    c.type('Purchase Price', '5000');
    expect(screen.getAllByText('Cannot be less than 5000 or more than 250000').length).toBeGreaterThan(0);
    c.type('Interest rate in %', '5');
    fireEvent.blur(c.input('Interest rate in %'));
    expect(c.input('Interest rate in %').value).toBe('7.5');
  });

  it('Enquire Now carries the car to the finance form; without a finance page, the car page form', () => {
    setup();
    expect(screen.getByRole('link', { name: 'Enquire Now' }).getAttribute('href')).toBe(
      '/finance/?preferredDealership=bmg-newstead&vehiclePriceBudget=30000&car_id=410073&car_type=used#finance-form',
    );
    cleanup();
    setup({ car: null });
    expect(screen.getByRole('link', { name: 'Enquire Now' }).getAttribute('href')).toBe('/finance/#finance-form');
    cleanup();
    setup({ financePage: null });
    expect(screen.getByRole('link', { name: 'Enquire Now' }).getAttribute('href')).toBe('?enquiry=finance#enquire');
  });

  it('Get Finance Now opens the Finance Enquiry dialog with the car page\'s enquiry form in its finance kind', async () => {
    // The link's kind is the page's form's business: the dialog stays a finance enquiry.
    window.history.replaceState(null, '', '/cars/2021-kia-rio-s-410073/?enquiry=test-drive');
    const navigate = vi.fn();
    const c = setup({ settings: { ...STANDARD, enquiry: 'dialog' }, enquiry: ENQUIRY, navigate });
    expect(screen.queryByRole('link', { name: 'Enquire Now' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Get Finance Now' }));
    expect(await screen.findByRole('heading', { name: 'Get Finance' })).toBeTruthy();
    expect(screen.getByText('Finance Enquiry')).toBeTruthy();
    // The form is loaded lazily (its chunk on the first open): Vitest transforms its module graph on
    // demand, which took over 10 s on a 2-core machine busy with a build.
    // The multi-step form: details first, then the enquiry.
    fireEvent.change(await screen.findByLabelText(/^Name/, undefined, { timeout: 15_000 }), { target: { value: 'Sam Citizen' } });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'sam@example.com.au' } });
    fireEvent.change(screen.getByLabelText(/^Phone/), { target: { value: '0412 345 678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(((await screen.findByLabelText(/^Message/)) as HTMLTextAreaElement).value).toBe("I'm interested in finance at about $147/wk over 5 years.");
    expect(screen.queryByLabelText(/^Preferred date/)).toBeNull();
    fireEvent.click(await screen.findByRole('checkbox', { name: /terms of use/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=finance&car_type=used'));
    const lead = c.calls.find((x) => x.path === '/api/leads')?.body as Record<string, unknown>;
    expect(lead).toMatchObject({ category: 'finance', subcategory: 'Finance Enquiry', car_id: '410073', location_id: 'bmg-newstead', message: "I'm interested in finance at about $147/wk over 5 years." });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Get Finance' })).toBeNull());
    window.history.replaceState(null, '', '/');
  });

  it('without the enquiry form\'s settings (a finance page, no car) the dialog dealer still gets the Enquire Now link', () => {
    setup({ settings: { ...STANDARD, enquiry: 'dialog' }, car: null, enquiry: ENQUIRY });
    expect(screen.queryByRole('button', { name: 'Get Finance Now' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Enquire Now' }).getAttribute('href')).toBe('/finance/#finance-form');
  });

  it('server-renders the figures the build-time compliance check reads', () => {
    const html = renderToString(
      <FinanceCalculator apiBase="" analytics={false} settings={STANDARD} price={30000} car={CAR} comparison="8.37% p.a." warning={WARNING} financePage="/finance/" />,
    );
    expect(html).toContain('data-finance-block');
    expect(html).toMatch(/data-finance="rate"[^>]*value="10"|value="10"[^>]*data-finance="rate"/);
    expect(html).toContain('$147/wk*');
    expect(html).toMatch(/data-finance="comparison" class="fin-size-lg">8.37% p.a./);
    expect(html).toContain(WARNING);
  });
});
