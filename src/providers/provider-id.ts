import { UserError } from '../errors.js';

/** The providers a transcript can be judged against (`--provider`, config `provider`). */
export const PROVIDER_IDS = ['anthropic', 'bedrock', 'vertex', 'openai-chat', 'openai-responses', 'gemini', 'mistral'] as const;

export type ProviderId = (typeof PROVIDER_IDS)[number];

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}

/** A provider named by a person (`--provider`, the config): an unknown name is a usage error that lists the valid ones. */
export function parseProviderId(value: string, where: string): ProviderId {
  if (isProviderId(value)) return value;
  throw new UserError(`${where} "${value}" is not a known provider (one of: ${PROVIDER_IDS.join(', ')})`);
}
