import type { Rule } from '../rule.js';
import { ASSISTANT } from '../../model/entry-bits.js';
import { toolNameProblem } from '../../model/tool-name.js';
import { toolNamePattern } from '../provider-errors.js';
import { enforcedBy } from '../../providers/index.js';
import { namedTerm, spokenError, worded } from '../contract/terms.js';

export const invalidToolName: Rule = {
  meta: {
    id: 'invalid-tool-name',
    severity: 'error',
    category: 'pairing',
    fix: 'unsafe',
    description: 'A tool call has a name providers reject.',
    providers: enforcedBy('invalid-tool-name'),
    docs: `## What it does
Finds tool calls whose name, once surrounding whitespace is trimmed, is blank, longer than 64
characters, or holds anything but letters, digits, \`_\` and \`-\` (a name that swallowed
leaked \`<|tool_call_argument_begin|>\` tokens, or a whole sentence).

## Why is this bad?
Anthropic, Bedrock and OpenAI check every replayed call's name against \`^[a-zA-Z0-9_-]{1,64}$\`
and reject the whole request. The Anthropic text we quote follows its confirmed wording for
ids (\`tool_use.id: String should match pattern …\`); OpenAI's is confirmed as it stands
(OpenAI Chat: \`Invalid 'messages[N].tool_calls[K].function.name':
string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.\`).
OpenClaw drops such calls before it sends them, so the file and what the model saw disagree.

## Example
\`\`\`jsonl
{"type":"message",…,"message":{"role":"assistant","content":[{"type":"toolCall","id":"call_1","name":"read<|tool_call_argument_begin|>{","arguments":{}}],…}}
\`\`\`

## Fix
repair drops the call together with every result that answers it (in both modes: a call that
cannot be sent cannot be answered either), and the turn when nothing else is left. Names that
are only padded (\`" read "\`) are trimmed in calls and results instead.`,
  },
  check({ analysis, report }) {
    const named = namedTerm(analysis, 'invalid-tool-name');
    const store = analysis.entries;
    // Read from the columns first: each distinct name is judged once, and the paths are walked only for the entries whose calls have a rejected one.
    let suspect: Uint8Array | undefined;
    for (let k = 0; k < store.calls; k++) {
      if (store.callNameRejected(k) && store.roleCode(store.callOwner[k]!) === ASSISTANT) (suspect ??= new Uint8Array(store.length))[store.callOwner[k]!] = 1;
    }
    if (suspect === undefined) return;
    for (const path of analysis.paths) {
      const indices = path.context.indices;
      for (let at = 0; at < indices.length; at++) {
        if (suspect[indices[at]!] === 0) continue;
        const entry = path.context.at(at);
        for (const call of entry.toolCalls!) {
          // A call without id or name is a partial call's problem (partial-tool-call), not this rule's.
          if (call.missing !== undefined || call.id === undefined) continue;
          const problem = toolNameProblem(call.name);
          if (problem === undefined) continue;
          const item = path.itemOf(entry.index);
          report({
            path,
            entry,
            pointer: `${call.pointer}/name`,
            message: `Tool call ${call.id} has a name providers reject: ${problem}.`,
            ...(named?.term !== undefined
              ? worded(named, { message: item?.messageIndex ?? 0, block: (item?.blockIndex ?? 0) + call.blockIndex, call: entry.toolCalls!.indexOf(call) })
              : {
                  providerError:
                    item === undefined
                      ? undefined
                      : (spokenError(analysis, 'invalid-tool-name', { message: item.messageIndex, block: item.blockIndex + call.blockIndex, call: entry.toolCalls!.indexOf(call) }) ??
                        toolNamePattern(item.messageIndex, item.blockIndex + call.blockIndex)),
                }),
          });
        }
      }
    }
  },
};
