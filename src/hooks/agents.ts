import { agents, type Agent } from '../agents/index.js';
import type { HookExtension, HookPlugin, HookSettings } from './hook-settings.js';

export { HOOK_EVENTS, type HookEvent, type Scope } from './hook-settings.js';

/**
 * The agents `hooks install` and `hook` serve, read from the agents table (src/agents): each
 * agent module says how its agent takes hooks, this folder knows none of them by name.
 */

/** An agent that reads its hooks from a settings file, with its name and title for messages. */
export type SettingsAgent = HookSettings & { name: string; title: string };

const withHooks = <K extends 'settings' | 'extension' | 'plugin'>(kind: K) =>
  agents.filter((agent): agent is Agent & { hooks: Extract<HookSettings | HookExtension | HookPlugin, { kind: K }> } => agent.hooks?.kind === kind);

/** The agents whose hooks are written in a settings file, in the table's order. */
export function settingsAgents(): SettingsAgent[] {
  return withHooks('settings').map((agent) => ({ ...agent.hooks, name: agent.name, title: agent.title }));
}

export function settingsAgent(name: string): SettingsAgent | undefined {
  return settingsAgents().find((agent) => agent.name === name);
}

/** Every agent `hooks install` knows: those with a settings file, then those that load an extension, then those that install a plugin themselves. */
export function hookAgentNames(): string[] {
  return [...withHooks('settings'), ...withHooks('extension'), ...withHooks('plugin')].map((agent) => agent.name);
}

/** How `hooks install` reaches an agent, by its name: undefined for one that takes no hooks. */
export function hooksOf(name: string): { agent: Agent; hooks: HookSettings | HookExtension | HookPlugin } | undefined {
  const agent = agents.find((known) => known.name === name);
  return agent?.hooks === undefined ? undefined : { agent, hooks: agent.hooks };
}
