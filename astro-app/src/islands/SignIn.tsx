/**
 * /sign-in/?type=watchlist&redirect=…&back=… (docs/behaviour/search.md §2): sign-in by
 * mobile number with a one-time code (POST /api/auth/request-code, then
 * /api/auth/verify, which sets the worker's session cookie), then back to
 * `redirect`. The query is only known in the browser, so the page is this
 * island (client:load: the form is the whole page).
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { CAPTCHA_FAILED, TurnstileWidget } from '../lib/forms/turnstile';
import { getSession, requestCode, safePath, verifyCode } from '../lib/session';

export interface SignInProps {
  apiBase: string;
  /**
   * Turnstile site key when the dealer has the captcha on: each code
   * request (an SMS the dealer pays for) then carries a token, so no
   * stranger can use up the dealer's codes and lock shoppers out.
   */
  captchaSiteKey?: string | null;
  /** Injected by tests: the widget (a real one otherwise). */
  captchaWidget?: Pick<TurnstileWidget, 'start' | 'token' | 'reset'>;
  /** Injected by tests; window.location.search otherwise. */
  search?: string;
  fetchImpl?: typeof fetch;
  navigate?: (href: string) => void;
}

type Step = 'phone' | 'code';

export function signInParams(search: string) {
  const q = new URLSearchParams(search);
  return {
    type: q.get('type') ?? '',
    redirect: safePath(q.get('redirect')),
    back: safePath(q.get('back')),
  };
}

export function signInIntro(type: string): string {
  if (type === 'watchlist') return 'Sign in with your mobile number to save cars to your watchlist.';
  if (type === 'reserve') return 'Confirm your mobile number with the code we text you, then reserve the car without a deposit.';
  return 'Sign in with your mobile number to continue.';
}

export default function SignIn(props: SignInProps) {
  const { apiBase, fetchImpl } = props;
  const id = useId();
  const [search, setSearch] = useState(props.search ?? '');
  const [step, setStep] = useState<Step>('phone');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const phoneInput = useRef<HTMLInputElement>(null);
  const navigate = props.navigate ?? ((href: string) => window.location.replace(href));
  const params = signInParams(search);
  const captchaBox = useRef<HTMLDivElement>(null);
  const captcha = useMemo(
    () =>
      props.captchaWidget ??
      (props.captchaSiteKey ? new TurnstileWidget(() => captchaBox.current, props.captchaSiteKey, 'sign-in') : null),
    [props.captchaWidget, props.captchaSiteKey],
  );

  useEffect(() => {
    const current = props.search ?? window.location.search;
    setSearch(current);
    setHydrated(true);
    // Already signed in (a second tab, the back button): nothing to do here.
    getSession(apiBase, fetchImpl).then((s) => s.signedIn && navigate(signInParams(current).redirect));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
  }, [step]);

  async function onRequest(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    let token: string | undefined;
    if (captcha) {
      captcha.start();
      try {
        token = await captcha.token();
      } catch {
        setBusy(false);
        setError(CAPTCHA_FAILED);
        phoneInput.current?.focus();
        return;
      } finally {
        captcha.reset();
      }
    }
    const result = await requestCode(apiBase, phone, fetchImpl, token);
    setBusy(false);
    if (result.ok) {
      setCode('');
      setStep('code');
    } else {
      setError(result.fields['phone_number'] ?? result.error);
      phoneInput.current?.focus();
    }
  }

  async function onVerify(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    const result = await verifyCode(apiBase, phone, code.trim(), fetchImpl);
    if (result.ok) {
      navigate(params.redirect);
      return; // stays busy while the browser leaves
    }
    setBusy(false);
    setError(result.fields['code'] ?? result.fields['phone_number'] ?? result.error);
    codeInput.current?.focus();
  }

  const errorId = `${id}-error`;
  const errorLine = error ? (
    <p className="field__error" id={errorId} role="alert">
      {error}
    </p>
  ) : null;

  return (
    <div className="sign-in">
      <p className="sign-in__intro">{signInIntro(params.type)}</p>
      {step === 'phone' ? (
        <form noValidate onSubmit={onRequest} className="sign-in__form" aria-busy={busy}>
          <div className="field">
            <label htmlFor={`${id}-phone`}>Mobile number</label>
            <input
              ref={phoneInput}
              id={`${id}-phone`}
              name="phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="04xx xxx xxx"
              required
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              onFocus={() => captcha?.start()}
              aria-invalid={!!error}
              aria-describedby={error ? errorId : undefined}
            />
            {errorLine}
          </div>
          {captcha && <div className="captcha" ref={captchaBox} />}
          <button type="submit" className="button button--primary" disabled={!hydrated || busy}>
            {busy ? 'Sending…' : 'Send code'}
          </button>
        </form>
      ) : (
        <form noValidate onSubmit={onVerify} className="sign-in__form" aria-busy={busy}>
          <p role="status">We sent a 6-digit code by SMS to {phone}.</p>
          <div className="field">
            <label htmlFor={`${id}-code`}>Code</label>
            <input
              ref={codeInput}
              id={`${id}-code`}
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
              aria-invalid={!!error}
              aria-describedby={error ? errorId : undefined}
            />
            {errorLine}
          </div>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Checking…' : 'Sign in'}
          </button>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setStep('phone');
              setError('');
            }}
          >
            Use another number
          </button>
        </form>
      )}
      <p className="sign-in__back">
        <a href={params.back}>Back</a>
      </p>
    </div>
  );
}
