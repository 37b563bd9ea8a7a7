/**
 * The test LLM server of benchmarks/distributed-eval.ts in a process of its own (so the model's
 * side does not share the coordinator's event loop): answers every request after `latency` ms,
 * planning each record's reference calls and answering with its reference. Prints its model string
 * on the first line of stdout and runs until killed.
 *
 *   npx tsx benchmarks/llm-latency-server.ts <records.jsonl> <latency ms>
 */
import { readRecordsFile } from '../src/records/read-records.js';
import type { TaskRecord } from '../src/records/schema.js';
import { startTestLlmServer } from '../test/support/llm-server.js';

const [file, latency] = process.argv.slice(2);
const { records } = await readRecordsFile(file!);
const recordIn = (body: unknown): TaskRecord | undefined => {
  const text = JSON.stringify(body);
  return records.find((r) => text.includes(JSON.stringify(r.query).slice(1, -1)));
};
const server = await startTestLlmServer({
  script: async (req) => {
    await new Promise((r) => setTimeout(r, Number(latency)));
    const rec = recordIn(req.body);
    if (req.body.response_format)
      return { json: { calls: (rec?.calls ?? []).map(({ tool, args }) => ({ tool, args })) } };
    return { text: rec?.reference ?? 'no answer' };
  },
});
process.stdout.write(`${server.spec('bench')}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
