// The request a client sent, whatever its wire format (Anthropic Messages, OpenAI Responses, OpenAI
// Chat Completions, Gemini generateContent), reduced to one list of turns: each with its role, its
// texts, the calls it makes, the results it carries and the images in it. What slim-resume judges
// (prompts kept, calls paired, media kept, size) is read from these turns only.

/** Base64 of a PNG, JPEG, GIF or WebP, with or without a data: URL around it. */
const IMAGE = /^(?:data:image\/[\w.+-]+;base64,)?(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR)/;
const MIN_IMAGE = 256;

/** An image's identity across the file and the request: its base64 without a data: URL, cut to a key. */
export function imageKey(text) {
  const data = text.replace(/^data:[^,]*,/, '');
  return `${data.length}:${data.slice(0, 64)}:${data.slice(-64)}`;
}

/** Every image string anywhere in `value` (a parsed record or request body). */
export function imagesIn(value, out = []) {
  if (typeof value === 'string') {
    if (value.length >= MIN_IMAGE && IMAGE.test(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) imagesIn(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) imagesIn(item, out);
  }
  return out;
}

function textsOf(content) {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (typeof part === 'string' ? [part] : typeof part?.text === 'string' ? [part.text] : []));
}

const turn = (role) => ({ role, texts: [], calls: [], results: [] });

function anthropicTurns(body) {
  return (body.messages ?? []).map((message) => {
    const t = turn(message.role);
    for (const block of typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? [])) {
      if (block?.type === 'text') t.texts.push(block.text);
      else if (block?.type === 'tool_use') t.calls.push(block.id);
      else if (block?.type === 'tool_result') t.results.push({ id: block.tool_use_id, text: textsOf(block.content).join('') });
    }
    return t;
  });
}

function responsesTurns(body) {
  const turns = [];
  const open = (role) => (turns.at(-1)?.role === role ? turns.at(-1) : (turns.push(turn(role)), turns.at(-1)));
  for (const item of body.input ?? []) {
    if (item?.type === 'message' || (item?.type === undefined && item?.role !== undefined)) open(item.role === 'assistant' ? 'assistant' : item.role).texts.push(...textsOf(item.content));
    else if (item?.type === 'function_call' || item?.type === 'custom_tool_call' || item?.type === 'local_shell_call') open('assistant').calls.push(item.call_id ?? item.id);
    else if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') open('tool').results.push({ id: item.call_id, text: typeof item.output === 'string' ? item.output : textsOf(item.output).join('') });
  }
  return turns;
}

function chatTurns(body) {
  const turns = [];
  for (const message of body.messages ?? []) {
    if (message.role === 'tool') {
      const last = turns.at(-1)?.role === 'tool' ? turns.at(-1) : (turns.push(turn('tool')), turns.at(-1));
      last.results.push({ id: message.tool_call_id, text: textsOf(message.content).join('') });
      continue;
    }
    const t = turn(message.role);
    t.texts.push(...textsOf(message.content));
    for (const call of message.tool_calls ?? []) t.calls.push(call.id);
    turns.push(t);
  }
  return turns;
}

function geminiTurns(body) {
  return (body.contents ?? []).map((content) => {
    const t = turn(content.role === 'model' ? 'assistant' : content.role);
    for (const part of content.parts ?? []) {
      if (typeof part.text === 'string' && !part.thought) t.texts.push(part.text);
      if (part.functionCall) t.calls.push(part.functionCall.id ?? part.functionCall.name);
      if (part.functionResponse) t.results.push({ id: part.functionResponse.id ?? part.functionResponse.name, text: JSON.stringify(part.functionResponse.response ?? '') });
    }
    return t;
  });
}

export const WIRES = { anthropic: anthropicTurns, responses: responsesTurns, chat: chatTurns, gemini: geminiTurns };

/** The turns of a request body in `wire`'s format. */
export function turnsOf(wire, body) {
  return WIRES[wire](body ?? {});
}

/**
 * Calls not answered by the turn after theirs, results with no call in the turn before, and
 * ids used twice: what every provider refuses, and what a client's in-memory patch hides.
 */
export function pairing(turns) {
  const problems = [];
  const seen = new Set();
  turns.forEach((t, i) => {
    for (const id of t.calls) {
      if (seen.has(id)) problems.push(`call ${id} sent twice`);
      seen.add(id);
      // The results come in the turns up to the next assistant turn (one tool message each in Chat).
      const next = turns.findIndex((later, k) => k > i && later.role === 'assistant');
      const count = turns.slice(i + 1, next === -1 ? undefined : next).flatMap((later) => later.results).filter((r) => r.id === id).length;
      if (count !== 1) problems.push(`call ${id} answered ${count} times`);
    }
  });
  const calls = new Set(turns.flatMap((t) => t.calls));
  for (const t of turns) for (const r of t.results) if (!calls.has(r.id)) problems.push(`result ${r.id} with no call`);
  return problems;
}
