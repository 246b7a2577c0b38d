/**
 * An independent check of a provider's contract on a repaired session, written from the
 * reference (provider-rules.md) without any of our model or rules: it reads the JSONL itself,
 * follows what the agent replays, and lists what the provider would refuse.
 */

type Json = Record<string, any>;
export type Provider = 'anthropic' | 'bedrock' | 'vertex' | 'openai-chat' | 'openai-responses' | 'gemini' | 'mistral';

interface Call { id: string; name: string; line: number }
interface Result { id: string; name?: string; line: number }
interface Message { role: 'user' | 'assistant' | 'tool'; line: number; texts: string[]; calls: Call[]; results: Result[]; signer?: string }

/** Each provider's id rule, from the reference's tables: the id as the provider is sent it. */
const ID_OK: Record<Provider, (id: string) => boolean> = {
  anthropic: (id) => /^[a-zA-Z0-9_-]{1,64}$/.test(id),
  vertex: (id) => /^[a-zA-Z0-9_-]{1,64}$/.test(id),
  bedrock: (id) => /^[a-zA-Z0-9_-]{1,64}$/.test(id),
  'openai-chat': (id) => id.length >= 1 && id.length <= 40,
  // pi keeps the Responses item id after a bar; the API is sent the part before it as call_id.
  'openai-responses': (id) => id.split('|')[0]!.length <= 64,
  gemini: () => true,
  mistral: (id) => /^[a-zA-Z0-9]{9}$/.test(id),
};
const BLANK_TEXT_REFUSED: Provider[] = ['anthropic', 'vertex', 'bedrock', 'gemini'];
const PREFILL_CHECKED: Provider[] = ['anthropic', 'vertex', 'bedrock'];
const CHECKS_SIGNATURES: Provider[] = ['anthropic', 'vertex', 'bedrock', 'gemini', 'openai-responses'];

export function contractProblems(jsonl: string, provider: Provider): string[] {
  const messages = replayed(jsonl);
  const problems: string[] = [];
  const seen = new Set<string>();
  const calls = new Map<string, Call>();
  messages.forEach((message, n) => {
    for (const call of message.calls) {
      if (seen.has(call.id)) problems.push(`line ${call.line}: call id ${call.id} used twice`);
      seen.add(call.id);
      calls.set(call.id, call);
      if (!ID_OK[provider](call.id)) problems.push(`line ${call.line}: call id ${call.id} refused`);
      const answered = messages.slice(n + 1).some((later) => later.results.some((result) => result.id === call.id));
      if (!answered) problems.push(`line ${call.line}: call ${call.id} unanswered`);
    }
    for (const result of message.results) {
      const call = calls.get(result.id);
      if (call === undefined) problems.push(`line ${result.line}: result for unknown call ${result.id}`);
      else if (provider === 'gemini' && result.name !== undefined && result.name !== call.name) problems.push(`line ${result.line}: result names ${result.name}, call is ${call.name}`);
    }
    const before = messages[n - 1];
    if (provider === 'mistral' && message.role === 'user' && before?.role === 'tool') problems.push(`line ${message.line}: user right after a tool message`);
    if (provider === 'gemini' && message.calls.length > 0 && before?.role !== 'user' && before?.role !== 'tool') problems.push(`line ${message.line}: call turn after ${before?.role ?? 'nothing'}`);
    // brc-first-user: Bedrock Converse takes no assistant message first, calls or not.
    if (provider === 'bedrock' && n === 0 && message.role === 'assistant') problems.push(`line ${message.line}: history opens with the assistant`);
    if (BLANK_TEXT_REFUSED.includes(provider) && message.texts.some((text) => text.trim() === '')) problems.push(`line ${message.line}: blank text block`);
    if (CHECKS_SIGNATURES.includes(provider) && message.signer !== undefined && message.signer !== provider) problems.push(`line ${message.line}: reasoning signed by ${message.signer}`);
  });
  const last = messages.at(-1);
  if (PREFILL_CHECKED.includes(provider) && last?.role === 'assistant' && /\s$/.test(last.texts.at(-1) ?? '')) problems.push(`line ${last.line}: final assistant text ends in whitespace`);
  return problems;
}

/** The user's own words in a session, in order: a repair must leave them byte for byte. */
export function userTexts(jsonl: string): string[] {
  return lines(jsonl).flatMap((line) => {
    const message = line.message ?? (line.type === 'response_item' ? line.payload : undefined);
    if (message?.role !== 'user') return [];
    if (typeof message.content === 'string') return [message.content];
    return (message.content ?? []).filter((block: Json) => typeof block.text === 'string').map((block: Json) => block.text as string);
  });
}

function lines(jsonl: string): Json[] {
  return jsonl.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
}

/** The messages the agent sends, by format: pi follows parent links from the last entry (from a compaction's first kept entry on), the others are read in order. */
function replayed(jsonl: string): Message[] {
  const all = lines(jsonl);
  if (all[0]?.type === 'session') return piPath(all);
  if (all.some((line) => line.type === 'response_item')) return merged(codexHistory(all), () => true);
  const ids = all.map((line) => line.message?.id);
  return merged(all.flatMap((line, i) => claudeMessage(line, i + 1)), (a, b) => ids[a.line - 1] !== undefined && ids[a.line - 1] === ids[b.line - 1]);
}

/** Consecutive assistant items of one response are one message (Claude Code writes a block per line, Codex an item per line). */
function merged(messages: Message[], sameResponse: (a: Message, b: Message) => boolean): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (last !== undefined && last.role === 'assistant' && message.role === 'assistant' && sameResponse(last, message)) {
      last.texts.push(...message.texts);
      last.calls.push(...message.calls);
      last.signer ??= message.signer;
    } else out.push({ ...message, texts: [...message.texts], calls: [...message.calls] });
  }
  return out;
}

function piPath(all: Json[]): Message[] {
  const byId = new Map(all.flatMap((line, at) => (typeof line.id === 'string' && line.type !== 'session' ? [[line.id as string, { line, at }] as const] : [])));
  const chain: Array<{ line: Json; at: number }> = [];
  for (let node = byId.get(all.at(-1)!.id); node !== undefined; node = byId.get(node.line.parentId)) chain.unshift(node);
  const compaction = chain.map((node) => node.line.type).lastIndexOf('compaction');
  const kept = compaction === -1 ? chain : chain.slice(Math.max(0, chain.findIndex((node) => node.line.id === chain[compaction]!.line.firstKeptEntryId)));
  return kept.flatMap(({ line, at }) => (line.type === 'message' ? piMessage(line.message, at + 1) : []));
}

const PI_SIGNERS: Record<string, Provider> = { 'anthropic-messages/anthropic': 'anthropic', 'openai-responses/openai': 'openai-responses', 'google-generative-ai/google': 'gemini', 'bedrock-converse-stream/amazon-bedrock': 'bedrock' };

function piMessage(message: Json, line: number): Message[] {
  if (message.role === 'toolResult') return [{ role: 'tool', line, texts: [], calls: [], results: [{ id: message.toolCallId, name: message.toolName, line }] }];
  if (message.role === 'user') return [{ role: 'user', line, texts: textsOf(message.content), calls: [], results: [] }];
  if (message.role !== 'assistant' || message.stopReason === 'error' || message.stopReason === 'aborted') return [];
  const content: Json[] = message.content ?? [];
  const signed = content.some((block) => block.type === 'thinking' && typeof block.thinkingSignature === 'string' && block.thinkingSignature !== '');
  return [{
    role: 'assistant',
    line,
    texts: textsOf(content),
    calls: content.filter((block) => block.type === 'toolCall').map((block) => ({ id: block.id, name: block.name, line })),
    results: [],
    signer: signed ? PI_SIGNERS[`${message.api}/${message.provider}`] ?? 'unknown' : undefined,
  }];
}

function claudeMessage(line: Json, n: number): Message[] {
  if (line.type !== 'user' && line.type !== 'assistant') return [];
  const content: Json[] = typeof line.message?.content === 'string' ? [{ type: 'text', text: line.message.content }] : line.message?.content ?? [];
  const signed = content.some((block) => (block.type === 'thinking' && block.signature) || block.type === 'redacted_thinking');
  const results = content.filter((block) => block.type === 'tool_result');
  return [{
    role: line.type === 'assistant' ? 'assistant' : results.length > 0 ? 'tool' : 'user',
    line: n,
    texts: textsOf(content),
    calls: content.filter((block) => block.type === 'tool_use').map((block) => ({ id: block.id, name: block.name, line: n })),
    results: content.filter((block) => block.type === 'tool_result').map((block) => ({ id: block.tool_use_id, line: n })),
    signer: signed ? 'anthropic' : undefined,
  }];
}

/** A `compacted` line replaces everything before it with its replacement history (older rollouts: its summary, as a user message). */
function codexHistory(all: Json[]): Message[] {
  const last = all.map((line) => line.type).lastIndexOf('compacted');
  const after = all.flatMap((line, i) => (i > last ? codexItem(line.type === 'response_item' ? line.payload : undefined, i + 1) : []));
  if (last === -1) return after;
  const replacement: unknown = all[last]!.payload?.replacement_history;
  const kept = Array.isArray(replacement) ? replacement.flatMap((item) => codexItem(item as Json, last + 1)) : [{ role: 'user' as const, line: last + 1, texts: [], calls: [], results: [] }];
  return [...kept, ...after];
}

function codexItem(item: Json | undefined, n: number): Message[] {
  if (item === undefined) return [];
  const type = String(item.type);
  if (type.endsWith('_call') && typeof item.call_id === 'string') return [{ role: 'assistant', line: n, texts: [], calls: [{ id: item.call_id, name: item.name, line: n }], results: [] }];
  if (type.endsWith('_call_output') || type === 'tool_search_output') return [{ role: 'tool', line: n, texts: [], calls: [], results: [{ id: item.call_id, line: n }] }];
  if (item.type === 'reasoning' && item.encrypted_content) return [{ role: 'assistant', line: n, texts: [], calls: [], results: [], signer: 'openai-responses' }];
  if (item.type === 'message' && item.role === 'assistant') return [{ role: 'assistant', line: n, texts: [], calls: [], results: [] }];
  if (item.type === 'message' && item.role === 'user') return [{ role: 'user', line: n, texts: [], calls: [], results: [] }];
  return [];
}

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  return Array.isArray(content) ? content.filter((block: Json) => block?.type === 'text').map((block: Json) => String(block.text ?? '')) : [];
}
