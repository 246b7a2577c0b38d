import { clipped } from '../errors.js';

/**
 * What a user pastes is rarely the bare message: a JSON error body (`{"type":"error","error":{…}}`,
 * `{"error":{"message":…}}`, a proxy's body whose message is itself Anthropic's JSON), a log line
 * around it, or a log line that escaped the JSON once more. These are the texts to look in.
 */
export function errorTexts(raw: string): string[] {
  const texts = [raw];
  const unescaped = raw.replace(/\\\\/g, '\\').replace(/\\"/g, '"').replace(/\\n/g, '\n');
  if (unescaped !== raw) texts.push(unescaped);
  for (const text of [...texts]) for (const body of jsonObjects(text)) texts.push(...messagesIn(body));
  return texts;
}

/** Values of `message` fields anywhere in a parsed body, and inside messages that are JSON again. */
function messagesIn(value: unknown, depth = 0): string[] {
  if (depth > 8 || value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'string' && (key === 'message' || key === 'Message')) {
      found.push(inner);
      for (const body of jsonObjects(inner)) found.push(...messagesIn(body, depth + 1));
    } else if (typeof inner === 'object') {
      found.push(...messagesIn(inner, depth + 1));
    }
  }
  return found;
}

/** Balanced `{…}` spans of the text that parse as JSON, outermost first. */
function jsonObjects(text: string): unknown[] {
  const bodies: unknown[] = [];
  let from = 0;
  for (let start = text.indexOf('{', from); start >= 0 && bodies.length < 8; start = text.indexOf('{', from)) {
    const end = closingBrace(text, start);
    if (end < 0) break;
    try {
      bodies.push(JSON.parse(text.slice(start, end + 1)));
      from = end + 1;
    } catch {
      from = start + 1;
    }
  }
  return bodies;
}

/** Where the object opened at `start` closes, strings taken into account; -1 if it never does. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{') {
      depth += 1;
    } else if (char === '}') {
      depth -= 1;
      if (depth === 0) return at;
    }
  }
  return -1;
}

/** Which Anthropic platform answered, when the text says: the rules are the same, the place to look differs. */
export function anthropicPlatform(raw: string): string | undefined {
  if (/req_vrtx_|aiplatform\.googleapis|vertex/i.test(raw)) return 'Vertex AI';
  if (/ValidationException|The model returned the following errors|bedrock/i.test(raw)) return 'Bedrock';
  return undefined;
}

/**
 * What can be told from a text whose wording is not in the catalogue: the error envelope, the
 * HTTP status, indices and ids. Named in the one-line error so the user sees what was read.
 */
export function clues(raw: string): string[] {
  const found: string[] = [];
  const texts = errorTexts(raw).join('\n');
  const envelopes: [RegExp, string][] = [
    [/"type"\s*:\s*"error"[\s\S]*"invalid_request_error"/, 'an Anthropic error body'],
    [/ValidationException/, 'a Bedrock ValidationException'],
    [/INVALID_ARGUMENT/, 'a Google INVALID_ARGUMENT error'],
    [/"object"\s*:\s*"error"/, 'a Mistral error body'],
    [/"error"\s*:\s*\{[\s\S]*"invalid_request_error"/, 'an OpenAI-style error body'],
  ];
  const envelope = envelopes.find(([pattern]) => pattern.test(texts));
  if (envelope !== undefined) found.push(envelope[1]);
  if (/\b400\b/.test(raw)) found.push('HTTP 400');
  const index = /\b(?:messages|contents|input)(?:\.(\d+)|\[(\d+)\])/.exec(texts);
  if (index !== null) found.push(`message index ${clipped(index[1] ?? index[2]!, 20)}`);
  const ids = [...new Set(texts.match(/\b(?:toolu|srvtoolu|call|fc)_[A-Za-z0-9_-]{6,}/g) ?? [])];
  if (ids.length > 0) found.push(`id ${ids.slice(0, 3).map((id) => clipped(id)).join(', ')}${ids.length > 3 ? ', …' : ''}`);
  return found;
}
