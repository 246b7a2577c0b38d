import type { SizeJudge } from '../../providers/size/judge.js';
import { sizeText, type SizeAt } from '../../providers/size/size-texts.js';
import type { Route } from '../../providers/size/sourced.js';
import { figure, routeName } from './measured.js';

/** Whose words a request over the window is refused in: the gateway's where it has its own (Copilot), else the provider's. */
export function windowOwner(judge: SizeJudge, at: SizeAt): Route | undefined {
  return judge.gateway !== undefined && sizeText(judge.gateway, 'context', at) !== undefined ? judge.gateway : judge.provider;
}

/** How a finding names the window it measured against: its size and the model (the figure's source is in the report's size summary and the docs). */
export function windowWords(judge: SizeJudge): string {
  const window = judge.window!;
  const by = judge.gateway ?? judge.provider;
  const whose = window.family === 'recorded' ? `${judge.model ?? 'its model'}, as the session records it` : window.family === 'default' ? `the default of ${by === undefined ? 'the provider' : routeName(by)} (${judge.model === undefined ? 'the session names no model' : `${judge.model} is not in the table`})` : `${judge.model} (${window.family})`;
  return `${figure(window.tokens)}-token context window of ${whose}`;
}
