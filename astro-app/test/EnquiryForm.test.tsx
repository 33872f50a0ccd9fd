// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import EnquiryForm from '../src/islands/EnquiryForm';

afterEach(cleanup);

function setup(fetchImpl: typeof fetch, props: Partial<Parameters<typeof EnquiryForm>[0]> = {}) {
  render(
    <EnquiryForm
      apiBase="https://api.example.com"
      carId="car-1001"
      locationId="loc-newstead"
      carName="2023 Toyota Corolla Ascent Sport"
      fetchImpl={fetchImpl}
      {...props}
    />,
  );
}

function fillValid() {
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Sam Citizen' } });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com.au' } });
  fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '0412 345 678' } });
  fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Is it still available?' } });
  fireEvent.click(screen.getByRole('checkbox'));
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));

describe('EnquiryForm', () => {
  it('shows a message under each invalid field and sends nothing', () => {
    const fetchMock = vi.fn<typeof fetch>();
    setup(fetchMock);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '1234' } });
    send();
    // Under each field (the summary repeats them: see below), tied to it by aria-describedby.
    const under = (label: string) => document.getElementById(screen.getByLabelText(label).getAttribute('aria-describedby')!)!.textContent;
    expect(under('Name')).toBe('Please enter your name.');
    expect(under('Email')).toMatch(/valid email address/);
    expect(under('Phone')).toMatch(/Australian phone number/);
    expect(under('Message')).toBe('Please enter a message.');
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Name').getAttribute('aria-describedby')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a failed submit shows an error summary linking to each field, in form order, and focus moves to it', () => {
    setup(vi.fn<typeof fetch>());
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    send();
    const summary = screen.getByRole('alert');
    expect(document.activeElement).toBe(summary);
    expect(summary.getAttribute('tabindex')).toBe('-1');
    expect(summary.querySelector('h3')!.textContent).toBe('Please check the form');
    const links = [...summary.querySelectorAll('a')];
    expect(links.map((a) => a.textContent)).toEqual([
      'Please enter your name.',
      'Please enter a valid email address, e.g. name@example.com.au.',
      'Please enter your phone number.',
      'Please enter a message.',
      'You must agree to the terms of use before submitting.',
    ]);
    // Each link puts the caret in its field.
    expect(links[1]!.getAttribute('href')).toBe(`#${screen.getByLabelText('Email').id}`);
    fireEvent.click(links[1]!);
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    // Fixing a field takes it off the list.
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com.au' } });
    expect([...screen.getByRole('alert').querySelectorAll('a')].map((a) => a.textContent)).not.toContain(
      'Please enter a valid email address, e.g. name@example.com.au.',
    );
  });

  it('a second failed submit moves focus to the summary again', () => {
    setup(vi.fn<typeof fetch>());
    send();
    screen.getByLabelText('Name').focus();
    send();
    expect(document.activeElement).toBe(screen.getByRole('alert'));
  });

  it('marks the required fields: `required` on each (the terms box too), optional ones say so', () => {
    setup(vi.fn<typeof fetch>(), { enquiry: 'test-drive' });
    for (const label of ['Name', 'Email', 'Phone']) {
      const input = screen.getByLabelText(label) as HTMLInputElement;
      expect(input.required).toBe(true);
      expect(input.labels![0]!.className).toContain('field__label--required');
    }
    const terms = screen.getByRole('checkbox') as HTMLInputElement;
    expect(terms.required).toBe(true);
    expect(terms.labels![0]!.className).toContain('field__label--required');
    expect(screen.getByText('are required.', { exact: false })).toBeTruthy();
  });

  it('the message box is required for a plain enquiry and marked so', () => {
    setup(vi.fn<typeof fetch>());
    const message = screen.getByLabelText('Message') as HTMLTextAreaElement;
    expect(message.required).toBe(true);
    expect(message.labels![0]!.className).toContain('field__label--required');
  });

  it('refuses to send without the terms', () => {
    const fetchMock = vi.fn<typeof fetch>();
    setup(fetchMock);
    fillValid();
    fireEvent.click(screen.getByRole('checkbox')); // untick
    send();
    expect(screen.getByText('*You must agree to the terms of use before submitting.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the enquiry JSON, keeps the button focusable while sending, then thanks the shopper with focus on the thanks', async () => {
    let resolve!: (r: Response) => void;
    const fetchMock = vi.fn<typeof fetch>(() => new Promise<Response>((r) => (resolve = r)));
    setup(fetchMock);
    fillValid();
    send();

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const button = screen.getByRole('button', { name: 'Sending…' }) as HTMLButtonElement;
    // Not disabled (focus would fall to the page) but marked so, and a second press sends nothing.
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(button);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('https://api.example.com/api/leads');
    expect(init?.method).toBe('POST');
    const body = JSON.parse(String(init?.body));
    expect(body).toEqual({
      category: 'enquiry',
      subcategory: 'Vehicle Enquiry',
      name: 'Sam Citizen',
      email: 'sam@example.com.au',
      phone: '0412345678',
      message: 'Is it still available?',
      car_id: 'car-1001',
      location_id: 'loc-newstead',
      terms_conditions: true,
      url: window.location.href,
      idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    resolve(new Response(JSON.stringify({ lead_id: 'lead-1' }), { status: 201 }));
    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      "Your enquiry about the 2023 Toyota Corolla Ascent Sport has been sent. We'll be in touch with you shortly.",
    );
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Thank you' }));
  });

  it("shows the server's error and keeps one idempotency key across retries", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () =>
      new Response(JSON.stringify({ error: 'Please fix the following errors:', fields: { phone: 'That number is not accepted.' } }), { status: 400 }),
    );
    setup(fetchMock);
    fillValid();
    send();
    const summary = await screen.findByRole('alert');
    expect(summary.querySelector('h3')!.textContent).toBe('Please check the form');
    expect(summary.querySelector('.enquiry__error')!.textContent).toBe('Please fix the following errors:');
    expect(summary.querySelector('a')!.textContent).toBe('That number is not accepted.');
    await waitFor(() => expect(document.activeElement).toBe(summary));
    // The field's own message too, under the field.
    expect(screen.getByLabelText('Phone').getAttribute('aria-invalid')).toBe('true');
    const button = screen.getByRole('button', { name: 'Send enquiry' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBeNull();

    send();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const key = (i: number) => JSON.parse(String(fetchMock.mock.calls[i]![1]?.body)).idempotency_key;
    expect(key(1)).toBe(key(0));
  });

  it('shows the generic message when the server gives none', async () => {
    setup(vi.fn<typeof fetch>(async () => new Response('Bad gateway', { status: 502 })));
    fillValid();
    send();
    const summary = await screen.findByRole('alert');
    expect(summary.querySelector('h3')!.textContent).toBe('Your enquiry was not sent');
    expect(summary.querySelector('.enquiry__error')!.textContent).toBe('An unexpected error occurred.');
    // Focus is on the message, not lost to the page.
    await waitFor(() => expect(document.activeElement).toBe(summary));
  });

  it('renders on the server with the button disabled until hydrated', () => {
    const html = renderToString(<EnquiryForm apiBase="" carId="c" locationId="l" carName="Car" />);
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""/);
  });

  it('pre-fills the message for sold cars', () => {
    setup(vi.fn<typeof fetch>(), { defaultMessage: 'Can you please find me something similar?', title: 'Find Me Something Similar' });
    expect(screen.getByRole('heading', { name: 'Find Me Something Similar' })).toBeTruthy();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Can you please find me something similar?');
  });
});
