import type { Edge } from '../graph/schema.js';
import { evaluateGuard, type GuardSource } from './guards.js';

/**
 * Dead-path elimination (docs/DESIGN.md, "Execution"), as pure step functions: an edge is live when its
 * source ran (was not skipped) and its guard holds, dead otherwise; a node whose in-edges are all
 * resolved runs if at least one is live (an OR-join) and is skipped otherwise, which makes all its
 * out-edges dead in turn. The interpreter and compiled modules both decide with these functions.
 */

/** A resolved node as its out-edges see it. */
export interface ResolvedSource extends Omit<GuardSource, 'status'> {
  status: 'ok' | 'error' | 'skipped';
}

/** True when `edge` is live given its resolved source. */
export function isEdgeLive(edge: Pick<Edge, 'when'>, source: ResolvedSource): boolean {
  if (source.status === 'skipped') return false;
  return evaluateGuard(edge.when, { kind: source.kind, status: source.status, output: source.output });
}

/** What a node does once all its in-edges are resolved. */
export interface NodeDecision {
  run: boolean;
  /** Live in-edges, in the order given. */
  live: Edge[];
  /** Sources of live data edges (each once), in the order given: the node's inputs. */
  dataSources: string[];
}

/**
 * Decides a node from its in-edges and their resolved sources. A node without in-edges (the entry)
 * always runs. Pass in-edges sorted by their source's topological position to get inputs in
 * topological order.
 */
export function decideNode(inEdges: readonly Edge[], resolved: (id: string) => ResolvedSource): NodeDecision {
  if (inEdges.length === 0) return { run: true, live: [], dataSources: [] };
  const live = inEdges.filter((e) => isEdgeLive(e, resolved(e.from)));
  const dataSources: string[] = [];
  for (const e of live) if (e.kind === 'data' && !dataSources.includes(e.from)) dataSources.push(e.from);
  return { run: live.length > 0, live, dataSources };
}
