import type { ToolDescriptor } from '../../contracts/tools.js';
import type { ParamStats } from './cue-model.js';
import type { ValueCandidate } from './value-candidates.js';

/**
 * What the offline filler (fill-args.ts) reads of a parameter's schema: its declared types, whether
 * a found text value fits it and as what JSON type it is passed, and, with no records, how well a
 * kind of value suits it by its name and type.
 */

export interface PropSchema {
  type?: string | string[];
  default?: unknown;
  enum?: unknown[];
}

export function propsOf(tool: ToolDescriptor): { props: Record<string, PropSchema>; required: string[] } {
  const s = tool.inputSchema as { properties?: Record<string, PropSchema>; required?: string[] };
  return { props: s.properties ?? {}, required: s.required ?? [] };
}

function typesOf(p: PropSchema | undefined): Set<string> {
  const t = p?.type;
  return new Set(t === undefined ? [] : Array.isArray(t) ? t : [t]);
}

/** Words of a parameter name: `hotel_id` → hotel, id; `fromSymbol` → from, symbol. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

/**
 * Converts a found text value to the parameter's type: numbers for number parameters, and for a
 * parameter that accepts both, the JSON type its recorded values mostly had.
 */
export function typed(value: string, prop: PropSchema | undefined, ps?: ParamStats): unknown {
  const types = typesOf(prop);
  const numeric = /^-?\d+(\.\d+)?$/.test(value);
  const numberParam = types.has('number') || types.has('integer');
  if (
    numberParam &&
    numeric &&
    (!types.has('string') || (ps?.rawTypes.get('number') ?? 0) > (ps?.rawTypes.get('string') ?? 0))
  )
    return Number(value);
  if (types.has('boolean') && !types.has('string') && /^(true|false)$/i.test(value))
    return value.toLowerCase() === 'true';
  return value;
}

export function fits(value: string, prop: PropSchema | undefined): boolean {
  const types = typesOf(prop);
  if (prop?.enum && prop.enum.length > 0 && !prop.enum.some((e) => String(e).toLowerCase() === value.toLowerCase()))
    return false;
  if (types.size === 0 || types.has('string')) return true;
  if (types.has('number') || types.has('integer')) return /^-?\d+(\.\d+)?$/.test(value);
  if (types.has('boolean')) return /^(true|false)$/i.test(value);
  return true;
}

/** Without records: how well a kind of value suits a parameter, from its name and type. */
export function kindPrior(nameWordsOf: string[], prop: PropSchema | undefined, kind: ValueCandidate['kind']): number {
  const has = (...ws: string[]) => ws.some((w) => nameWordsOf.includes(w));
  if (has('date', 'time', 'day', 'start', 'end', 'from', 'to', 'since', 'until')) return kind === 'date' ? 0.9 : 0.1;
  if (has('symbol', 'ticker', 'iata', 'icao', 'code', 'currency', 'market'))
    return kind === 'code' ? 0.9 : kind === 'id' ? 0.5 : 0.1;
  if (has('id', 'ids')) return kind === 'id' ? 0.9 : kind === 'number' ? 0.5 : 0.1;
  if (has('lat', 'lon', 'lng', 'latitude', 'longitude')) return kind === 'number' ? 0.6 : kind === 'coord' ? 0.4 : 0;
  const types = typesOf(prop);
  if ((types.has('number') || types.has('integer')) && !types.has('string')) return kind === 'number' ? 0.7 : 0.1;
  if (
    has(
      'q',
      'query',
      'city',
      'name',
      'location',
      'place',
      'destination',
      'country',
      'keyword',
      'term',
      'search',
      'address',
    )
  ) {
    return kind === 'quoted' ? 0.9 : kind === 'proper' ? 0.8 : kind === 'code' ? 0.3 : 0.1;
  }
  return { quoted: 0.6, proper: 0.5, code: 0.4, id: 0.4, known: 0.5, output: 0.3, date: 0.3, coord: 0.2, number: 0.2 }[
    kind
  ];
}
