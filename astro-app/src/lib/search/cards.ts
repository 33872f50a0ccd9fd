/**
 * What a result card offers (docs/behaviour/search.md §2, §4, §5; content.md §2.7): cars not in
 * stock get only Find Me Something Similar; in-stock cars the dealer's
 * button set, Reserve Now only when checkout is on (with the deposit when
 * not zero); compare/favourite only when the feature is on and the car is
 * in stock (strict dealers: also used, priced above 0, with photos).
 */
import type { CardButton } from '../../types/site';
import { mayReserve } from '../forms/checkout';
import { telHref } from '../format';
import type { Hit } from './types';

export interface CardAction {
  kind: CardButton | 'similar';
  label: string;
  href: string;
}

export interface CardSettings {
  buttons: CardButton[];
  checkout: boolean;
  checkoutDeposit: number;
  checkoutPath: string;
  /** Hours a reservation holds the car (features.checkout_hold_hours); the deposit note leaves them out when absent. */
  checkoutHoldHours?: number;
  /** The dealer's guarantee line for used cars (cards.used_car_guarantee). */
  usedGuarantee?: string | null;
  /** Car types and makes reserved online (empty: all): Reserve and Buy Online only for those cars. */
  checkoutCarTypes?: string[];
  checkoutMakes?: string[];
  /** The trade-in pages exist (`features.trade_in`): Trade In only then, and only for the cars `mayValueTradeIn` allows. */
  tradeIn?: boolean;
  /** The dealer's button labels by kind (`cards.labels`); a kind not here keeps the wording below. */
  labels?: Partial<Record<CardButton, string>>;
}

type CardCar = Pick<Hit, 'objectID' | 'slug' | 'status' | 'phone'> & Partial<Pick<Hit, 'car_type' | 'make' | 'reserved' | 'price'>>;

/** A trade-in valuation needs the car priced above this many dollars. */
export const TRADE_IN_MIN_PRICE = 200;

/**
 * Whether a car offers a trade-in valuation (docs/behaviour/content.md §4):
 * the dealer offers them, the car is in stock (not coming soon), not
 * reserved, and priced over $200. The car page's sidebar has the same rule
 * (dealer_rules::trade_in, pinned by rules/vectors/trade-in.json).
 */
export function mayValueTradeIn(offered: boolean, car: { status: string; reserved?: boolean; price?: number }): boolean {
  return offered && car.status === 'in_stock' && !car.reserved && (car.price ?? 0) > TRADE_IN_MIN_PRICE;
}

/** Whether this card's car has a checkout page (no link to a page that does not exist). */
export function reservable(car: CardCar, s: CardSettings): boolean {
  return mayReserve(
    { enabled: s.checkout, carTypes: s.checkoutCarTypes ?? [], makes: s.checkoutMakes ?? [] },
    { car_type: car.car_type ?? '', make: car.make ?? '', status: car.status, reserved: car.reserved },
  );
}

export function inStock(car: Pick<Hit, 'status'>): boolean {
  return car.status === 'in_stock' || car.status === 'coming_soon';
}

export function cardActions(car: CardCar, s: CardSettings): CardAction[] {
  const page = `/cars/${car.slug}/`;
  // The car page's form reads ?enquiry=similar (a sold car's page asks for it anyway).
  if (!inStock(car)) return [{ kind: 'similar', label: 'Find Me Something Similar', href: `${page}?enquiry=similar#enquire` }];
  const out: CardAction[] = [];
  for (const b of s.buttons) {
    // The dealer's wording of this kind (`cards.labels`), else ours.
    const add = (ours: string, href: string) => out.push({ kind: b, label: s.labels?.[b] ?? ours, href });
    switch (b) {
      case 'enquire':
        add('Enquire', `${page}#enquire`);
        break;
      case 'test_drive':
        add('Book a Test Drive', `${page}?enquiry=test-drive#enquire`);
        break;
      case 'finance':
        add('Get Finance', `${page}?enquiry=finance#enquire`);
        break;
      case 'reserve':
        if (reservable(car, s)) {
          const amount = s.checkoutDeposit > 0 ? ` $${s.checkoutDeposit}` : '';
          add(`Reserve Now${amount}`, `${page}${s.checkoutPath}/`);
        }
        break;
      case 'trade_in':
        if (mayValueTradeIn(s.tradeIn !== false, car))
          add('Trade In', `/cars/trade-in/?car_id=${encodeURIComponent(car.objectID)}`);
        break;
      case 'view_details':
        add('View Details', page);
        break;
      case 'call_dealer':
        if (car.phone) add('Call Dealer', telHref(car.phone));
        break;
      case 'make_offer':
        add('Make an Offer', `${page}?enquiry=offer#enquire`);
        break;
      case 'buy_online':
        if (reservable(car, s)) add('Buy Online', `${page}${s.checkoutPath}/`);
        break;
      case 'history_report':
        // Needs the car's history file, which result cards do not carry.
        break;
    }
  }
  return out;
}

/** Compare / favourite visibility. */
export function showToggle(
  car: Pick<Hit, 'status' | 'car_type' | 'price' | 'image'>,
  featureOn: boolean,
  strict: boolean,
): boolean {
  if (!featureOn || !inStock(car)) return false;
  return !strict || (car.car_type === 'used' && car.price > 0 && car.image !== '');
}

/**
 * The notes under a card's buttons (docs/behaviour/search.md §9): the deposit hold where
 * Reserve Now is offered ("$200 deposit, 100% refundable: we hold the car
 * for 48 hours"), and the dealer's used-car guarantee on used cars in stock.
 */
export function cardNotes(car: Pick<Hit, 'objectID' | 'slug' | 'status' | 'phone' | 'car_type'>, s: CardSettings): string[] {
  const notes: string[] = [];
  if (cardActions(car, s).some((a) => a.kind === 'reserve' || a.kind === 'buy_online')) {
    const deposit = s.checkoutDeposit > 0 ? `$${s.checkoutDeposit} deposit, 100% refundable` : 'Reserve online, 100% refundable';
    notes.push(s.checkoutHoldHours ? `${deposit}: we hold the car for ${s.checkoutHoldHours} hours.` : `${deposit}.`);
  }
  const guarantee = s.usedGuarantee?.trim();
  if (guarantee && car.car_type === 'used' && inStock(car)) notes.push(guarantee);
  return notes;
}
