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

  it('leaves a quoted value with spaces: in code that is a message far more often than a passphrase', () => {
    expect(maskSecrets('{"password": "correct horse battery staple"}').masked).toBe(0);
  });

  it.each([
    ['one long base64 word', fill(100_000, 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkr/')],
    ['snake_case without end', 'a_'.repeat(50_000)],
    ['kebab-case without end', 'sk-'.repeat(33_000)],
    ['repeated assignments without values', 'password='.repeat(11_000)],
    ['repeated unterminated PEM headers', '-----BEGIN PRIVATE KEY-----'.repeat(3_700)],
    ['dashes', '-'.repeat(100_000)],
    ['JWT-looking dots', 'eyJ'.repeat(10_000) + '.'.repeat(10_000) + 'eyJ'.repeat(10_000)],
    ['URL-looking text', 'a://b:'.repeat(16_000)],
    ['bearer prefixes', 'Bearer '.repeat(14_000)],
  ])('stays linear on 100 KB of %s', (_, input) => {
    const started = performance.now();
    maskSecrets(input);
    expect(performance.now() - started).toBeLessThan(250);
  });
});
