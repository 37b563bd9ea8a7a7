import type { Command } from 'commander';
import { FlowScoutError } from '../../errors/index.js';
import { formatEvalReport } from '../../metrics/format-report.js';
import { createLlmClient } from '../../llm/client.js';
import { resolveModel } from '../../llm/resolve-model.js';
import { createLexicalJudge } from '../../metrics/lexical-judge.js';
import { createLlmJudge } from '../../metrics/llm-judge.js';
import { readPredictionsFile } from '../../metrics/predictions.js';
import { schemasFromTools, scorePredictions } from '../../metrics/score.js';
import type { Judge } from '../../metrics/types.js';
import type { ParamSchema } from '../../records/canonical-args.js';
import { readRecordsFile } from '../../records/read-records.js';
import { loadToolConfig, readDescriptors } from '../../tools/load-tool-config.js';
import { readJsonFile } from '../../util/json-file.js';
import type { CliIO } from '../output.js';
import type { RegisterCommand } from './index.js';

/**
 * `flowscout eval --predictions <traces.jsonl> --records <file>`: scores what any agent produced with
 * TC and ES (DESIGN.md, "Metrics"), so users can measure their existing agents.
 */

interface EvalOptions {
  predictions?: string;
  records: string;
  tools?: string;
  judgeModel?: string;
  json?: boolean;
  skipInvalid?: boolean;
  concurrency: string;
}

export const registerEval: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('eval')
    .description('score predictions (one {"id", "calls", "answer"} object a line) against records with TC and ES')
    .requiredOption('--predictions <file>', 'JSONL of predictions: {"id": <record id>, "calls": [{"tool", "args"}], "answer": "…"}; repeated ids are repeated runs')
    .requiredOption('--records <file>', 'records JSONL (the references)')
    .option('--tools <file>', 'tool descriptors (tools.json) or a tool config, so arguments are compared by their parameter types')
    .option('--judge-model <model>', 'score ES with an LLM judge (G-Eval), e.g. openai:gpt-4o-mini; default: the offline lexical judge')
    .option('--json', 'print one JSON object (top-level tc and es are the means; per-record detail under records)')
    .option('--skip-invalid', 'skip invalid lines of the records and predictions files instead of failing (they are counted)')
    .option('--concurrency <n>', 'judge calls in flight', '4')
    .action(async (opts: EvalOptions) => {
      const concurrency = positiveInt(opts.concurrency, '--concurrency');
      const recordsRead = await readRecordsFile(opts.records, { skipInvalid: opts.skipInvalid });
      if (recordsRead.records.length === 0) {
        throw new FlowScoutError({ code: 'INVALID_INPUT', message: `no records in ${opts.records}`, hint: 'Pass a records JSONL file with at least one record.', location: { file: opts.records } });
      }
      const predsRead = await readPredictionsFile(opts.predictions!, { skipInvalid: opts.skipInvalid });
      const schemas = opts.tools ? await toolSchemas(opts.tools) : undefined;
      const judge = await createJudge(opts.judgeModel);
      const report = await scorePredictions(recordsRead.records, predsRead.predictions, { judge, schemas, concurrency });
      const skipped = { records: recordsRead.skipped, predictions: predsRead.skipped };
      if (opts.json) {
        io.out(JSON.stringify({ ...report, skipped, recordsFile: opts.records, predictionsFile: opts.predictions }, null, 2));
        return;
      }
      io.out(formatEvalReport(report, { title: `Scored ${opts.predictions} against ${report.records.length} records of ${opts.records}` }));
      if (skipped.records || skipped.predictions) {
        io.out(`  skipped invalid lines: ${skipped.records} in ${opts.records}, ${skipped.predictions} in ${opts.predictions}`);
        for (const p of [...recordsRead.problems, ...predsRead.problems].slice(0, 10)) io.out(`    ${p}`);
      }
    });
};

/** The LLM judge for a model string; the offline lexical judge when none is given (or `offline`). */
async function createJudge(spec: string | undefined): Promise<Judge> {
  if (spec === undefined || spec.trim() === 'offline') return createLexicalJudge();
  const model = await resolveModel(spec);
  return createLlmJudge({ client: createLlmClient({ model }) });
}

/** Parameter schemas from a descriptor file (a JSON array) or a tool config (its tools are loaded, listed, closed). */
async function toolSchemas(file: string): Promise<Record<string, ParamSchema>> {
  const data = readJsonFile(file);
  if (Array.isArray(data) || (data !== null && typeof data === 'object' && 'tools' in data && !('sources' in data))) {
    return schemasFromTools(readDescriptors(file));
  }
  const registry = await loadToolConfig(file);
  try {
    return schemasFromTools(registry.list());
  } finally {
    await registry.close();
  }
}

function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw new FlowScoutError({ code: 'INVALID_INPUT', message: `${flag} must be a whole number ≥ 1, got '${text}'`, hint: `For example ${flag} 4.` });
  }
  return n;
}
