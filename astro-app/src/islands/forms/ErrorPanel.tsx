/**
 * The form error panel (docs/behaviour/content.md §5: "Please fix the following errors:"
 * with a list, plus the general form error). It is an alert (read out when
 * it appears) and takes focus after every failed attempt (the `attempt`
 * counter), so keyboard and screen-reader users land on it; each listed
 * error is a link that puts the caret in its field.
 */
import { useEffect, useRef, type MouseEvent } from 'react';
import { telHref } from '../../lib/format';
import { FORM_ERROR_TITLE, NOT_SENT_TITLE } from '../../lib/forms/rules';

export interface PanelError {
  field: string;
  message: string;
  /** DOM id of the field's input; none for a field the shopper cannot see. */
  inputId?: string;
}

export interface ErrorPanelProps {
  id: string;
  /** The server's (or the captcha's) message, shown above the list. */
  formError?: string;
  errors: PanelError[];
  /** Bumped by each failed attempt: focus moves to the panel again. */
  attempt: number;
  /** Brings a field into view first (a multi-step form shows its step). */
  reveal?: (field: string) => void;
  /** The dealer's phone, offered when the form could not be sent (the service down). */
  callUs?: string;
}

/** A message as a sentence: the worker's terms message starts with a "*" (the older platform's), never shown. */
export const sentence = (message: string) => message.replace(/^\*\s*/, '');

export default function ErrorPanel({ id, formError, errors, attempt, reveal, callUs }: ErrorPanelProps) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (attempt > 0) panel.current?.focus();
  }, [attempt]);
  if (!formError && errors.length === 0) return null;
  const go = (e: PanelError) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    reveal?.(e.field);
    // After a step change the input renders on the next frame.
    const focus = () => {
      const input = e.inputId ? document.getElementById(e.inputId) : null;
      input?.scrollIntoView?.({ block: 'center' }); // (jsdom has none)
      input?.focus({ preventScroll: true });
    };
    if (e.inputId && document.getElementById(e.inputId)) focus();
    else requestAnimationFrame(focus);
  };
  return (
    <div className="error-summary" role="alert" tabIndex={-1} ref={panel} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="error-summary__title">
        {errors.length > 0 ? FORM_ERROR_TITLE : NOT_SENT_TITLE}
      </h3>
      {formError && <p className="form-error">{formError}</p>}
      {callUs && (
        <p className="form-error">
          Please try again in a moment, or call us on <a href={telHref(callUs)}>{callUs}</a>.
        </p>
      )}
      {errors.length > 0 && (
        <ul className="error-summary__list">
          {errors.map((e) => (
            <li key={e.field}>
              {e.inputId ? (
                <a href={`#${e.inputId}`} onClick={go(e)}>
                  {sentence(e.message)}
                </a>
              ) : (
                sentence(e.message)
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
