// harden secrets: what reaches the verify judge. Runs the built CLI's `verify` against a fake judge on 127.0.0.1 and
// checks that none of the published secret shapes (docs/secrets.md) leaks into any request, that a 1.2M-character user
// message is cut to the prompt budget, and how verdict replies are read. Every secret is generated here at run time:
// random values in each vendor's format, never a real key. SHAPES is also imported by test/verify/llm/shapes.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const LETTERS = UPPER + LOWER;
const ALNUM = LETTERS + DIGITS;
const pick = (alphabet, n) => [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
/** Random characters with at least one digit and one letter, as every generated key has. */
const mixed = (alphabet, n) => {
  const value = pick(alphabet, n - 2);
  const at = Math.floor(n / 2);
  return value.slice(0, at) + pick(DIGITS, 1) + pick([...alphabet].filter((c) => /[A-Za-z]/.test(c)).join(''), 1) + value.slice(at);
};
const alnum = (n) => mixed(ALNUM, n);
const hex = (n) => mixed(DIGITS + 'abcdef', n);
const letters = (n) => pick(LETTERS, n);
const digits = (n) => pick('123456789', 1) + pick(DIGITS, n - 1);
const b64 = (n) => mixed(ALNUM + '+/', n);
const url = (n) => mixed(ALNUM + '-_', n);
const base64 = (text) => Buffer.from(text).toString('base64');
const b64url = (text) => Buffer.from(text).toString('base64url');
const pemLines = (bytes) => randomBytes(bytes).toString('base64').match(/.{1,64}/g);

/** [name, make]: make() returns the text a transcript would hold and the secret parts that must never be sent. */
export const SHAPES = [
  ['AWS access key ID (AKIA…)', () => key('AKIA', pick(UPPER + '234567', 16), (k) => `The CI user's access key id is ${k}.`)],
  ['AWS temporary credentials (ASIA… and session token)', () => {
    const id = pick(UPPER + '234567', 16), token = b64(356);
    return { text: `export AWS_ACCESS_KEY_ID=ASIA${id}\nexport AWS_SESSION_TOKEN=${token}`, secrets: [id, token] };
  }],
  ['AWS secret access key (aws_secret_access_key =)', () => key('', b64(40), (k) => `[default]\naws_secret_access_key = ${k}`)],
  ['AWS credentials JSON (SecretAccessKey, SessionToken)', () => {
    const secret = b64(40), token = b64(300);
    return { text: `{"Credentials": {"AccessKeyId": "ASIA${pick(UPPER, 16)}", "SecretAccessKey": "${secret}", "SessionToken": "${token}"}}`, secrets: [secret, token] };
  }],
  ['Google API key (AIza…)', () => key('AIza', url(35), (k) => `GET https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=${k}`)],
  ['Google OAuth client secret (GOCSPX-)', () => key('GOCSPX-', url(28), (k) => `The OAuth client is 4815-x.apps.googleusercontent.com and its secret ${k}.`)],
  ['Google OAuth access token (ya29.)', () => key('ya29.a0', url(150), (k) => `gcloud printed ${k} (expires in 3599 s)`)],
  ['GCP service-account JSON (private_key)', () => {
    const lines = pemLines(900);
    const pem = `-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC${lines.join('\\n')}\\n-----END PRIVATE KEY-----\\n`;
    return { text: `{"type": "service_account", "project_id": "demo", "private_key": "${pem}", "client_email": "ci@demo.iam.gserviceaccount.com"}`, secrets: lines };
  }],
  ['Azure storage connection string (AccountKey=)', () => key('', b64(86) + '==', (k) => `DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=${k};EndpointSuffix=core.windows.net`)],
  ['Azure SAS token (sig=)', () => key('', encodeURIComponent(b64(43) + '='), (k) => `https://demo.blob.core.windows.net/c/report.pdf?sv=2022-11-02&sp=r&se=2026-01-01T00:00:00Z&sig=${k}`)],
  ['Azure AD client secret (…Q~…)', () => key('', `${alnum(3)}${digits(1)}Q~${mixed(ALNUM + '_~.-', 34)}`, (k) => `The new app registration secret is ${k}; copy it now, it is shown once.`)],
  ['Azure API Management subscription key header', () => key('', hex(32), (k) => `curl -H "Ocp-Apim-Subscription-Key: ${k}" https://demo.azure-api.net/echo`)],
  ['DigitalOcean token (dop_v1_)', () => key('dop_v1_', hex(64), (k) => `doctl auth init --access-token ${k}`)],
  ['GitHub classic token (ghp_)', () => key('ghp_', alnum(36), (k) => `git clone https://${k}@github.com/acme/app.git`)],
  ['GitHub app and OAuth tokens (ghs_, gho_)', () => {
    const a = alnum(36), b = alnum(36);
    return { text: `installation token ghs_${a}, user token gho_${b}`, secrets: [a, b] };
  }],
  ['GitHub fine-grained token (github_pat_)', () => key('github_pat_', `11${pick(UPPER + DIGITS, 20)}_${alnum(59)}`, (k) => `Use ${k} for the release job.`)],
  ['GitLab token (glpat-)', () => key('glpat-', url(20), (k) => `PRIVATE-TOKEN ${k} works for the API.`)],
  ['npm token (npm_)', () => key('npm_', alnum(36), (k) => `npm token create printed ${k}`)],
  ['npm legacy _authToken in .npmrc', () => key('', randomUUID(), (k) => `//registry.npmjs.org/:_authToken=${k}`)],
  ['PyPI token (pypi-AgEI…)', () => key('pypi-AgEIcHlwaS5vcmc', url(150), (k) => `twine upload -u __token__ -p ${k} dist/*`)],
  ['Docker Hub token (dckr_pat_)', () => key('dckr_pat_', url(27), (k) => `echo ${k} | docker login -u ci --password-stdin`)],
  ['Docker config.json auth (base64 user:password)', () => {
    const password = alnum(16), auth = base64(`ci:${password}`);
    return { text: `{"auths": {"https://index.docker.io/v1/": {"auth": "${auth}"}}}`, secrets: [auth] };
  }],
  ['Hugging Face token (hf_)', () => key('hf_', letters(34), (k) => `huggingface-cli login --token ${k}`)],
  ['Anthropic key (sk-ant-)', () => key('sk-ant-api03-', url(93) + 'AA', (k) => `My deploy key is ${k} if you need it.`)],
  ['OpenAI project key (sk-proj-)', () => key('sk-proj-', `${url(74)}T3BlbkFJ${url(74)}`, (k) => `client = OpenAI(api_key="${k}")`)],
  ['OpenAI legacy key (sk-)', () => key('sk-', `${alnum(20)}T3BlbkFJ${alnum(20)}`, (k) => `the old key ${k} still works`)],
  ['Groq key (gsk_)', () => key('gsk_', alnum(52), (k) => `Groq: ${k}`)],
  ['xAI key (xai-)', () => key('xai-', alnum(80), (k) => `xAI key ${k}`)],
  ['Replicate token (r8_)', () => key('r8_', alnum(37), (k) => `replicate token ${k}`)],
  ['Slack bot token (xoxb-)', () => key('xoxb-', `${digits(12)}-${digits(13)}-${alnum(24)}`, (k) => `The bot posts with ${k}.`)],
  ['Slack user token (xoxp-)', () => key('xoxp-', `${digits(12)}-${digits(12)}-${digits(13)}-${hex(32)}`, (k) => `user token ${k}`)],
  ['Slack app-level token (xapp-)', () => key('xapp-', `1-A${pick(UPPER + DIGITS, 10)}-${digits(13)}-${hex(64)}`, (k) => `Socket Mode needs ${k}`)],
  ['Slack incoming webhook URL', () => key('', alnum(24), (k) => `curl -X POST https://hooks.slack.com/services/T${pick(UPPER, 8)}/B${pick(UPPER, 10)}/${k} -d '{"text":"deployed"}'`)],
  ['Discord webhook URL', () => key('', url(68), (k) => `https://discord.com/api/webhooks/${digits(18)}/${k}`)],
  ['Microsoft Teams webhook URL', () => key('', hex(32), (k) => `https://contoso.webhook.office.com/webhookb2/${randomUUID()}@${randomUUID()}/IncomingWebhook/${k}/${randomUUID()}`)],
  ['Telegram bot token', () => key('', `${digits(10)}:AA${url(33)}`, (k) => `curl https://api.telegram.org/bot${k}/getMe`)],
  ['Stripe live secret key (sk_live_)', () => key('sk_live_', alnum(99), (k) => `STRIPE_KEY is ${k}`)],
  ['Stripe test secret key (sk_test_)', () => key('sk_test_', alnum(24), (k) => `the test-mode key ${k} is in the README`)],
  ['Stripe restricted key (rk_live_)', () => key('rk_live_', alnum(99), (k) => `restricted key ${k}`)],
  ['Stripe webhook signing secret (whsec_)', () => key('whsec_', alnum(32), (k) => `stripe listen printed ${k}`)],
  ['SendGrid key (SG.)', () => key('SG.', `${url(22)}.${url(43)}`, (k) => `sendgrid: ${k}`)],
  ['Twilio API key (SK…)', () => key('SK', hex(32), (k) => `Twilio API key ${k}`)],
  ['Mailgun key (key-)', () => key('key-', hex(32), (k) => `mailgun ${k}`)],
  ['Mailchimp key (…-us21)', () => key('', `${hex(32)}-us21`, (k) => `mailchimp ${k}`)],
  ['Shopify token (shpat_)', () => key('shpat_', hex(32), (k) => `X-Shopify-Access-Token ${k}`)],
  ['Linear key (lin_api_)', () => key('lin_api_', alnum(40), (k) => `linear ${k}`)],
  ['1Password service account token (ops_)', () => key('ops_eyJ', url(250), (k) => `OP_SERVICE_ACCOUNT ${k}`)],
  ['HashiCorp Vault token (hvs.)', () => key('hvs.', url(90), (k) => `vault login ${k}`)],
  ['Databricks token (dapi)', () => key('dapi', hex(32), (k) => `databricks ${k}`)],
  ['Doppler token (dp.st.)', () => key('dp.st.dev.', alnum(40), (k) => `doppler ${k}`)],
  ['Postman key (PMAK-)', () => key('PMAK-', `${hex(24)}-${hex(34)}`, (k) => `postman ${k}`)],
  ['Atlassian API token (ATATT3)', () => key('ATATT3xFfGF0', `${url(180)}=${hex(8).toUpperCase()}`, (k) => `jira ${k}`)],
  ['age secret key (AGE-SECRET-KEY-1)', () => key('AGE-SECRET-KEY-1', mixed('023456789ACDEFGHJKLMNPQRSTUVWXYZ', 58), (k) => `# created: 2026-01-01\n${k}`)],
  ['JWT', () => {
    const payload = b64url(JSON.stringify({ sub: alnum(12), name: 'Ada', iat: 1767225600 })), signature = url(43);
    return { text: `cookie: session=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${payload}.${signature}; Path=/`, secrets: [payload.slice(4), signature] };
  }],
  ['PEM private key (PKCS#8)', () => pem('PRIVATE KEY', '', pemLines(1200))],
  ['OpenSSH private key', () => pem('OPENSSH PRIVATE KEY', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n', pemLines(300))],
  ['Encrypted RSA private key (PKCS#1)', () => pem('RSA PRIVATE KEY', `Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${hex(32).toUpperCase()}\n\n`, pemLines(1200))],
  ['PGP private key block', () => {
    const lines = pemLines(900);
    return { text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGX${lines.join('\n')}\n=${alnum(4)}\n-----END PGP PRIVATE KEY BLOCK-----`, secrets: lines };
  }],
  ['Bearer token, letters only (Authorization header)', () => key('', letters(24), (k) => `curl -H "Authorization: Bearer ${k}" https://api.example.com/v1/me`)],
  ['Bearer token, under 16 characters', () => key('', alnum(12), (k) => `Authorization: Bearer ${k}`)],
  ['Bearer token outside a header', () => key('', letters(20), (k) => `then send it as Bearer ${k} on every call`)],
  ['Basic auth header', () => {
    const password = letters(12), creds = base64(`admin:${password}`);
    return { text: `requests.get(url, headers={"Authorization": "Basic ${creds}"})`, secrets: [creds] };
  }],
  ['Authorization: token (GitHub style)', () => key('', letters(40), (k) => `-H 'Authorization: token ${k}'`)],
  ['API key header (X-API-Key)', () => key('', letters(32), (k) => `curl -H "X-API-Key: ${k}" https://api.example.com/items`)],
  ['curl -u user:password', () => key('', letters(10), (k) => `curl -u admin:${k} https://ci.example.com/api/json`)],
  ['URL password (postgres://user:password@)', () => key('', alnum(16), (k) => `DATABASE_URL=postgres://app:${k}@db.internal:5432/app`)],
  ['URL password with an empty user (redis://:password@)', () => key('', letters(12), (k) => `REDIS_URL=redis://:${k}@cache.internal:6379/0`)],
  ['URL password containing @', () => {
    const a = letters(6), b = letters(6);
    return { text: `mysql://root:${a}@${b}@db.internal:3306/app`, secrets: [a, b] };
  }],
  ['MongoDB SRV connection string', () => key('', alnum(20), (k) => `mongodb+srv://svc:${k}@cluster0.abcde.mongodb.net/prod?retryWrites=true`)],
  ['password= without a digit', () => key('', letters(12), (k) => `DB_PASSWORD=${k} npm start`)],
  ['password= under 6 characters', () => key('', alnum(5), (k) => `?user=ada&password=${k}&next=/home`)],
  ['JSON "password": "…"', () => key('', `${alnum(10)}!#`, (k) => `{"username": "ada", "password": "${k}"}`)],
  ['YAML client_secret without a digit', () => key('', letters(30), (k) => `oauth:\n  client_id: demo\n  client_secret: ${k}`)],
  ['Django SECRET_KEY', () => key('django-insecure-', mixed(LOWER + DIGITS + '!@#%^&*(-_=+)', 50), (k) => `SECRET_KEY = '${k}'`)],
  ['Token assignment without a digit (GITHUB_TOKEN=)', () => key('', letters(40), (k) => `export GITHUB_TOKEN=${k}`)],
  ['--password flag', () => key('', alnum(20), (k) => `docker login registry.example.com --username ci --password ${k}`)],
  ['sshpass -p', () => key('', alnum(12), (k) => `sshpass -p '${k}' ssh deploy@build-host uptime`)],
  ['mysql -pPASSWORD', () => key('', alnum(12), (k) => `mysql -h db.internal -u root -p${k} app < dump.sql`)],
  ['.netrc password', () => key('', letters(16), (k) => `machine api.example.com login ada password ${k}`)],
  ['ODBC connection string (Pwd=)', () => key('', alnum(16), (k) => `Driver={ODBC Driver 18 for SQL Server};Server=tcp:db.example.net,1433;Uid=app;Pwd=${k};Encrypt=yes`)],
  ['Kubernetes Secret data (password: base64)', () => {
    const password = alnum(14), encoded = base64(password);
    return { text: `apiVersion: v1\nkind: Secret\ndata:\n  password: ${encoded}`, secrets: [encoded] };
  }],
];

function key(prefix, secret, render) {
  return { text: render(prefix + secret), secrets: [secret] };
}

function pem(label, preamble, lines) {
  return { text: `-----BEGIN ${label}-----\n${preamble}${lines.join('\n')}\n-----END ${label}-----`, secrets: lines };
}

/** A secret counts as leaked when any 12 characters of it in a row reach the judge (all of it when shorter). */
export function leaked(sent, secret) {
  const width = Math.min(12, secret.length);
  for (let i = 0; i + width <= secret.length; i++) if (sent.includes(secret.slice(i, i + width))) return true;
  return false;
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'verify', 'llm', 'mask-for-judge.js'))) {
    console.log('harden secrets: built CLI 0/1 FAIL (run npm run build first)');
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), 'td-harden-secrets-'));
  const judge = await startJudge();
  judge.stateDir = work;
  let failed = false;
  const report = (what, n, m, ok, details) => {
    failed ||= !ok;
    console.log(`harden secrets: ${what} ${n}/${m} ${ok ? 'ok' : 'FAIL'} (${details})`);
  };
  try {
    publishedList(report);
    await leaks(work, judge, report);
    await promptCap(work, judge, report);
    await verdicts(work, judge, report);
    await failClosed(work, judge, report);
    adversarialTiming(report);
  } catch (error) {
    report('run', 0, 1, false, error instanceof Error ? error.message : String(error));
  } finally {
    await judge.close();
    rmSync(work, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

function publishedList(report) {
  const doc = readFileSync(join(ROOT, 'docs', 'secrets.md'), 'utf8');
  const missing = SHAPES.filter(([name]) => !doc.includes(`| ${name} |`)).map(([name]) => name);
  const ok = missing.length === 0 && SHAPES.length >= 40;
  report('shapes published in docs/secrets.md', SHAPES.length - missing.length, SHAPES.length, ok, missing.length > 0 ? `missing: ${missing.join('; ')}` : 'every tested shape is listed');
}

async function leaks(work, judge, report) {
  const cases = SHAPES.map(([name, make], i) => ({ name, marker: `(shape ${String(i + 1).padStart(2, '0')})`, ...make() }));
  // Five places the judge reads: two user messages, two answers (the first also as history) and a rules file.
  const places = [[], [], [], [], []];
  cases.forEach((c, i) => places[i % 5].push(`${c.marker} ${c.text}`));
  const [user1, answer1, user2, answer2, rules] = places.map((lines) => lines.join('\n'));
  const file = join(work, 'shapes.jsonl');
  writeFileSync(file, transcript([[user1, answer1], [user2, answer2]]));
  writeFileSync(join(work, 'AGENTS.md'), `# Rules\nBe precise.\n${rules}\n`);
  judge.requests.length = 0;
  const started = performance.now();
  const run = await cli(['verify', '--all', '--rules', join(work, 'AGENTS.md'), file], judge);
  const ms = Math.round(performance.now() - started);
  const sent = judge.requests.join('\n\n');
  const unsent = cases.filter((c) => !sent.includes(c.marker));
  const leakedCases = cases.filter((c) => c.secrets.some((secret) => leaked(sent, secret)));
  const { maskSecrets } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'llm', 'secrets.js')).href);
  const { secretlint } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'llm', 'secretlint.js')).href);
  const unmasked = cases.filter((c) => c.secrets.every((secret) => leaked(c.text, secret))).length;
  const oursAlone = cases.filter((c) => c.secrets.some((secret) => leaked(maskSecrets(c.text).text, secret))).length;
  let secretlintAlone = 0;
  for (const c of cases) if ((await secretlint(c.text)).length > 0) secretlintAlone++;
  const ok = run.code === 0 && judge.requests.length === 2 && unsent.length === 0 && leakedCases.length === 0 && unmasked === cases.length;
  const problems = [
    ...(run.code === 0 ? [] : [`exit ${run.code}: ${run.stderr.trim().slice(0, 200)}`]),
    ...(unsent.length > 0 ? [`never reached the judge, so not tested: ${unsent.map((c) => c.name).join('; ')}`] : []),
    ...(leakedCases.length > 0 ? [`LEAKED: ${leakedCases.map((c) => c.name).join('; ')}`] : []),
  ];
  report('secrets leaked', leakedCases.length, cases.length, ok, [
    `${cases.length} shapes in 2 user messages, 2 answers and AGENTS.md, ${judge.requests.length} requests, verify ran ${ms} ms`,
    `the check finds ${unmasked}/${cases.length} in the unmasked texts, our patterns alone leak ${oursAlone}/${cases.length}, secretlint alone recognises ${secretlintAlone}/${cases.length}`,
    ...problems,
  ].join('; '));
}

async function promptCap(work, judge, report) {
  const tailKey = `sk_live_${alnum(99)}`;
  const line = (i) => `2026-05-04T08:00:${String(i % 60).padStart(2, '0')}Z worker-${i % 7} INFO processed batch ${i} in ${i % 97} ms\n`;
  let log = 'Here is the full log of last night\'s run:\n';
  for (let i = 0; log.length < 1_200_000 - 200; i++) log += line(i);
  const question = `The last line before the crash used ${tailKey}. Why did the run stop?`;
  const message = log.slice(0, 1_200_000 - question.length) + question;
  const file = join(work, 'huge.jsonl');
  writeFileSync(file, transcript([[message, 'The run stopped because the batch worker ran out of memory. Done.']]));
  judge.requests.length = 0;
  const started = performance.now();
  const run = await cli(['verify', '--all', file], judge);
  const ms = Math.round(performance.now() - started);
  const [prompt = ''] = judge.requests;
  const size = judge.systemLength + prompt.length;
  const checks = {
    'one request': judge.requests.length === 1,
    'within 32,000 characters': size <= 32_000,
    'head kept': prompt.includes("Here is the full log of last night's run:"),
    'tail kept': prompt.includes('Why did the run stop?'),
    'cut marked': /\[… \d+ characters of the user message left out here …\]/.test(prompt),
    'tail secret masked': !leaked(prompt, tailKey.slice(8)),
    'exit 0': run.code === 0,
  };
  const failedChecks = Object.entries(checks).filter(([, ok]) => !ok).map(([name]) => name);
  report('prompt within budget', failedChecks.length === 0 ? 1 : 0, 1, failedChecks.length === 0,
    `${message.length.toLocaleString('en')}-character user message sent as a ${size.toLocaleString('en')}-character prompt (system + user), head and tail kept, cut marked, verify ran ${ms} ms${failedChecks.length > 0 ? `; failed: ${failedChecks.join(', ')}` : ''}`);
}

/** Replies the judge might give, and how each must be read. */
const VERDICT_CASES = [
  ['Goal: met.\nCompleteness: complete.\nRules: followed.\nPASS', 'PASS'],
  ['Reasoning... PASS', 'PASS'],
  ['All three criteria are met. Verdict: PASS', 'PASS'],
  ['Reasons above.\n**Verdict:** **PASS**', 'PASS'],
  ['Fine.\n\nPASS.\n\n', 'PASS'],
  ['ok\nFAIL [incomplete]: the list stops at item 3', 'FAIL incomplete'],
  ['Verdict: FAIL [goal_missed]: answer the question that was asked', 'FAIL goal_missed'],
  ['**FAIL [rule_violation]: SOUL.md asks for a formal tone**', 'FAIL rule_violation'],
  ['Reasoning...\nFAIL [refusal]: the agent declined a safe request', 'FAIL refusal'],
  ['The answer does not PASS', 'ERROR'],
  ["I can't PASS this", 'ERROR'],
  ['FAIL or PASS', 'ERROR'],
  ['FAIL [made_up]: x', 'ERROR'],
  ['FAIL: no category', 'ERROR'],
  ['PASS\nOn reflection, no.', 'ERROR'],
  ['The response passes', 'ERROR'],
  ['', 'ERROR'],
];

async function verdicts(work, judge, report) {
  const file = join(work, 'verdicts.jsonl');
  writeFileSync(file, transcript(VERDICT_CASES.map((_, i) => [`question ${i}`, `verdict-case-${i}: here is my answer.`])));
  judge.requests.length = 0;
  const run = await cli(['verify', '--all', '--retries', '0', '-r', 'json', file], judge);
  const got = JSON.parse(run.stdout || '{"files":[{"verdicts":[]}]}').files[0].verdicts.map((v) => `${v.verdict}${v.category ? ` ${v.category}` : ''}`);
  const wrong = VERDICT_CASES.map(([reply, expected], i) => ({ reply, expected, got: got[i] })).filter((c) => c.got !== c.expected);
  report('verdict replies read right', VERDICT_CASES.length - wrong.length, VERDICT_CASES.length, wrong.length === 0,
    wrong.length === 0 ? 'PASS at the end of the last line, FAIL [category]: anywhere in it; negated, mixed or malformed lines are ERROR' : wrong.map((c) => `${JSON.stringify(c.reply)}: ${c.got ?? 'none'} instead of ${c.expected}`).join('; '));
}

/** The detector failing must stop the request: run the judge in-process with a masker that throws. */
async function failClosed(work, judge, report) {
  const { verifyFile } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'run.js')).href);
  const { VerdictCache } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'llm', 'cache.js')).href);
  const { DEFAULT_SETTINGS } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'settings.js')).href);
  const file = join(work, 'fail-closed.jsonl');
  writeFileSync(file, transcript([['deploy it', 'Done, deployed.']]));
  judge.requests.length = 0;
  const result = await verifyFile(file, file, {
    settings: { ...DEFAULT_SETTINGS, verifyAll: true },
    model: { provider: 'openai', model: 'judge', protocol: 'openai', baseUrl: judge.url, apiKey: '' },
    cache: new VerdictCache(undefined),
    rules: [],
    timeoutMs: 10_000,
    maxRetries: 0,
    schedule: (task) => task(),
    beforeFirstRequest: () => undefined,
    maskTexts: async () => {
      throw new Error('detector crashed');
    },
  });
  const verdict = result.verdicts[0];
  const ok = judge.requests.length === 0 && verdict?.verdict === 'ERROR';
  report('detector failure sends nothing', ok ? 1 : 0, 1, ok, `${judge.requests.length} requests, verdict ${verdict?.verdict}: ${verdict?.feedback}`);
}

const ADVERSARIAL_LIMIT_MS = 5_000;

/** Timing runs in a child so that a regex gone quadratic is killed, not waited for. */
function adversarialTiming(report) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--adversarial'], { encoding: 'utf8', timeout: 90_000 });
  let rows;
  try {
    rows = JSON.parse(child.stdout);
  } catch {
    report('masking 1 MB adversarial inputs', 0, 1, false, `the timing child did not finish (${child.error?.message ?? `exit ${child.status}`})`);
    return;
  }
  const slow = rows.filter((row) => row.ms > ADVERSARIAL_LIMIT_MS);
  const slowest = rows.reduce((a, b) => (b.ms > a.ms ? b : a));
  report('masking 1 MB adversarial inputs', rows.length - slow.length, rows.length, slow.length === 0,
    `our patterns + secretlint, slowest ${slowest.ms} ms on ${slowest.name}, 1.2 MB of log ${rows.find((row) => row.name === 'a 1.2 MB log').ms} ms; limit ${ADVERSARIAL_LIMIT_MS} ms each`);
}

async function adversarial() {
  const { maskForJudge } = await import(pathToFileURL(join(ROOT, 'dist', 'verify', 'llm', 'mask-for-judge.js')).href);
  const repeat = (unit, size = 1_000_000) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const inputs = {
    'one base64 word': repeat('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkr/'),
    'snake_case without end': repeat('a_'),
    'kebab-case without end': repeat('sk-'),
    'assignments without values': repeat('password='),
    'unterminated PEM headers': repeat('-----BEGIN PRIVATE KEY-----'),
    dashes: repeat('-'),
    'JWT-looking dots': repeat('eyJ') + repeat('.') + repeat('eyJ'),
    'URL-looking text': repeat('a://b:'),
    'URL user info without host': 'a://:' + repeat('x@'),
    'bearer prefixes': repeat('Bearer '),
    'authorization headers': repeat('Authorization: '),
    'curl -u without password': repeat('-u a:'),
    'mysql without -p': repeat('mysql '),
    'netrc words': repeat('login a password '),
    'hex run': repeat('0123456789abcdef'),
    'digits and colons': repeat('1234567:'),
    'Q~ lookalikes': repeat('abc1Q~'),
    'a 1.2 MB log': repeat('2026-05-04T08:00:00Z worker-3 INFO batch 17 took 42 ms; token=abc, password: x, Bearer y\n', 1_200_000),
  };
  const rows = [];
  for (const [name, text] of Object.entries(inputs)) {
    const started = performance.now();
    await maskForJudge([text]);
    rows.push({ name, ms: Math.round(performance.now() - started) });
  }
  process.stdout.write(JSON.stringify(rows));
}

/** A pi transcript of [user, assistant] turns. */
function transcript(turns) {
  let clock = Date.UTC(2026, 4, 4, 8, 0, 0);
  let parent = null;
  let n = 0;
  const lines = [JSON.stringify({ type: 'session', version: 3, id: randomUUID(), timestamp: new Date(clock).toISOString(), cwd: '/workspace/demo' })];
  const add = (message) => {
    clock += 1000;
    const id = (++n).toString(16).padStart(8, '0');
    lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp: new Date(clock).toISOString(), message: { ...message, timestamp: clock } }));
    parent = id;
  };
  for (const [user, answer] of turns) {
    add({ role: 'user', content: user });
    add({ role: 'assistant', content: [{ type: 'text', text: answer }], api: 'openai-completions', provider: 'openai', model: 'gpt-4.1', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: 'stop' });
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** An OpenAI-compatible judge on 127.0.0.1 that records what it is sent and answers from VERDICT_CASES or PASS. */
async function startJudge() {
  const requests = [];
  const judge = { requests, systemLength: 0, url: '', close: () => undefined };
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      judge.systemLength = system.length;
      requests.push(user);
      const answered = /verdict-case-(\d+):/.exec(user.slice(user.lastIndexOf('## Agent response')));
      const text = answered === null ? 'PASS' : VERDICT_CASES[Number(answered[1])][0];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  judge.url = `http://127.0.0.1:${server.address().port}`;
  judge.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return judge;
}

/** The built CLI against the fake judge, killed after a minute so the suite never hangs. */
function cli(args, judge) {
  return new Promise((resolve) => {
    const [command, ...rest] = args;
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'transcript-doctor.js'), command, '--model', 'openai/judge', '--base-url', judge.url, '--no-cache', ...rest], {
      cwd: ROOT,
      // The OpenClaw state folder points at an empty place, so this machine's own verifier config plays no part.
      env: { ...process.env, OPENAI_API_KEY: 'fake-key-for-a-local-judge', OPENCLAW_STATE_DIR: judge.stateDir, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// Last, so that every constant above exists when it runs; importing this file (the tests do) runs nothing.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === '--adversarial') await adversarial();
  else process.exitCode = await main();
}
