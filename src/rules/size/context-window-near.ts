import type { Rule } from '../rule.js';
import { figure, lastSent, measured } from './measured.js';
import { windowWords } from './window.js';

/** The share of the window past which a session is reported near it, unless the config says otherwise (`size.nearWindow`). */
export const NEAR_WINDOW = 0.8;

export const contextWindowNear: Rule = {
  meta: {
    id: 'context-window-near',
    severity: 'warning',
    category: 'size',
    fix: 'none',
    description: "The request a resume would send may fill the model's context window: near it, or over it by the estimate's own error.",
    docs: `## What it does
Reports a session whose replayed request is estimated at more than a share of the model's
context window (80% unless \`size.nearWindow\` in transcript-doctor.config.json says otherwise),
or whose estimate is under the window but whose upper bound (the estimate plus the estimator's
measured error, see [How tokens are estimated](../size.md#how-tokens-are-estimated)) is over it.
A session over the window by the estimate itself is \`context-window-exceeded\` instead.

## Why is this bad?
The next turn, or the next tool output, tips the request over the window, and the session then
cannot be resumed, nor compacted by the agent itself (its compaction sends the same history).
Claude Code and Codex compact on their own when they reach a share of the window, but only while
the session is live; a resumed session that is already too big fails before they get the chance.
An estimate may be low by the estimator's error (bytes/4 under-counts code-heavy text by a quarter
to a third), so a session is never called fitting on an estimate whose upper bound does not fit.

## Example
A Codex session on \`gpt-5-codex\` (272,000 input tokens) estimated at 240,000 tokens: 88% of the window.

## Fix
None in repair. \`transcript-doctor slim <session>\` brings the request down to a safe margin under the window.`,
  },
  check({ analysis, report }) {
    const { request, judge } = measured(analysis);
    const window = judge.window;
    if (window === undefined || request.tokens.tokens > window.tokens) return;
    const share = analysis.transcript.nearWindow ?? NEAR_WINDOW;
    const { tokens, high } = request.tokens;
    const overByError = high > window.tokens;
    if (!overByError && tokens <= share * window.tokens) return;
    const entry = lastSent(analysis);
    if (entry === undefined) return;
    const percent = Math.round((100 * tokens) / window.tokens);
    report({
      entry,
      message: overByError
        ? `The request a resume sends holds about ${figure(tokens)} input tokens (${percent}% of the window), but up to ${figure(high)} by the estimate's error: it may be over the ${windowWords(judge)}.`
        : `The request a resume sends holds about ${figure(tokens)} input tokens (up to ${figure(high)}), ${percent}% of the ${windowWords(judge)}.`,
    });
  },
};
