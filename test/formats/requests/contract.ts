/**
 * An independent judge of one request line, written from the providers' documented pairing
 * contracts rather than from the model the CLI uses: every call answered once, in the place the
 * provider wants, and no result without its call.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function request(line: Json): Json {
  if (isObject(line.body)) return line.body;
  if (isObject(line.request)) return line.request;
  return line;
}

export function pairingProblems(line: unknown): string[] {
  if (!isObject(line)) return ['not an object'];
  const r = request(line);
  if (Array.isArray(r.contents)) return gemini(r.contents);
  if (Array.isArray(r.input)) return responses(r.input);
  if ('system' in r || JSON.stringify(r.messages).includes('"tool_use"')) return anthropic(list(r.messages));
  return chat(list(r.messages));
}

function chat(messages: unknown[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Json;
    if (m.role === 'tool') problems.push(`orphan tool message ${i}`);
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls)) continue;
    if (m.tool_calls.length === 0) problems.push(`empty tool_calls ${i}`);
    const open = new Set(m.tool_calls.map((call) => (call as Json).id));
    let j = i + 1;
    for (; j < messages.length && (messages[j] as Json).role === 'tool'; j++) {
      if (!open.delete((messages[j] as Json).tool_call_id)) problems.push(`tool message ${j} answers no open call`);
    }
    if (open.size > 0) problems.push(`unanswered ${[...open].join(',')}`);
    i = j - 1;
  }
  return problems;
}

function anthropic(messages: unknown[]): string[] {
  const problems: string[] = [];
  messages.forEach((item, i) => {
    const m = item as Json;
    const blocks = list(m.content) as Json[];
    for (const block of blocks) if (block.type === 'text' && String(block.text ?? '').trim() === '') problems.push(`blank text ${i}`);
    const calls = m.role === 'assistant' ? blocks.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    const previous = messages[i - 1] as Json | undefined;
    const asked = previous?.role === 'assistant' ? (list(previous.content) as Json[]).filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    if (m.role === 'user') {
      const lead = blocks.findIndex((b) => b.type !== 'tool_result');
      const results = blocks.filter((b) => b.type === 'tool_result');
      if (lead !== -1 && blocks.slice(lead).some((b) => b.type === 'tool_result')) problems.push(`result after text ${i}`);
      for (const result of results) if (!asked.includes(result.tool_use_id)) problems.push(`orphan ${String(result.tool_use_id)}`);
    }
    if (calls.length > 0) {
      const next = messages[i + 1] as Json | undefined;
      const answered = next?.role === 'user' ? (list(next.content) as Json[]).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [];
      for (const id of calls) if (answered.filter((a) => a === id).length !== 1) problems.push(`unanswered ${String(id)}`);
    }
  });
  return problems;
}

function responses(items: unknown[]): string[] {
  const problems: string[] = [];
  const called = new Map<unknown, number>();
  items.forEach((item, i) => {
    const it = item as Json;
    if (it.type === 'function_call' || it.type === 'custom_tool_call') called.set(it.call_id, 0);
    if (it.type === 'function_call_output' || it.type === 'custom_tool_call_output') {
      if (!called.has(it.call_id)) problems.push(`orphan or early output ${i}`);
      else called.set(it.call_id, called.get(it.call_id)! + 1);
    }
  });
  for (const [id, n] of called) if (n !== 1) problems.push(`call ${String(id)} answered ${n} times`);
  return problems;
}

function gemini(contents: unknown[]): string[] {
  const problems: string[] = [];
  contents.forEach((item, i) => {
    const c = item as Json;
    const parts = list(c.parts) as Json[];
    for (const part of parts) if (Object.keys(part).length === 1 && typeof part.text === 'string' && part.text.trim() === '') problems.push(`blank text ${i}`);
    const responses = parts.filter((p) => isObject(p.functionResponse)).map((p) => (p.functionResponse as Json).name);
    const previous = contents[i - 1] as Json | undefined;
    const calls = previous?.role === 'model' ? (list(previous.parts) as Json[]).filter((p) => isObject(p.functionCall)).map((p) => (p.functionCall as Json).name) : [];
    if (responses.length > 0 && responses.length !== calls.length) problems.push(`response turn ${i} has ${responses.length} responses for ${calls.length} calls`);
    if (responses.length > 0 && [...responses].sort().join() !== [...calls].sort().join()) problems.push(`response names ${i} differ from the calls`);
    if (c.role === 'model' && parts.some((p) => isObject(p.functionCall))) {
      const next = contents[i + 1] as Json | undefined;
      if (next === undefined || !(list(next.parts) as Json[]).some((p) => isObject(p.functionResponse))) problems.push(`call turn ${i} unanswered`);
    }
  });
  return problems;
}

/** What the user wrote in a line, in order: user message text, whatever the shape. */
export function userTexts(line: unknown): string[] {
  if (!isObject(line)) return [];
  const r = request(line);
  const items = list(r.messages ?? r.input ?? r.contents) as Json[];
  const texts: string[] = [];
  for (const item of items) {
    if (item.role !== 'user') continue;
    const content = item.content ?? item.parts;
    if (typeof content === 'string') texts.push(content);
    for (const part of list(content) as Json[]) if (typeof part.text === 'string' && part.text.trim() !== '' && !('type' in part && part.type !== 'text' && part.type !== 'input_text')) texts.push(part.text);
  }
  return texts.filter((text) => text.trim() !== '');
}
