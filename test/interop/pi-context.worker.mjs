// Worker for test/interop/pi-context.ts: runs pi's own session loading in a worker thread,
// so a transcript that sends pi into an endless synchronous loop (a parentId cycle makes
// buildSessionContext/getBranch walk forever) can be stopped with worker.terminate().
// Plain JS on purpose: worker threads load it without any TypeScript transform.
import { parentPort } from 'node:worker_threads';
import { convertToLlm, SessionManager } from '@mariozechner/pi-coding-agent';

parentPort.on('message', ({ reqId, file, dir }) => {
  try {
    // sessionDir = the caller's temp dir, so pi never touches ~/.pi.
    const sm = SessionManager.open(file, dir);
    const context = sm.buildSessionContext();
    parentPort.postMessage({
      reqId,
      ok: true,
      result: {
        context,
        llmMessages: convertToLlm(context.messages),
        header: sm.getHeader(),
        entries: sm.getEntries(),
        leafId: sm.getLeafId(),
      },
    });
  } catch (err) {
    parentPort.postMessage({ reqId, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
