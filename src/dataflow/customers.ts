import { isLanguageWord } from '../util/words.js';

/**
 * Whose data a value is, and which words a workflow may keep (docs/DESIGN.md, "Arguments by example":
 * nothing a workflow keeps is one customer's): what is learned must recur across distinct customers, and a
 * word must be one of the language or of the tools' own texts.
 */

/** A record as these rules read it. */
export interface CustomerRecord {
  id: string;
  group?: string;
  meta?: Record<string, unknown>;
}

/** Fields of a record's `meta` that name who the record is about, in the order they are read. */
const CUSTOMER_FIELDS = ['user_id', 'userId', 'user', 'customer_id', 'customer', 'session_owner', 'email', 'name'];

/**
 * The customer a record counts for, so that what a workflow keeps must recur across distinct
 * customers, not only across one customer's many tasks: the user, session owner, e-mail address or
 * name its log names (a string in `meta` under one of `CUSTOMER_FIELDS`), else its group, else itself.
 */
export function customerOf(r: CustomerRecord): string {
  for (const k of CUSTOMER_FIELDS) {
    const v = r.meta?.[k];
    if (typeof v === 'string' && v.trim() !== '') return `customer:${v.trim().toLowerCase()}`;
  }
  return r.group ?? `record:${r.id}`;
}

/**
 * The words of the tools' own texts (names, descriptions, parameter names and documentation, lower-
 * cased): with the language's words (util/words.ts), the only words a hint may keep.
 */
export function toolWords(
  tools: ReadonlyArray<{ name: string; description?: string; inputSchema?: unknown }>,
): Set<string> {
  const out = new Set<string>();
  for (const t of tools)
    for (const m of `${t.name.replace(/([a-z])([A-Z])/g, '$1 $2')} ${t.description ?? ''} ${JSON.stringify(t.inputSchema ?? {})}`
      .replace(/_/g, ' ')
      .toLowerCase()
      .matchAll(/[a-z]+/g))
      out.add(m[0]);
  return out;
}

/** A word a hint may keep: a word of the language or of the tools' own texts, never a name or a code. */
export const knownWord = (w: string, tools: ReadonlySet<string>) => isLanguageWord(w) || tools.has(w.toLowerCase());

/**
 * A value a workflow may keep as it is: every run of four letters or more in it is a known word
 * (`metric`, `json`), never a name or a code one customer wrote (`lindqvist`, `xkqwpl`).
 */
export const knownValue = (v: unknown, tools: ReadonlySet<string>) =>
  [...String(v).matchAll(/[A-Za-z]{4,}/g)].every((m) => knownWord(m[0], tools));
