import { isDeepStrictEqual } from 'node:util';
import { UserError } from '../errors.js';
import { HOOK_EVENTS, type HookEvent, type SettingsAgent } from './agents.js';
import { hookShellCommand, ourEvent } from './command.js';
import { appendElement, indentUnit, lineEnding, removeElement, render, replaceValue } from './json-edit.js';
import { memberOf, parseJsonc, type JsonArray, type JsonNode, type JsonObject } from './jsonc.js';

/** What a file that does not exist yet is taken to hold. */
export const NEW_FILE = '{}\n';

/**
 * What install added besides the hooks, so that uninstall takes out exactly that: "file" (there
 * was none), a skeleton member's key, "hooks", "hooks.<event>". A user's own empty `"hooks": {}`
 * (Claude Code leaves one when its last hook is deleted) looks the same as one install made.
 */
export type Created = ReadonlySet<string>;

/**
 * The settings text with our two hooks in it: each appended to its event's list, the lists and
 * the "hooks" object created when missing, the user's entries untouched and in their order.
 * An entry of ours already there is kept where it is; only its command is updated if it differs.
 * The same text back means there is nothing to do.
 */
export function withHooks(text: string, agent: SettingsAgent, path: string): { text: string; created: Set<string> } {
  const created = new Set<string>();
  let next = text;
  for (const [key, value] of Object.entries(agent.skeleton)) {
    const root = rootOf(next, agent, path);
    if (memberOf(root, key) !== undefined) continue;
    next = appendElement(next, root, member(next, key, value));
    created.add(key);
  }
  for (const event of HOOK_EVENTS) next = withHook(next, agent, event, path, created);
  return { text: next, created };
}

/**
 * The settings text with every hook of ours taken out (wherever it is, however it names our
 * executable), and what install `created` that this leaves empty; undefined when install
 * created the file and nothing else is left in it, so the file goes. The same text back means
 * there was nothing of ours.
 */
export function withoutHooks(text: string, agent: SettingsAgent, path: string, created: Created): string | undefined {
  let next = text;
  for (let edit = nextRemoval(next, agent, path); edit !== undefined; edit = nextRemoval(next, agent, path)) next = edit;
  if (next === text) return text;
  for (let edit = nextEmptied(next, agent, path, created); edit !== undefined; edit = nextEmptied(next, agent, path, created)) next = edit;
  for (let edit = nextSkeleton(next, agent, path, created); edit !== undefined; edit = nextSkeleton(next, agent, path, created)) next = edit;
  return created.has('file') && next.trim() === NEW_FILE.trim() ? undefined : next;
}

/** The settings text without one skeleton member install added (Copilot's `"version": 1`): the file had none before. */
function nextSkeleton(text: string, agent: SettingsAgent, path: string, created: Created): string | undefined {
  const root = rootOf(text, agent, path);
  for (let i = root.members.length - 1; i >= 0; i--) {
    const member = root.members[i]!;
    if (created.has(member.key) && member.key in agent.skeleton && member === memberOf(root, member.key) && isDeepStrictEqual(valueOf(member.value), agent.skeleton[member.key])) return removeElement(text, root, i);
  }
  return undefined;
}

/**
 * The events whose hook of ours the agent would run, reading `text` as it does: with JSON.parse
 * itself for the agents that use it (a duplicate key: the last counts), else through the parser's
 * values, which keep the last duplicate the same way.
 */
export function hooksSeen(text: string, agent: SettingsAgent, path: string): Set<HookEvent> {
  const root = rootOf(text, agent, path);
  const value = (agent.syntax.comments ? valueOf(root) : JSON.parse(text)) as { hooks?: Record<string, unknown> };
  const seen = new Set<HookEvent>();
  for (const event of HOOK_EVENTS) {
    const list = value.hooks?.[agent.events[event]];
    if (!Array.isArray(list)) continue;
    const handlers: unknown[] = agent.grouped ? list.flatMap((group: { hooks?: unknown }) => (Array.isArray(group?.hooks) ? group.hooks : [])) : list;
    if (handlers.some((handler) => ourEvent((handler as Record<string, unknown> | null)?.[agent.commandKey], agent.name) === event)) seen.add(event);
  }
  return seen;
}

function withHook(text: string, agent: SettingsAgent, event: HookEvent, path: string, created: Set<string>): string {
  const command = hookShellCommand(event, agent.name);
  const name = agent.events[event];
  let root = rootOf(text, agent, path);
  let next = text;
  if (memberOf(root, 'hooks') === undefined) {
    next = appendElement(next, root, member(next, 'hooks', {}));
    root = rootOf(next, agent, path);
    created.add('hooks');
  }
  let hooks = objectAt(root, 'hooks', path);
  if (memberOf(hooks, name) === undefined) {
    next = appendElement(next, hooks, member(next, name, []));
    hooks = objectAt(rootOf(next, agent, path), 'hooks', path);
    created.add(`hooks.${name}`);
  }
  const list = memberOf(hooks, name)!.value;
  if (list.kind !== 'array') throw new UserError(`${path}: hooks.${name} is not a list; fix it by hand — nothing was changed`);
  const existing = handlersOf(list, agent).find((handler) => ourEvent(valueOf(handler.command), agent.name) === event);
  if (existing !== undefined) {
    return valueOf(existing.command) === command ? next : replaceValue(next, existing.command, JSON.stringify(command));
  }
  const unit = indentUnit(next);
  return appendElement(next, list, (indent) => render(agent.entry(event, command), unit, indent, lineEnding(next)));
}

/** The settings text with one hook of ours less; undefined when none is left. */
function nextRemoval(text: string, agent: SettingsAgent, path: string): string | undefined {
  const hooks = hooksOf(rootOf(text, agent, path));
  for (const eventMember of hooks?.members ?? []) {
    const list = eventMember.value;
    if (list.kind !== 'array') continue;
    for (const [i, entry] of list.items.entries()) {
      if (!agent.grouped) {
        if (isOurs(entry, agent)) return removeElement(text, list, i);
        continue;
      }
      const inner = entry.kind === 'object' ? memberOf(entry, 'hooks')?.value : undefined;
      if (inner?.kind !== 'array') continue;
      const ours = inner.items.map((handler) => isOurs(handler, agent));
      // A group of ours goes whole; a handler of ours in a user's group goes alone.
      if (ours.length > 0 && ours.every(Boolean)) return removeElement(text, list, i);
      const one = ours.indexOf(true);
      if (one !== -1) return removeElement(text, inner, one);
    }
  }
  return undefined;
}

/** The settings text without one list, or the "hooks" object, that install created and taking our hooks out left empty. */
function nextEmptied(text: string, agent: SettingsAgent, path: string, created: Created): string | undefined {
  const root = rootOf(text, agent, path);
  const hooks = hooksOf(root);
  if (hooks === undefined) return undefined;
  const empty = hooks.members.findIndex((member) => created.has(`hooks.${member.key}`) && member === memberOf(hooks, member.key) && member.value.kind === 'array' && member.value.items.length === 0);
  if (empty !== -1) return removeElement(text, hooks, empty);
  if (hooks.members.length === 0 && created.has('hooks')) return removeElement(text, root, root.members.lastIndexOf(memberOf(root, 'hooks')!));
  return undefined;
}

function hooksOf(root: JsonObject): JsonObject | undefined {
  const value = memberOf(root, 'hooks')?.value;
  return value?.kind === 'object' ? value : undefined;
}

function isOurs(handler: JsonNode, agent: SettingsAgent): boolean {
  if (handler.kind !== 'object') return false;
  const command = memberOf(handler, agent.commandKey)?.value;
  return command !== undefined && ourEvent(valueOf(command), agent.name) !== undefined;
}

/** Each handler in an event's list with the node of its command. */
function handlersOf(list: JsonArray, agent: SettingsAgent): { command: JsonNode }[] {
  const handlers = agent.grouped
    ? list.items.flatMap((group) => {
        const inner = group.kind === 'object' ? memberOf(group, 'hooks')?.value : undefined;
        return inner?.kind === 'array' ? inner.items : [];
      })
    : list.items;
  return handlers.flatMap((handler) => {
    const command = handler.kind === 'object' ? memberOf(handler, agent.commandKey)?.value : undefined;
    return command === undefined ? [] : [{ command }];
  });
}

function rootOf(text: string, agent: SettingsAgent, path: string): JsonObject {
  const root = parseJsonc(text, path, agent.syntax);
  if (root.kind !== 'object') throw new UserError(`${path} does not hold a JSON object; fix it or move it away — nothing was changed`);
  return root;
}

function objectAt(root: JsonObject, key: string, path: string): JsonObject {
  const value = memberOf(root, key)!.value;
  if (value.kind !== 'object') throw new UserError(`${path}: "${key}" is not an object; fix it by hand — nothing was changed`);
  return value;
}

function member(text: string, key: string, value: unknown): (indent: string) => string {
  const unit = indentUnit(text);
  return (indent) => `${JSON.stringify(key)}: ${render(value, unit, indent, lineEnding(text))}`;
}

/** The plain value of a node. */
function valueOf(node: JsonNode): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'array') return node.items.map(valueOf);
  return Object.fromEntries(node.members.map((member) => [member.key, valueOf(member.value)]));
}
