import type { Finding } from '../../pipeline/finding.js';
import { escapeHtml as h } from './escape.js';
import { fixAdvice } from './fix.js';

/** One finding as a card: rule, severity, message, the provider's error and the command that fixes it. */
export function findingHtml(finding: Finding, path: string, id: string): string {
  const fix = fixAdvice(finding.rule, path);
  const where = `line ${finding.line}${finding.pointer ? ` · ${finding.pointer}` : ''}`;
  return (
    `<div class="finding sev-${h(finding.severity)}" id="${h(id)}" data-rule="${h(finding.rule)}" data-severity="${h(finding.severity)}" data-line="${h(String(finding.line))}">` +
    `<div class="finding-head"><span class="sev">${h(finding.severity)}</span><span class="rule">${h(finding.rule)}</span><span class="where">${h(where)}</span></div>` +
    `<p class="message">${h(finding.message)}</p>` +
    (finding.providerError === undefined ? '' : `<div class="dim">A strict provider answers:</div><pre class="provider-error">${h(finding.providerError)}</pre>`) +
    `<div class="fix">${h(fix.safety)}${fix.commands.map((command) => `<code>${h(command)}</code>`).join('')}` +
    (fix.docs === undefined ? '' : `<span>about the rule: </span><code class="docs">${h(fix.docs)}</code>`) +
    `</div></div>`
  );
}
