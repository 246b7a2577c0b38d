import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../../../src/verify/llm/secrets.js';

// Built at run time so that secret scanners (GitHub push protection, gitleaks) do not flag this file.
const fill = (length: number, alphabet = 'aB3dE5fG7hJ9kLmN1pQrS2tUvW4xYz6'): string => alphabet.repeat(Math.ceil(length / alphabet.length)).slice(0, length);
const anthropicKey = `sk-ant-api03-${fill(93)}-${fill(6)}AA`;
const openaiLegacy = `sk-${fill(48)}`;
const openaiProject = `sk-proj-${fill(74)}_${fill(80)}`;
const slackBot = `xoxb-123456789012-1234567890123-${fill(24)}`;
const slackUser = `xoxp-123456789012-123456789012-1234567890123-${fill(32)}`;
const githubClassic = `ghp_${fill(36)}`;
const githubOauth = `gho_${fill(36)}`;
const githubFine = `github_pat_11ABCDEFG0${fill(12)}_${fill(59)}`;
const awsKey = `AKIA${'IOSFODNN7EXAMPLE'}`;
const googleKey = `AIza${fill(35)}`;
const jwt = ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'].join('.');
const pemBody = `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7${fill(64)}\n${fill(64)}\n${fill(20)}==`;
const pem = `-----BEGIN PRIVATE KEY-----\n${pemBody}\n-----END PRIVATE KEY-----`;
const rsaPem = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n${pemBody}\n-----END RSA PRIVATE KEY-----`;

describe('maskSecrets', () => {
  it.each([
    ['anthropic key', `export ANTHROPIC_API_KEY=${anthropicKey}`, 'export ANTHROPIC_API_KEY=[redacted anthropic key]'],
    ['openai legacy key', `key: ${openaiLegacy}.`, 'key: [redacted openai key].'],
    ['openai project key', `"${openaiProject}"`, '"[redacted openai key]"'],
    ['slack bot token', `SLACK=${slackBot} and`, 'SLACK=[redacted slack token] and'],
    ['slack user token', slackUser, '[redacted slack token]'],
    ['github classic token', `git clone https://${githubClassic}@github.com/o/r`, 'git clone https://[redacted github token]@github.com/o/r'],
    ['github oauth token', githubOauth, '[redacted github token]'],
    ['github fine-grained token', `(${githubFine})`, '([redacted github token])'],
    ['aws access key id', `aws_access_key_id = ${awsKey}`, 'aws_access_key_id = [redacted aws access key]'],
    ['google api key', `?key=${googleKey}&q=1`, '?key=[redacted google api key]&q=1'],
    ['jwt', `cookie: session=${jwt}; Path=/`, 'cookie: session=[redacted jwt]; Path=/'],
    ['bearer token', 'Authorization: Bearer 8f14e45fceea167a5a36dedd4bea2543', 'Authorization: Bearer [redacted bearer token]'],
    ['bearer jwt', `-H "Authorization: Bearer ${jwt}"`, '-H "Authorization: Bearer [redacted jwt]"'],
    ['pem private key', `key file:\n${pem}\nend`, 'key file:\n[redacted private key]\nend'],
    ['encrypted rsa key', rsaPem, '[redacted private key]'],
    ['json-escaped pem', JSON.stringify(pem), '"[redacted private key]"'],
    ['truncated pem', `-----BEGIN OPENSSH PRIVATE KEY-----\\n${fill(70)}\\n${fill(30)}…(truncated)`, '[redacted private key]…(truncated)'],
    ['url password', 'DATABASE_URL=postgres://admin:s3cr3t-Pw@db.internal:5432/app', 'DATABASE_URL=postgres://admin:[redacted url password]@db.internal:5432/app'],
    ['password assignment', 'DB_PASSWORD=hunter22 npm start', 'DB_PASSWORD=[redacted password] npm start'],
    ['password in JSON', '{"user": "ada", "password": "Tr0ub4dor&3"}', '{"user": "ada", "password": "[redacted password]"}'],
    ['token in a query string', 'GET /feed?access_token=a1b2c3d4e5f6&page=2', 'GET /feed?access_token=[redacted token]&page=2'],
    ['api_key in YAML', 'api_key: 9f8e7d6c5b4a', 'api_key: [redacted key]'],
    ['quoted secret in code', "client_secret = 'abcd'", "client_secret = '[redacted secret]'"],
    ['Go short assignment', 'token := "xyz-123"', 'token := "[redacted token]"'],
  ])('masks %s', (_, input, expected) => {
    expect(maskSecrets(input).text).toBe(expected);
  });

  it('counts every secret once, even when two rules could match it', () => {
    const input = [`OPENAI_API_KEY=${openaiProject}`, `Authorization: Bearer ${openaiLegacy}`, `token=${githubClassic}`, `"api_key": "${anthropicKey}"`, `password=abc123xyz`].join('\n');
    const { text, masked } = maskSecrets(input);
    expect(masked).toBe(5);
    expect(text).toBe(
      [
        'OPENAI_API_KEY=[redacted openai key]',
        'Authorization: Bearer [redacted openai key]',
        'token=[redacted github token]',
        '"api_key": "[redacted anthropic key]"',
        'password=[redacted password]',
      ].join('\n'),
    );
  });

  it('leaves ordinary prose and code alone', () => {
    const input = `
The user asked how to rotate their API key; I explained that the password must be at least 12 characters
and that a bearer token goes in the Authorization header. Bearer authentication is described in RFC 6750.
Use the task-management-dashboard-component and the risk-assessment-2024-quarterly-report.
The JWT starts with eyJ, and AWS keys start with AKIA. See https://example.com:8080/docs and mailto:ada@example.com.
export function login(user: string, password: string): Promise<Token> {
  const token = await getToken(user, password);
  const apiKey = process.env.OPENAI_API_KEY;
  if (token === undefined || password == "") throw new Error("password: required");
  headers.authorization = \`Bearer \${token}\`;
  const max_tokens = 1024, num_tokens: number = 42, tokenizer = "cl100k_base";
  return fetch(url, { headers: { "x-api-key": apiKey } }).then((r) => r.json());
}
password = input.value
errors.password = "Password is required"
api_key = os.environ["ANTHROPIC_API_KEY"]
token = ctx.session.token
secret: \${{ secrets.DEPLOY_KEY }}
const reader = new FileReader(); // sk-learn is not a key, nor is sk-
AKIAFOO is too short; A1B2C3 is a hex color's cousin; git sha 9fceb02d0ae598e95dc970b74767f19372d61af8.
-----BEGIN PUBLIC KEY-----
`;
    expect(maskSecrets(input)).toEqual({ text: input, masked: 0 });
  });

  it.each([
    ['JSON', '{"password": "correct horse battery staple"}', '{"password": "[redacted password]"}'],
    ['JSON with symbols', '{"client_secret": "aB3$ kL9 pQ2 zz7"}', '{"client_secret": "[redacted secret]"}'],
    ['.env, single quotes', "DATABASE_PASSWORD='p@ss w0rd Zq9'", "DATABASE_PASSWORD='[redacted password]'"],
    ['.env, double quotes', 'SESSION_SECRET="keyboard cat dog bird"', 'SESSION_SECRET="[redacted secret]"'],
    ['YAML', 'db:\n  password: "hunter two three"', 'db:\n  password: "[redacted password]"'],
  ])('masks a quoted passphrase with spaces (%s)', (_, input, expected) => {
    expect(maskSecrets(input).text).toBe(expected);
  });

  it.each([
    ['a validation message', 'errors.password = "Password is required"'],
    ['a prompt', '{"password": "Enter your password"}'],
    ['a sentence', "token: 'The token has expired.'"],
    ['a format string', 'secret = "secret for %s"'],
  ])('leaves a quoted message with spaces alone: %s', (_, input) => {
    expect(maskSecrets(input)).toEqual({ text: input, masked: 0 });
  });

  it.each([
    ['Rails SECRET_KEY_BASE', `SECRET_KEY_BASE=${'0a1b2c3d4e5f6789'.repeat(8)}`, 'SECRET_KEY_BASE=[redacted key]'],
    ['Laravel APP_KEY', `APP_KEY=base64:${fill(43)}=`, 'APP_KEY=[redacted key]'],
    ['every cookie of a Cookie header', 'Cookie: sessionid=0123456789abcdef0123456789abcdef; csrftoken=abc', 'Cookie: sessionid=[redacted cookie]; csrftoken=[redacted token]'],
    ['a Set-Cookie value, attributes kept', 'Set-Cookie: _app_session=aGVsbG8gd29ybGQ; Path=/; HttpOnly; Max-Age=3600', 'Set-Cookie: _app_session=[redacted cookie]; Path=/; HttpOnly; Max-Age=3600'],
    ['curl -b', "curl -b 'sid=s3ss10n; theme=dark' https://example.com", "curl -b 'sid=[redacted cookie]; theme=[redacted cookie]' https://example.com"],
    ['redis-cli -a', 'redis-cli -h cache.internal -a MyRedisCliPass42 ping', 'redis-cli -h cache.internal -a [redacted password] ping'],
    ['a .pgpass line', 'cat ~/.pgpass\ndb:5432:app:user:pgpassFileSecret8', 'cat ~/.pgpass\ndb:5432:app:user:[redacted password]'],
    ['aws configure set', `aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCY${fill(10)}`, 'aws configure set aws_secret_access_key [redacted key]'],
    ['"my password is"', 'my password is Tulip-Rocket-88.', 'my password is [redacted secret].'],
    ['"token is"', `the token is ${fill(40)}`, 'the token is [redacted secret]'],
    ['"the secret is" before a bare AWS secret', 'the secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'the secret is [redacted secret]'],
    ['"the password for prod was"', 'the password for the prod db was "hunter two"', 'the password for the prod db was "[redacted secret]"'],
    ['X-Vault-Token', `X-Vault-Token: s.${fill(24)}`, 'X-Vault-Token: [redacted token]'],
    ['ansible_become_pass', 'ansible-playbook site.yml -e ansible_become_pass=AnsibleBecome9', 'ansible-playbook site.yml -e ansible_become_pass=[redacted password]'],
    ['a bare Azure storage key', `key: ${fill(86)}==`.replace('key: ', 'use '), 'use [redacted azure storage key]'],
    ['a Twilio auth token after its SID', `Client("AC${'0123456789abcdef'.repeat(2)}", "${'fedcba9876543210'.repeat(2)}")`, `Client("AC${'0123456789abcdef'.repeat(2)}", "[redacted twilio auth token]")`],
    ['a Heroku key after the word heroku', 'heroku API key 01234567-89ab-cdef-0123-456789abcdef', 'heroku API key [redacted heroku api key]'],
    ['a long random string with no name', `Here you go: ${fill(40)}`, 'Here you go: [redacted random string]'],
    ['a bare AWS secret access key with "/" in it', 'aws printed wJalrXUtnF3MI/K7MDENG/bPxRfiCY9XAMPLEKEY', 'aws printed [redacted random string]'],
    ['a URL password holding "/"', 'postgres://app:pa/ss9word@db.internal/app', 'postgres://app:[redacted url password]@db.internal/app'],
  ])('masks %s', (_, input, expected) => {
    expect(maskSecrets(input).text).toBe(expected);
  });

  it.each([
    ['the token is valid', 'The token is valid until midnight, and the password is stored in the vault.'],
    ['the secret was', 'The secret was out. My password was rotated yesterday; the API key is JSON.'],
    ['the key to', 'The key is to keep the access key is-a relation short.'],
    ['numbers in prose', 'The password is 12 characters long and the token was 3 hours old.'],
    ['a port after a host', 'See http://example.com:8080/a@b and https://host:443/users/@ada'],
    ['hashes, ids and paths', `sha512-${fill(86)}== 9fceb02d0ae598e95dc970b74767f19372d61af8 01234567-89ab-cdef-0123-456789abcdef /usr/lib/node_modules/typescript/lib/tsserver.js getUserProfileByIdWithCacheV2`],
    ['a time of day', 'the build ran 12:30:45:120 and cookie: none'],
    ['code that compares', 'if password is None:\n    token is not None and secret is True; if api_key is MISSING_KEY: raise'],
    ['more prose', 'The API key is stored in .env and the token is now refreshed automatically. Your password is too weak.'],
    ['a quoted word that is no credential', 'the token is `abc` and the password is "changed"'],
    ['test counts', 'PASS=12 FAIL=0 bypass=true'],
    ['paths and file names', '/home/ada/Projects/App2024/v123/Build/Release2x/Out9 and pi-session-2025-12-08T23-22-21-320Z_0db2eb3b-5ed8-4b70-88c6-a3f7104eb251.jsonl'],
  ])('leaves %s alone', (_, input) => {
    expect(maskSecrets(input)).toEqual({ text: input, masked: 0 });
  });

  it.each([
    ['password with no digit', 'DB_PASSWORD=hunterhunter npm start', 'DB_PASSWORD=[redacted password] npm start'],
    ['password under 6 characters', '?user=ada&password=x9k&next=/', '?user=ada&password=[redacted password]&next=/'],
    ['quoted password of 3 characters', '{"password": "abc"}', '{"password": "[redacted password]"}'],
    ['token with no digit', 'export GITHUB_TOKEN=abcdefghijklmnopqrst', 'export GITHUB_TOKEN=[redacted token]'],
    ['letters-only bearer token in a header', 'curl -H "Authorization: Bearer abcdefghijklmnop"', 'curl -H "Authorization: Bearer [redacted bearer token]"'],
    ['short bearer token', 'Authorization: Bearer abc123', 'Authorization: Bearer [redacted bearer token]'],
    ['bearer token outside a header', 'send it as Bearer abcdefghijkl please', 'send it as Bearer [redacted bearer token] please'],
    ['basic auth', 'Authorization: Basic YWRtaW46aHVudGVy', 'Authorization: Basic [redacted basic auth]'],
    ['basic auth outside a header', 'the header was Basic YWRtaW46aHVudGVy', 'the header was Basic [redacted basic auth]'],
    ['GitHub-style token scheme', "-H 'Authorization: token abcdefghijklmnop'", "-H 'Authorization: token [redacted credential]'"],
    ['redis password with an empty user', 'redis://:hunter@cache:6379/0', 'redis://:[redacted url password]@cache:6379/0'],
    ['url password containing @', 'mysql://root:p@ss@db/app', 'mysql://root:[redacted url password]@db/app'],
    ['curl -u', 'curl -u admin:hunter https://ci.example.com', 'curl -u admin:[redacted password] https://ci.example.com'],
    ['--password flag', 'docker login --username ci --password hunter', 'docker login --username ci --password [redacted password]'],
    ['sshpass', "sshpass -p 'hunter' ssh host", "sshpass -p '[redacted password]' ssh host"],
    ['mysql -p', 'mysql -u root -phunter app', 'mysql -u root -p[redacted password] app'],
    ['netrc', 'machine example.com login ada password hunter', 'machine example.com login ada password [redacted password]'],
    ['ODBC Pwd', 'Uid=app;Pwd=hunter;Encrypt=yes', 'Uid=app;Pwd=[redacted password];Encrypt=yes'],
    ['Azure account key', 'AccountName=demo;AccountKey=abc+def/ghi==;EndpointSuffix=x', 'AccountName=demo;AccountKey=[redacted key];EndpointSuffix=x'],
    ['Django secret key', "SECRET_KEY = 'django-insecure-abc'", "SECRET_KEY = '[redacted key]'"],
    ['Stripe key', `key ${['sk', 'live', fill(24)].join('_')}.`, 'key [redacted stripe key].'],
    ['Slack app-level token', `xapp-1-A0123456789-${fill(20)}`, '[redacted slack token]'],
    ['Slack webhook', `https://hooks.slack.com/services/T0123/B0123/${fill(24)} ok`, 'https://hooks.slack.com/[redacted slack webhook] ok'],
    ['Telegram bot URL', `https://api.telegram.org/bot123456789:AA${fill(33)}/getMe`, 'https://api.telegram.org/bot[redacted telegram bot token]/getMe'],
    ['PGP private key block', `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${pemBody}\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----`, '[redacted private key]'],
  ])('masks a %s', (_, input, expected) => {
    expect(maskSecrets(input).text).toBe(expected);
  });

  it.each([
    ['a call', 'const token = getToken(user);'],
    ['optional chaining', 'const apiKey = options?.apiKey;'],
    ['a type', 'function login(password: Option<String>) {}'],
    ['an index', 'password = secrets["db"]'],
    ['a shell reference', 'PASSWORD=$(cat /run/secrets/db) TOKEN=${GITHUB_TOKEN}'],
    ['a placeholder', 'export ANTHROPIC_API_KEY=sk-ant-... or "apiKey": "<your-key>" or api_key: "OPENAI_API_KEY"'],
    ['a variable named after the secret', 'login(user_password=user_password, apiKey: apiKey)'],
    ['prose after a colon', 'Token: it expires after an hour. Password: the one from the vault.'],
    ['placeholders after flags', '--token <token>   Matrix access token\n  --password <password>'],
    ['JSON-escaped code', 'if not self._api_key:\\n    raise'],
    ['a value on the next line', 'API_KEY =\n252 lines later'],
    ['Basic as a word', 'Basic authentication sends the password base64-encoded.'],
    ['docker -u with ids', 'docker run -u 1000:1000 image'],
    ['the working directory in an env dump', 'PWD=/workspace/demo\nOLDPWD=/workspace'],
    ['bearer as a word', 'Bearer tokens go in the header; the Bearer scheme is in RFC 6750.'],
  ])('leaves %s alone', (_, input) => {
    expect(maskSecrets(input)).toEqual({ text: input, masked: 0 });
  });

  // No time limit is asserted: a pattern gone quadratic on 1 MB takes minutes and fails the test's own timeout.
  // harden/secrets.mjs measures the time.
  const MB = 1_000_000;
  const repeat = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  it.each([
    // Long, mixed and random, it is masked whole as one random string.
    ['one long base64 word', fill(MB, 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkr/'), 1],
    ['snake_case without end', repeat('a_'), 0],
    ['kebab-case without end', repeat('sk-'), 0],
    // One assignment whose value is the rest: a password may hold "=".
    ['repeated assignments without values', repeat('password='), 1],
    // Each header alone is masked as a truncated key.
    ['repeated unterminated PEM headers', repeat('-----BEGIN RSA PRIVATE KEY-----'), Math.floor(MB / 31)],
    ['dashes', repeat('-'), 0],
    ['JWT-looking dots', repeat('eyJ') + repeat('.') + repeat('eyJ'), 0],
    ['URL-looking text', repeat('a://b:'), 0],
    ['URL user info without a host', `a://:${repeat('x@')}/`, 1],
    ['bearer prefixes', repeat('Bearer '), 0],
    ['authorization headers without values', repeat('Authorization: '), 0],
    // "-u a:-u a:" reads as user a, password "-u", then text.
    ['curl -u without a password', repeat('-u a:'), MB / 10],
    ['mysql without -p', repeat('mysql '), 0],
    ['hex runs', repeat('0123456789abcdef '), 0],
    ['Q~ lookalikes', repeat('abc1Q~'), 0],
    ['cookie headers without values', repeat('Cookie: '), 0],
    ['curl -b without cookies', `curl ${repeat(' -b ')}`, 0],
    ['redis-cli without -a', repeat('redis-cli '), 0],
    ['"password is" without a value', repeat('password is '), 0],
    ['account SIDs without tokens', repeat('AC0123456789abcdef0123456789abcdef '), 0],
    ['heroku without a key', repeat('heroku '), 0],
    ['.pgpass lookalikes', repeat('a:1:b:c:'), 1],
  ])('1 MB of %s is masked as expected', (_, input, expected) => {
    const { text, masked } = maskSecrets(input as string);
    expect(masked).toBe(expected);
    if (expected === 0) expect(text === input).toBe(true);
  });
});
