/**
 * Which cars may be reserved online: the TypeScript side of
 * dealer_rules::checkout::may_reserve (pinned by rules/vectors/checkout.json).
 * The build gives every car of cars.json its `checkout` flag; the search
 * cards apply the rule to hits (a hosted index's raw records have no flag).
 */

export interface CheckoutRules {
  enabled: boolean;
  /** Car types reserved online; empty: all. */
  carTypes: readonly string[];
  /** Makes reserved online, compared without letter case; empty: all. */
  makes: readonly string[];
}

export interface CheckoutCar {
  car_type: string;
  make: string;
  status: string;
  reserved?: boolean;
}

const listed = (list: readonly string[], value: string) =>
  list.length === 0 || list.some((v) => v.trim().toLowerCase() === value.trim().toLowerCase());

export function mayReserve(rules: CheckoutRules, car: CheckoutCar): boolean {
  const inStock = car.status === 'in_stock' || car.status === 'coming_soon';
  return rules.enabled && inStock && car.reserved !== true && listed(rules.carTypes, car.car_type) && listed(rules.makes, car.make);
}
