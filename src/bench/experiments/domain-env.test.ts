import { describe, expect, it } from 'vitest';
import { domainByNameOrFolder } from './domain-env.js';

describe('domainByNameOrFolder', () => {
  it('keeps a bundled domain by its name, and reads any other text as a folder `flowscout import` wrote', () => {
    expect(domainByNameOrFolder('Travel')).toBe('Travel');
    expect(domainByNameOrFolder('data/mapping/')).toEqual({
      name: 'mapping',
      records: 'data/mapping/records.jsonl',
      tools: 'data/mapping/tools.config.json',
    });
  });
});
