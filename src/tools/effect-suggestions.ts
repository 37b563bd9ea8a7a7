import type { ToolDescriptor, ToolEffect } from '../contracts/tools.js';

/**
 * Suggested effects for tools nobody described: `read`, `write` or `destructive` from the verb a
 * tool's name starts with (or, when its name has none, the first word of its description), by
 * generic English verb cues — `get` / `list` / `find` read, `update` / `modify` / `transfer` write,
 * `delete` / `cancel` / `revoke` destroy. No rule names a tool, a domain or a dataset. A tool with
 * no cue gets no suggestion (it stays an undeclared write). The suggestions are printed and written
 * apart from the tool config (the import's `effects.suggested.json`); nothing applies them: the
 * user confirms them by copying the map into the config's `effects`.
 */

const CUES: ReadonlyArray<readonly [ToolEffect, readonly string[]]> = [
  [
    'destructive',
    [
      'delete',
      'remove',
      'cancel',
      'destroy',
      'drop',
      'purge',
      'erase',
      'revoke',
      'terminate',
      'wipe',
      'void',
      'discard',
    ],
  ],
  [
    'write',
    [
      'create',
      'add',
      'update',
      'modify',
      'set',
      'change',
      'edit',
      'write',
      'insert',
      'put',
      'post',
      'save',
      'submit',
      'send',
      'transfer',
      'exchange',
      'return',
      'book',
      'reserve',
      'place',
      'assign',
      'apply',
      'register',
      'upload',
      'move',
      'rename',
      'replace',
      'enable',
      'disable',
      'approve',
      'reject',
      'refund',
      'pay',
      'charge',
      'schedule',
      'invite',
      'buy',
      'purchase',
      'upsert',
      'patch',
    ],
  ],
  [
    'read',
    [
      'get',
      'list',
      'find',
      'search',
      'lookup',
      'look',
      'fetch',
      'read',
      'show',
      'view',
      'query',
      'retrieve',
      'check',
      'describe',
      'count',
      'calculate',
      'compute',
      'browse',
      'inspect',
      'validate',
      'verify',
      'estimate',
      'convert',
      'translate',
      'summarize',
      'explain',
      'compare',
      'download',
    ],
  ],
];

const EFFECT_OF = new Map<string, ToolEffect>(
  CUES.flatMap(([effect, verbs]) => verbs.map((v) => [v, effect] as const)),
);

/** One tool's suggestion: the effect and the word that suggested it, or nothing when no word did. */
export interface EffectSuggestion {
  tool: string;
  effect?: ToolEffect;
  /** The verb that decided, and where it was read. */
  cue?: { word: string; in: 'name' | 'description' };
}

/** `deleteOldFiles` / `delete-old_files` → ["delete", "old", "files"]. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** The effect of a word, also for simple inflections (`gets`, `listing`, `updated`). */
function effectOfWord(word: string): { effect: ToolEffect; word: string } | undefined {
  const stems = [
    word,
    ...[/s$/, /es$/, /ing$/, /ed$/, /d$/].map((re) => word.replace(re, '')),
    word.replace(/(ing|ed)$/, 'e'),
  ];
  for (const w of stems) {
    const effect = EFFECT_OF.get(w);
    if (effect) return { effect, word: w };
  }
  return undefined;
}

/** The suggested effect of one tool (see the module comment). */
export function suggestEffect(tool: Pick<ToolDescriptor, 'name' | 'description'>): EffectSuggestion {
  const name = words(tool.name);
  // A name's first cue decides (the verb usually leads: `get_order`, `order_cancel` is rarer).
  for (const w of name) {
    const hit = effectOfWord(w);
    if (hit) return { tool: tool.name, effect: hit.effect, cue: { word: hit.word, in: 'name' } };
  }
  // Else the description's first word, as an imperative ("Cancel a pending order."); "Returns …"
  // opens descriptions of reads as often as of writes, so it says nothing there.
  const first = words(tool.description ?? '')[0];
  const hit = first ? effectOfWord(first) : undefined;
  if (hit?.word === 'return') return { tool: tool.name };
  return hit
    ? { tool: tool.name, effect: hit.effect, cue: { word: hit.word, in: 'description' } }
    : { tool: tool.name };
}

/** Suggestions for every tool given, in their order. */
export function suggestEffects(tools: ReadonlyArray<Pick<ToolDescriptor, 'name' | 'description'>>): EffectSuggestion[] {
  return tools.map(suggestEffect);
}

/** The suggested `effects` map of a tool config (tools without a cue left out), sorted by tool name. */
export function suggestedEffectsMap(suggestions: readonly EffectSuggestion[]): Record<string, ToolEffect> {
  const out: Record<string, ToolEffect> = {};
  for (const s of [...suggestions].sort((a, b) => a.tool.localeCompare(b.tool))) if (s.effect) out[s.tool] = s.effect;
  return out;
}

/** What an undeclared effect means, in one sentence (the import and `flowscout tools` say it). */
export const UNDECLARED_MEANING =
  'each counts as a write: while evaluating, a live one is answered from the records or refused, and none is ever held for approval (only destructive calls are)';

/**
 * The lines that name the tools with no declared effect, say what that means and give the suggested
 * `effects` map to confirm, e.g. for `flowscout tools`; empty when every tool is declared.
 */
export function describeUndeclaredEffects(
  tools: ReadonlyArray<Pick<ToolDescriptor, 'name' | 'description'>>,
  /** The tool config the map goes in, for the sentence. */
  where?: string,
): string[] {
  if (tools.length === 0) return [];
  const suggestions = suggestEffects(tools);
  const names = tools.map((t) => t.name);
  const lines = [
    `no declared effect: ${tools.length} tool${tools.length === 1 ? '' : 's'} (${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''}): ${UNDECLARED_MEANING}.`,
    `suggested from their names and descriptions: ${summarizeSuggestions(suggestions)}. Not applied: confirm it, then put it in the "effects" of ${where ?? 'the tool config'}:`,
    `"effects": ${JSON.stringify(suggestedEffectsMap(suggestions))}`,
  ];
  return lines;
}

/** `9 read, 5 write, 1 destructive (cancel_order); no verb cue: think`. */
export function summarizeSuggestions(suggestions: readonly EffectSuggestion[]): string {
  const of = (e: ToolEffect) => suggestions.filter((s) => s.effect === e);
  const destructive = of('destructive').map((s) => s.tool);
  const none = suggestions.filter((s) => !s.effect).map((s) => s.tool);
  return [
    `${of('read').length} read, ${of('write').length} write, ${destructive.length} destructive${destructive.length ? ` (${destructive.join(', ')})` : ''}`,
    ...(none.length ? [`no verb cue, left as an undeclared write: ${none.join(', ')}`] : []),
  ].join('; ');
}
