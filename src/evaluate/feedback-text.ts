import { clip } from '../util/clip.js';
import type { Workflow } from '../graph/schema.js';
import { ES_DIMENSIONS } from '../metrics/types.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { Feedback } from './feedback-types.js';

/**
 * The feedback as prompt text, condensed to a character budget: the scores, then the patterns
 * (most evidence first), the tool nodes' counters, and the lowest-scoring answers. Whole lines are
 * dropped from the end of each section once the budget is reached, and the text says how many.
 */
export function formatFeedback(
  fb: Omit<Feedback, 'text'>,
  workflow: Workflow,
  opts: { maxChars: number; tools: readonly ToolDescriptor[] },
): string {
  const head = `Scores on ${fb.records} records: reward ${fb.reward.toFixed(3)} (TC ${fb.tc.toFixed(3)}, ES ${fb.es.toFixed(3)}).`;
  const patterns = fb.patterns.map((p) => `- ${p.text}`);
  const tasks = new Map(workflow.nodes.map((n) => [n.id, n.kind === 'tool' ? n.task : n.role]));
  const nodes = fb.nodes.map(
    (s) =>
      `- ${s.node} (${clip(tasks.get(s.node) ?? '', 60)}): ran ${s.runs}, skipped ${s.skipped}, failed ${s.errors}, calls ${s.calls}, matching the reference ${s.matched}`,
  );
  const worst = fb.worst.map(
    (w) =>
      `- ${w.id}: ES ${w.es.toFixed(2)} (${ES_DIMENSIONS.map((d) => `${d} ${w.dims[d].toFixed(2)}`).join(', ')}), TC ${w.tc.toFixed(2)}\n  query: ${w.query}\n  answer: ${w.answer || '(empty)'}\n  reference: ${w.reference}`,
  );
  const sections: Array<[string, string[]]> = [
    ['Problems found (most records first):', patterns],
    ['Tool nodes:', nodes],
    ['Lowest-scoring answers:', worst],
  ];
  let out = head;
  let budget = opts.maxChars - head.length;
  for (const [title, lines] of sections) {
    if (lines.length === 0) continue;
    const titleLine = `\n${title}`;
    if (budget < titleLine.length + 40) break;
    out += titleLine;
    budget -= titleLine.length;
    let shown = 0;
    for (const line of lines) {
      const l = `\n${line}`;
      if (l.length > budget - 40) break;
      out += l;
      budget -= l.length;
      shown++;
    }
    if (shown < lines.length) {
      const more = `\n- … ${lines.length - shown} more`;
      out += more;
      budget -= more.length;
    }
  }
  return out.length <= opts.maxChars ? out : `${out.slice(0, opts.maxChars - 1)}…`;
}
