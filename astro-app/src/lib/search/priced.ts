/**
 * Money columns: 0 there is no price ("Enquire for price"), never a cheap
 * car, so it is within no price range (the engine's ranges and the hosted
 * service's numeric filters leave it out): a budget lists priced cars.
 * A module of its own: the hosted client (on the home page's widget too)
 * needs this and nothing else of the price bands.
 */
export const PRICED: ReadonlySet<string> = new Set(['price', 'subscription_price']);
