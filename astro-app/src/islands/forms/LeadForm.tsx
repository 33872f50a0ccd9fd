/**
 * The form every lead island renders (car enquiry, test drive, finance,
 * offer, contact, fleet, trade-in's first step...): not an island itself,
 * each island builds its fields and passes them here.
 *
 * Progressive enhancement: the server-rendered HTML is a complete
 * `<form method="post" action="{api}/api/leads">` with named inputs and the
 * hidden car defaults, so a shopper can send it before the island loads, or
 * without JavaScript (the worker answers 303 to the success page, or an
 * error page). Once hydrated (the island hydrates when visible, never on
 * load), the form checks fields itself, shows the error panel and posts
 * JSON; a multi-step form shows one step at a time (without JavaScript all
 * steps show at once).
 *
 * A sent lead: the event goes out, the shopper's details are kept when
 * name, e-mail and phone are all there, the lead's category and car are
 * kept for the success page, and the shopper goes there
 * (`forms.success_path` with `?category=&car_type=`), unless the island
 * handles the success itself (`onSent`).
 */
import '../../styles/forms.css';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { apiUrl, UNEXPECTED_ERROR } from '../../lib/api';
import { leadAttributes } from '../../lib/forms/attribution';
import { sendEvent, type EventId } from '../../lib/events';
import { IdempotencyKeys } from '../../lib/forms/idempotency';
import { buildLeadPayload, type Defaults } from '../../lib/forms/payload';
import { FORM_ERROR_TITLE, NOT_SENT_MESSAGE, checkFields, type FormErrors, type FormValues } from '../../lib/forms/rules';
import { clearDraft, loadCustomer, loadDraft, saveCustomer, saveDraft, saveLastLead, type LastLead } from '../../lib/forms/storage';
import { flowToken, postLead, type LeadResult } from '../../lib/forms/submit';
import { CAPTCHA_FAILED, TurnstileWidget } from '../../lib/forms/turnstile';
import { successUrl } from '../../lib/forms/success';
import ErrorPanel, { type PanelError } from './ErrorPanel';
import { Field, HiddenInputs, Honeypot, type FieldSpec, type TermsLinks } from './Fields';

/** What the page tells every form about the dealer (site.json `forms`, narrowed). */
export interface FormSettings {
  /** Origin of the edge worker, "" for the site's own origin. */
  apiBase: string;
  /** Where a sent lead lands, e.g. "/success/". */
  successPath: string;
  /** Turnstile site key when the dealer has the captcha on. */
  captchaSiteKey?: string | null;
  /** `site.features.analytics`: events also go to the edge's sink. */
  analyticsSink: boolean;
  termsLinks?: TermsLinks;
  /** The dealer's main phone (`site.contact.phone`): offered when a form cannot be sent. */
  phone?: string;
}

export interface LeadFormProps {
  /** Names the form in ids, the Turnstile action and `data-form`. */
  formId: string;
  settings: FormSettings;
  fields: FieldSpec[];
  /** Titles of the steps of a multi-step form (fields name their `step`). */
  steps?: string[];
  /** The lead's category and subcategory, from the values when they depend on a choice (the contact form's select). */
  category: string | ((values: FormValues) => { category: string; subcategory?: string });
  subcategory?: string;
  /** Car form defaults and other fixed fields; hidden inputs and the payload's base. */
  defaults?: Defaults;
  hiddenText?: string;
  initialValues?: FormValues;
  submitLabel: string;
  /** The event a sent lead records. */
  event?: { id: EventId | ((values: FormValues) => EventId); data?: Record<string, unknown>; carId?: string };
  /** Kept for the success page; `category` is filled in. */
  lastLead?: Omit<LastLead, 'at' | 'category'>;
  /** The success page's query (car_type...), besides the category. */
  successQuery?: Record<string, string>;
  /** Extra payload fields, read at send time (the trade-in flow's lead_id, answers...). */
  extra?: () => Record<string, unknown>;
  /**
   * Runs when the shopper continues past a step (after its fields passed
   * their checks): a flow that sends something between steps (the
   * trade-in's first lead). An error keeps the shopper on the step.
   */
  onContinue?: (step: number, values: FormValues, captchaToken: () => Promise<string | undefined>) => Promise<StepOutcome>;
  /** Runs before the final send; its `extra` joins the payload (the trade-in's valuation), its `error` stops the send. */
  prepare?: (values: FormValues) => Promise<{ extra?: Record<string, unknown>; error?: string }>;
  /** Sends the payload somewhere else than `POST /api/leads` (the checkout hold); the answer's id is passed to `onSent`. */
  send?: (payload: Record<string, unknown>) => Promise<LeadResult>;
  /** Handles a sent lead instead of going to the success page. */
  onSent?: (leadId: string, payload: Record<string, unknown>) => void;
  /** Injected by tests. */
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
  /** Called when a value changes (an island showing a dependent field). */
  onValues?: (values: FormValues) => void;
}

type Status = 'idle' | 'sending';

/** What a step hook says: nothing (go on) or the problems that keep the shopper on the step. */
export type StepOutcome = void | { error?: string; fields?: FormErrors };

const LAST_STEP = (steps?: string[]) => Math.max(0, (steps?.length ?? 1) - 1);

export default function LeadForm(props: LeadFormProps) {
  const { formId, settings, fields, steps, submitLabel } = props;
  const uid = useId();
  const idOf = (name: string) => `${uid}-${formId}-${name}`;
  /** The key of this form's kept text: its page and its id (read in the browser only). */
  const draftOf = () => `${location.pathname}#${formId}`;
  const keys = useRef(new IdempotencyKeys());
  const [values, setValues] = useState<FormValues>(() => ({ ...initialFrom(fields), ...(props.initialValues ?? {}) }));
  const [honeypot, setHoneypot] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | undefined>();
  // The lead could not reach the dealer (no network, the service down): the panel offers the phone.
  const [unsent, setUnsent] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState<Status>('idle');
  const [step, setStep] = useState(0);
  // The server-rendered form shows every step and posts natively; steps,
  // the form's own checks and the JSON post start once React has taken over.
  const [hydrated, setHydrated] = useState(false);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const stepMoved = useRef(false);
  const captchaBox = useRef<HTMLDivElement>(null);
  const captcha = useMemo(
    () => (settings.captchaSiteKey ? new TurnstileWidget(() => captchaBox.current, settings.captchaSiteKey, formId) : null),
    [settings.captchaSiteKey, formId],
  );
  // The platform's widget, when the worker steps up under a flood (a 403
  // naming its site key): made on the first such answer, shown from then.
  const stepUp = useRef<TurnstileWidget | null>(null);
  const [stepUpShown, setStepUpShown] = useState(false);
  // Resolved once the widget's box is on the page (the widget renders into it).
  const stepUpBox = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!stepUpShown) return;
    stepUpBox.current?.();
    stepUpBox.current = null;
  }, [stepUpShown]);

  const formRef = useRef<HTMLFormElement>(null);
  /** Fields the shopper has filled in (typed before hydration or changed since): later initial values leave them alone. */
  const edited = useRef(new Set<string>());
  // Layout effect: runs in the hydration's commit, before the next key can
  // land. React keeps what the shopper typed into the server-rendered
  // inputs but not in the state, so the next render would wipe it: take it
  // into the state first, and stay on the step of the field that has focus.
  useLayoutEffect(() => {
    const typed = typedValues(formRef.current, fields, values);
    for (const name of Object.keys(typed)) edited.current.add(name);
    if (Object.keys(typed).length > 0) setValues((v) => ({ ...v, ...typed }));
    const focused = fields.find((f) => f.name === fieldNameOf(formRef.current, document.activeElement));
    if ((steps?.length ?? 0) > 1 && focused?.step) setStep(focused.step);
    setHydrated(true);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, in the hydration's commit
  }, []);
  // Initial values that change after hydration (a link's values read from
  // the query string): into the fields the shopper has not filled in, in
  // place (a new form would drop what was typed and the focus).
  const initialKey = JSON.stringify(props.initialValues ?? {});
  const appliedInitial = useRef(initialKey);
  useEffect(() => {
    if (initialKey === appliedInitial.current) return;
    appliedInitial.current = initialKey;
    const later = props.initialValues ?? {};
    setValues((v) => {
      const next = { ...v };
      for (const [k, val] of Object.entries(later)) if (!edited.current.has(k)) next[k] = val;
      return next;
    });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by initialKey, the values' JSON (a new object each render)
  }, [initialKey]);
  // Fields that join later (a choice that asks for more, a link's kind of
  // enquiry) start from their empty values, as at the start.
  const fieldKey = fields.map((f) => f.name).join(' ');
  useEffect(() => {
    setValues((v) => {
      const missing = Object.entries(initialFrom(fields)).filter(([k]) => !(k in v));
      return missing.length === 0 ? v : { ...Object.fromEntries(missing), ...v };
    });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by fieldKey, the field names (a new array each render)
  }, [fieldKey]);
  useEffect(() => {
    // Details kept from an earlier form fill the empty fields (read after
    // hydration: the server-rendered HTML has none).
    // Text the shopper typed before a send failed (this page's form, this tab) comes back first.
    const saved = { ...loadCustomer(), ...loadDraft(draftOf()) };
    if (Object.keys(saved).length > 0) {
      setValues((v) => {
        const next = { ...v };
        for (const [k, val] of Object.entries(saved)) if (fields.some((f) => f.name === k) && next[k] === '') next[k] = val;
        return next;
      });
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration: the saved details
  }, []);
  useEffect(() => {
    if (stepMoved.current) stepHeading.current?.focus();
  }, [step]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the values change (the parent's callback is a new function each render)
  useEffect(() => props.onValues?.(values), [values]);

  const multi = hydrated && (steps?.length ?? 0) > 1;
  // Before hydration a multi-step form renders every field, its first step shown by the CSS where scripts run.
  const preStep = !hydrated && (steps?.length ?? 0) > 1;
  const shown = multi ? fields.filter((f) => (f.step ?? 0) === step) : fields;
  const last = !multi || step === LAST_STEP(steps);

  function change(name: string, value: string | boolean) {
    edited.current.add(name);
    setValues((v) => ({ ...v, [name]: value }));
    // A field's message goes as soon as the shopper edits it.
    if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
  }

  function fail(found: FormErrors, message?: string, outage = false) {
    // Not sent: what was typed survives a reload (lib/forms/storage.ts).
    if (outage) saveDraft(draftOf(), values);
    setErrors(found);
    setFormError(message);
    setUnsent(outage);
    setAttempt((n) => n + 1);
  }

  /** The step of the first field with an error, so the shopper sees it. */
  function reveal(field: string) {
    const f = fields.find((x) => x.name === field);
    if (multi && f && (f.step ?? 0) !== step) {
      stepMoved.current = false;
      setStep(f.step ?? 0);
    }
  }

  /** A Turnstile token for a send between steps (none without the captcha); throws the captcha's message. */
  async function captchaToken(): Promise<string | undefined> {
    if (!captcha) return undefined;
    try {
      return await captcha.token();
    } finally {
      captcha.reset();
    }
  }

  function resolveCategory(): { category: string; subcategory?: string } {
    if (typeof props.category === 'function') return props.category(values);
    return { category: props.category, subcategory: props.subcategory };
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'sending') return;
    if (!last) {
      const found = checkFields(shown, values);
      if (Object.keys(found).length > 0) return fail(found);
      if (props.onContinue) {
        setStatus('sending');
        const outcome = await props.onContinue(step, values, captchaToken);
        setStatus('idle');
        if (outcome && (outcome.error || Object.keys(outcome.fields ?? {}).length > 0)) return fail(outcome.fields ?? {}, outcome.error);
      }
      setErrors({});
      setFormError(undefined);
      stepMoved.current = true;
      setStep((s) => s + 1);
      return;
    }
    const found = checkFields(fields, values);
    if (Object.keys(found).length > 0) {
      const first = fields.find((f) => found[f.name]);
      if (first) reveal(first.name);
      return fail(found);
    }
    setStatus('sending');
    const { category, subcategory } = resolveCategory();
    let prepared: Record<string, unknown> = {};
    if (props.prepare) {
      const p = await props.prepare(values);
      if (p.error) {
        setStatus('idle');
        return fail({}, p.error);
      }
      prepared = p.extra ?? {};
    }
    // A flow's later lead that carries the flow's token needs no new captcha
    // token (the worker's rule, edge/core/src/lead_flow.rs).
    const extra = { ...(props.extra?.() ?? {}), ...prepared };
    const later = typeof extra['lead_id'] === 'string' && flowToken(extra['lead_id']) !== undefined;
    const solve = async (): Promise<string | null> => {
      try {
        return (await captcha?.token()) ?? null;
      } catch {
        return null;
      }
    };
    const send = async (captchaToken: string | undefined, unavailable = false) => {
      const base = buildLeadPayload(fields, values, {
        category,
        subcategory,
        url: window.location.href,
        userAgent: navigator.userAgent,
        attributes: leadAttributes(),
        defaults: props.defaults,
        hiddenText: props.hiddenText,
        extra: unavailable ? { ...extra, captcha_unavailable: true } : extra,
        honeypot,
        captchaToken,
      });
      const payload = { ...base, idempotency_key: keys.current.keyFor(base) };
      const result = props.send ? await props.send(payload) : await postLead(settings.apiBase, payload, props.fetchImpl);
      return { payload, result };
    };
    let token: string | undefined;
    if (captcha && !later) {
      const solved = await solve();
      if (solved === null) {
        setStatus('idle');
        return fail({}, CAPTCHA_FAILED);
      }
      token = solved;
    }
    let { payload, result } = await send(token);
    if (!result.ok && result.status === 403 && captcha && later) {
      // The worker judged the later step as a first lead (its flow token did
      // not hold: the phone changed networks, the flow's window ended): the
      // shopper solves the captcha and it goes again.
      const solved = await solve();
      if (solved === null) {
        setStatus('idle');
        return fail({}, CAPTCHA_FAILED);
      }
      ({ payload, result } = await send(solved));
    }
    if (!result.ok && result.status === 403 && result.captchaSiteKey && !captcha) {
      // A step-up: the dealer's forms ask for the platform's widget while a
      // flood lasts. The shopper solves it and the lead goes at once; if no
      // token comes (the widget blocked or failing), it goes marked so, to
      // be held rather than lost.
      stepUp.current ??= new TurnstileWidget(() => captchaBox.current, result.captchaSiteKey, formId);
      setFormError(result.error);
      if (!captchaBox.current) {
        await new Promise<void>((resolve) => {
          stepUpBox.current = resolve;
          setStepUpShown(true);
        });
      }
      const solved = await stepUp.current.token().catch(() => null);
      setFormError(undefined);
      ({ payload, result } = solved === null ? await send(undefined, true) : await send(solved));
      stepUp.current.reset();
    }
    captcha?.reset();
    if (!result.ok) {
      setStatus('idle');
      const known = Object.fromEntries(Object.entries(result.fields).filter(([k]) => fields.some((f) => f.name === k)));
      const other = Object.entries(result.fields)
        .filter(([k]) => !(k in known))
        .map(([, m]) => m);
      const first = fields.find((f) => known[f.name]);
      if (first) reveal(first.name);
      // The worker's 400 says "Please fix the following errors:", the panel's own title.
      const general = result.error === FORM_ERROR_TITLE && Object.keys(known).length > 0 ? '' : result.error;
      // No answer, the service failed, or an answer that says nothing the
      // shopper can act on (a 404 or 405 from a proxy, an HTML error page):
      // say what happened and how else to reach the dealer, never only
      // "An unexpected error occurred."
      if (result.status === 0 || result.status >= 500 || (general === UNEXPECTED_ERROR && Object.keys(known).length === 0))
        return fail(known, general && general !== UNEXPECTED_ERROR ? general : NOT_SENT_MESSAGE, true);
      return fail(known, [general, ...other].filter(Boolean).join(' ') || undefined);
    }
    saveCustomer(values);
    clearDraft(draftOf());
    saveLastLead({ ...(props.lastLead ?? {}), category, ...(subcategory ? { subcategory } : {}) });
    if (props.event) {
      const id = typeof props.event.id === 'function' ? props.event.id(values) : props.event.id;
      sendEvent(
        { apiBase: settings.apiBase, sink: settings.analyticsSink, fetchImpl: props.fetchImpl },
        id,
        { category, ...(subcategory ? { subcategory } : {}), ...(props.event.data ?? {}) },
        props.event.carId,
      );
    }
    if (props.onSent) {
      setStatus('idle');
      props.onSent(result.leadId, payload);
      return;
    }
    (props.navigate ?? ((url: string) => window.location.assign(url)))(successUrl(settings.successPath, { category, ...(props.successQuery ?? {}) }));
  }

  const panelErrors: PanelError[] = fields
    .filter((f) => errors[f.name])
    .map((f) => ({ field: f.name, message: errors[f.name] as string, inputId: idOf(f.name) }));
  const sending = status === 'sending';
  const { category: staticCategory, subcategory: staticSub } =
    typeof props.category === 'function' ? { category: '', subcategory: undefined } : { category: props.category, subcategory: props.subcategory };
  const hidden: Defaults = {
    ...(props.defaults ?? {}),
    ...(staticCategory ? { category: staticCategory } : {}),
    ...(staticSub ? { subcategory: staticSub } : {}),
    source: 'Website',
  };

  return (
    <form
      ref={formRef}
      method="post"
      action={apiUrl(settings.apiBase, '/api/leads')}
      // The browser's own checks help a shopper without JavaScript; once
      // hydrated the form checks itself and shows the error panel instead.
      noValidate={hydrated}
      onSubmit={onSubmit}
      onFocus={() => captcha?.start()}
      className="lead-form"
      aria-busy={sending}
      data-form={formId}
      data-hydrated={hydrated ? 'true' : undefined}
    >
      {/* Screen readers hear "required" from each field; this line is for the eye. */}
      {fields.some((f) => f.required) && (
        <p className="form__required-note" aria-hidden="true">
          Fields marked <span className="field__mark">*</span> are required.
        </p>
      )}
      <ErrorPanel
        id={`${uid}-${formId}-panel`}
        formError={formError}
        errors={panelErrors}
        attempt={attempt}
        reveal={reveal}
        callUs={unsent && settings.phone ? settings.phone : undefined}
      />
      {multi && steps && (
        <h3 className="form__step" tabIndex={-1} ref={stepHeading}>
          Step {step + 1} of {steps.length}: {steps[step]}
        </h3>
      )}
      {/* Before hydration a multi-step form is one form (all its fields post
          without JavaScript); where scripts run, the CSS already shows it as
          the hydrated form will (its first step, its heading, Continue), so
          hydration changes nothing the shopper sees (forms.css). */}
      {preStep && steps && (
        <h3 className="form__step form__pre-step">
          Step 1 of {steps.length}: {steps[0]}
        </h3>
      )}
      <HiddenInputs values={hidden} />
      {props.hiddenText && <input type="hidden" name="text" value={props.hiddenText} />}
      {shown.map((spec) => (
        <Field
          key={spec.name}
          spec={spec}
          id={idOf(spec.name)}
          value={values[spec.name]}
          error={errors[spec.name]}
          onChange={change}
          termsLinks={settings.termsLinks}
          later={preStep && (spec.step ?? 0) > 0}
        />
      ))}
      <Honeypot id={idOf('website')} value={honeypot} onChange={setHoneypot} />
      {(captcha || stepUpShown) && <div className="captcha" ref={captchaBox} />}
      {settings.captchaSiteKey && (
        <noscript>
          <p className="form__note">This form needs JavaScript for its security check.</p>
        </noscript>
      )}
      <div className="form__actions">
        {multi && step > 0 && (
          <button
            type="button"
            className="button button--outline"
            onClick={() => {
              stepMoved.current = true;
              setErrors({});
              setFormError(undefined);
              setStep((s) => s - 1);
            }}
          >
            Back
          </button>
        )}
        {/* Never disabled while sending (focus would fall to the page); a second press is ignored. */}
        <button type="submit" className="button button--primary" aria-disabled={sending || undefined}>
          {/* The spinner (docs/behaviour/content.md: "the button shows a spinner") is decoration: the words say it. */}
          {sending && <span className="spinner" aria-hidden="true" />}
          {sending ? (
            'Sending…'
          ) : preStep ? (
            <>
              <span className="form__pre-step">Continue</span>
              <span className="form__no-script">{submitLabel}</span>
            </>
          ) : last ? (
            submitLabel
          ) : (
            'Continue'
          )}
        </button>
      </div>
    </form>
  );
}

/** Empty values for every field (checkboxes unticked; a select's first option when it has no empty one). */
function initialFrom(fields: FieldSpec[]): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    if (f.input === 'checkbox' || f.input === 'terms') out[f.name] = false;
    else if (f.input === 'select' && f.emptyOption === undefined) out[f.name] = f.options?.[0]?.value ?? '';
    else out[f.name] = '';
  }
  return out;
}

/** The shopper-facing controls of a field in a form (not the hidden inputs of the same name). */
function controlsOf(form: HTMLFormElement, name: string): (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[] {
  return [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')].filter(
    (c) => c.name === name && c.type !== 'hidden',
  );
}

/** The field name of a control of the form, or undefined. */
function fieldNameOf(form: HTMLFormElement | null, el: Element | null): string | undefined {
  if (!form || !el || !form.contains(el)) return undefined;
  return el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement ? el.name : undefined;
}

/**
 * What the server-rendered controls hold that the state does not: what the
 * shopper typed, ticked or chose before the form hydrated.
 */
export function typedValues(form: HTMLFormElement | null, fields: FieldSpec[], values: FormValues): FormValues {
  const out: FormValues = {};
  if (!form) return out;
  for (const f of fields) {
    const controls = controlsOf(form, f.name);
    if (controls.length === 0) continue;
    let current: string | boolean;
    if (f.input === 'checkbox' || f.input === 'terms') current = (controls[0] as HTMLInputElement).checked;
    else if (f.input === 'radio') current = (controls.find((c) => (c as HTMLInputElement).checked)?.value ?? '') as string;
    else current = controls[0]!.value;
    const had = values[f.name] ?? (f.input === 'checkbox' || f.input === 'terms' ? false : '');
    if (current !== had) out[f.name] = current;
  }
  return out;
}
