/**
 * Make an Offer (`features.make_offer: dialog`): a button opening the offer
 * form in a modal dialog (the amount is required, docs/behaviour/content.md §5). Hydrated
 * on the shopper's first interaction (`client:interaction`): nothing loads
 * for a visitor who never touches it. Before hydration (or without
 * JavaScript) the button is a link to the page's enquiry form in its offer
 * kind (`?enquiry=offer#enquire`), which works as a plain form post.
 *
 * The native `<dialog>` opened with showModal() keeps focus inside and
 * closes on Escape; on close, focus goes back to the button.
 */
import { useRef, useState, type MouseEvent } from 'react';
import { vehicleEnquiryEvent } from '../../lib/events';
import { carDefaults, vehicleDetails, type CarFacts } from '../../lib/forms/payload';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, messageField, consentFields, type FormConfig } from './specs';

export interface MakeOfferProps {
  config: FormConfig;
  car: CarFacts;
  /** e.g. "$34,990": shown above the amount. */
  priceText?: string;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

export function offerFields(config: FormConfig): FieldSpec[] {
  return [
    { name: 'offer_amount', rule: 'money', required: true, missing: 'offer_missing', label: 'Your offer', input: 'money', hint: 'In dollars, e.g. 25000.' },
    ...contactFields(),
    messageField('offer', config),
    ...consentFields(config),
  ];
}

export default function MakeOffer({ config, car, priceText, fetchImpl, navigate }: MakeOfferProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLAnchorElement>(null);
  // The form mounts on first open, so its fields start empty and it is not in the page twice before then.
  const [opened, setOpened] = useState(false);
  const headingId = `make-offer-${car.id}`;
  const open = (event: MouseEvent) => {
    event.preventDefault();
    setOpened(true);
    dialog.current?.showModal();
  };
  const close = () => dialog.current?.close();
  return (
    <>
      <a ref={trigger} href="?enquiry=offer#enquire" className="button button--outline" role="button" aria-haspopup="dialog" onClick={open}>
        Make an Offer
      </a>
      <dialog ref={dialog} className="dialog" aria-labelledby={headingId} onClose={() => trigger.current?.focus()}>
        <div className="dialog__head">
          <h2 id={headingId}>Make an Offer</h2>
          <button type="button" className="dialog__close" onClick={close} aria-label="Close">
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <p className="dialog__lead">
          {car.name}
          {priceText ? ` – advertised at ${priceText}` : ''}
        </p>
        {opened && (
          <LeadForm
            formId="make-offer"
            settings={config}
            fields={offerFields(config)}
            category="offer"
            subcategory="Make an Offer"
            defaults={carDefaults(car, config.dealershipSlug)}
            submitLabel="Send offer"
            event={{ id: vehicleEnquiryEvent({ tag: car.tag, carType: car.car_type }), data: vehicleDetails(car), carId: car.id }}
            lastLead={{ car: { name: car.name, slug: car.slug, car_type: car.car_type } }}
            successQuery={{ car_type: car.car_type }}
            fetchImpl={fetchImpl}
            navigate={navigate}
          />
        )}
      </dialog>
    </>
  );
}
