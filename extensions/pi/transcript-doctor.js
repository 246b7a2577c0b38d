// transcript-doctor's extension for pi (pi-coding-agent). `transcript-doctor hooks install pi`
// puts a one-line loader for it in pi's extensions folder.
//
// - session_before_switch (reason "resume"): repairs the session /resume is about to load, in
//   place, before pi reads it. (A session named on pi's command line is opened before any
//   extension runs; wrap pi with `transcript-doctor guard` for that one.)
// - session_shutdown: closes the tool calls left open in the session pi leaves (quit, Ctrl+C,
//   SIGTERM, /new, /resume, /fork) with error results, so its next resume is clean.
//
// Both write as `transcript-doctor repair --in-place` does (lock check, backup, atomic rename),
// and never stand in pi's way: a repair that fails is a warning, not an error.
import { repair } from '../../dist/index.js';

/** A call with no result when pi resumes: dropped with its turn (default) or given an error result, as `repair --mode`. */
function resumeMode() {
  return process.env.OPENCLAW_TOOL_GUARD_ABORT_MODE === 'synthetic' ? 'synthetic' : 'discard';
}

export default function transcriptDoctor(pi) {
  pi.on('session_before_switch', async (event, ctx) => {
    if (event.reason === 'resume' && event.targetSessionFile) await repairQuietly(event.targetSessionFile, resumeMode(), ctx);
  });
  pi.on('session_shutdown', async (event, ctx) => {
    // On reload the same session goes on in memory: rewriting its file under it would split the two.
    if (event.reason === 'reload') return;
    const file = ctx.sessionManager.getSessionFile();
    if (file) await repairQuietly(file, 'synthetic', ctx);
  });
}

async function repairQuietly(file, mode, ctx) {
  try {
    const report = await repair(file, { inPlace: true, mode });
    if ((report.summary.changed ?? 0) > 0) ctx.ui.notify(`transcript-doctor: repaired ${file}`, 'info');
  } catch (error) {
    ctx.ui.notify(`transcript-doctor: ${error instanceof Error ? error.message : String(error)}`, 'warning');
  }
}
