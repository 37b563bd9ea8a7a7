import { describe, expect, it } from 'vitest';
import { REDACTED, scrubSecrets } from './redact.js';

const KEY = 'sk-proj-Q7rT2mX9vB4nL8kP3wZ6yH1cF5jD0sA';

describe('scrubSecrets', () => {
  it('catches a known key split across a line, in text and in JSON (an escaped newline)', () => {
    const half = 17;
    const text = `the key is ${KEY.slice(0, half)}\n${KEY.slice(half)} (wrapped)`;
    expect(scrubSecrets(text, [KEY])).toBe(`the key is ${REDACTED} (wrapped)`);
    const json = JSON.stringify({ log: `key=${KEY.slice(0, half)}\r\n  ${KEY.slice(half)}` });
    expect(scrubSecrets(json, [KEY])).not.toContain(KEY.slice(half));
    expect(scrubSecrets(json, [KEY])).toContain(REDACTED);
  });

  it('catches an unknown key-shaped string whose next line goes on with key characters', () => {
    const unknown = 'sk-live-9fK2mQ7xR4tY8wP1nB6vC3';
    const out = scrubSecrets(`echo ${unknown.slice(0, 20)}\n${unknown.slice(20)}\nThe answer is 42.`);
    expect(out).toBe(`echo ${REDACTED}\nThe answer is 42.`);
  });

  it('catches a key written with JSON \\u escapes, known or only key-shaped', () => {
    const escape = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(scrubSecrets(`{"k": "${escape(KEY)}"}`, [KEY])).toBe(`{"k": "${REDACTED}"}`);
    // Partly escaped, and not known to this process.
    const shaped = `\\u0073\\u006b-live-9fK2mQ7xR4tY8wP1nB6vC3`;
    expect(scrubSecrets(`{"k": "${shaped}"}`)).toBe(`{"k": "${REDACTED}"}`);
    // Escaped text that holds no key is left as it is.
    expect(scrubSecrets('{"city": "M\\u00fcnchen"}')).toBe('{"city": "M\\u00fcnchen"}');
  });

  it('catches the escaped forms inside a JSON file too (escaped once more), and percent-encoded forms in any case', () => {
    const shaped = String.raw`\u0073\u006b-live-9fK2mQ7xR4tY8wP1nB6vC3`;
    // JSON.stringify doubles the backslashes: the form a trace file holds.
    expect(scrubSecrets(JSON.stringify({ out: shaped }))).toBe(`{"out":"${REDACTED}"}`);
    for (const hex of [(h: string) => h.toUpperCase(), (h: string) => h]) {
      const pct = [...KEY].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `%${hex(c.charCodeAt(0).toString(16))}`)).join('');
      expect(pct).toMatch(/%2d/i);
      expect(scrubSecrets(`GET /v1?key=${pct} 200`, [KEY])).toBe(`GET /v1?${REDACTED} 200`);
    }
    expect(scrubSecrets('u=sk%2Dlive%2D9fK2mQ7xR4tY8wP1nB6vC3')).toBe(REDACTED);
    // Percent-encoded or escaped text that holds no key is left as it is.
    for (const data of ['/search?q=M%C3%BCnchen&days=3', '{"city": "M\\u00fcnchen"}', 'a 100% rise'])
      expect(scrubSecrets(data, [KEY])).toBe(data);
  });

  it('catches a known key cut short by a clip (12 characters or more before the marker), escaped or not', () => {
    // A secret of no known key shape (a serve token, a gateway key): only its value identifies it.
    const TOKEN = 'tok-Value-0123456789-abcdefXYZ';
    expect(scrubSecrets(`input: ${TOKEN.slice(0, 20)}… [400 more chars]`, [TOKEN])).toBe(
      `input: ${REDACTED}… [400 more chars]`,
    );
    const escape = (t: string) => [...t].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(scrubSecrets(`"input": "echoed ${escape(TOKEN).slice(0, 150)}… [9 more chars]"`, [TOKEN])).not.toContain(
      'u0056',
    );
    // Fewer characters of it than that say nothing of the key; other text before a marker stays.
    expect(scrubSecrets(`${TOKEN.slice(0, 8)}…`, [TOKEN])).toBe(`${TOKEN.slice(0, 8)}…`);
    expect(scrubSecrets('the weather in Oslo…', [TOKEN])).toBe('the weather in Oslo…');
  });

  it("keeps an api_key assignment whose value reads as data (another service's demo key), redacts a random-looking one", () => {
    expect(scrubSecrets('docs: api_key=public-demo-key-123', [KEY])).toBe('docs: api_key=public-demo-key-123');
    expect(scrubSecrets('api_key=AIzaSyD4x9Lk2QwErTy7UiOp')).toBe(`api_key=${REDACTED}`);
    expect(scrubSecrets(`api_key=${KEY}`, [KEY])).toBe(`api_key=${REDACTED}`);
  });

  it('leaves business data that merely starts with sk- as it is', () => {
    for (const data of [
      '{"sku": "sk-00012345-blue"}',
      'item sk-00012345-blue-large-xl in stock',
      'see sk-2024-catalogue',
    ])
      expect(scrubSecrets(data)).toBe(data);
    // Real key shapes still go.
    for (const key of ['sk-live-OTHERsecret99887766', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345', KEY])
      expect(scrubSecrets(`x ${key} y`)).toBe(`x ${REDACTED} y`);
  });
});
