import { describe, expect, it } from 'vitest';
import { nameWords } from './param-schema.js';
import { queryCandidates } from '../text/values.js';
import { knownInQuery, nameParts } from './value-fit.js';

describe('nameParts', () => {
  const request = 'I am Yusuf Rossi and I want to see the Vanguard funds from the Fidelity list.';
  const parts = (param: string) => nameParts(nameWords(param), queryCandidates(request)).map((c) => c.value);

  it('gives a name-part parameter that part of a written full name', () => {
    expect(parts('first_name')).toEqual(['Yusuf']);
    expect(parts('lastName')).toEqual(['Rossi']);
    expect(parts('family_name')).toEqual(['Rossi']);
    expect(parts('surname')).toEqual(['Rossi']);
  });

  it('takes no name part from a name written after an article (a place or a thing)', () => {
    const written = 'You are a guy called Noah Patel, living in the Big Apple in 10108.';
    const last = nameParts(nameWords('last_name'), queryCandidates(written)).map((c) => c.value);
    expect(last).toEqual(['Patel']);
    const placed = 'You are ivan_hernandez_6923 living in San Diego, 92133.';
    expect(nameParts(nameWords('first_name'), queryCandidates(placed))).toEqual([]);
  });

  it('leaves a parameter alone whose name only contains a part word (a fund family is no surname)', () => {
    expect(parts('fund_family')).toEqual([]);
    expect(parts('last_updated')).toEqual([]);
    expect(parts('first_date')).toEqual([]);
  });
});

describe('knownInQuery', () => {
  const found = (request: string, known: string[]) =>
    knownInQuery(request, known, queryCandidates(request)).map((c) => c.value);

  it('finds a known value the request writes as a word of its own', () => {
    expect(found('Answer in es please, for Madrid', ['es', 'fr'])).toEqual(['es']);
  });
});
