/**
 * The one redaction pass over what FlowScout writes or sends (files, stdout/stderr, HTTP and MCP
 * answers, the store): the secret values of the environment (API keys, the serve token) in their
 * own text and in their common encodings (base64, URL-safe base64, percent-encoded), credentials in
 * URLs (`https://user:pass@…`), `Bearer` / `Basic` credentials, `api_key=…` assignments and
 * key-shaped strings (`sk-…`), even when the value is not known here (a model may echo a key).
 *
 * Also caught: a known secret split across lines (a line break, or a JSON `\n`, anywhere after its
 * first three characters), a key-shaped string whose next line goes on with a chunk of key characters, and a secret or
 * key-shaped string in a transformed form: written with `\uXXXX` escapes (also escaped once more, as
 * a JSON file holds a text that has them: `\\u0073\\u006b…`) or percent-encoded in any of its
 * characters (`sk%2D…`, any case). Not caught as a key: business data that merely starts with `sk-`
 * (`"sku": "sk-00012345-blue"`) — an unknown key-shaped string must hold a random-looking run (12
 * or more letters and digits, both present) or be 32 characters long — and an `api_key=…`
 * assignment whose value is not random-looking (`api_key=public-demo-key-123` in a tool's output is
 * data, not the user's key; the user's own keys are redacted in any form wherever they appear).
 */

/** Environment variables whose values are secrets. */
export const SECRET_ENV_VARS = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENAI_COMPATIBLE_API_KEY',
  'OLLAMA_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'FLOWSCOUT_SERVE_TOKEN',
] as const;

/**
 * Key-shaped strings, scrubbed even when we do not know the value (a server may echo a key): `sk-`
 * and key characters (OpenAI, Anthropic `sk-ant-…`, most gateways), going on across a line break
 * when the next line starts with a chunk of 8 or more key characters holding a digit. Whether a
 * match is a key or business data is decided by `isKeyShaped`.
 */
const BARE_KEY = /\bsk-[A-Za-z0-9_-]{8,}(?:(?:\r?\n|\\n)(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{8,})*/g;
/**
 * A run of key characters and escapes: `\uXXXX` (`\u0073\u006b-…`), also with more backslashes
 * (the same text inside JSON: `\\u0073`), and percent-encoded bytes (`sk%2D…`). Maximal runs, each
 * character read once (a pattern that had to end on an escape would go back over a long run of key
 * characters from every start: 60 s on a 130 kB base64 blob); those holding an escape (`HAS_ESCAPE`)
 * are decoded.
 */
const KEY_RUN = /(?:\\+u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2}|[A-Za-z0-9_+/=.:@~-])+/g;
/** Whether a text or a run holds an escape. */
const HAS_ESCAPE = /\\u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2}/;

/** The text of an escaped run: `\uXXXX` escapes (any number of backslashes) and percent-encoded UTF-8 bytes decoded. */
function decodeRun(run: string): string {
  return run
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (m) =>
      Buffer.from(
        m
          .slice(1)
          .split('%')
          .map((h) => parseInt(h, 16)),
      ).toString('utf8'),
    );
}
/** What may stand between two characters of a secret split across lines: whitespace and JSON `\n` / `\r` / `\t`. */
const SPLIT = '(?:\\s|\\\\[nrt])*';

/** True when a `sk-…` match (line breaks removed) looks like a key rather than business data (see the module comment). */
function isKeyShaped(match: string): boolean {
  const body = match.replace(/\r?\n|\\n/g, '').slice(3);
  if (body.length >= 32) return true;
  return body.split(/[-_]/).some((part) => part.length >= 12 && /\d/.test(part) && /[A-Za-z]/.test(part));
}

/** A secret's text allowing a line break (or whitespace, or a JSON `\n`) between any two of its characters. */
const splitForms = new Map<string, RegExp>();
function splitForm(secret: string): RegExp {
  let re = splitForms.get(secret);
  if (!re) {
    if (splitForms.size >= 64) splitForms.clear();
    re = new RegExp([...secret].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(SPLIT), 'g');
    splitForms.set(secret, re);
  }
  re.lastIndex = 0;
  return re;
}
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const KEY_ASSIGNMENT = /\b(api[_-]?key|access[_-]?token|x-api-key)(["']?\s*[:=]\s*["']?)([A-Za-z0-9._~+/-]{8,})/gi;

/**
 * Whether an assigned value looks like a credential rather than readable data: 32 or more
 * characters, or a part (between `-`, `_`, `.`, `~`, `+`, `/`) of 12 or more letters and digits
 * holding both. `public-demo-key-123` does not; `AIzaSyD4x9Lk2QwErTy7UiOp` does.
 */
function isRandomLooking(value: string): boolean {
  if (value.length >= 32) return true;
  return value.split(/[-_.~+/]/).some((part) => part.length >= 12 && /\d/.test(part) && /[A-Za-z]/.test(part));
}

/** The user-information part of a URL (`https://user:pass@host`, `redis://:pass@host`). */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@'"<>]*)@/gi;

export const REDACTED = '[redacted]';

/** The forms a secret is written in besides its own text: base64 (also URL-safe, unpadded) and percent-encoded. */
function encodings(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const out = [
    secret,
    b64,
    b64.replace(/=+$/, ''),
    Buffer.from(secret, 'utf8').toString('base64url'),
    encodeURIComponent(secret),
  ];
  return [...new Set(out)].filter((x) => x.length >= 6).sort((a, b) => b.length - a.length);
}

/** Secrets this process was given other than through the environment (a command-line `--token`). */
const registered = new Set<string>();

/**
 * Adds a secret the process was given on its command line (`serve --token`) to every later
 * redaction in this process, as if it were one of SECRET_ENV_VARS (only non-trivial ones: at least 6
 * characters).
 */
export function registerSecret(value: string | undefined): void {
  const v = value?.trim();
  if (v && v.length >= 6) registered.add(v);
}

/** The secret values present in `env` and the registered ones (only non-trivial ones: at least 6 characters). */
export function secretsFromEnv(env: Record<string, string | undefined>): string[] {
  const out: string[] = [...registered];
  for (const name of SECRET_ENV_VARS) {
    const v = env[name]?.trim();
    if (v && v.length >= 6) out.push(v);
  }
  return out;
}

/** Replaces every known secret value and every key-shaped string in `text` with `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Escaped runs first: decoded, a run that holds a secret or a key is redacted whole.
  if (HAS_ESCAPE.test(out))
    out = out.replace(KEY_RUN, (run: string, offset: number, whole: string) => {
      if (!HAS_ESCAPE.test(run)) return run;
      // A run cut by a clip (`…`, perhaps inside an escape) is checked as the cut text it is.
      const cut = CUT_AFTER_RUN.test(whole.slice(offset + run.length, offset + run.length + 12));
      const decoded = `${decodeRun(run)}${cut ? CLIP_MARK : ''}`;
      return scrubPlain(decoded, secrets) === decoded ? run : REDACTED;
    });
  return scrubPlain(out, secrets);
}

/** The marker `clip` ends a cut text with: what precedes it may be the start of a secret. */
const CLIP_MARK = '…';
/** What follows an escaped run that a clip cut: a partial escape, then the marker. */
const CUT_AFTER_RUN = /^(?:\\+u?[0-9a-fA-F]{0,3}|%[0-9a-fA-F]?)?…/;
/** Characters a secret's start must keep before a clip marker to count as that secret (fewer when it is shorter). */
const CUT_PREFIX = 12;

/** A form of a secret cut short by a clip: its first `CUT_PREFIX` characters or more, then `…`. */
const cutForms = new Map<string, RegExp>();
function cutForm(form: string): RegExp {
  let re = cutForms.get(form);
  if (!re) {
    if (cutForms.size >= 64) cutForms.clear();
    const esc = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const min = Math.min(CUT_PREFIX, form.length - 1);
    let rest = '';
    for (const c of [...form.slice(min, -1)].reverse()) rest = `(?:${esc(c)}${rest})?`;
    re = new RegExp(`${[...form.slice(0, min)].map(esc).join('')}${rest}${CLIP_MARK}`, 'g');
    cutForms.set(form, re);
  }
  re.lastIndex = 0;
  return re;
}

function scrubPlain(text: string, secrets: readonly string[]): string {
  let out = text;
  const broken = /\s|\\[nrt]/.test(out);
  for (const s of secrets) {
    if (s.length < 6) continue;
    for (const form of encodings(s)) {
      out = out.split(form).join(REDACTED);
      if (out.includes(CLIP_MARK) && form.length > 6) out = out.replace(cutForm(form), `${REDACTED}${CLIP_MARK}`);
      if (broken && out.includes(form.slice(0, 3))) out = out.replace(splitForm(form), REDACTED);
    }
  }
  return out
    .replace(URL_CREDENTIALS, (m, scheme: string, user: string) =>
      /^[:*]*$/.test(user) || user === REDACTED ? m : `${scheme}${REDACTED}@`,
    )
    .replace(AUTH_SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(KEY_ASSIGNMENT, (m, name: string, sep: string, value: string) =>
      isRandomLooking(value) ? `${name}${sep}${REDACTED}` : m,
    )
    .replace(BARE_KEY, (m) => (isKeyShaped(m) ? REDACTED : m));
}

/** `text` with the secrets of this process's environment and every credential-shaped string redacted. */
export function redactText(text: string): string {
  return scrubSecrets(text, secretsFromEnv(process.env));
}
