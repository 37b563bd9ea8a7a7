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

/** A tool's resolved effect: the config's rule, else its source's declaration, else the default of its kind. */
export function resolveEffects(spec: Pick<ToolSpec, 'name' | 'effect' | 'replay'>, rules?: EffectRules): ToolEffects {
  const live = spec.replay !== true;
  const rule = ruleFor(spec.name, rules);
  if (rule) {
    const s = typeof rule.setting === 'string' ? { effect: rule.setting } : rule.setting;
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
