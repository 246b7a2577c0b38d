import { createHash } from 'node:crypto';

/** The page's only style sheet, inline; allowed by its hash, so no injected style could apply. */
export const STYLE = `
:root{--bg:#f7f7f5;--card:#fff;--ink:#1d1d1f;--dim:#6b6b70;--line:#e2e2de;--err:#c62828;--warn:#b26a00;--info:#1565c0;
--user:#2e7d32;--assistant:#5e35b1;--tool:#00838f;--other:#6d4c41}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
header.page{padding:16px 24px;background:var(--card);border-bottom:1px solid var(--line)}
header.page h1{margin:0 0 4px;font-size:18px}
.summary{margin:0;font-weight:600}.summary.bad{color:var(--err)}.summary.good{color:var(--user)}
.controls{margin-top:8px}.controls button{font:inherit;margin-right:6px;padding:2px 10px;border:1px solid var(--line);border-radius:4px;background:var(--bg);cursor:pointer}
main{padding:16px 24px;max-width:1100px}
section.file{background:var(--card);border:1px solid var(--line);border-radius:6px;margin:0 0 20px;padding:12px 16px}
section.file h2{margin:0;font-size:15px;word-break:break-all}
.format,.dim{color:var(--dim);font-weight:normal}
.file-summary{margin:4px 0 8px;color:var(--dim)}
details.size{margin:4px 0 10px}details.size summary{cursor:pointer;font-weight:600}
details.size table{border-collapse:collapse;margin:4px 16px 8px 0;display:inline-table;vertical-align:top}
details.size caption{text-align:left;color:var(--dim);font-size:12px}details.size td,details.size th{padding:1px 8px;text-align:right;font-size:13px}
details.size td:first-child{text-align:left;font-family:ui-monospace,monospace}
ol.index{margin:0 0 10px;padding-left:20px}ol.index a{color:inherit}
ol.timeline{list-style:none;margin:0;padding:0 0 0 10px;border-left:2px solid var(--line)}
li.turn{margin:6px 0;padding:4px 8px;border-radius:4px}
li.turn.pinned{background:#fff6f5;outline:1px solid #f3c7c2}
.turn-head{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
.ln{font:12px ui-monospace,monospace;color:var(--dim);min-width:56px}
.role{font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.03em;color:var(--other)}
.role-user .role{color:var(--user)}.role-assistant .role{color:var(--assistant)}.role-tool .role{color:var(--tool)}
.meta{font-size:12px;color:var(--dim);word-break:break-all}
.text{margin:2px 0 0 64px;white-space:pre-wrap;word-break:break-word}
.note{margin:2px 0 0 64px;color:var(--dim);font-style:italic}
details.more{margin:2px 0 0 64px}details.more summary{color:var(--dim);cursor:pointer;font-size:12px}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;font:12px/1.4 ui-monospace,monospace}
li.gap{margin:6px 0;padding:2px 8px;color:var(--dim);font-style:italic}
li.fold>details>summary{cursor:pointer;padding:3px 8px;border-radius:4px;background:#f0eff9;color:#4a4560}
li.fold-compacted>details>summary{background:#eef3f7;color:#3d5566}
li.fold-detached>details>summary{background:#f7efe9;color:#6b4a33}
.badge{display:inline-block;margin-left:6px;padding:0 6px;border-radius:8px;background:var(--err);color:#fff;font-size:11px}
.finding{margin:6px 0 4px 64px;padding:6px 10px;border-left:4px solid var(--info);background:#f5f8fc;border-radius:0 4px 4px 0}
.finding.sev-error{border-color:var(--err);background:#fdf1f0}.finding.sev-warning{border-color:var(--warn);background:#fdf6ea}
.finding-head{display:flex;gap:8px;flex-wrap:wrap;align-items:baseline}
.sev{font-weight:700;text-transform:uppercase;font-size:12px}.sev-error .sev{color:var(--err)}.sev-warning .sev{color:var(--warn)}.sev-info .sev{color:var(--info)}
.rule{font:12px ui-monospace,monospace}.where{font-size:12px;color:var(--dim)}
.message{margin:2px 0}
.provider-error{background:#fff;border:1px solid var(--line);padding:4px 6px;border-radius:3px}
.fix{font-size:12px;color:var(--dim)}.fix code{display:block;margin:2px 0;padding:3px 6px;background:#1d1d1f;color:#f5f5f5;border-radius:3px;font:12px ui-monospace,monospace;word-break:break-all}
ul.clean{color:var(--dim);columns:2}
`;

/**
 * The page's only script: folds open and shut together, and a link to a finding inside a folded
 * branch opens the folds around it. It reads no transcript text.
 */
export const SCRIPT = `
(function () {
  function openAround(element) {
    for (var fold = element.closest('details'); fold; fold = fold.parentElement && fold.parentElement.closest('details')) fold.open = true;
  }
  function follow() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    if (target) { openAround(target); target.scrollIntoView({ block: 'center' }); }
  }
  document.querySelectorAll('button[data-folds]').forEach(function (button) {
    button.addEventListener('click', function () {
      var open = button.getAttribute('data-folds') === 'open';
      document.querySelectorAll('li.fold > details').forEach(function (fold) { fold.open = open; });
    });
  });
  window.addEventListener('hashchange', follow);
  follow();
})();
`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Nothing may be fetched: no network, no other file, no frame, no form. Only the style and the
 * script above run, named by their hashes; any markup that slipped through escaping stays inert.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${sha256(STYLE)}`,
  `script-src ${sha256(SCRIPT)}`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
