/**
 * One field of a shopper form with its label, hint, error and ARIA wiring
 * (`aria-invalid`, `aria-describedby` naming the hint and the error), the
 * honeypot and the hidden inputs. Inputs carry the wire names the worker
 * reads, so the same markup posts as a plain HTML form before (or without)
 * JavaScript.
 */
import type { ChangeEvent, ReactNode } from 'react';
import { chosen, POSTCODE_MAX_LENGTH, REGO_MAX_LENGTH, TERMS_LABEL, type FieldRule, type FieldValue } from '../../lib/forms/rules';
import { HONEYPOT_FIELD, type Defaults } from '../../lib/forms/payload';
import { sentence } from './ErrorPanel';

export type InputKind =
  | 'text'
  | 'email'
  | 'tel'
  | 'textarea'
  | 'select'
  | 'radio'
  /** Several checkboxes of one name (`options`); the value holds the ticked ones, a line each. */
  | 'checkboxes'
  | 'checkbox'
  | 'terms'
  | 'date'
  | 'time'
  | 'money'
  | 'postcode'
  | 'rego'
  | 'kms';

export interface Option {
  value: string;
  label: string;
}

export interface FieldSpec extends FieldRule {
  label: string;
  input: InputKind;
  autoComplete?: string;
  /** Select and radio choices. */
  options?: Option[];
  /** A select's first, empty choice ("Please choose…"); none when a default is chosen. */
  emptyOption?: string;
  hint?: string;
  /** Step of a multi-step form (0-based). */
  step?: number;
  /** Money: amounts offered as one-tap buttons (docs/behaviour/content.md §5 "Money input: has preset buttons"). */
  presets?: number[];
  /** Date: earliest day ("2026-11-21"). */
  min?: string;
}

/** Where a field's terms links go (pages of the dealer's site). */
export interface TermsLinks {
  terms: string;
  privacy: string;
}

export interface FieldProps {
  spec: FieldSpec;
  id: string;
  value: FieldValue | undefined;
  error?: string;
  onChange: (name: string, value: FieldValue) => void;
  termsLinks?: TermsLinks;
  /** A field of a later step, before the form hydrated (LeadForm.tsx): marked for the CSS that hides it where scripts run. */
  later?: boolean;
}

const money = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 0 });

export function errorId(id: string): string {
  return `${id}-error`;
}

export function Field({ spec, id, value, error, onChange, termsLinks, later }: FieldProps) {
  const step = later ? ' form__later-step' : '';
  const hintId = spec.hint ? `${id}-hint` : undefined;
  const describedBy = [hintId, error ? errorId(id) : undefined].filter(Boolean).join(' ') || undefined;
  const text = typeof value === 'string' ? value : '';
  const change = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    const t = event.currentTarget;
    onChange(spec.name, t instanceof HTMLInputElement && t.type === 'checkbox' ? t.checked : t.value);
  };
  const aria = { 'aria-invalid': !!error, 'aria-describedby': describedBy };
  const labelClass = spec.required ? 'field__label--required' : undefined;
  const label = (
    <label htmlFor={id} className={labelClass}>
      {spec.label}
      {!spec.required && spec.requiredUnless === undefined && spec.input !== 'checkbox' ? ' (optional)' : ''}
    </label>
  );
  const hint = spec.hint ? (
    <p className="field__hint" id={hintId}>
      {spec.hint}
    </p>
  ) : null;
  const err = error ? (
    <p className="field__error" id={errorId(id)}>
      {sentence(error)}
    </p>
  ) : null;

  if (spec.input === 'terms' || spec.input === 'checkbox') {
    const links = termsLinks ?? { terms: '/terms-and-conditions/', privacy: '/privacy-policy/' };
    return (
      <div className={`field field--checkbox${step}`}>
        <input id={id} name={spec.name} type="checkbox" value="true" checked={value === true} required={spec.required} onChange={change} {...aria} />
        <label htmlFor={id} className={labelClass}>
          {spec.input === 'terms' ? (
            <>
              I agree to the <a href={links.terms}>terms of use</a> and <a href={links.privacy}>privacy policy</a>.
            </>
          ) : (
            spec.label
          )}
        </label>
        {hint}
        {err}
      </div>
    );
  }

  if (spec.input === 'radio' || spec.input === 'checkboxes') {
    // One of the options (radios), or several (checkboxes of one name: a post without
    // JavaScript sends every ticked one, edge/core/src/form_post.rs; the value keeps them a line each).
    const many = spec.input === 'checkboxes';
    const ticked = new Set(many ? chosen(text) : [text]);
    const pick = (v: string, on: boolean) =>
      many ? onChange(spec.name, (spec.options ?? []).map((o) => o.value).filter((x) => (x === v ? on : ticked.has(x))).join('\n')) : onChange(spec.name, v);
    return (
      <fieldset className={`field field--radios${step}`} aria-describedby={describedBy}>
        <legend className={labelClass}>
          {spec.label}
          {spec.required ? '' : ' (optional)'}
        </legend>
        {hint}
        <div className="field__radios">
          {(spec.options ?? []).map((o, i) => (
            <label key={o.value} className="field__radio">
              <input
                type={many ? 'checkbox' : 'radio'}
                name={spec.name}
                id={i === 0 ? id : `${id}-${i}`}
                value={o.value}
                checked={ticked.has(o.value)}
                onChange={(e) => pick(o.value, e.currentTarget.checked)}
                aria-invalid={!!error}
              />{' '}
              {o.label}
            </label>
          ))}
        </div>
        {err}
      </fieldset>
    );
  }

  let control: ReactNode;
  const common = { id, name: spec.name, required: spec.required, value: text, onChange: change, ...aria };
  switch (spec.input) {
    case 'textarea':
      control = <textarea rows={4} {...common} />;
      break;
    case 'select':
      control = (
        <select {...common} autoComplete={spec.autoComplete}>
          {spec.emptyOption !== undefined ? (
            <option value="">{spec.emptyOption}</option>
          ) : (
            // HTML: a required select's first option is an empty placeholder (the field's value, e.g. QLD, stays chosen).
            spec.required && (
              <option value="" disabled hidden>
                Choose
              </option>
            )
          )}
          {(spec.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'postcode':
      control = (
        <input type="text" inputMode="numeric" autoComplete="postal-code" maxLength={POSTCODE_MAX_LENGTH} pattern="[0-9]{4}" {...common} />
      );
      break;
    case 'money':
      control = (
        <div className="money-input">
          <span className="money-input__sign" aria-hidden="true">
            $
          </span>
          <input type="text" inputMode="numeric" autoComplete="off" {...common} />
        </div>
      );
      break;
    case 'kms':
      control = <input type="text" inputMode="numeric" autoComplete="off" {...common} />;
      break;
    case 'rego':
      control = <input type="text" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={REGO_MAX_LENGTH} {...common} />;
      break;
    case 'date':
      control = <input type="date" min={spec.min} {...common} />;
      break;
    case 'time':
      control = <input type="time" {...common} />;
      break;
    default:
      control = <input type={spec.input} autoComplete={spec.autoComplete} inputMode={spec.input === 'tel' ? 'tel' : undefined} {...common} />;
  }
  return (
    <div className={`field${step}`}>
      {label}
      {hint}
      {control}
      {spec.presets && spec.presets.length > 0 && (
        <div className="money-presets" role="group" aria-label={`${spec.label}: quick amounts`}>
          {spec.presets.map((p) => (
            <button key={p} type="button" className="chip" aria-pressed={text === String(p)} onClick={() => onChange(spec.name, String(p))}>
              ${money.format(p)}
            </button>
          ))}
        </div>
      )}
      {err}
    </div>
  );
}

/**
 * The honeypot: an input people never see or reach (moved off screen, not
 * `display:none` alone, which some bots skip; out of the tab order; hidden
 * from screen readers; no autofill). A value in it marks the sender as a bot.
 */
export function Honeypot({ id, value, onChange }: { id: string; value: string; onChange: (v: string) => void }) {
  return (
    <div className="hp-field" aria-hidden="true">
      <label htmlFor={id}>Website</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" value={value} onChange={(e) => onChange(e.currentTarget.value)} />
    </div>
  );
}

/** Hidden inputs of fixed fields (car form defaults, category...), for the post without JavaScript. */
export function HiddenInputs({ values }: { values: Defaults }) {
  return (
    <>
      {Object.entries(values).map(([name, v]) => (
        <input key={name} type="hidden" name={name} value={String(v)} />
      ))}
    </>
  );
}

export { TERMS_LABEL };
