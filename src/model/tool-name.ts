/** What OpenClaw and strict providers accept as a tool name once surrounding whitespace is trimmed. */
const VALID_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Why a tool name is rejected, in a few words; undefined when it is valid (after trimming). */
export function toolNameProblem(name: string | undefined): string | undefined {
  if (name === undefined || name.trim() === '') return 'blank';
  const trimmed = name.trim();
  if (trimmed.length > 64) return `${trimmed.length} characters long (at most 64)`;
  return VALID_TOOL_NAME.test(trimmed) ? undefined : 'not made of letters, digits, "_" and "-" only';
}
