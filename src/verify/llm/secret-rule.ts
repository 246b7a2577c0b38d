/** One masking rule: a pattern and what to put in place of each match. */
export interface SecretRule {
  pattern: RegExp;
  /**
   * The replacement, or undefined to leave a match that only looked like a secret. `groups` are the captures; `at` and
   * `input` let a rule look at what follows the match (a call's "(" means code, not a value).
   */
  mask: (match: string, groups: (string | undefined)[], at: number, input: string) => string | undefined;
}

export const redacted = (kind: string): string => `[redacted ${kind}]`;

/** Masks the whole match. */
export const whole =
  (kind: string) =>
  (): string =>
    redacted(kind);

/** Keeps the first capture (a host, a header name) so the judge still sees what the secret was for. */
export const after =
  (kind: string) =>
  (_: string, [prefix]: (string | undefined)[]): string =>
    `${prefix ?? ''}${redacted(kind)}`;
