import winkNLP, { type ItemEntity, type ItemSentence, type ItemToken, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * The one reading of English text (docs/DESIGN.md, "Reading requests": what a policy reads of a request):
 * wink-nlp with its English model tokenizes, splits sentences, tags parts of speech, finds entities
 * (dates, times, numbers, money, e-mail addresses, …), stems (Porter2) and flags stop words. Every
 * reader of requests, tool texts and hints goes through here, so the project has one tokenizer, one
 * stemmer and one stop-word list. Readings are kept for the most recent texts (a request is read by
 * every step of its run).
 */

/** One token with where it stands in the text. */
export interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
  /** Universal part of speech: NOUN, PROPN, VERB, ADJ, NUM, ADP, PUNCT, … */
  pos: string;
  /** wink's token type: word, number, email, url, punctuation, currency, time, … */
  type: string;
  stop: boolean;
  stem: string;
  /** The dictionary form (`including` → `include`). */
  lemma: string;
}

/** An entity wink found: DATE, TIME, CARDINAL, ORDINAL, MONEY, PERCENT, EMAIL, URL, DURATION, … */
export interface Entity {
  type: string;
  value: string;
  start: number;
  end: number;
  /** Its first and last token. */
  first: number;
  last: number;
}

export interface Reading {
  text: string;
  tokens: Token[];
  /** Sentences as [first token, last token]. */
  sentences: Array<[number, number]>;
  entities: Entity[];
}

/**
 * Words that say how a request asks, not what it asks for ("can you find …", "let me check …",
 * "finally, …"): stop words of requests to tools that the library's general list leaves out. Added
 * to it, so there is still one list.
 */
const REQUEST_WORDS = new Set(
  "need want like tell know help find look check use retrieve fetch pull finally lastly let got i'm i'd i'll i've".split(
    ' ',
  ),
);

let nlp: WinkMethods | undefined;
const engine = (): WinkMethods => (nlp ??= winkNLP(model, ['sbd', 'pos', 'ner']));

const memo = new Map<string, Reading>();
const MEMO_SIZE = 4096;

/** The reading of `text` (see the module comment). */
export function readText(text: string): Reading {
  const hit = memo.get(text);
  if (hit) {
    // Most recently used last.
    memo.delete(text);
    memo.set(text, hit);
    return hit;
  }
  const reading = readFresh(text);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(text, reading);
  return reading;
}

function readFresh(text: string): Reading {
  const n = engine();
  const its = n.its;
  const doc = n.readDoc(text);
  const tokens: Token[] = [];
  let at = 0;
  doc.tokens().each((t: ItemToken) => {
    const value = t.out();
    const found = text.indexOf(value, at);
    const start = found >= 0 ? found : at;
    const end = found >= 0 ? start + value.length : at;
    at = end;
    const type = t.out(its.type) as string;
    tokens.push({
      text: value,
      lower: value.toLowerCase(),
      start,
      end,
      pos: t.out(its.pos) as string,
      type,
      stop: (t.out(its.stopWordFlag) as boolean) || REQUEST_WORDS.has(value.toLowerCase()),
      // Numbers, e-mail addresses and the like are not words: no stem.
      stem: type === 'word' ? (t.out(its.stem as Parameters<ItemToken['out']>[0]) as string) : value.toLowerCase(),
      lemma: type === 'word' ? (t.out(its.lemma as Parameters<ItemToken['out']>[0]) as string) : value.toLowerCase(),
    });
  });
  const sentences: Array<[number, number]> = [];
  doc.sentences().each((s: ItemSentence) => {
    const [a, b] = s.out(its.span) as unknown as [number, number];
    sentences.push([a, b]);
  });
  const entities: Entity[] = [];
  doc.entities().each((e: ItemEntity) => {
    const [a, b] = e.out(its.span) as unknown as [number, number];
    const first = tokens[a];
    const last = tokens[b];
    if (!first || !last) return;
    entities.push({
      type: e.out(its.type) as string,
      value: text.slice(first.start, last.end),
      start: first.start,
      end: last.end,
      first: a,
      last: b,
    });
  });
  return { text, tokens, sentences, entities };
}
