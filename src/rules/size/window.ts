import type { SizeJudge } from '../../providers/size/judge.js';
import { figure, routeName } from './measured.js';

/** How a finding names the window it measured against: its size and the model (the figure's source is in the report's size summary and the docs). */
export function windowWords(judge: SizeJudge): string {
  const window = judge.window!;
  const by = judge.gateway ?? judge.provider;
  const whose = window.family === 'default' ? `the default of ${by === undefined ? 'the provider' : routeName(by)} (${judge.model === undefined ? 'the session names no model' : `${judge.model} is not in the table`})` : `${judge.model} (${window.family})`;
  return `${figure(window.tokens)}-token context window of ${whose}`;
}
