// The secret shapes that verify must never send to its judge, as published in docs/secrets.md. Each make() returns a
// text a transcript could hold and the secret parts of it, generated at run time: random values in each vendor's
// format, never a real key. Used by harden/secrets.mjs and by the tests under test/verify/.
import { randomBytes, randomUUID } from 'node:crypto';

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
export const alnum = (n) => mixed(ALNUM, n);
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
  ['Rails SECRET_KEY_BASE', () => key('', hex(128), (k) => `SECRET_KEY_BASE=${k} bin/rails server`)],
  ['Laravel APP_KEY (base64:)', () => key('base64:', `${b64(43)}=`, (k) => `APP_KEY=${k}\nAPP_DEBUG=false`)],
  ['Cookie header (every cookie value)', () => {
    const session = hex(32), csrf = alnum(32);
    return { text: `curl -H 'Cookie: sessionid=${session}; csrftoken=${csrf}' https://app.example.com/admin/`, secrets: [session, csrf] };
  }],
  ['Set-Cookie header', () => key('', url(40), (k) => `< Set-Cookie: _app_session=${k}; Path=/; HttpOnly; SameSite=Lax`)],
  ['redis-cli -a', () => key('', alnum(16), (k) => `redis-cli -h cache.internal -a ${k} ping`)],
  ['.pgpass line', () => key('', alnum(18), (k) => `$ cat ~/.pgpass\ndb.internal:5432:app:app_user:${k}`)],
  ['aws configure set aws_secret_access_key', () => key('', b64(40), (k) => `aws configure set aws_secret_access_key ${k} --profile ci`)],
  ['Password told in a sentence ("my password is …")', () => key('', `${word(5)}-${word(6)}-${digits(2)}`, (k) => `my password is ${k}, please keep it safe`)],
  ['Token told in a sentence ("the token is …")', () => key('', alnum(40), (k) => `the token is ${k}`)],
  ['Bare AWS secret after "the secret is"', () => key('', b64(40), (k) => `the key id is in the console and the secret is ${k}`)],
  ['Vault token header (X-Vault-Token: s.…)', () => key('s.', alnum(24), (k) => `curl -H "X-Vault-Token: ${k}" https://vault.internal/v1/secret/data/app`)],
  // The leak check needs 12 characters in a row, so these bodies are at least that long; lower case and short, they read as a name.
  ['Vault token header, lower-case body (X-Vault-Token: s.…)', () => key('s.', pick(LOWER, 24), (k) => `curl -H 'X-Vault-Token: ${k}' https://vault.internal/v1/sys/health`)],
  ['Vault batch token header (X-Vault-Token: hvb.…)', () => key('hvb.', pick(LETTERS, 14), (k) => `X-Vault-Token: ${k}`)],
  ['Ansible become password (ansible_become_pass=)', () => key('', alnum(14), (k) => `ansible-playbook site.yml -e ansible_become_pass=${k}`)],
  ['Quoted passphrase with spaces (JSON)', () => key('', `${alnum(4)}$ ${alnum(4)} ${alnum(4)} ${alnum(4)}`, (k) => `{"client_secret": "${k}"}`)],
  ['Quoted passphrase with spaces (.env)', () => {
    const a = phrase(), b = phrase();
    return { text: `DATABASE_PASSWORD='${a}'\nSESSION_SECRET="${b}"`, secrets: [a, b] };
  }],
  ['Quoted passphrase with spaces (YAML)', () => key('', phrase(), (k) => `db:\n  user: app\n  password: "${k}"`)],
  ['Azure storage account key on its own', () => key('', b64(86) + '==', (k) => `Copy this into the portal: ${k}`)],
  ['Twilio auth token after its account SID', () => key('', hex(32), (k) => `client = Client("AC${hex(32)}", "${k}")`)],
  ['Heroku API key (a UUID after "heroku")', () => key('', randomUUID(), (k) => `heroku auth:token printed ${k}`)],
  ['Long random string with no name (32+ characters)', () => key('', `${alnum(18)}${digits(1)}${pick(UPPER, 1)}${pick(LOWER, 1)}${alnum(18)}`, (k) => `Here you go: ${k}`)],
  ['Bare AWS secret access key with no name (base64 with "/")', () => key('', `${alnum(9)}/${alnum(7)}/${alnum(10)}+${alnum(12)}`, (k) => `aws said: ${k}`)],
  ['URL password containing /', () => key('', `${alnum(6)}/${alnum(8)}`, (k) => `postgres://app:${k}@db.internal:5432/app`)],
];

/** A capitalised made-up word, as in "Tulip-Rocket-88". */
function word(n) {
  return pick(UPPER, 1) + pick(LOWER, n - 1);
}

/** Four made-up lower-case words and a digit: a passphrase that reads like no message. */
function phrase() {
  return `${pick(LOWER, 6)} ${pick(LOWER, 5)} ${pick(LOWER, 7)} ${pick(LOWER, 4)} ${digits(1)}`;
}

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
