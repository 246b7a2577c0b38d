import type { Finding } from '../pipeline/finding.js';
import type { RecognisedError } from './recognise.js';

/** How well a finding explains the error; undefined when it cannot (another rule, none of the ids). */
export function scoreFinding(error: RecognisedError, finding: Finding): number | undefined {
  if (!error.entry.rules.includes(finding.rule)) return undefined;
  const said = `${finding.message}\n${finding.providerError ?? ''}`;
  const ids = error.ids.filter((id) => mentions(said, id)).length;
  if (error.ids.length > 0 && ids === 0) return undefined;
  const where = positionOf(finding);
  const offsets = systemCounted(error.entry.provider) ? [0, 1] : [0];
  const sameMessage = error.messageIndex !== undefined && where.message !== undefined && offsets.some((offset) => where.message! + offset === error.messageIndex);
  const sameBlock = sameMessage && error.blockIndex !== undefined && where.block === error.blockIndex;
  return ids * 100 + (sameMessage ? 10 : 0) + (sameBlock ? 5 : 0) + (finding.severity === 'error' ? 1 : 0);
}

/** The best a finding can score for this error: when it is reached, nothing older needs to be read. */
export function perfectScore(error: RecognisedError): number {
  return error.ids.length * 100 + (error.messageIndex !== undefined ? 10 : 0) + (error.blockIndex !== undefined ? 5 : 0) + 1;
}

/** OpenAI Chat and Mistral count the system prompt as message 0; Anthropic, Gemini and Bedrock keep it apart. */
export function systemCounted(provider: string): boolean {
  return provider === 'OpenAI Chat' || provider === 'Mistral';
}

/**
 * An id as a whole token, so `toolu_1` does not match `toolu_12`. A bar ends a token: pi keeps an
 * OpenAI Responses call as `call_…|fc_…` and sends only the part before the bar as its call_id.
 */
function mentions(text: string, id: string): boolean {
  for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
    const before = text[at - 1];
    const after = text[at + id.length];
    if ((before === undefined || !/[\w:-]/.test(before)) && (after === undefined || !/[\w:-]/.test(after))) return true;
  }
  return false;
}

/** The message and block index our own provider text for the finding names (Anthropic and Gemini counting). */
function positionOf(finding: Finding): { message?: number; block?: number } {
  const text = finding.providerError ?? '';
  const found = /messages\.(\d+)(?:\.content\.(\d+))?|contents\[(\d+)\](?:\.parts\[(\d+)\])?/.exec(text);
  if (found === null) return {};
  const message = found[1] ?? found[3];
  const block = found[2] ?? found[4];
  return { message: Number(message), block: block === undefined ? undefined : Number(block) };
}
