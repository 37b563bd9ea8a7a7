import { describe, expect, it } from 'vitest';
import { describeUndeclaredEffects, suggestEffect, suggestedEffectsMap, suggestEffects } from './effect-suggestions.js';

const tool = (name: string, description = '') => ({ name, description });

describe('suggested effects for tools nobody described', () => {
  it('reads the verb a name starts with, in any case style: read, write or destructive', () => {
    expect(suggestEffect(tool('get_invoice'))).toMatchObject({ effect: 'read', cue: { word: 'get', in: 'name' } });
    expect(suggestEffect(tool('listProjects')).effect).toBe('read');
    expect(suggestEffect(tool('update-ticket')).effect).toBe('write');
    expect(suggestEffect(tool('DeleteRepository')).effect).toBe('destructive');
    expect(suggestEffect(tool('revoke_api_key')).effect).toBe('destructive');
  });

  it("falls back to the description's first word, and suggests nothing without a cue", () => {
    expect(suggestEffect(tool('ticket', 'Closes nothing. Creates a support ticket.'))).toEqual({ tool: 'ticket' });
    expect(suggestEffect(tool('refund_flow', 'x'))).toMatchObject({ effect: 'write' });
    expect(suggestEffect(tool('notes', 'Deletes a note for good.'))).toMatchObject({
      effect: 'destructive',
      cue: { word: 'delete', in: 'description' },
    });
    expect(suggestEffect(tool('weather', 'Returns the forecast for a city.'))).toEqual({ tool: 'weather' });
    expect(suggestEffect(tool('ponder', 'Use it to think.'))).toEqual({ tool: 'ponder' });
  });

  it('makes a map of the suggested effects only, and says what an undeclared effect means', () => {
    const s = suggestEffects([tool('search_docs'), tool('ponder'), tool('cancel_booking')]);
    expect(suggestedEffectsMap(s)).toEqual({ cancel_booking: 'destructive', search_docs: 'read' });
    const lines = describeUndeclaredEffects([tool('search_docs'), tool('ponder'), tool('cancel_booking')], 'x.json');
    expect(lines[0]).toContain('no declared effect: 3 tools (search_docs, ponder, cancel_booking)');
    expect(lines[1]).toContain(
      '1 read, 0 write, 1 destructive (cancel_booking); no verb cue, left as an undeclared write: ponder',
    );
    expect(lines[2]).toBe('"effects": {"cancel_booking":"destructive","search_docs":"read"}');
    expect(describeUndeclaredEffects([])).toEqual([]);
  });
});
