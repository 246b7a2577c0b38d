import type { Rule } from '../rule.js';

export const unknownRequestShape: Rule = {
  meta: {
    id: 'unknown-request-shape',
    severity: 'warning',
    category: 'format',
    fix: 'none',
    description: 'A line of a request or dataset file holds no conversation in a shape transcript-doctor knows.',
    docs: `## What it does
Reports lines of a request or dataset file (one conversation per line) that parse as JSON but
hold no conversation in a known request shape: OpenAI chat \`{"messages":[…]}\`, Anthropic
\`{"model","system","messages":[…]}\`, OpenAI Responses \`{"input":[…]}\`, Gemini
\`{"contents":[…]}\`, or one of those inside a batch line's \`body\` or \`request\`. Nothing else is
checked on such a line.

## Why is this bad?
It may not be: the line may be another kind of record. But a dataset line whose conversation
list is missing or misspelled (\`{"message":[…]}\`, \`{"messages":null}\`) is rejected by fine-tuning
validation, and the warning makes sure such a line is not silently passed as healthy.

## Example
\`\`\`json
{"prompt":"Say hi","completion":"Hi"}
\`\`\`

## Fix
not fixed: the line is left as it is.`,
  },
  check({ analysis, report }) {
    if (analysis.transcript.conversation === null) report({ line: 1, message: 'This line holds no conversation in a known request shape (messages, input or contents); it was not checked.' });
  },
};
