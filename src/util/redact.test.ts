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
