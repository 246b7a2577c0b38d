// transcript-doctor's OpenClaw plugin, loaded in the Gateway with
//   openclaw plugins install --link <transcript-doctor>/extensions/openclaw
// (--link keeps it here, beside the package code it imports).
//
// - session_end: repairs the session file in place, as `transcript-doctor repair --in-place`
//   does (lock check, backup, atomic rename), so the next load of the session is clean.
// - before_message_write (synchronous): blocks a tool result whose call the session never
//   wrote or already answered, and a blank user or assistant message, before they reach the file.
//
// Plain JavaScript with no import from OpenClaw: the entry is the object definePluginEntry
// returns (id, name, description, configSchema, register).
import { repair } from '../../dist/index.js';
import { MessageWriteGuard } from '../../dist/hooks/write-gate.js';

/** A call with no result: dropped with its turn (default) or given an error result, as OpenClaw's own guard is told. */
function abortMode() {
  return process.env.OPENCLAW_TOOL_GUARD_ABORT_MODE === 'synthetic' ? 'synthetic' : 'discard';
}

export default {
  id: 'transcript-doctor',
  name: 'transcript-doctor',
  description: 'Repairs each session file when the session ends, and keeps orphan tool results and blank messages out of it.',
  configSchema: { type: 'object', additionalProperties: false },
  register(api) {
    const guard = new MessageWriteGuard('openclaw');
    // A write names its session by key, or (no key) by agent; a session_end by key.
    api.on('before_message_write', (event) => guard.check(event.message, event.sessionKey ?? event.agentId ?? ''));
    api.on('session_end', async (event) => {
      guard.forget(event.sessionKey ?? '');
      if (!event.sessionFile || event.transcriptArchived) return;
      try {
        const report = await repair(event.sessionFile, { inPlace: true, mode: abortMode() });
        if ((report.summary.changed ?? 0) > 0) api.logger?.info?.(`transcript-doctor: repaired ${event.sessionFile}`);
      } catch (error) {
        api.logger?.warn?.(`transcript-doctor: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  },
};
