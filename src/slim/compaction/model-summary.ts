import { compactionOf } from '../../formats/compactions.js';
import type { Analysis } from '../../model/analysis.js';
import { complete } from '../../verify/llm/complete.js';
import { maskForJudge } from '../../verify/llm/mask-for-judge.js';
import type { CallOptions, ModelSpec } from '../../verify/llm/types.js';
import { clip, promptList, sessionFacts } from './summary.js';

/**
 * What the model is sent, at most: the history being compacted is the one too big to send, so
 * the model reads its words and calls (never tool output), newest kept first.
 */
const INPUT_LIMIT = 200_000;
const TURN_LIMIT = 4000;

const SYSTEM_PROMPT = [
  'You summarise the earlier part of a coding agent session so the agent can continue it with the summary in place of that history.',
  'Write plain text: the goal and requests of the user, decisions taken, the state of the work (files changed and why), open problems and the next step.',
  'Be concrete (names of files, functions, commands, errors). Do not invent anything that is not in the history. At most 600 words.',
].join(' ');

export interface ModelSummaryOptions extends CallOptions {
  model: ModelSpec;
}

/**
 * A summary of the replayed entries before `upTo`, written by the model `verify` talks to, from
 * what was said and called (tool output left out, every text masked for secrets as verify masks
 * what it sends). The user's prompts are kept word for word after the model's text, as
 * summarizeLocally lists them, so no request is lost to the model's wording.
 */
export async function summarizeWithModel(analysis: Analysis, upTo: number, read: (entry: number) => unknown, options: ModelSummaryOptions): Promise<string> {
  const turns = historyText(analysis, upTo, read);
  const [masked] = await maskForJudge([turns]);
  const reply = await complete(options.model, SYSTEM_PROMPT, `The history to summarise:\n\n${masked ?? ''}`, options);
  const prompts = promptList(sessionFacts(analysis, upTo, read));
  const kept = prompts === '' ? '' : `\n\n${prompts}`;
  return `This session was compacted by transcript-doctor; ${options.model.model} summarised the earlier portion of the conversation below. The full history is in the backup of this file.\n\n${reply.text.trim()}${kept}`;
}

/** The compacted history as text: prompts, answers and calls, oldest first, the oldest left out past INPUT_LIMIT. */
function historyText(analysis: Analysis, upTo: number, read: (entry: number) => unknown): string {
  const format = compactionOf(analysis.transcript.format);
  const context = analysis.replay.context;
  const pieces: string[] = [];
  let length = 0;
  for (let at = Math.min(upTo, context.length) - 1; at >= 0 && length < INPUT_LIMIT; at--) {
    const facts = format?.facts(read(context.indices[at]!));
    if (facts === undefined) continue;
    const lines: string[] = [];
    if (facts.prompt !== undefined && facts.prompt.trim() !== '') lines.push(`USER: ${clip(facts.prompt.trim(), TURN_LIMIT)}`);
    if (facts.answer !== undefined && facts.answer.trim() !== '') lines.push(`ASSISTANT: ${clip(facts.answer.trim(), TURN_LIMIT)}`);
    for (const call of facts.calls) lines.push(`TOOL CALL: ${call.name}${call.path === undefined ? '' : ` ${call.path}`}${call.command === undefined ? '' : ` $ ${clip(call.command, 300)}`}`);
    if (lines.length === 0) continue;
    const piece = lines.join('\n');
    pieces.push(piece);
    length += piece.length + 2;
  }
  return pieces.reverse().join('\n\n');
}
