/**
 * OpenClaw's heartbeat: a periodic run whose prompt asks the agent to read HEARTBEAT.md and
 * answer HEARTBEAT_OK when nothing needs attention. A lazy agent answers HEARTBEAT_OK although
 * HEARTBEAT.md lists work; that is what `--heartbeat` judges.
 */
export const HEARTBEAT_TOKEN = 'HEARTBEAT_OK';

/** OpenClaw's default heartbeat prompt (`agents.defaults.heartbeat.prompt` may replace it). */
export const DEFAULT_HEARTBEAT_PROMPT =
  'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks from prior chats. If nothing needs attention, reply HEARTBEAT_OK.';

/** What newer OpenClaw versions store instead of the prompt. */
const HEARTBEAT_TRANSCRIPT_PROMPT = '[OpenClaw heartbeat poll]';

/**
 * A heartbeat run: the user message is a heartbeat prompt (the default, a custom one that still
 * asks for HEARTBEAT_OK, the older periodic-tasks one, or the stored poll marker), or the
 * answer is the bare acknowledgement.
 */
export function isHeartbeat(userText: string, responseText: string): boolean {
  const prompt = userText.trim();
  return (
    prompt.startsWith(DEFAULT_HEARTBEAT_PROMPT) ||
    prompt.startsWith(HEARTBEAT_TRANSCRIPT_PROMPT) ||
    (prompt.includes(HEARTBEAT_TOKEN) && /HEARTBEAT\.md|periodic tasks/i.test(prompt)) ||
    isHeartbeatAck(responseText)
  );
}

/** Nothing but the token, in the markup OpenClaw itself strips (bold, code, tags, a little punctuation). */
export function isHeartbeatAck(text: string): boolean {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .trim()
    .replace(/^[*`~_\s]+|[*`~_\s]+$/g, '');
  return new RegExp(`^(?:${HEARTBEAT_TOKEN}\\s*)+[^\\w]{0,4}$`).test(plain);
}
