import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/report/html/escape.js';
import { call, Session } from '../../helpers/session.js';
import { samplePage } from './sample.js';

/** Embeddings, overrides, isolates and marks: each can make the text around it read as something else. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('html reporter and bidi controls', () => {
  it('shows each bidi control as its escape, in text and attributes alike', () => {
    expect(escapeHtml('invoice\u202efdp.exe')).toBe('invoice\\u202efdp.exe');
    expect(escapeHtml('\u2066a\u2069\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u2067\u2068')).toBe(
      '\\u2066a\\u2069\\u200e\\u200f\\u061c\\u202a\\u202b\\u202c\\u202d\\u2067\\u2068',
    );
    expect(escapeHtml('עברית & café')).toBe('עברית &amp; café');
  });

  it('lets no bidi control from a transcript or its file name into the page', async () => {
    const session = new Session()
      .user('please read gnp.\u202eexe')
      .calls(call('call_\u2066rtl\u2069', 'read\u202d', { path: 'a\u200fb' }))
      .user('again', { parent: 'u1\u202e' })
      .jsonl();
    const { html } = await samplePage({ 'evil\u202egnp.jsonl': session });
    expect(html).not.toMatch(BIDI);
    const { document } = parseHTML(html);
    const section = [...document.querySelectorAll('section.file')].find((s) => s.getAttribute('data-path')!.includes('evil'))!;
    expect(section.querySelector('h2')!.textContent).toContain('evil\\u202egnp.jsonl');
    expect(section.textContent).toContain('call_\\u2066rtl\\u2069');
    expect(section.textContent).toContain('please read gnp.\\u202eexe');
  });
});
