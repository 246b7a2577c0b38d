import { ASSISTANT } from '../../model/entry-bits.js';
import { enforcedBy } from '../../providers/index.js';
import { idBreaks, idRuleOf, sentId } from '../../providers/id-rule.js';
import type { IdShape } from '../../providers/contract.js';
import type { Rule } from '../rule.js';
import { worded } from './terms.js';

/** Verdicts per call-id handle. */
const FINE = 1;
const CHARSET = 2;
const VERDICT = { fine: FINE, charset: CHARSET, length: 3 } as const;

export const toolCallIdFormat: Rule = {
  meta: {
    id: 'tool-call-id-format',
    severity: 'error',
    category: 'contract',
    fix: 'safe',
    description: "A tool call id has characters or a length the provider's contract refuses.",
    providers: enforcedBy('tool-call-id-format', 'tool-call-id-length'),
    docs: `## What it does
Checks every replayed tool call id against the id shape of the provider the session is judged
against (\`--provider\`, else the provider it talks to): Anthropic (also on Vertex) takes only
\`^[a-zA-Z0-9_-]+$\` (ids over 64 characters are a warning: the limit is unconfirmed), Bedrock
Converse 1–64 of the same characters, OpenAI Chat at most 40 characters, the Responses API
\`call_id\` at most 64, Mistral exactly 9 letters and digits. Gemini's ids are optional: no check.

## Why is this bad?
A session that switched models mid-way carries the first provider's ids: Kimi's
\`functions.read:0\` breaks Anthropic's pattern, Anthropic's 57-character ids break OpenAI's 40,
and almost nothing but Mistral's own ids has Mistral's 9 characters. The provider rejects the whole
request (\`Tool call id was … but must be a-z, A-Z, 0-9, with a length of 9.\`), so every later turn fails.

## Example
\`\`\`jsonl
{"type":"message",…,"message":{"role":"assistant","content":[{"type":"toolCall","id":"functions.read:0","name":"read","arguments":{}}],…}}
\`\`\`

## Fix
repair rewrites the id to the provider's shape: characters it refuses become \`_\` (or go, where
\`_\` is refused too), the id is cut to leave room for 8 characters of a hash of the original (ids
that clean up alike stay apart), and Mistral gets 9 hash characters. The call and every result that
answers it are changed in the same edit; a repeat run finds nothing left to do.`,
  },
  check({ analysis, report }) {
    const rule = idRuleOf(analysis);
    if (rule === undefined) return;
    const store = analysis.entries;
    // Each distinct id of the calls is spelled out and judged once, by its handle (a table shared
    // with other conversations holds theirs too); the paths are walked only when one is refused.
    const verdicts = new Uint8Array(store.callIds.count);
    let refused = 0;
    for (let k = 0; k < store.calls; k++) {
      const handle = store.callId[k]!;
      if (handle === -1 || verdicts[handle] !== 0) continue;
      verdicts[handle] = VERDICT[idBreaks(rule, store.callIds.text(handle)) ?? 'fine'];
      if (verdicts[handle] !== FINE) refused += 1;
    }
    if (refused === 0) return;
    for (const path of analysis.paths) {
      const { indices, messageIndex } = path.context;
      for (let at = 0; at < indices.length; at++) {
        const i = indices[at]!;
        if (!store.hasCalls(i) || store.roleCode(i) !== ASSISTANT || messageIndex[at] === -1) continue;
        const first = store.callStart(i);
        for (let k = first, end = store.callEnd(i); k < end; k++) {
          const handle = store.callId[k]!;
          if (handle === -1 || verdicts[handle] === FINE) continue;
          const entry = store.at(i);
          const call = entry.toolCalls![k - first]!;
          // An id the file does not hold (Gemini's are optional) is nothing the provider is sent.
          if (call.anonymous) continue;
          const id = sentId(rule, call.id!);
          const item = path.itemAt(at);
          const charset = verdicts[handle] === CHARSET;
          const terms = charset ? rule.charset! : rule.length!;
          report({
            path,
            entry,
            pointer: `${call.pointer}/id`,
            message: `Tool call id "${id}" ${charset ? 'has characters' : `is ${id.length} characters long, a length`} ${terms.contract.name} refuses (${wanted(rule.shape)}).`,
            ...worded(terms, { message: item.messageIndex, block: item.blockIndex + call.blockIndex, call: k - first, id }),
          });
        }
      }
    }
  },
};

function wanted(shape: IdShape): string {
  const size = shape.min === shape.max ? `exactly ${shape.max}` : shape.min > 1 ? `${shape.min}–${shape.max}` : `at most ${shape.max}`;
  if (shape.char === undefined) return `${size} characters`;
  return `${size} of ${shape.char.source.replace(/^\[|\]$/g, '')}`;
}
