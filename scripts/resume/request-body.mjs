// The body of a request a local server received, read whole: the capture servers of
// scripts/slim-resume.mjs and the model of scripts/resume/claude-written.mjs.

/** Calls `done(raw, body)` once the request has ended: its bytes, and their JSON (undefined when they are not JSON). */
export function onRequestBody(req, done) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    let body;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    done(raw, body);
  });
}
