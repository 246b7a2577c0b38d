import { jsonDocument } from './json-document.js';
import type { Reporter } from './types.js';

/** One JSON document, stable field order, for tools and CI. Repairs add what they did per file. */
export const jsonReporter: Reporter = (reports, options) => JSON.stringify(jsonDocument(reports, options.ruleSet?.()), null, 2) + '\n';
