/**
 * The finance calculator (docs/behaviour/car-page.md, "Finance calculator" and §9): the loan
 * formula, the 25-dollar rule, the labels, and how typed inputs are read
 * (non-numeric characters stripped, limits, clamping). The formula is the
 * one in rules/src/finance.rs; both are pinned by rules/vectors/calculator.json.
 *
 * There is no comparison rate here: a comparison rate is the lender's figure
 * on its standard example and only ever comes from the lender.
 */

export type Frequency = 'week' | 'fortnight' | 'month';
export type Rounding = 'up' | 'lender';

export interface FrequencyInfo {
  value: Frequency;
  /** The select's option text. */
  name: string;
  /** Repayments a year. */
  perYear: number;
  /** What the repayment label ends with. */
  suffix: string;
  /** "Your weekly repayment…". */
  adjective: string;
}

export const FREQUENCIES: readonly FrequencyInfo[] = [
  { value: 'week', name: 'Weekly', perYear: 52, suffix: '/wk', adjective: 'weekly' },
  { value: 'fortnight', name: 'Fortnightly', perYear: 26, suffix: '/fn', adjective: 'fortnightly' },
  { value: 'month', name: 'Monthly', perYear: 12, suffix: '/mo', adjective: 'monthly' },
];

export function frequencyInfo(f: Frequency): FrequencyInfo {
  return FREQUENCIES.find((x) => x.value === f) ?? FREQUENCIES[0]!;
}

/** One loan, as rules/vectors/calculator.json writes it. */
export interface Loan {
  amount: number;
  /** Deposit or trade-in. */
  deposit: number;
  establishment_fee: number;
  /** Residual (balloon) paid at the end. */
  residual: number;
  /** % p.a. */
  interest_rate: number;
  term_years: number;
  frequency: Frequency;
  rounding: Rounding;
}

/** Analytics event of the first use of the calculator on a page (docs/behaviour/car-page.md §7). */
export const EVENT_FINANCE_CALCULATOR = 26;
/** Repayments of this or less show ENQUIRE_LABEL and no total. */
export const ENQUIRE_AT_OR_BELOW = 25;
export const ENQUIRE_LABEL = 'Enquire for Finance';
/** The loan amount when the car has no price (docs/behaviour/car-page.md §9). */
export const DEFAULT_AMOUNT = 30000;
/** Loan terms, years. */
export const TERM = { min: 1, max: 7, step: 0.5 } as const;
/** Deposit / trade-in and residual, dollars. */
export const MONEY = { min: 0, max: 250000, step: 0.5 } as const;
/** Interest rate step, % p.a. */
export const RATE_STEP = 0.5;

export function periods(loan: Pick<Loan, 'term_years' | 'frequency'>): number {
  return Math.round(loan.term_years * frequencyInfo(loan.frequency).perYear);
}

/** The exact periodic repayment, before rounding; 0 when the loan has no periods. */
export function exactRepayment(loan: Loan): number {
  const n = periods(loan);
  if (!(n > 0)) return 0;
  const principal = loan.amount - loan.deposit + loan.establishment_fee;
  const r = loan.interest_rate / 100 / frequencyInfo(loan.frequency).perYear;
  if (Math.abs(r) < 1e-12) return (principal - loan.residual) / n;
  const growth = Math.pow(1 + r, n);
  // The residual is paid at the end: discounted to today.
  return ((principal - loan.residual / growth) * r) / (1 - 1 / growth);
}

/**
 * The repayment shown, whole dollars. Up, or the lender variant's rule:
 * down when the whole-dollar vehicle amount exceeds the whole-dollar
 * payment, else up. A tiny tolerance keeps float noise off whole amounts.
 */
export function repayment(loan: Loan): number {
  const exact = exactRepayment(loan);
  if (!Number.isFinite(exact) || exact <= 0) return 0;
  const up = Math.ceil(exact - 1e-9);
  if (loan.rounding === 'lender' && Math.trunc(loan.amount) > Math.trunc(exact)) return Math.max(0, Math.floor(exact + 1e-9));
  return up;
}

export function showsAmount(rep: number): boolean {
  return rep > ENQUIRE_AT_OR_BELOW;
}

/** Periods per year × term × repayment + establishment fee (2 decimals); null (blank) at 25 or less. */
export function total(loan: Loan): number | null {
  const rep = repayment(loan);
  if (!showsAmount(rep)) return null;
  return Math.round((periods(loan) * rep + loan.establishment_fee) * 100) / 100;
}

const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "$1,234/wk*", or "Enquire for Finance". */
export function repaymentLabel(loan: Loan): string {
  const rep = repayment(loan);
  return showsAmount(rep) ? `$${grouped(rep)}${frequencyInfo(loan.frequency).suffix}*` : ENQUIRE_LABEL;
}

/** "$38,220", or "$41,400.50" when there are cents. */
export function money(value: number): string {
  const cents = Math.round(value * 100);
  const whole = Math.trunc(cents / 100);
  const rest = Math.abs(cents % 100);
  return `${cents < 0 ? '-' : ''}$${grouped(Math.abs(whole))}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
}

/** "$30,000" → "30000", "7.5%" → "7.5", "1.2.3" → "1.23": digits and the first point. */
export function stripNumber(text: string): string {
  const kept = text.replace(/[^\d.]/g, '');
  const dot = kept.indexOf('.');
  return dot < 0 ? kept : kept.slice(0, dot + 1) + kept.slice(dot + 1).replace(/\./g, '');
}

/** A typed value as a number: stripped first; nothing (or only a point) is 0, as is anything at or below 0. */
export function readNumber(text: string): number {
  // A minus before the number is below every limit, not a stray character:
  // "-3" as a rate is 3% nowhere (the calculator says which limit it used).
  if (isNegative(text)) return 0;
  const n = Number(stripNumber(text));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The purchase price's help: at or below the minimum, or at or above the maximum (docs/behaviour/car-page.md §5). */
export function priceHelp(value: number, min: number, max: number): string | null {
  return value <= min || value >= max ? `Cannot be less than ${min} or more than ${max}` : null;
}

/** A loan term on the calculator's half-year steps, within 1 to 7 years. */
export function readTerm(text: string): number {
  return clamp(Math.round(readNumber(text) / TERM.step) * TERM.step, TERM.min, TERM.max);
}

/** A comparison range as shown: "8.38% p.a." or "8.38% to 19.42% p.a.". */
export function rangeText(range: { from: number; to: number }): string {
  return range.from === range.to ? `${range.from.toFixed(2)}% p.a.` : `${range.from.toFixed(2)}% to ${range.to.toFixed(2)}% p.a.`;
}

/** The calculator's typed fields. */
export type CalculatorField = 'amount' | 'term' | 'rate' | 'deposit' | 'residual';

/** Whether typed text is a negative number: a minus sign (or the typographic one) before its first digit. */
export function isNegative(text: string): boolean {
  return /^[^\d]*[-\u2212]\s*\$?\s*\.?\d/.test(text.trim());
}

/** Whether typed text holds a number once stripped (digits, at most one point). */
export function hasNumber(text: string): boolean {
  return /\d/.test(stripNumber(text));
}

/** How long the figures must stay unchanged before a screen reader hears them, in milliseconds. */
export const ANNOUNCE_AFTER_MS = 800;

/** A field's problem: its message, and whether it leaves no repayment to show (a limit used instead does not). */
export interface FieldProblem {
  message: string;
  blocks: boolean;
}

/**
 * What is wrong with the calculator's inputs, field by field (none:
 * nothing). Text that is not a number is never read as 0 or the nearest
 * limit: the field says so and no repayment is worked out from it. A value
 * beyond its limits says which limit is used (the field is set to it when
 * left); a deposit or residual that leaves nothing to borrow says why.
 */
export function calculatorProblems(
  values: Record<CalculatorField, string>,
  limits: { min_interest_rate: number; max_interest_rate: number },
): Partial<Record<CalculatorField, FieldProblem>> {
  const out: Partial<Record<CalculatorField, FieldProblem>> = {};
  const blocking = (message: string) => ({ message, blocks: true });
  const limited = (message: string) => ({ message, blocks: false });
  const empty = (f: CalculatorField) => values[f].trim() === '';
  if (!hasNumber(values.amount)) out.amount = blocking(empty('amount') ? 'Enter the purchase price.' : 'Enter the purchase price in dollars, e.g. 30000.');
  if (!hasNumber(values.term)) out.term = blocking(`Enter a loan term of ${TERM.min} to ${TERM.max} years, e.g. 5.`);
  else {
    const years = readNumber(values.term);
    if (years < TERM.min || years > TERM.max) out.term = limited(`A loan term is ${TERM.min} to ${TERM.max} years: ${readTerm(values.term)} years is used.`);
  }
  const { min_interest_rate: lo, max_interest_rate: hi } = limits;
  if (!empty('rate')) {
    if (!hasNumber(values.rate)) out.rate = blocking(`Enter the interest rate as a number from ${lo} to ${hi}.`);
    else {
      const rate = readNumber(values.rate);
      // No "%" after a number here: a rate without its comparison rate is for the figures only.
      if (rate < lo || rate > hi) out.rate = limited(`The interest rate can be ${lo} to ${hi}: ${clamp(rate, lo, hi)} is used.`);
    }
  }
  for (const [f, what] of [
    ['deposit', 'deposit or trade-in'],
    ['residual', 'residual'],
  ] as const) {
    if (empty(f)) continue;
    if (!hasNumber(values[f])) out[f] = blocking(`Enter the ${what} in dollars, or leave it empty.`);
    else if (readNumber(values[f]) > MONEY.max) out[f] = limited(`The ${what} is at most $250,000: $250,000 is used.`);
  }
  if (!out.amount && !out.deposit?.blocks) {
    const price = readNumber(values.amount);
    const deposit = clamp(readNumber(values.deposit), MONEY.min, MONEY.max);
    const residual = clamp(readNumber(values.residual), MONEY.min, MONEY.max);
    if (deposit > 0 && deposit >= price) out.deposit = blocking('The deposit or trade-in covers the purchase price: there is nothing to finance.');
    else if (!out.residual?.blocks && residual > 0 && residual >= price - deposit) out.residual = blocking('The residual is as much as the amount borrowed: make it smaller to see a repayment.');
  }
  return out;
}

/** The first problem that leaves no repayment to show, or null. */
export function blockingProblem(problems: Partial<Record<CalculatorField, FieldProblem>>): string | null {
  for (const f of ['amount', 'term', 'rate', 'deposit', 'residual'] as const) if (problems[f]?.blocks) return problems[f]!.message;
  return null;
}
