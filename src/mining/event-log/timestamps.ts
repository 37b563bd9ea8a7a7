/**
 * Timestamps only order the events of a case (PM4Py sorts each case by timestamp; docs/DESIGN.md, "Matching PM4Py" §0), so
 * they are parsed to one comparable number: microseconds since the epoch, UTC. Offsets are applied
 * (`+01:00` and `Z`), a timestamp without an offset counts as UTC, fractions keep microseconds
 * (receipt.csv has them). Unparseable values (the "?" of the partial-order logs) give NaN.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Epoch microseconds of a timestamp string or number, or NaN. Numbers are taken as they are. */
export function parseTimestamp(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  const s = value.trim();
  const m = ISO.exec(s);
  if (!m) {
    const ms = Date.parse(s);
    return Number.isNaN(ms) ? Number.NaN : ms * 1000;
  }
  const [, y, mo, d, h, mi, sec, frac, tz] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(sec ?? 0));
  if (Number.isNaN(ms)) return Number.NaN;
  if (tz && tz.toUpperCase() !== 'Z') {
    const sign = tz[0] === '-' ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0);
    ms -= sign * offsetMin * 60_000;
  }
  const micros = frac ? Number(`${frac}000000`.slice(0, 6)) : 0;
  return ms * 1000 + micros;
}
