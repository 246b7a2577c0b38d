import { formats } from '../formats/registry.js';
import type { Rule, RuleMeta } from '../rules/rule.js';
import { entriesForRule } from './catalogue.js';

/**
 * A rule's documentation as `transcript-doctor rules <id>` prints it and docs/rules/<id>.md
 * holds it: the rule's own text, then the provider errors it explains, from the catalogue
 * `explain` reads, so the two never disagree.
 */
export function ruleDocument(rule: Rule): string {
  const { meta } = rule;
  return `# ${meta.id}\n\n${meta.description}\nCategory: ${meta.category} · severity: ${meta.severity} · fix: ${meta.fix} · providers: ${providerList(meta.providers)}\n\n${meta.docs}\n\n${healedTexts(meta.id)}${providerTexts(meta.id)}`;
}

/** The "Healed on resume" section: the clients that mend the rule's findings themselves (see TranscriptFormat.heals); empty when none does. */
export function healedTexts(ruleId: string): string {
  const lines = formats.flatMap((format) => {
    const healing = format.heals?.[ruleId];
    return healing === undefined ? [] : [`- ${healing.client} ${healing.since} and later (${format.name} files): ${healing.how}.`];
  });
  if (lines.length === 0) return '';
  return `## Healed on resume\n\n${lines.join('\n')}\n\nSuch a finding keeps its grade, and says so (\`healedBy\` in json, sarif and ndjson): the file as written is what the provider rejects, and every other reader of the file, or another version of the client, still meets the damage.\n\n`;
}

/** The providers a rule applies to with their evidence grades (`anthropic:C`), or `all`. */
export function providerList(providers: RuleMeta['providers']): string {
  if (providers === undefined) return 'all';
  return Object.entries(providers).map(([id, grade]) => `${id}:${grade}`).join(',');
}

/** The "Provider errors it explains" section: each provider's wording, with placeholders. */
export function providerTexts(ruleId: string): string {
  const entries = entriesForRule(ruleId);
  const heading = '## Provider errors it explains\n';
  if (entries.length === 0) return `${heading}\nNone: explain knows no provider error that this rule's findings cause.\n`;
  const lines = entries.map((entry) => `- ${entry.provider}: \`\` ${entry.text}${entry.tail ?? ''} \`\``);
  return `${heading}\n\`transcript-doctor explain "<error>"\` finds the session behind any of these ({N} message, {M} block, {id} tool call id):\n\n${lines.join('\n')}\n`;
}
