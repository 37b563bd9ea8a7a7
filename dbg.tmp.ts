import { prepareDomain } from './src/bench/experiments/domain-env.js';
import { evaluateWorkflow } from './src/evaluate/evaluate.js';
import { createLexicalJudge } from './src/metrics/lexical-judge.js';
import { minedG0 } from './src/search/variants.js';
import { createModelWiring } from './src/wiring/wire-models.js';
const domain = (process.argv[2] ?? 'Finance') as any; const seed = Number(process.argv[3] ?? 0);
const env = await prepareDomain(domain, { seed, maxTest: 0, model: 'offline', wiring: createModelWiring() });
const out: string[][] = [];
for (const branches of [false, true]) {
  const g0 = minedG0(env.split.opt, env.descriptors, { branches });
  if (branches && process.env.SHOWG) { for (const n of g0.nodes) if (!n.id.startsWith('route_')) console.log('  ', n.id, n.kind === 'tool' ? `${(n as any).mined?.slice(0,4).join(',')} ${n.optional ? 'opt' : ''} ${n.calls ?? ''}` : JSON.stringify((n as any).choices?.options?.map((o: any) => o.tools.slice(0,4).join('>')) ?? ''), (n as any).choices?.otherwise ?? '');
  for (const e of g0.edges) if (!String(e.from).startsWith('route') && !String(e.to).startsWith('synth')) console.log('    ', e.from, '->', e.to, JSON.stringify(e.when ?? ''));}
  const ev = await evaluateWorkflow(g0, env.split.val, { policy: env.policy.instance, tools: env.tools, judge: createLexicalJudge(), concurrency: 4, feedback: false });
  out.push(ev.perRecord.map((r: any, i: number) => {
    const rec = env.split.val[i]!;
    const br = r.trace.observations.filter((o: any) => o.nodeId.startsWith('branch') || o.nodeId === 'route').map((o: any) => `${o.nodeId}=${JSON.stringify(o.output)}`).join(' ');
    return `${r.tc.toFixed(2)} ${br} | ${rec.query.slice(0, 200)} | REF ${rec.calls.map((c: any) => c.tool).join('>')} | GOT ${r.trace.observations.filter((o: any) => o.nodeId.startsWith('step')).map((o: any) => `${o.nodeId}:${Array.isArray(o.output) ? o.output.map((c: any) => c.tool).join('+') : o.status}`).join(' ')}`;
  }));
}
out[0]!.forEach((a, i) => { if (a.split(' ')[0] !== out[1]![i]!.split(' ')[0]) console.log(`OLD ${a}\nNEW ${out[1]![i]}\n`); });
await env.tools.close();
