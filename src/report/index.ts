import { jsonReporter } from './json.js';
import { stylishReporter } from './stylish.js';
import type { Reporter } from './types.js';

export const reporters: Record<string, Reporter> = {
  stylish: stylishReporter,
  json: jsonReporter,
};
