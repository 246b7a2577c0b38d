/** A problem with what the user asked for (bad option, missing file): one line, exit code 2. */
export class UserError extends Error {
  override name = 'UserError';
  /** Lines printed after the message, one each (the candidates of an ambiguous session id). */
  readonly details: readonly string[];
  constructor(message: string, details: readonly string[] = []) {
    super(message);
    this.details = details;
  }
}

/** A value echoed in a one-line message, cut with an ellipsis: a pasted 200 KB id must not become a 200 KB error. */
export function clipped(value: string, max = 80): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

/** The Node.js error code (ENOENT, EACCES, …) of an I/O error. */
export function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** An I/O error in a few words, without a stack. */
export function reason(error: unknown): string {
  const known: Record<string, string> = {
    ENOENT: 'no such file or directory',
    ENOTDIR: 'not a directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EISDIR: 'is a directory',
    EEXIST: 'file already exists',
    ENAMETOOLONG: 'file name too long',
  };
  const code = codeOf(error);
  if (code !== undefined) return known[code] ?? code;
  return error instanceof Error ? error.message : String(error);
}
