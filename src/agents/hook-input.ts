import type { HookEvent } from '../hooks/hook-settings.js';

/**
 * The session file a hook's input names in Claude Code's convention, which Codex and Gemini CLI
 * follow: `transcript_path`, as given (not yet checked to be a session, see ownSession).
 */
export function transcriptPathField(input: Record<string, unknown>): string | undefined {
  return typeof input.transcript_path === 'string' && input.transcript_path !== '' ? input.transcript_path : undefined;
}

/** Claude Code, Codex and Gemini CLI share one shape: `{matcher?, hooks: [{type: "command", command}]}`; session-start runs on resume only. */
export function groupedEntry(event: HookEvent, handler: Record<string, unknown>): Record<string, unknown> {
  return event === 'session-start' ? { matcher: 'resume', hooks: [handler] } : { hooks: [handler] };
}
