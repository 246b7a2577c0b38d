import { analyze } from '../model/analysis.js';
import { resultAt } from '../model/pairing.js';
import { semanticsOf, type Transcript } from '../model/transcript.js';
import type { RepairPlan } from './plan.js';
import { PlanBuilder } from './plan-builder.js';

/**
 * Plans `canonicalize`: every tool call and result in a legacy or foreign shape is rewritten to
 * the format's canonical one, and a result's tool name is filled from its paired call or
 * trimmed. Nothing is dropped or moved; ambiguous shapes are left for a person.
 */
export function planCanonical(transcript: Transcript): RepairPlan {
  const builder = new PlanBuilder();
  if (transcript.format === undefined) return builder.finish();
  const analysis = analyze(transcript);
  for (const entry of analysis.entries) {
    const fixable = [...(entry.toolCalls ?? []), ...(entry.toolResults ?? [])].some((part) => part.changes !== undefined && part.conflict === undefined);
    if (!fixable) continue;
    builder.edit(entry.line, { kind: 'canonicalize' });
    builder.count('rewrittenEntries');
  }
  if (!semanticsOf(transcript).resultNames) return builder.finish();
  const named = new Set<number>();
  for (const path of analysis.paths) {
    for (const occurrence of path.pairing.occurrences) {
      if (occurrence.result === undefined) continue;
      const result = path.context.at(occurrence.result.at);
      const name = resultAt(path.context, occurrence.result).name;
      const fill = name === undefined || name.trim() === '' ? occurrence.call.name?.trim() : name.trim();
      if (!fill || fill === name || named.has(result.line)) continue;
      named.add(result.line);
      builder.edit(result.line, { kind: 'set-tool-name', name: fill });
      if (!builder.plan.edits.get(result.line)!.some((edit) => edit.kind === 'canonicalize')) builder.count('rewrittenEntries');
    }
  }
  for (const entry of analysis.entries) {
    const name = entry.toolResults?.[0]?.name;
    if (name === undefined || name.trim() === '' || name.trim() === name || named.has(entry.line)) continue;
    builder.edit(entry.line, { kind: 'set-tool-name', name: name.trim() });
    if (!builder.plan.edits.get(entry.line)!.some((edit) => edit.kind === 'canonicalize')) builder.count('rewrittenEntries');
  }
  return builder.finish();
}
