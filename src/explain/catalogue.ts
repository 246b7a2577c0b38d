import type { CatalogueEntry } from './catalogue-entry.js';
import { pairingCatalogue } from './pairing-catalogue.js';
import { sizeCatalogue } from './size-catalogue.js';

// The provider error texts `explain` recognises, from the two tables: the pairing and contract
// family (pairing-catalogue.ts) and the size family (size-catalogue.ts).

/** Every text, pairing and contract errors first, then the size family: the first that matches wins. */
export const catalogue: readonly CatalogueEntry[] = [...pairingCatalogue, ...sizeCatalogue];

/** The entries that name this rule. */
export function entriesForRule(rule: string): CatalogueEntry[] {
  return catalogue.filter((entry) => entry.rules.includes(rule));
}
