/** The password of a URL's user info: up to the last `@` before the path, so a password holding `@` goes whole. */
const USER_INFO_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#:@]*):[^\s/?#]*@/gi;

/** Query parameters that carry a credential (`?key=`, `&api_key=`, `access_token=`, an Azure SAS `sig=`, …). */
const SECRET_QUERY = /([?&;](?:[a-z0-9_.-]*[_.-])?(?:key|apikey|token|secret|password|passwd|pwd|pass|sig|signature|auth|credentials?)=)[^\s&#;"'<>]+/gi;

/**
 * Text that may hold URLs (a `--base-url`, an error about one), with their credentials replaced
 * by `***` before it is printed: the password of the user info and every query value whose name
 * says it is a key or a token. The rest of the URL is kept, so the reader still sees which host.
 */
export function maskUrlCredentials(text: string): string {
  return text.replace(USER_INFO_PASSWORD, '$1:***@').replace(SECRET_QUERY, '$1***');
}
