/**
 * Where the calculator's Enquire Now goes (docs/behaviour/car-page.md §2): without a vehicle,
 * the finance page; with one, the finance page's form carrying the vehicle
 * as preferredDealership, vehiclePriceBudget, car_id and car_type, ending
 * in #finance-form. The finance page reads the same names back.
 */
export const FINANCE_FORM_ID = 'finance-form';

export interface FinanceVehicle {
  /** The location the car is at (the finance page's preferred dealership). */
  locationId: string;
  /** Its price in dollars; 0 leaves the budget out. */
  price: number;
  id: string;
  carType: string;
}

export function financeEnquiryHref(page: string, car?: FinanceVehicle | null): string {
  if (!car) return page;
  const q = new URLSearchParams();
  q.set('preferredDealership', car.locationId);
  if (car.price > 0) q.set('vehiclePriceBudget', String(Math.round(car.price)));
  q.set('car_id', car.id);
  q.set('car_type', car.carType);
  return `${page}?${q.toString()}#${FINANCE_FORM_ID}`;
}

/** What a finance page link carries, read back from `location.search`. */
export interface FinanceRequest {
  preferredDealership: string | null;
  vehiclePriceBudget: number | null;
  carId: string | null;
  carType: string | null;
}

export function readFinanceRequest(search: string): FinanceRequest {
  const q = new URLSearchParams(search);
  const text = (k: string) => {
    const v = q.get(k)?.trim();
    return v ? v.slice(0, 64) : null;
  };
  const budget = Number(q.get('vehiclePriceBudget'));
  return {
    preferredDealership: text('preferredDealership'),
    vehiclePriceBudget: Number.isFinite(budget) && budget > 0 ? Math.round(budget) : null,
    carId: text('car_id'),
    carType: text('car_type'),
  };
}
