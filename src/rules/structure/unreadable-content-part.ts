import type { Rule } from '../rule.js';

export const unreadableContentPart: Rule = {
  meta: {
    id: 'unreadable-content-part',
    severity: 'error',
    category: 'structure',
    fix: 'safe',
    description: 'A message holds a content part of a type the agent cannot read, so it skips the line.',
    docs: `## What it does
Finds messages with a content part whose type the agent does not know: in a Codex rollout, a
part that is not \`input_text\`, \`input_image\`, \`output_text\` or \`input_file\` (a \`"text"\` part
written by another tool, a \`"reasoning"\` part inside a message); in a Claude Code session, a
part that is not a block at all (a bare string such as \`"content": ["done"]\`).

## Why is this bad?
Codex reads a message's parts by their type; one it does not know and the whole item does not
deserialize, so Codex 0.169 skips the line when it resumes: the message is gone from the history
it sends, without a word. Claude Code 2.1.328 skips a message line with a part that is not a block
the same way: the line is no part of the conversation it resumes, not even as its last line.

## Example
\`\`\`jsonl
{"timestamp":"…","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"text","text":"Here is the fix."}]}}
\`\`\`

## Fix
repair gives a \`"text"\` part with its text the type it stands for: \`output_text\` in an
assistant message (what the model wrote), \`input_text\` in any other (what it was given). A part
of any other type is left, and the finding stays: which part of the message it was cannot be
told from the line, and turning reasoning into an answer would put words into the model's mouth.
A Claude Code line with a part that is not a block is left as it is: the agent does not load it,
so repair plans nothing on it (no closing turn hangs on it, it is no copy of another entry).`,
  },
  entries: 'unusual',
  checkEntry(entry, { report }) {
    const parts = entry.unreadableParts;
    if (parts === undefined) return;
    const fixable = parts.every((part) => part.readAs !== undefined);
    for (const part of parts) {
      const fix =
        part.readAs === undefined
          ? 'repair cannot tell what it stands for and leaves it'
          : fixable
            ? `repair makes it ${part.readAs}`
            : `it reads as ${part.readAs}, but repair leaves the line for the part beside it that does not`;
      report({ entry, pointer: part.pointer, message: `Content part of type ${JSON.stringify(part.type)} cannot be read, so the agent skips this line; ${fix}.` });
    }
  },
};
