import { describe, expect, it } from 'vitest';
import { firstErrorOffset, parseJsonText } from './json-file.js';

const where = (text: string) => {
  try {
    parseJsonText(text, 'f.json');
  } catch (e) {
    const loc = (e as { location: { line: number; column: number } }).location;
    return `${loc.line}:${loc.column} ${(e as Error).message}`;
  }
  return 'valid';
};

describe('JSON error positions', () => {
  it('name the first bad character, also when it is the very first one', () => {
    expect(where('x{"a": 1,\n "b": 2}\n')).toBe("1:1 not valid JSON: Unexpected token 'x'");
    expect(where('{"a": 1,\n "b" 2}')).toBe('2:6 not valid JSON: Unexpected number');
    expect(where('{"a": [1, 2,]}')).toMatch(/^1:13 /);
    expect(where('{"a": tru}')).toBe("1:10 not valid JSON: Unexpected token '}'");
    expect(where('{"a": 1')).toMatch(/^1:8 /);
  });

  it('finds the offset the way JSON.parse rejects', () => {
    for (const ok of ['{}', '[]', '{"a":[1,-2.5e3,"x\\"y",true,false,null]}', ' 3 '])
      expect(firstErrorOffset(ok)).toBeUndefined();
    expect(firstErrorOffset('{"a":1}}')).toBe(7);
    expect(firstErrorOffset('{"a":01}')).toBe(6);
  });
});

describe('a JSON Lines file where one JSON document is expected', () => {
  it('says it is JSON Lines and where such a file goes, instead of an error at line 2', () => {
    const lines = '{"id": "a", "query": "q"}\n{"id": "b", "query": "r"}\n';
    let thrown: unknown;
    try {
      parseJsonText(lines, 'records.jsonl');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({
      code: 'PARSE_ERROR',
      message: 'this is JSON Lines (one JSON value a line), but one JSON document is expected here',
      location: { file: 'records.jsonl' },
    });
    expect((thrown as { hint: string }).hint).toContain('a JSONL file of records goes to --records');
    // Two objects on one line, or a broken second line, are still located where they break.
    expect(where('{"a": 1}{"b": 2}\n')).toMatch(/^1:9 not valid JSON/);
    expect(where('{"a": 1}\n{"b": \n')).toMatch(/^2:1 not valid JSON/);
  });
});
