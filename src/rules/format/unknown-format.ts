import { formats } from '../../formats/registry.js';
import type { Rule } from '../rule.js';

/** The formats detection tries, by name, for a file none of them takes. */
const TRIED = formats.map((format) => format.name).join(', ');

export const unknownFormat: Rule = {
  meta: {
    id: 'unknown-format',
    severity: 'warning',
    category: 'format',
    fix: 'none',
    description: 'The file is not in a transcript format transcript-doctor knows.',
    docs: `## What it does
Reports files that no format transcript-doctor knows takes: pi and OpenClaw sessions, Claude Code
transcripts, Codex rollouts, Gemini CLI, Copilot CLI and Qwen Code sessions and provider request
files (\`${TRIED}\`). Nothing else is checked in such a file.

A file is taken by a format when one of its lines is unmistakably that format's. A short file
most of whose lines are broken may have no such line; it is still taken when it lives where an
agent keeps its sessions (\`~/.claude/projects/**\`, \`~/.codex/sessions/**/rollout-*.jsonl\`,
\`~/.openclaw/agents/*/sessions\`, \`~/.pi/agent/sessions\`, \`~/.gemini/tmp/*/chats/**\`,
\`~/.copilot/session-state/*/events.jsonl\`, \`~/.qwen/projects/*/chats\`, in any home folder), or when a line
that parses has the shape of exactly one format's lines. Only then can repair drop its broken
lines and judge the rest.

## Why is this bad?
It is not: the file may be another tool's JSONL. The warning makes sure a file you asked to be
checked is not silently passed as healthy.

## Fix
not fixed: the file is left as it is.`,
  },
  check({ analysis, report }) {
    const { transcript } = analysis;
    if (transcript.format === undefined && transcript.parsedLines > 0) {
      report({ line: 1, message: `No line looks like an entry of a format transcript-doctor knows (tried: ${TRIED}), and the file is not where one of their agents keeps its sessions; the file was not checked.` });
    }
  },
};
