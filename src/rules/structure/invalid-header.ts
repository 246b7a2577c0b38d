import { semanticsOf } from '../../model/transcript.js';
import type { Rule } from '../rule.js';

export const invalidHeader: Rule = {
  meta: {
    id: 'invalid-header',
    severity: 'error',
    category: 'structure',
    fix: 'safe',
    description: 'The session header is missing or invalid.',
    docs: `## What it does
Checks that the first line that parses is a session header: \`"type": "session"\` with a
non-empty string \`id\`.

## Why is this bad?
pi validates only the first parsed entry. If it is not a valid header, pi treats the file as
empty and, on opening it, overwrites the whole file with a fresh header: the entire transcript
is wiped (OpenClaw issue #89037). A header line cut off by a crash during the first flush is
the usual cause.

A Codex rollout must start with a \`session_meta\` Codex can read into its \`SessionMeta\`: an
\`id\` that is a UUID; \`timestamp\`, \`cwd\`, \`originator\` and \`cli_version\` strings; and each
\`dynamic_tools\` entry a \`DynamicToolSpec\` (\`name\` and \`description\` strings and an
\`inputSchema\`, \`namespace\` a string and \`deferLoading\` / \`exposeToContext\` booleans when
given); a sub-agent's \`source.subagent.thread_spawn.parent_thread_id\` must be a UUID too.
Codex 0.169 skips a header it cannot read, meets a history item first and refuses to resume:
\`rollout at … does not start with session metadata\`.

A Copilot CLI \`events.jsonl\` must start with its \`session.start\` event: when that line is
lost (torn by a crash), 1.0.102 loads nothing: "Session file is corrupted or incompatible".

## Example
\`\`\`jsonl
{"type":"sess
{"type":"message","id":"a1b2c3d4","parentId":null,…}
\`\`\`

## Fix
repair rebuilds the header (session id from the file name, timestamp from the first entry), or moves an existing header to the top, or fills in an empty id.
A Copilot CLI \`session.start\` is rebuilt with what its schema requires: the session id from the
session's folder, version 1, \`copilot-agent\` as producer, the schema's client version, and the
first event's time as the start.

In a Codex header it also fills what Codex requires and the line lacks (a missing \`cwd\` as
\`""\`). A dynamic tool without a schema gets the schema of a tool without parameters
(\`{"type":"object","properties":{}}\`) and one without a description an empty one: the entry
then loads, and every field the line holds stays as written. A parent thread id that is not a
UUID becomes one derived from it (the same name gives the same id in every sub-agent file). Dropping the entry would also let
Codex read the header, but loses the tool the session declared; a tool without a name, or an
entry that is not an object, cannot be declared at all, and only those go. An optional field of
the wrong type goes too, as Codex's own default stands in for it.`,
  },
  check({ analysis, report }) {
    const semantics = semanticsOf(analysis.transcript);
    if (!semantics.header) return;
    const loss = semantics.headerLoss;
    const first = analysis.entries.length > 0 ? analysis.entries.at(0) : undefined;
    if (first === undefined) {
      const { lineIssues, parsedLines } = analysis.transcript;
      // A JSON document (json-document) is said once; its lack of a header is part of that.
      if (parsedLines === 0 && lineIssues.length > 0 && lineIssues[0]!.kind !== 'document') report({ line: lineIssues[0]!.line, message: `No line parses, so there is no session header; ${loss ?? 'pi would overwrite this file'}.` });
      return;
    }
    if (first.kind !== 'header') {
      report({
        line: first.line,
        message: `The first parsed line is not a session header; ${loss ?? 'pi would discard the transcript and overwrite the file'}.`,
      });
    } else if (!first.header!.valid) {
      report({ line: first.line, pointer: '/id', message: `Session header is invalid: ${first.header!.problem}; ${loss ?? 'pi would overwrite the file'}.` });
    }
  },
};
