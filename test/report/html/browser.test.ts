import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../helpers/png.js';
import { samplePage } from './sample.js';

/** Debian's chromium; .ci/run installs it and requires this test. Without it, vitest.config.ts leaves this file out and says so in one line. */
const CHROMIUM = process.env.TRANSCRIPT_DOCTOR_CHROMIUM ?? '/usr/bin/chromium';

describe('html reporter in a real headless browser', () => {
  let browser: Browser;
  let file: string;
  let shots: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium; .ci/run does) or set TRANSCRIPT_DOCTOR_CHROMIUM`);
    const { html } = await samplePage();
    shots = mkdtempSync(join(tmpdir(), 'html-browser-'));
    file = join(shots, 'report.html');
    writeFileSync(file, html);
    // No network at all: name resolution fails, and the page's context is offline as well.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--host-resolver-rules=MAP * ~NOTFOUND'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(async () => {
    for (const context of browser?.contexts() ?? []) await context.close();
  });

  async function open() {
    const context = await browser.newContext({ offline: true, viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return { page, problems, requests };
  }

  it('loads from a file:// URL with no console errors, no request but itself, and no injected script run', async () => {
    const { page, problems, requests } = await open();
    expect(problems).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('section.file').count()).toBe(1);
    // The hostile text is shown as text.
    expect(await page.locator('li.turn[data-line="6"] .text').innerText()).toContain('</script><script>window.pwned=1</script>');
  });

  it('keeps folds closed until asked, and a link to a finding inside one opens it', async () => {
    const { page, problems } = await open();
    const hidden = page.locator('li.fold-abandoned .finding');
    expect(await hidden.isVisible()).toBe(false);
    expect(await page.locator('li.turn[data-line="13"] .finding').isVisible()).toBe(true);
    await page.locator('ol.index a', { hasText: 'line 10' }).click();
    expect(await hidden.isVisible()).toBe(true);
    await page.locator('button[data-folds="close"]').click();
    expect(await hidden.isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });

  it('shows the findings in a screenshot', async () => {
    const { page, problems } = await open();
    await page.locator('button[data-folds="open"]').click();
    const path = join(shots, 'report.png');
    await page.screenshot({ path, fullPage: true });
    const size = statSync(path).size;
    const image = decodePng(readFileSync(path));
    console.log(`html report screenshot: ${path}, ${image.width}×${image.height}, ${size} bytes`);
    expect(size).toBeGreaterThan(20_000);
    expect(image.width).toBe(1100);
    // Where the error card for line 13 is drawn, the pixels are not the page background, and its red edge is there.
    const box = (await page.locator('li.turn[data-line="13"] .finding').boundingBox())!;
    expect(box.height).toBeGreaterThan(40);
    let differing = 0;
    let red = 0;
    const [bgR, bgG, bgB] = [0xf7, 0xf7, 0xf5];
    for (let y = Math.floor(box.y); y < box.y + box.height; y++) {
      for (let x = Math.floor(box.x); x < box.x + box.width; x++) {
        const at = (y * image.width + x) * 4;
        const [r, g, b] = [image.pixels[at]!, image.pixels[at + 1]!, image.pixels[at + 2]!];
        if (Math.abs(r - bgR) + Math.abs(g - bgG) + Math.abs(b - bgB) > 24) differing += 1;
        if (r > 150 && g < 80 && b < 80) red += 1;
      }
    }
    expect(differing / (box.width * box.height)).toBeGreaterThan(0.05);
    expect(red).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});
