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
    expect(screen.getByText('Please enter your name.')).toBeTruthy();
    expect(screen.getByText(/valid email address/)).toBeTruthy();
    expect(screen.getByText(/Australian phone number/)).toBeTruthy();
    expect(screen.getByText('Please enter a message.')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Name').getAttribute('aria-describedby')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(fetchMock).not.toHaveBeenCalled();
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

  it('posts the enquiry JSON, disables the button while sending, then thanks the shopper', async () => {
    let resolve!: (r: Response) => void;
    const fetchMock = vi.fn<typeof fetch>(() => new Promise<Response>((r) => (resolve = r)));
    setup(fetchMock);
    fillValid();
    send();

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const button = screen.getByRole('button', { name: 'Sending…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
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
  });

  it("shows the server's error and keeps one idempotency key across retries", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () =>
      new Response(JSON.stringify({ error: 'Please fix the following errors:', fields: { phone: 'That number is not accepted.' } }), { status: 400 }),
    );
    setup(fetchMock);
    fillValid();
    send();
    expect((await screen.findByRole('alert')).textContent).toBe('Please fix the following errors:');
    expect(screen.getByText('That number is not accepted.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send enquiry' }) as HTMLButtonElement).disabled).toBe(false);

    send();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const key = (i: number) => JSON.parse(String(fetchMock.mock.calls[i]![1]?.body)).idempotency_key;
    expect(key(1)).toBe(key(0));
  });

  it('shows the generic message when the server gives none', async () => {
    setup(vi.fn<typeof fetch>(async () => new Response('Bad gateway', { status: 502 })));
    fillValid();
    send();
    expect((await screen.findByRole('alert')).textContent).toBe('An unexpected error occured.');
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
