// What a Claude Code or Codex session holds and what the request its client sends on resume holds,
// reduced to the same ordered items (user text, assistant text, tool call, tool result), and the
// comparison that names each in-memory patch the client made: shared by scripts/client-resume.mjs
// (repair judged by the clients) and scripts/slim-resume.mjs (slim judged by the clients).
/** Every line that parses as a JSON object, with its 1-based line number. */
export function records(text) {
  const out = [];
  text.split('\n').forEach((line, index) => {
    try {
      const value = JSON.parse(line);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) out.push({ line: index + 1, value });
    } catch {
      // unreadable lines are the repair's business; the client skips them too
    }
  });
  return out;
}

export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
export const UUID_ALL = new RegExp(UUID.source, 'gi');

// ---------------------------------------------------------------------------------------------
// What the file holds, as ordered items: user text (U), assistant text (A), tool call (C:id),
// tool result (R:id). Both sides are reduced to the same items so they can be compared.

export const SYNTHETIC_MARKERS = [
  '[Tool call interrupted',
  '[Tool call result not in this copy',
  '[Request interrupted: the session ended',
  '[Tool call did not complete',
  // Claude Code 2.1.328's answer to a call left unanswered before a later prompt (tried).
  '[Tool result missing due to internal error]',
];
export const NO_RESPONSE = 'No response requested.';

export function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : '')).join('');
}

/** Items of one Anthropic-shaped message (a file entry's or a request's). */
export function claudeItems(role, content, line) {
  const items = [];
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  for (const block of blocks) {
    if (block?.type === 'text' && typeof block.text === 'string') items.push({ kind: role === 'assistant' ? 'A' : 'U', key: block.text.trim(), text: block.text, line });
    else if (block?.type === 'tool_use' || block?.type === 'server_tool_use') items.push({ kind: 'C', key: block.id, line });
    else if (block?.type === 'tool_result') items.push({ kind: 'R', key: block.tool_use_id, text: textOf(block.content), line });
  }
  return items;
}

/** A message line Claude Code loads: one whose content parts are all blocks (it skips a line holding a bare string). */
function loadedMessage(value) {
  return (value.type === 'user' || value.type === 'assistant') && value.isSidechain !== true && value.message && !skipped(value);
}

function skipped(value) {
  const content = value.message?.content;
  return Array.isArray(content) && content.some((part) => part === null || typeof part !== 'object' || Array.isArray(part));
}

/**
 * Where Claude Code 2.1.328 resumes (without a last-prompt record): from the last message; when
 * another message carries a newer timestamp, from the newest message whose chain passes through
 * that last one (tried: a last line stamped earlier than a line hanging on its uuid resumed from
 * that line, a last line stamped earlier than a sibling branch still won).
 */
function claudeLeaf(messages, recs, byUuid) {
  const last = messages.at(-1);
  if (last === undefined || recs.some(({ value }) => value.type === 'last-prompt')) return last;
  // The first message of the newest time: with equal times the last message does not win.
  let newest;
  for (const r of messages) if (typeof r.value.timestamp === 'string' && r.value.timestamp > (newest?.value.timestamp ?? '')) newest = r;
  if (newest === undefined || newest === last) return last;
  const reaches = (r) => {
    const seen = new Set();
    for (let at = r; at !== undefined && !seen.has(at.value.uuid); at = byUuid.get(at.value.parentUuid)?.at(-1)) {
      if (at.value.uuid === last.value.uuid) return true;
      seen.add(at.value.uuid);
    }
    return false;
  };
  let leaf = last;
  for (const r of messages) if (r !== last && typeof r.value.timestamp === 'string' && r.value.timestamp >= (leaf === last ? '' : leaf.value.timestamp) && reaches(r)) leaf = r;
  return leaf;
}

/** The parentUuid chain that ends where the client resumes, oldest first. */
export function claudeFileItems(recs) {
  const messages = recs.filter(({ value }) => loadedMessage(value));
  // A uuid is its last record, wherever it stands (the client's map: a later copy replaces the
  // earlier line, and a parent appended after its child by a concurrent writer is found).
  const byUuid = new Map();
  for (const r of recs) if (typeof r.value.uuid === 'string' && !skipped(r.value)) byUuid.set(r.value.uuid, [...(byUuid.get(r.value.uuid) ?? []), r]);
  const leaf = claudeLeaf(messages, recs, byUuid);
  if (leaf === undefined) return { items: [], offChain: [] };
  const chain = [];
  let current = leaf;
  const seen = new Set();
  while (current !== undefined && !seen.has(current.line)) {
    seen.add(current.line);
    chain.push(current);
    const parent = current.value.parentUuid;
    if (typeof parent !== 'string') break;
    current = byUuid.get(parent)?.at(-1);
  }
  chain.reverse();
  // Parallel tool calls fan out: Claude Code writes one record per content block, siblings under
  // one parent, and replays every part of an assistant message (same message.id) as one message at
  // the place of its first part, then every result that answers a call of it. Each record gets the
  // chain position it is replayed at.
  const position = new Map(chain.map((r, index) => [r.line, index]));
  const firstPart = new Map();
  for (const r of chain) if (r.value.type === 'assistant' && r.value.message.id && !firstPart.has(r.value.message.id)) firstPart.set(r.value.message.id, position.get(r.line));
  for (const r of messages) if (r.value.type === 'assistant' && firstPart.has(r.value.message.id)) position.set(r.line, firstPart.get(r.value.message.id));
  const placed = messages.filter((r) => position.has(r.line));
  const calls = new Set(placed.flatMap((r) => claudeItems('assistant', r.value.message.content, r.line)).filter((i) => i.kind === 'C').map((i) => i.key));
  const parentPosition = new Map(placed.map((r) => [r.value.uuid, position.get(r.line)]));
  for (const r of messages) {
    const blocks = Array.isArray(r.value.message.content) ? r.value.message.content : [];
    if (!position.has(r.line) && r.value.type === 'user' && parentPosition.has(r.value.parentUuid) && blocks.length > 0 && blocks.every((b) => b?.type === 'tool_result' && calls.has(b.tool_use_id))) position.set(r.line, parentPosition.get(r.value.parentUuid) + 0.5);
  }
  // Meta records and the client's own API-error records are never sent.
  const replayed = messages.filter((r) => position.has(r.line) && r.value.isMeta !== true && r.value.isApiErrorMessage !== true).sort((a, b) => position.get(a.line) - position.get(b.line) || a.line - b.line);
  const items = replayed.flatMap(({ line, value }) => claudeItems(value.message.role ?? value.type, value.message.content, line));
  const offChain = messages.filter((r) => !position.has(r.line)).flatMap(({ line, value }) => claudeItems(value.message.role ?? value.type, value.message.content, line));
  return { items, offChain };
}

export function claudeRequestItems(body) {
  const items = [];
  for (const message of body.messages ?? []) items.push(...claudeItems(message.role, message.content, undefined));
  return items;
}

/** Items of one Responses input item (a rollout response_item's payload or a request's). */
export function codexItem(item, line) {
  switch (item?.type) {
    case 'message': {
      const text = textOf(item.content);
      return [{ kind: item.role === 'assistant' ? 'A' : item.role === 'user' ? 'U' : 'D', key: text.trim(), text, line }];
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
      return [{ kind: 'C', key: item.call_id ?? item.id, line }];
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = typeof item.output === 'string' ? item.output : typeof item.output?.content === 'string' ? item.output.content : JSON.stringify(item.output);
      return [{ kind: 'R', key: item.call_id, text: output, line }];
    }
    default:
      // Codex skips an item it cannot read; a message without a type still counts as the file's.
      if (typeof item?.type !== 'string' && item?.content !== undefined) return [{ kind: item.role === 'assistant' ? 'A' : 'U', key: textOf(item.content).trim(), text: textOf(item.content), line }];
      return [];
  }
}

export function codexFileItems(recs) {
  let items = [];
  for (const { line, value } of recs) {
    const payload = value.payload;
    if (value.type === 'compacted' && Array.isArray(payload?.replacement_history)) items = payload.replacement_history.flatMap((item) => codexItem(item, line));
    else if (value.type === 'compacted') {
      // An older compaction keeps only the user messages (cut to a token budget) and the summary.
      items = items.filter((i) => i.kind === 'U').map((i) => ({ ...i, loose: true }));
      if (typeof payload?.message === 'string') items.push({ kind: 'U', key: payload.message.trim(), text: payload.message, line });
    }
    else if (value.type === 'response_item') items.push(...codexItem(payload, line));
  }
  return { items, offChain: [] };
}

export function codexRequestItems(body) {
  return (body.input ?? []).flatMap((item) => codexItem(item, undefined));
}

// ---------------------------------------------------------------------------------------------
// The comparison. Items the client adds around the history (instructions, environment context,
// reminders, the new prompt) are not patches; anything of the file's that is missing, moved or
// answered with a placeholder is.

export function compare(fileItems, offChainItems, requestItems, fileText, log) {
  const patches = [];
  const add = (kind, detail) => patches.push({ kind, detail });
  const inFile = (needle) => fileText.includes(needle) || fileText.includes(JSON.stringify(needle).slice(1, -1));

  for (const item of requestItems) {
    const text = item.text ?? '';
    const marker = SYNTHETIC_MARKERS.find((m) => text.includes(m));
    if (marker !== undefined && !inFile(marker)) add('synthetic-result', `${item.kind === 'R' ? `result for ${item.key}` : 'text'}: ${text.slice(0, 60)}`);
    if (item.kind === 'R' && text.trim() === 'aborted' && !fileItems.some((f) => f.kind === 'R' && f.key === item.key)) add('synthetic-result', `"aborted" output for ${item.key}`);
    if (item.kind === 'A' && text.trim() === NO_RESPONSE && !inFile(NO_RESPONSE)) add('inserted-no-response', NO_RESPONSE);
  }

  for (const kind of ['C', 'R']) {
    const fileKeys = fileItems.filter((i) => i.kind === kind).map((i) => i.key);
    const requestKeys = requestItems.filter((i) => i.kind === kind).map((i) => i.key);
    const name = kind === 'C' ? 'tool-call' : 'tool-result';
    for (const item of fileItems.filter((i) => i.kind === kind && !requestKeys.includes(i.key))) add(`dropped-${name}`, `${item.key} (line ${item.line})`);
    const seen = new Set();
    for (const key of requestKeys) {
      if (seen.has(key)) add(`duplicated-${name}`, key);
      seen.add(key);
      if (!fileKeys.includes(key) && !inFile(key) && !(kind === 'R' && patches.some((p) => p.kind === 'synthetic-result' && p.detail.includes(key)))) add(`invented-${name}`, key);
    }
  }

  // Order of the calls and results both sides hold. Parallel calls of one message (and their
  // results) may come in any order, so each run of calls or of results is compared as a set.
  const order = (items, other) => {
    const keys = items.filter((i) => (i.kind === 'C' || i.kind === 'R') && other.some((o) => o.kind === i.kind && o.key === i.key)).map((i) => `${i.kind}:${i.key}`);
    const runs = [];
    for (const key of [...new Set(keys)]) {
      if (runs.length > 0 && runs.at(-1)[0][0] === key[0]) runs.at(-1).push(key);
      else runs.push([key]);
    }
    return runs.map((run) => run.sort().join(' '));
  };
  const fileOrder = order(fileItems, requestItems);
  const requestOrder = order(requestItems, fileItems);
  const at = fileOrder.findIndex((run, index) => requestOrder[index] !== run);
  if (at !== -1) add('moved', `file has ${fileOrder[at].slice(0, 60)} where the request has ${(requestOrder[at] ?? 'nothing').slice(0, 60)}`);

  // Records of the file that its history does not reach (another branch, across a missing parent).
  for (const item of requestItems) {
    if (item.kind === 'U' || item.key === '' || fileItems.some((f) => f.kind === item.kind && f.key === item.key)) continue;
    const elsewhere = offChainItems.find((f) => f.kind === item.kind && f.key === item.key);
    if (elsewhere !== undefined) add('replayed-off-chain', `${item.kind === 'C' ? 'call' : item.kind === 'R' ? 'result' : 'text'} ${item.key.slice(0, 40)} (line ${elsewhere.line})`);
  }

  // Messages: every text of the file must reach the request (empty ones too: a client that drops
  // them changed the history).
  const requestTexts = requestItems.filter((i) => i.kind === 'U' || i.kind === 'A' || i.kind === 'D');
  for (const item of fileItems.filter((i) => (i.kind === 'U' || i.kind === 'A' || i.kind === 'D') && !i.loose)) {
    const found = requestTexts.some((r) => r.key === item.key || (item.key !== '' && r.key.includes(item.key)));
    if (found) continue;
    if (item.key === '') add('dropped-empty-text', `${item.kind === 'A' ? 'assistant' : 'user'} text (line ${item.line})`);
    else add('dropped-message', `${item.kind === 'A' ? 'assistant' : item.kind === 'U' ? 'user' : 'developer'} "${item.key.slice(0, 50)}" (line ${item.line})`);
  }

  // Where the history stops: the file's last item the request still holds.
  const last = fileItems.at(-1);
  if (last !== undefined && patches.some((p) => p.detail.endsWith(`(line ${last.line})`))) {
    const kept = [...fileItems].reverse().find((i) => !patches.some((p) => p.detail.endsWith(`(line ${i.line})`)));
    add('earlier-leaf', `resumed from line ${kept?.line ?? 'none'} instead of line ${last.line}`);
  }

  for (const line of log.split('\n')) {
    const orphan = /Orphan function call output for call id: (\S+)/.exec(line);
    if (orphan) add('orphan-output-dropped', orphan[1]);
  }
  return patches;
}
