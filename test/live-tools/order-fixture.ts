import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { orderRecords } from '../support/order-tools.js';

/** Records of the order tool set and a tool config whose functions source is that tool set (live tools). */
export interface OrderFixture {
  dir: string;
  records: string;
  tools: string;
}

/** Writes `orderRecords(count)` and a tool config over `test/support/order-tools.ts` into a fresh folder. */
export function writeOrderFixture(count = 20, extra: Record<string, unknown> = {}): OrderFixture {
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-orders-'));
  const records = join(dir, 'records.jsonl');
  writeFileSync(
    records,
    `${orderRecords(count)
      .map((r) => JSON.stringify(r))
      .join('\n')}\n`,
  );
  const tools = join(dir, 'tools.config.json');
  writeFileSync(
    tools,
    JSON.stringify(
      { version: 1, sources: [{ type: 'functions', module: resolve('test/support/order-tools.ts') }], ...extra },
      null,
      2,
    ),
  );
  return { dir, records, tools };
}
