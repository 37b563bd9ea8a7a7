import { FlowScoutError } from '../errors/index.js';
import { describeUnknownName } from './close-names.js';
import type { DeclaredEffect, ToolEffect, ToolEffects, ToolSpec } from '../contracts/tools.js';

/**
 * Tool effects: what a call does to the world (`read`, `write`, `destructive`, and whether it is
 * idempotent), so the commands that run a workflow many times (search, eval, bench) can keep write
 * calls away from live tools and every run can check a write call's arguments before it is made.
 *
 * Where an effect comes from, strongest first: the tool config's `effects` (an exact tool name, then
 * the first matching name pattern in the order written), then the tool's source (an MCP server's
 * annotations, `defineTool({ effect })`), else nothing: a live tool whose effect nobody declared
 * counts as `write`. Replay tools answer from recorded responses and touch nothing live, whatever
 * their effect.
 *
 * Lowering an effect the tool's source declares (a destructive or write tool made `read`, a
 * destructive one made `write`) takes the tool's exact name: a pattern (`"*_order": "read"`) that
 * would lower one is not applied to it — the source's effect stands — and `loweredByPattern` names
 * each such tool so the config's reader can warn (tools/load-tool-config.ts does).
 */

/** What the tool config's `effects` map gives a tool: an effect, or an effect and idempotence. */
export type EffectSetting = ToolEffect | { effect: ToolEffect; idempotent?: boolean };

/** The effect rules of a tool config: exact names and `*` patterns, in the order written. */
export interface EffectRules {
  entries: ReadonlyArray<readonly [key: string, setting: EffectSetting]>;
  /** Where the rules were written (the config file), for error messages. */
  file?: string;
}

/** The source a tool's effect was read from when nobody declared it. */
export const UNDECLARED_LIVE = 'not declared (a live tool counts as write)';
const UNDECLARED_REPLAY = 'not declared (replay: recorded responses only)';

/**
 * Reads MCP tool annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`).
 * No hint about reading or destroying means the server did not say (undefined). Following the MCP
 * specification, a tool that is not read-only is destructive unless `destructiveHint` is false.
 */
export function effectFromMcpAnnotations(annotations: Record<string, unknown> | undefined): DeclaredEffect | undefined {
  if (!annotations) return undefined;
  const readOnly = annotations.readOnlyHint;
  const destructive = annotations.destructiveHint;
  if (typeof readOnly !== 'boolean' && typeof destructive !== 'boolean') return undefined;
  const effect: ToolEffect = readOnly === true ? 'read' : destructive === false ? 'write' : 'destructive';
  const out: DeclaredEffect = { effect, from: 'MCP annotations' };
  // A read changes nothing, so repeating it is harmless; otherwise the hint says (default false).
  out.idempotent = effect === 'read' ? true : annotations.idempotentHint === true;
  if (typeof annotations.openWorldHint === 'boolean') out.openWorld = annotations.openWorldHint;
  return out;
}

/** True when `name` matches a rule key: the exact name, or a pattern where `*` stands for any characters. */
export function matchesEffectKey(key: string, name: string): boolean {
  if (!key.includes('*')) return key === name;
  const re = new RegExp(
    `^${key
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(name);
}

/**
 * Checks the rules against the tools they are meant for: an exact name that is no tool is a typo
 * (an error naming the key and the closest tool names); a pattern may match nothing.
 */
export function checkEffectRules(rules: EffectRules, toolNames: readonly string[]): void {
  const names = new Set(toolNames);
  const unknown = rules.entries.filter(([key]) => !key.includes('*') && !names.has(key)).map(([key]) => key);
  if (unknown.length === 0) return;
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `the tool config's "effects" name ${unknown.length === 1 ? 'a tool' : 'tools'} no source has: ${unknown.map((k) => describeUnknownName('tool', k, toolNames)).join('; ')}`,
    hint: 'Use a tool name from `flowscout tools <config>`, or a pattern with * (e.g. "cancel_*").',
    location: { ...(rules.file ? { file: rules.file } : {}), path: `$.effects.${unknown[0]}` },
  });
}

/** The rule that decides `name`'s effect: the exact name first, then the first pattern that matches. */
function ruleFor(name: string, rules: EffectRules | undefined): { key: string; setting: EffectSetting } | undefined {
  if (!rules) return undefined;
  const exact = rules.entries.find(([key]) => key === name);
  if (exact) return { key: exact[0], setting: exact[1] };
  const pattern = rules.entries.find(([key]) => key.includes('*') && matchesEffectKey(key, name));
  return pattern ? { key: pattern[0], setting: pattern[1] } : undefined;
}

const RANK: Record<ToolEffect, number> = { read: 0, write: 1, destructive: 2 };

function settingOf(setting: EffectSetting): { effect: ToolEffect; idempotent?: boolean } {
  return typeof setting === 'string' ? { effect: setting } : setting;
}

/** True when `rule` is a pattern that would give `spec` an effect below the one its source declares. */
function lowersDeclared(rule: { key: string; setting: EffectSetting }, spec: Pick<ToolSpec, 'effect'>): boolean {
  return (
    rule.key.includes('*') &&
    spec.effect !== undefined &&
    RANK[settingOf(rule.setting).effect] < RANK[spec.effect.effect]
  );
}

/** A pattern rule not applied because it would lower the effect a tool's source declares. */
export interface PatternLowering {
  tool: string;
  /** The pattern, e.g. `*_order`. */
  key: string;
  /** The effect the pattern gives. */
  wanted: ToolEffect;
  /** The effect the tool's source declares, and where from. */
  declared: ToolEffect;
  from: string;
}

/** The tools a pattern of `rules` would lower below their declared effect (each kept at its declared effect). */
export function loweredByPattern(
  specs: ReadonlyArray<Pick<ToolSpec, 'name' | 'effect'>>,
  rules: EffectRules | undefined,
): PatternLowering[] {
  const out: PatternLowering[] = [];
  for (const spec of specs) {
    const rule = ruleFor(spec.name, rules);
    if (rule && spec.effect && lowersDeclared(rule, spec))
      out.push({
        tool: spec.name,
        key: rule.key,
        wanted: settingOf(rule.setting).effect,
        declared: spec.effect.effect,
        from: spec.effect.from,
      });
  }
  return out;
}

/** One warning naming every tool a pattern was not applied to, and how to lower each one by name. */
export function describePatternLowerings(lowered: readonly PatternLowering[], file?: string): string {
  const tools = lowered.map((l) => `${l.tool} (${l.declared}, from ${l.from}; "${l.key}" says ${l.wanted})`);
  const example = lowered
    .slice(0, 3)
    .map((l) => `"${l.tool}": "${l.wanted}"`)
    .join(', ');
  return `warning: ${file ? `${file}: ` : ''}the "effects" pattern${new Set(lowered.map((l) => l.key)).size === 1 ? '' : 's'} would lower the effect the tool's source declares for ${tools.join('; ')}: not applied, the declared effect stands. A declared effect is lowered only by the tool's exact name: "effects": {${example}}.`;
}

/** A tool's resolved effect: the config's rule, else its source's declaration, else the default of its kind. */
export function resolveEffects(spec: Pick<ToolSpec, 'name' | 'effect' | 'replay'>, rules?: EffectRules): ToolEffects {
  const live = spec.replay !== true;
  const found = ruleFor(spec.name, rules);
  // A pattern never lowers what the tool's source declares (see the module comment).
  const rule = found && !lowersDeclared(found, spec) ? found : undefined;
  if (rule) {
    const s = settingOf(rule.setting);
    const idempotent =
      s.idempotent ??
      (s.effect === 'read' ? true : spec.effect?.effect === s.effect ? spec.effect.idempotent === true : false);
    return {
      effect: s.effect,
      idempotent,
      ...(spec.effect?.openWorld !== undefined ? { openWorld: spec.effect.openWorld } : {}),
      live,
      declared: true,
      from: rule.key === spec.name ? 'tool config' : `tool config ("${rule.key}")`,
    };
  }
  if (spec.effect) {
    return {
      effect: spec.effect.effect,
      idempotent: spec.effect.idempotent ?? spec.effect.effect === 'read',
      ...(spec.effect.openWorld !== undefined ? { openWorld: spec.effect.openWorld } : {}),
      live,
      declared: true,
      from: spec.effect.from,
    };
  }
  return {
    effect: 'write',
    idempotent: false,
    live,
    declared: false,
    from: live ? UNDECLARED_LIVE : UNDECLARED_REPLAY,
  };
}

/** True for `write` and `destructive` effects. */
export function changesState(effects: Pick<ToolEffects, 'effect'>): boolean {
  return effects.effect !== 'read';
}

/**
 * True when a call must be checked before it is made (grounded arguments, approval): a write or a
 * destructive call to a live tool, or to a replay tool whose effect was declared (so a run over
 * recorded responses behaves as it will on the live tools). A replay tool nobody described is
 * not checked: nothing live is touched, and recorded runs keep their results.
 */
export function needsGrounding(effects: ToolEffects | undefined): boolean {
  if (!effects || !changesState(effects)) return false;
  return effects.live || effects.declared;
}
