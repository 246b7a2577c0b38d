/** A problem with what the user asked for (bad option, missing file): one line, exit code 2. */
export class UserError extends Error {
  override name = 'UserError';
}
