import { UserError } from '../errors.js';
import { anthropicPlatform, clues, errorTexts } from './error-text.js';
import { matchCatalogue, type Match } from './patterns.js';

/** A pasted error, recognised: which text of the catalogue it is and what it names. */
export interface RecognisedError extends Match {
  /** The provider as the user would name it: `Anthropic on Vertex AI`. */
  provider: string;
}

/** Reads the error out of what the user pasted; a text with no known wording is a usage error (exit 2). */
export function recognise(raw: string): RecognisedError {
  if (raw.trim() === '') throw new UserError('explain needs the error text (or - to read it from standard input)');
  for (const text of errorTexts(raw)) {
    const match = matchCatalogue(text);
    if (match === undefined) continue;
    const platform = match.entry.provider === 'Anthropic' ? anthropicPlatform(raw) : undefined;
    return { ...match, provider: platform === undefined ? match.entry.provider : `${match.entry.provider} on ${platform}` };
  }
  const found = clues(raw);
  const what = found.length > 0 ? `recognised ${found.join(', ')}` : 'recognised no provider, error body or tool call id';
  throw new UserError(`not a provider error explain knows (${what}); transcript-doctor rules lists what it checks`);
}
