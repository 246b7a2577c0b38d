import type { Rule } from '../rule.js';

export const missingItemType: Rule = {
  meta: {
    id: 'missing-item-type',
    severity: 'error',
    category: 'structure',
    fix: 'safe',
    description: 'A history line has lost its item type, so the agent skips it.',
    docs: `## What it does
Finds history lines whose item carries no type: in a Codex rollout, a \`response_item\` whose
\`payload\` has no \`"type"\`.

## Why is this bad?
The type is what Codex reads an item by (it is the tag of its \`ResponseItem\`), so Codex 0.169
skips the whole line when it resumes: the prompt, answer, call or output on it is gone from the
history it sends, without a word. A file in which every item lost its type resumes as an empty
conversation; a lost output leaves its call unanswered.

## Example
\`\`\`jsonl
{"timestamp":"…","type":"response_item","payload":{"role":"user","content":[{"type":"input_text","text":"Run the tests"}]}}
\`\`\`

## Fix
repair writes the type back when the item's own fields leave one answer: a role and content make
a \`message\`; a call id, a name and string arguments a \`function_call\`; a call id, a name and
an input a \`custom_tool_call\`; a call id and an output the output of the call it answers
(\`custom_tool_call_output\` for a custom tool call, else \`function_call_output\`); a summary list
\`reasoning\`. An item whose fields fit no kind, or two, is left as it is and stays a finding:
a guessed type would put words into the history that may never have been there.`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    const lost = entry.lostType;
    if (lost === undefined) return;
    report({
      entry,
      message:
        lost === ''
          ? 'History item has no type, so the agent skips this line; its fields do not show which item it was, so repair leaves it.'
          : `History item has no type, so the agent skips this line; its fields make it a ${lost}, which repair writes back.`,
    });
  },
};
