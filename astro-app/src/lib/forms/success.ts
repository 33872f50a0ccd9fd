/**
 * The success page (`forms.success_path`, docs/behaviour/car-page.md §2 and content.md §2.4: loaded
 * after a sent form, with the category and car_type passed along): the
 * link to it, and what it says for a category.
 */
import type { LastLead } from './storage';

/** "/success/?category=test_drive&car_type=used". */
export function successUrl(path: string, query: Record<string, string>): string {
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== ''));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Headline and line of the success page per lead category. */
const MESSAGES: Record<string, { title: string; text: string }> = {
  enquiry: { title: 'Thank you for your enquiry', text: "We'll be in touch with you shortly." },
  test_drive: { title: 'Thank you for booking a test drive', text: "We'll contact you shortly to confirm the time." },
  finance: { title: 'Thank you for your finance enquiry', text: 'One of our finance specialists will be in touch shortly.' },
  trade_in: { title: 'Thank you for your trade-in details', text: "We'll be in touch with you about your trade-in shortly." },
  // docs/behaviour/content.md §4: "Thank you for your submission!" / "We'll be in touch with you about your offer shortly."
  offer: { title: 'Thank you for your submission!', text: "We'll be in touch with you about your offer shortly." },
  photo_request: { title: 'Thank you for your request', text: "We'll send you more photos of this car shortly." },
  find_me_similar: { title: 'Thank you for your enquiry', text: "We'll be in touch with cars like this one shortly." },
  fleet: { title: 'Thank you for your fleet enquiry', text: 'Our fleet team will be in touch shortly.' },
  general: { title: 'Thank you for your enquiry', text: "We'll be in touch with you shortly." },
  careers: { title: 'Thank you for your enquiry', text: "We'll be in touch with you shortly." },
  service: { title: 'Thank you for your service booking request', text: "We'll contact you shortly to confirm your booking." },
  reserve: { title: 'Thank you for your reservation', text: "We'll be in touch with you shortly." },
  parts: { title: 'Thank you for your parts enquiry', text: 'Our parts team will be in touch with availability and a price shortly.' },
  feedback: { title: 'Thank you for telling us', text: 'A member of our management team will contact you shortly.' },
  unsubscribe: { title: 'You are unsubscribed', text: 'You will receive no more offers or news from us within 5 working days.' },
};

const CAR_TYPES: Record<string, string> = { new: 'new', used: 'used', demo: 'demo' };

export interface SuccessView {
  title: string;
  text: string;
  /** "Your enquiry about the 2023 Toyota Corolla has been sent." when the stored lead names the car. */
  car?: { name: string; slug: string };
  /** "Browse more used cars" link: /search/used-cars/ when known. */
  carType?: string;
}

/**
 * What the page says for its query string and the lead kept on this
 * device (which names the car). Unknown categories get the general thanks;
 * the kept lead counts only when its category matches the query's.
 */
export function successView(search: string, last: LastLead | null): SuccessView {
  const q = new URLSearchParams(search);
  const category = q.get('category') ?? '';
  const base = MESSAGES[category] ?? (MESSAGES['general'] as { title: string; text: string });
  const carType = CAR_TYPES[q.get('car_type') ?? ''];
  const view: SuccessView = { ...base };
  if (carType) view.carType = carType;
  if (last && last.category === category && last.car) view.car = { name: last.car.name, slug: last.car.slug };
  return view;
}
