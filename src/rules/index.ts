import type { Rule } from './rule.js';
import { byteOrderMark } from './syntax/byte-order-mark.js';
import { invalidJson } from './syntax/invalid-json.js';
import { jsonDocument } from './syntax/json-document.js';
import { invalidUtf8 } from './syntax/invalid-utf8.js';
import { missingFinalNewline } from './syntax/missing-final-newline.js';
import { nulBytes } from './syntax/nul-bytes.js';
import { tornFinalLine } from './syntax/torn-final-line.js';
import { duplicateEntryId } from './structure/duplicate-entry-id.js';
import { duplicateHeader } from './structure/duplicate-header.js';
import { invalidHeader } from './structure/invalid-header.js';
import { missingParentId } from './structure/missing-parent-id.js';
import { parentCycle } from './structure/parent-cycle.js';
import { unknownParent } from './structure/unknown-parent.js';
import { displacedToolResult } from './pairing/displaced-tool-result.js';
import { duplicateToolCallId } from './pairing/duplicate-tool-call-id.js';
import { duplicateToolResult } from './pairing/duplicate-tool-result.js';
import { missingToolResult } from './pairing/missing-tool-result.js';
import { missingToolResultName } from './pairing/missing-tool-result-name.js';
import { orphanToolResult } from './pairing/orphan-tool-result.js';
import { orphanServerToolResult } from './pairing/orphan-server-tool-result.js';
import { partialToolCall } from './pairing/partial-tool-call.js';
import { invalidToolName } from './pairing/invalid-tool-name.js';
import { resultForFailedTurn } from './pairing/result-for-failed-turn.js';
import { toolResultOrder } from './pairing/tool-result-order.js';
import { toolResultNotFirst } from './pairing/tool-result-not-first.js';
import { missingSequenceNumber } from './structure/missing-sequence-number.js';
import { missingItemType } from './structure/missing-item-type.js';
import { rewindToUnknownMessage } from './structure/rewind-to-unknown-message.js';
import { placeholderTurn } from './content/placeholder-turn.js';
import { emptyFinalTurn } from './content/empty-final-turn.js';
import { unreadableContentPart } from './structure/unreadable-content-part.js';
import { unansweredFinalTurn } from './structure/unanswered-final-turn.js';
import { sequenceOutOfOrder } from './structure/sequence-out-of-order.js';
import { keptHistoryPairing } from './pairing/kept-history-pairing.js';
import { lostLogicalParent } from './structure/lost-logical-parent.js';
import { blankUserMessage } from './content/blank-user-message.js';
import { emptyErrorTurn } from './content/empty-error-turn.js';
import { emptyTextBlock } from './content/empty-text-block.js';
import { unknownFormat } from './format/unknown-format.js';
import { unknownRequestShape } from './format/unknown-request-shape.js';
import { schemaViolation } from './format/schema-violation.js';
import { ambiguousToolShape } from './shape/ambiguous-tool-shape.js';
import { nonCanonicalToolCall } from './shape/non-canonical-tool-call.js';
import { nonCanonicalToolResult } from './shape/non-canonical-tool-result.js';
import { toolCallIdFormat } from './contract/tool-call-id-format.js';
import { toolResultNameMismatch } from './contract/tool-result-name-mismatch.js';
import { userAfterToolResult } from './contract/user-after-tool-result.js';
import { callTurnOrder } from './contract/call-turn-order.js';
import { finalAssistantWhitespace } from './contract/final-assistant-whitespace.js';
import { foreignSignedReasoning } from './contract/foreign-signed-reasoning.js';
import { imageLimits } from './contract/image-limits.js';
import { firstMessageUser } from './contract/first-message-user.js';
import { sizeRules } from './size/index.js';

/** Every rule, in the order findings of one line are listed. */
export const rules: readonly Rule[] = [
  invalidJson,
  jsonDocument,
  tornFinalLine,
  nulBytes,
  invalidUtf8,
  missingFinalNewline,
  byteOrderMark,
  unknownFormat,
  unknownRequestShape,
  schemaViolation,
  invalidHeader,
  duplicateHeader,
  duplicateEntryId,
  unknownParent,
  parentCycle,
  missingParentId,
  lostLogicalParent,
  sequenceOutOfOrder,
  missingSequenceNumber,
  missingItemType,
  rewindToUnknownMessage,
  placeholderTurn,
  emptyFinalTurn,
  unreadableContentPart,
  missingToolResult,
  orphanToolResult,
  orphanServerToolResult,
  displacedToolResult,
  toolResultOrder,
  toolResultNotFirst,
  duplicateToolResult,
  duplicateToolCallId,
  keptHistoryPairing,
  resultForFailedTurn,
  partialToolCall,
  invalidToolName,
  missingToolResultName,
  emptyErrorTurn,
  blankUserMessage,
  emptyTextBlock,
  nonCanonicalToolCall,
  nonCanonicalToolResult,
  ambiguousToolShape,
  toolCallIdFormat,
  toolResultNameMismatch,
  userAfterToolResult,
  callTurnOrder,
  finalAssistantWhitespace,
  foreignSignedReasoning,
  imageLimits,
  firstMessageUser,
  unansweredFinalTurn,
  ...sizeRules,
];

/** The rules `canonicalize` answers for. */
export const shapeRules: readonly Rule[] = rules.filter((rule) => rule.meta.category === 'shape');

/** The ids of the rules that report what a repair mends (a fix other than none): where none of them finds anything, a repair plans nothing. */
export const mendedRuleIds: ReadonlySet<string> = new Set(rules.filter((rule) => rule.meta.fix !== 'none').map((rule) => rule.meta.id));

/** Whether none of `findings` is one a repair mends: with keepsMendedRules, the plan would then be empty, so judging stands for it. */
export function leavesNothingToMend(findings: readonly { rule: string }[]): boolean {
  return !findings.some((finding) => mendedRuleIds.has(finding.rule));
}

/** Whether `configured` still holds every rule of mendedRuleIds (a config may turn rules off): only then does judging stand in for planning. */
export function keepsMendedRules(configured: readonly Rule[]): boolean {
  // Asked again for every repaired line of a dataset: answered once a rule list.
  let keeps = keeping.get(configured);
  if (keeps === undefined) keeping.set(configured, (keeps = [...mendedRuleIds].every((id) => configured.some((rule) => rule.meta.id === id))));
  return keeps;
}
const keeping = new WeakMap<readonly Rule[], boolean>();

export function findRule(id: string): Rule | undefined {
  return rules.find((rule) => rule.meta.id === id);
}
