import { esCoverage, type EvalReport } from './score.js';

/**
 * The eval table (TC, ES and its four dimensions with the judge's label, CV when records were run
 * more than once), as `flowscout eval` prints it; search and bench print the same figures.
 */
export function formatEvalReport(report: EvalReport, opts: { title?: string; maxIds?: number } = {}): string {
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : String(x));
  const maxIds = opts.maxIds ?? 10;
  const lines: string[] = [];
  if (opts.title) lines.push(opts.title);
  const offline = report.judgeKind === 'offline' ? ' — offline, not an LLM judge' : '';
  lines.push(
    `  ${'TC'.padEnd(14)} ${f(report.tc)}`,
    `  ${'ES'.padEnd(14)} ${f(report.es)}   judge: ${report.judge}${offline}`,
    `    ${'correctness'.padEnd(12)} ${f(report.dims.correctness)}`,
    `    ${'completeness'.padEnd(12)} ${f(report.dims.completeness)}`,
    `    ${'relevance'.padEnd(12)} ${f(report.dims.relevance)}`,
    `    ${'clarity'.padEnd(12)} ${f(report.dims.clarity)}`,
  );
  if (report.cv !== undefined) {
    const n = report.records.filter((r) => r.esRuns && !r.noReference).length;
    lines.push(
      `  ${'CV of ES'.padEnd(14)} ${f(report.cv)}   mean over ${n} record${n === 1 ? '' : 's'} run more than once`,
    );
  }
  const c = report.calls;
  lines.push(
    `  ${'calls / query'.padEnd(14)} made ${c.made.toFixed(2)}${c.failed !== undefined ? `, failed ${c.failed.toFixed(2)}` : ''}, beyond the reference ${c.beyond.toFixed(2)}`,
    `  ${'graded TC'.padEnd(14)} ${f(c.gradedTc)}   a call of the right tool earns the share of its arguments it got right`,
  );
  const coverage = esCoverage(report.esRecords, report.records.length);
  lines.push(`  ${'records'.padEnd(14)} ${report.records.length}${coverage ? `   ${coverage}` : ''}`);
  const list = (ids: readonly string[]) =>
    `${ids.slice(0, maxIds).join(', ')}${ids.length > maxIds ? `, … (${ids.length - maxIds} more)` : ''}`;
  if (report.missingPredictions.length) {
    lines.push(
      `  ${report.missingPredictions.length} record(s) without a prediction, scored as empty traces: ${list(report.missingPredictions)}`,
    );
  }
  if (report.unknownPredictions.length) {
    lines.push(
      `  ${report.unknownPredictions.length} prediction id(s) match no record and were ignored: ${list(report.unknownPredictions)}`,
    );
  }
  if (report.judgeErrors)
    lines.push(`  ${report.judgeErrors} answer(s) the judge failed on, scored 0 (see judgeError in --json)`);
  if (report.usage)
    lines.push(
      `  judge usage: ${report.usage.llmCalls} model calls, ${report.usage.inputTokens}+${report.usage.outputTokens} tokens, $${report.usage.costUsd.toFixed(4)}`,
    );
  return lines.join('\n');
}
