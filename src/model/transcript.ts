import type { EntryStore } from './entry-store.js';
import type { LineEnding } from '../io/line-reader.js';
import type { ProviderId } from '../providers/provider-id.js';
import type { Gateway } from '../providers/size/gateway.js';

/** Problems found while turning bytes into JSON, before any format is involved. */
/**
 * `glued`: several records on one line (a lost newline, or a torn append with the next one after
 * it); each readable one is decoded as its own entry. `split`: one record written over several
 * lines (raw line breaks inside a string, or a pretty-printed record), decoded as one entry.
 * `document`: the whole file is one JSON value that is no record (a pretty-printed array), said
 * once at its first line, `through` its last.
 */
export type LineIssueKind = 'invalid-json' | 'glued' | 'split' | 'document' | 'torn' | 'nul-bytes' | 'invalid-utf8' | 'oversized';

export interface LineIssue {
  kind: LineIssueKind;
  line: number;
  /** Short explanation without any of the line's content. */
  detail: string;
  /** For `split` and `document`: the last physical line the value takes. */
  through?: number;
  /** Tree links read from the start of a broken line, so repair can re-link its children. */
  recovered?: { id: string; parentId: string | null };
}

export interface LastLine {
  line: number;
  eol: LineEnding;
  parsed: boolean;
}

/** How a format's agent rebuilds the conversation; rules never see these, the model applies them. */
export interface ReplaySemantics {
  /** With duplicate entry ids, which entry the agent keeps. */
  duplicateIds: 'first' | 'last';
  /** Results whose parent is a call on the replayed path count as replayed even off that path. */
  resultsBesidePath: boolean;
  /** The file must start with a session header line (pi). */
  header: boolean;
  /** Results must come in call order (OpenClaw's strict pairing, Gemini); Anthropic-only agents do not care. */
  resultOrder: boolean;
  /** Results carry their tool's name (pi's toolName); Claude Code's tool_result blocks have none to fill. */
  resultNames: boolean;
  /**
   * The agent hangs an entry whose parent id names no entry on the entry written before it, so
   * the history across the gap is still sent (Claude Code 2.1.328 does); without it the entry is
   * a root and what came before is not replayed.
   */
  bridgesUnknownParents?: true;
  /**
   * When the conversation ends on a user turn nobody answered (a prompt, tool results), the
   * agent answers it itself on resume with an assistant turn of its own before the new prompt
   * (Claude Code 2.1.328: "No response requested.", also written to the file when it repairs).
   */
  answersTrailingUser?: true;
  /**
   * The agent keeps a later copy of an id as that id, so lines that hang on the id hang on the
   * copy, and it resumes from the newest of them rather than from a last line that is such a copy
   * (Claude Code 2.1.328, tried; see buildTree).
   */
  resumesPastCopies?: true;
  /** Every request goes to a provider that rejects empty and whitespace-only text blocks (Claude Code: Anthropic). */
  blankTextRejected: boolean;
  /** What the agent does with a file whose header it cannot read, in words (pi's: it overwrites the file). */
  headerLoss?: string;
  /** The API whose words a pairing error is quoted in: Anthropic's Messages unless the agent speaks OpenAI's Responses (Codex). */
  api?: 'messages' | 'responses';
  /**
   * A call id may carry the Responses API's item id after this separator (pi writes
   * `call_…|fc_…`); the Responses API is sent the part before it as `call_id`.
   */
  callIdItemSeparator?: string;
  /**
   * Contract rules (src/providers/ terms) the agent satisfies itself when it sends the history to
   * the provider its last turn used: judged only when a person names a provider. pi rewrites other
   * models' tool-call ids to the provider's shape and turns their signed reasoning into text.
   */
  adaptsOnSend?: readonly string[];
  /** The one provider the agent talks to, when it has one (Claude Code: Anthropic); absent when its turns record it (pi). */
  provider?: ProviderId;
  /** A service the agent's requests pass on the way, with size limits of its own (Copilot CLI: CAPI). */
  gateway?: Gateway;
  /**
   * Signatures sit on the parts that hold the model's words and calls (Gemini's `thoughtSignature`):
   * dropping foreign reasoning strips them and keeps the parts, instead of dropping a lone signed block.
   */
  partsSigned?: true;
  /** Where an entry's content blocks sit under its pointer, when not in `/content` (Gemini's `/parts`). */
  blocksAt?: string;
}

export const DEFAULT_SEMANTICS: ReplaySemantics = { duplicateIds: 'last', resultsBesidePath: false, header: true, resultOrder: true, resultNames: true, blankTextRejected: false, callIdItemSeparator: '|', adaptsOnSend: ['tool-call-id-format', 'tool-call-id-length', 'foreign-signed-reasoning'] };

/** The pointer, under an entry's own, of the list that holds its content blocks. */
export function blocksPointer(transcript: Transcript): string {
  return semanticsOf(transcript).blocksAt ?? '/content';
}

export function semanticsOf(transcript: Transcript): ReplaySemantics {
  return transcript.semantics ?? DEFAULT_SEMANTICS;
}

/** Everything the rules know about one file: decoded entries plus byte-level facts. */
export interface Transcript {
  /** Name of the detected format, or undefined when no format recognised the file. */
  format?: string;
  entries: EntryStore;
  lineIssues: LineIssue[];
  lastLine?: LastLine;
  bom: boolean;
  bytes: number;
  lines: number;
  /** Lines that parsed as JSON, whatever their format. */
  parsedLines: number;
  /** From the detected format; the default is pi's. */
  semantics?: ReplaySemantics;
  /** A running agent holds the session's write lock: its last tool calls may still be running. */
  live?: { pid: number; lockPath: string };
  /** The provider a person asked to judge the file against (`--provider`, config `provider`). */
  provider?: ProviderId;
  /**
   * For one line of a request file, judged as a transcript of its own: the provider API its shape
   * talks to (see TranscriptFormat.conversationOf), or null for a line in no shape the format
   * knows. Absent for every other transcript.
   */
  conversation?: { provider: string } | null;
}

/** The records a file holds written over several lines: first line → last line. */
export function splitSpans(transcript: Transcript): Map<number, number> {
  return new Map(transcript.lineIssues.filter((issue) => issue.kind === 'split').map((issue) => [issue.line, issue.through ?? issue.line]));
}
