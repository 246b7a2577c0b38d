import { TRIM_MARK } from '../formats/slim-view.js';

/** The words slim leaves where it took something out: what was there, how big, and where the whole of it is. */

const WHERE = 'the original is in the backup transcript-doctor made before slimming';


export interface MediaFacts {
  media: 'image' | 'document';
  mediaType?: string;
  base64Length: number;
  width?: number;
  height?: number;
}

/** The text an image or document gives way to; `why`: over which limit, or that it was old. */
export function mediaStub(facts: MediaFacts, why: string): string {
  const what = [facts.mediaType, `${formatBytes(Math.floor((facts.base64Length * 3) / 4))}`, facts.width !== undefined && facts.height !== undefined ? `${facts.width}×${facts.height} px` : undefined].filter(Boolean).join(', ');
  return `[transcript-doctor slim removed ${facts.media === 'image' ? 'an image' : 'a document'} here (${what}; ${why}); ${WHERE}]`;
}

/** What a trimmed result says between its head and tail. */
export function trimStub(cut: number, length: number, tool: string | undefined, target: string | undefined): string {
  const of = tool === undefined ? 'this tool result' : `this ${tool} result${target === undefined ? '' : ` (${target})`}`;
  return `\n\n${TRIM_MARK}${cut.toLocaleString('en-US')} of ${length.toLocaleString('en-US')} characters from ${of}; ${WHERE} …]\n\n`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
