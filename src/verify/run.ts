import { LIMITS, readBoundedText, readProblem } from '../io/bounded-read.js';
import { basename, join } from 'node:path';
import { formats } from '../formats/registry.js';
import type { TranscriptFormat } from '../formats/format.js';
import { analyze } from '../model/analysis.js';
import type { Entry } from '../model/entry.js';
import type { FileReport } from '../pipeline/finding.js';
import { loadTranscriptFile } from '../pipeline/load-file.js';
import { withReadablePath } from '../io/regular-file.js';
import { isVerifierFeedback, selectCandidates, type Candidate, type Turn } from './candidates.js';
import { LineTexts } from './lines.js';
import { complete } from './llm/complete.js';
import type { VerdictCache } from './llm/cache.js';
import { maskForJudge } from './llm/mask-for-judge.js';
import { maskSecrets } from './llm/secrets.js';
import type { ModelSpec } from './llm/types.js';
import { buildPrompt, SYSTEM_PROMPT, type JudgeInput } from './prompt.js';
import type { VerifySettings } from './settings.js';
import { parseVerdict, type Verdict } from './verdict.js';

export interface JudgeOptions {
  settings: VerifySettings;
  model: ModelSpec;
  cache: VerdictCache;
  /** Rules files given with --rules; otherwise each session's working directory is searched. */
  rules?: Array<{ name: string; text: string }>;
  /** The transcript format of every file (`--agent`), instead of detecting it. */
  format?: TranscriptFormat;
  timeoutMs: number;
  maxRetries: number;
  /** Runs a judge call when a slot is free (the --concurrency limit is shared by all files). */
  schedule: <T>(task: () => Promise<T>) => Promise<T>;
  /** Called before the first request that sends transcript text anywhere. */
  beforeFirstRequest: () => void;
  /** Masks secrets in the texts to send; maskForJudge unless a test injects another. */
  maskTexts?: (texts: readonly string[]) => Promise<string[]>;
}

const RULE_FILES = ['AGENTS.md', 'SOUL.md'];

/** Judges the final answers on one transcript's replayed path. */
export async function verifyFile(name: string, display: string, options: JudgeOptions): Promise<FileReport & { verdicts: Verdict[] }> {
  // A name that is not UTF-8 is read through a path the readers can open (see withReadablePath).
  return withReadablePath(name, (path) => verifyPath(path, display, options));
}

async function verifyPath(path: string, display: string, options: JudgeOptions): Promise<FileReport & { verdicts: Verdict[] }> {
  const transcript = await loadTranscriptFile(path, options.format);
  const format = formats.find((candidate) => candidate.name === transcript.format);
  const report = { path: display, format: transcript.format ?? null, findings: [], verdicts: [] as Verdict[] };
  if (format === undefined) return report;
  const analysis = analyze(transcript);
  const texts = new LineTexts(path, format);
  try {
    const candidates = selectCandidates(analysis, texts, options.settings);
    // pi names the working directory in its header, Claude Code on every line.
    const first = analysis.entries.find((entry) => entry.kind === 'header' || entry.kind === 'message');
    const rules = options.rules ?? (await workspaceRules(first === undefined ? undefined : texts.of(first).cwd));
    report.verdicts = await Promise.all(candidates.map((candidate) => judge(candidate, texts, rules, options)));
  } finally {
    texts.close();
  }
  return report;
}

async function judge(candidate: Candidate, texts: LineTexts, rules: Array<{ name: string; text: string }>, options: JudgeOptions): Promise<Verdict> {
  const line = candidate.response.line;
  if (candidate.skip !== undefined) return { line, verdict: 'SKIPPED', feedback: candidate.skip };
  const model = `${options.model.provider}/${options.model.model}`;
  let input: JudgeInput;
  try {
    input = await maskInput(judgeInput(candidate, texts, rules), options.maskTexts ?? maskForJudge);
  } catch (error) {
    // Fail closed: text that could not be masked is not sent.
    const reason = maskSecrets(error instanceof Error ? error.message : String(error)).text;
    return { line, verdict: 'ERROR', feedback: `secrets could not be masked, so nothing was sent (${reason})`, model, cached: false };
  }
  const user = buildPrompt(input);
  const key = options.cache.key(options.model, SYSTEM_PROMPT, user);
  const cached = await options.cache.get(key);
  if (cached !== undefined) return { line, ...parseVerdict(cached), model, latencyMs: 0, cached: true };
  return options.schedule(async () => {
    options.beforeFirstRequest();
    try {
      const reply = await complete(options.model, SYSTEM_PROMPT, user, { timeoutMs: options.timeoutMs, maxRetries: options.maxRetries });
      const verdict = parseVerdict(reply.text);
      if (verdict.verdict !== 'ERROR') await options.cache.put(key, reply.text);
      return { line, ...verdict, model, latencyMs: reply.latencyMs, cached: false };
    } catch (error) {
      return { line, verdict: 'ERROR', feedback: error instanceof Error ? error.message : String(error), model, cached: false };
    }
  });
}

function judgeInput(candidate: Candidate, texts: LineTexts, rules: Array<{ name: string; text: string }>): JudgeInput {
  const { turn, response } = candidate;
  const user = turn.user === undefined ? undefined : texts.of(turn.user);
  const answer = texts.of(response);
  return {
    userMessage: user?.text ?? '',
    response: answer.text,
    rules: rules.filter((rule) => candidate.heartbeat || rule.name !== 'HEARTBEAT.md'),
    history: candidate.history.map((earlier) => ({ user: earlier.user === undefined ? '' : texts.of(earlier.user).text, assistant: lastAnswer(earlier, texts) })),
    metadata: {
      stopReason: response.outcome,
      durationMs: user?.time !== undefined && answer.time !== undefined ? answer.time - user.time : undefined,
      heartbeat: candidate.heartbeat,
    },
    previousFeedback: feedbackIn(turn, response, texts),
  };
}

function lastAnswer(turn: Turn, texts: LineTexts): string {
  const answers = turn.entries.filter((entry) => entry.role === 'assistant').map((entry) => texts.of(entry).text).filter((text) => text.trim() !== '');
  return answers.at(-1) ?? '';
}

/** Feedback a verifier loop injected earlier in this turn: the seed retries with `[Verification: … Category: … Feedback: …]` as a user message. */
function feedbackIn(turn: Turn, response: Entry, texts: LineTexts): string[] {
  return turn.entries
    .filter((entry) => entry.line < response.line && (entry.role === 'other' || entry.role === 'user'))
    .map((entry) => texts.of(entry).text)
    .filter(isVerifierFeedback);
}

/** Every text of the input goes through one masking call, so the detector runs once per judged response. */
async function maskInput(input: JudgeInput, mask: (texts: readonly string[]) => Promise<string[]>): Promise<JudgeInput> {
  const texts = [
    input.userMessage,
    input.response,
    ...input.rules.map((rule) => rule.text),
    ...input.history.flatMap((turn) => [turn.user, turn.assistant]),
    ...input.previousFeedback,
  ];
  const masked = await mask(texts);
  if (masked.length !== texts.length) throw new Error(`masking returned ${masked.length} texts for ${texts.length}`);
  let next = 0;
  const take = () => masked[next++]!;
  return {
    ...input,
    userMessage: take(),
    response: take(),
    rules: input.rules.map((rule) => ({ name: rule.name, text: take() })),
    history: input.history.map(() => ({ user: take(), assistant: take() })),
    previousFeedback: input.previousFeedback.map(take),
  };
}

/** AGENTS.md and SOUL.md (and HEARTBEAT.md, used for heartbeat runs) from the session's working directory. */
async function workspaceRules(cwd: string | undefined): Promise<Array<{ name: string; text: string }>> {
  if (cwd === undefined || cwd === '') return [];
  const rules: Array<{ name: string; text: string }> = [];
  for (const name of [...RULE_FILES, 'HEARTBEAT.md']) {
    let text: string | undefined;
    try {
      text = readBoundedText(join(cwd, name), LIMITS.instructions);
    } catch {
      // Absent, or not a file a person wrote (a FIFO, a device, something huge): not the session's rules.
    }
    if (text !== undefined) rules.push({ name, text });
  }
  return rules;
}

/** Rules files named on the command line, by their base name. */
export async function readRules(paths: readonly string[]): Promise<Array<{ name: string; text: string }>> {
  return paths.map((path) => {
    try {
      return { name: basename(path), text: readBoundedText(path, LIMITS.instructions) };
    } catch (error) {
      throw new Error(`${path}: ${readProblem(error)}`);
    }
  });
}
