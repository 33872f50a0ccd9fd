/** Types of scripts/gen-types.mjs for the contract test (astro-app/test/contract.test.ts). */
/** The TypeScript source site-data.generated.ts must hold, from site-data.schema.json. */
export function generate(): Promise<string>;
