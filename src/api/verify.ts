import { jsonDocument, type JsonReport } from '../report/json-document.js';
import { resolveSources, type TranscriptInput } from '../run/sources.js';
import { failuresOnly, prepareVerify, runVerify, type VerifySettingsInput } from '../run/verify.js';

/** `verify`'s options, named as on the command line; `model` (or the OpenClaw config's) is required. */
export interface VerifyOptions extends VerifySettingsInput {
  /** FAIL and ERROR verdicts only. */
  quiet?: boolean;
  /** Told once, before the first request sends transcript text to the model (default: nothing is printed). */
  onSend?: (message: string) => void;
  onWarning?: (message: string) => void;
}

/** Has a verifier model judge each final answer; resolves to the document `verify -r json` prints. */
export async function verify(input: TranscriptInput, options: VerifyOptions): Promise<JsonReport> {
  const { judge, ignores } = await prepareVerify(options, options.onSend ?? (() => {}));
  const sources = await resolveSources(input, ignores, options.onWarning ?? (() => {}));
  const reports = await runVerify(sources, judge);
  return jsonDocument(options.quiet ? failuresOnly(reports) : reports);
}
