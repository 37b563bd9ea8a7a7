import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { loadFunctionTools, toolsFromModule } from './function-tools.js';
import { createToolRegistry } from './registry.js';

const dir = mkdtempSync(join(tmpdir(), 'flowscout-fn-tools-'));
function moduleFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('loadFunctionTools', () => {
  it('loads named exports, a default array and a tools array from a user module', async () => {
    const file = moduleFile(
      'ok.mjs',
      `export const add = { name: 'add', description: 'a+b', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, execute: async ({ a, b }) => a + b };
       export const VERSION = '1.0';
       export const tools = [{ name: 'echo', description: 'echo', inputSchema: { type: 'object', properties: {} }, execute: (args) => args }];
       export default [add];`,
    );
    const tools = await loadFunctionTools(file);
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'echo']);
    const reg = createToolRegistry(tools);
    expect(await reg.call('add', { a: 2, b: '3' })).toMatchObject({ status: 'ok', output: 5 });
  });

  it('names every broken export and what it lacks', async () => {
    const file = moduleFile(
      'bad.mjs',
      `export const noExec = { name: 'x', description: 'x', inputSchema: { type: 'object', properties: {} } };
       export const badSchema = { name: 'y', description: 'y', inputSchema: { type: 'string' }, execute() {} };
       export const tools = [{ name: '', description: 3, inputSchema: {}, execute: () => 1 }];`,
    );
    await expect(loadFunctionTools(file)).rejects.toThrow(
      /export 'tools\[0\]': "name" must be a non-empty string[\s\S]*export 'tools\[0\]': "description" must be a string[\s\S]*export 'noExec': "execute" must be a function[\s\S]*export 'badSchema': "inputSchema" must have "type": "object"/,
    );
  });

  it('reports a module without tools, a missing file and a module that fails to import', async () => {
    await expect(loadFunctionTools(moduleFile('none.mjs', 'export const x = 1;'))).rejects.toThrow(/exports no tools/);
    await expect(loadFunctionTools(join(dir, 'missing.mjs'))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(loadFunctionTools(moduleFile('broken.mjs', 'throw new Error("kaput")'))).rejects.toThrow(
      /could not load tool module .*kaput/,
    );
  });

  it('reports two exports with the same tool name', () => {
    const spec = {
      name: 'dup',
      description: 'd',
      inputSchema: { type: 'object', properties: {} },
      execute: async () => 1,
    };
    expect(() => toolsFromModule({ a: spec, b: { ...spec } }, 'm.js')).toThrow(
      /export 'b': tool name 'dup' is already used by export 'a'/,
    );
  });
});

describe('defineTool', () => {
  it('turns a zod schema into JSON Schema and hands execute parsed, typed arguments', async () => {
    const t = defineTool({
      name: 'greet',
      description: 'greets',
      inputSchema: z.object({ who: z.string(), times: z.number().int().default(1) }),
      execute: async ({ who, times }) => `${'hi '.repeat(times)}${who}`,
    });
    expect(t.inputSchema).toMatchObject({ type: 'object', properties: { who: { type: 'string' } }, required: ['who'] });
    expect(t.inputSchema).not.toHaveProperty('$schema');
    const reg = createToolRegistry([t]);
    expect(await reg.call('greet', { who: 'Ada' })).toMatchObject({ status: 'ok', output: 'hi Ada' });
    expect((await reg.call('greet', { times: 2 })).error).toContain('$.who: required but missing');
  });
});
