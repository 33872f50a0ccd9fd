/**
 * Fills the car page's pending quote panels (components/finance/FinanceQuote.astro):
 * one request per car (lib/finance/quote.ts), then either the figures,
 * marked for the finance markup contract, or the "no quote" line with its
 * link to the finance enquiry; the panel's room stays the same either way.
 */
import { fetchQuote, quoteText, type QuoteCar } from './quote';

function readCar(panel: HTMLElement): QuoteCar | null {
  try {
    const car = JSON.parse(panel.dataset['quoteCar'] ?? '') as Partial<QuoteCar>;
    return typeof car.id === 'string' && typeof car.price === 'number' && typeof car.year === 'number'
      ? { id: car.id, price: car.price, year: car.year, vin: car.vin ?? null, nvic: car.nvic ?? null }
      : null;
  } catch {
    return null;
  }
}

/** Asks for every pending panel's quote and shows what comes back. */
export async function fillQuotePanels(doc: Document, fetchImpl?: typeof fetch): Promise<void> {
  const panels = [...doc.querySelectorAll<HTMLElement>('[data-quote-car]')];
  await Promise.all(
    panels.map(async (panel) => {
      const car = readCar(panel);
      if (!car) return;
      const quote = await fetchQuote(panel.dataset['apiBase'] ?? '', car, fetchImpl);
      panel.classList.remove('finance-panel--pending');
      panel.removeAttribute('aria-hidden');
      panel.setAttribute('aria-label', 'Finance quote');
      if (!quote) {
        panel.classList.add('finance-panel--failed');
        const note = doc.createElement('p');
        note.className = 'finance-panel__unavailable';
        const ask = doc.createElement('a');
        ask.href = '?enquiry=finance#enquire';
        ask.textContent = 'Ask us for a finance quote';
        note.append('No quote could be fetched just now. ', ask, '.');
        panel.querySelector('.finance-panel__title')?.after(note);
        return;
      }
      const text = quoteText(quote);
      const figures: Record<string, string> = { repayment: text.weekly, comparison: text.comparison, rate: text.advertised };
      for (const el of panel.querySelectorAll<HTMLElement>('[data-quote-mark]')) {
        const kind = el.dataset['quoteMark'] ?? '';
        if (kind in figures) el.textContent = figures[kind] ?? '';
        el.dataset['finance'] = kind;
        delete el.dataset['quoteMark'];
      }
      panel.dataset['financeBlock'] = '';
    }),
  );
}
