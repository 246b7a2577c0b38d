import type { Rule } from '../rule.js';
import { lastLines } from '../../model/pairing.js';
import { pairingWords } from '../contract/terms.js';
import { callLabel } from './describe.js';

export const missingToolResult: Rule = {
  meta: {
    id: 'missing-tool-result',
    severity: 'error',
    category: 'pairing',
    fix: 'unsafe',
    description: 'A tool call has no result.',
    docs: `## What it does
Finds tool calls in a successful assistant turn that no tool result answers anywhere later on
the replayed path. A call at the very end of the file (or of a request line) is an error too,
unless a running agent holds the session's write lock (OpenClaw's \`<file>.lock\` naming a live
process): only then may the tool still be running, and the finding is a warning. A sub-agent's
own conversation written into the same file (Copilot CLI's concurrent sub-agents) is judged on its
own: only a result in that agent's stream answers its call.

## Why is this bad?
Anthropic, Bedrock, Vertex, OpenAI, Mistral and Gemini all require every tool call to be answered
in the very next message (the Responses API anywhere after it); each finding quotes the error of
the provider the file is judged against. Every later request is rejected with HTTP 400 until the
file is fixed. An interrupted run (cancel, crash, gateway restart) between the call and its result is the usual
cause, and then the unanswered call is the last thing in the file: a stored session that ends
that way fails on its next turn. Some agent versions patch this in memory at replay time; the
file stays broken for every other reader and version.

## Example
\`\`\`jsonl
{"type":"message",…,"message":{"role":"assistant","content":[{"type":"toolCall","id":"toolu_01…","name":"exec",…}],"stopReason":"toolUse",…}}
{"type":"message",…,"message":{"role":"user","content":"are you still there?",…}}
\`\`\`

## Fix
\`--mode discard\` (default) removes the call block (the whole turn if nothing else is left, or if it carries signed reasoning that an edit would invalidate); \`--mode synthetic\` adds an error result right after the call, marked so OpenClaw lets a real result replace it. \`repair --in-place\` refuses a session a live agent holds.`,
  },
  check({ analysis, report }) {
    const live = analysis.transcript.live;
    // A request line is the request itself: nothing can answer the call before it is sent.
    const request = analysis.transcript.conversation != null;
    for (const path of analysis.paths) {
      if (path.pairing.missing.length === 0) continue;
      // Calls followed by nothing but results are the end of the file: only a running agent may still answer them.
      const entries = path.context;
      let lastOther = entries.length - 1;
      while (lastOther >= 0 && entries.at(lastOther).role === 'toolResult') lastOther -= 1;
      const lastLineOf = lastLines(entries);
      for (const occurrence of path.pairing.missing) {
        const item = path.itemAt(occurrence.at);
        const atEnd = path.scope === 'replay' && lastLineOf(occurrence.at) === lastOther;
        const ending = !atEnd
          ? '.'
          : request
            ? '; the request ends with the call unanswered, so it is rejected.'
            : live !== undefined
            ? `; the transcript ends here and process ${live.pid} holds its lock (${live.lockPath}), so the tool may still be running.`
            : '; the transcript ends here and no running agent holds it, so the next request is rejected.';
        const id = occurrence.call.id!;
        const words = pairingWords(analysis, 'missing-tool-result', { path, at: occurrence.at }, { id, ids: [id] }, { anonymous: occurrence.call.anonymous });
        report({
          path,
          entry: item.entry,
          pointer: occurrence.call.pointer,
          message: `${callLabel(occurrence.call)} has no tool result${ending}`,
          ...words,
          severity: atEnd && live !== undefined ? 'warning' : words.severity,
        });
      }
    }
  },
};
