/**
 * The route table of a router's prompt (docs/DESIGN.md, "Mining": routes), written by the miner
 * (mining/to-workflow/routes.ts) and read back by the offline policy's router rule
 * (policies/offline/llm-rules.ts): one line per route,
 * `- route_k: calls a → b. About: <description>. Keywords: w1, w2, w3.` A route is described by
 * what generalizes over its past requests (its tools, a description, recurring keywords), never by
 * the requests themselves.
 */

/** One route of the table. */
export interface RouteEntry {
  /** The router's answer for this route (`route_k`). */
  value: string;
  /** The tools the route calls, in order. */
  tools: string[];
  /** What the route's requests ask for, in a few words. */
  about: string;
  /** Words that recur in the route's requests and set them apart from the others. */
  keywords: string[];
}

const ROUTE_LINE = /^- ([A-Za-z_][A-Za-z0-9_-]*): calls (.+?)\. About: (.*?)\. Keywords: (.*?)\.$/;
const ARROW = ' → ';

/** The table's lines for `routes`. */
export function routeTableLines(routes: readonly RouteEntry[]): string[] {
  return routes.map(
    (r) =>
      `- ${r.value}: calls ${r.tools.join(ARROW)}. About: ${r.about.replace(/\s+/g, ' ').replace(/\.+$/, '').trim()}. Keywords: ${r.keywords.join(', ')}.`,
  );
}

/** The routes a prompt lists (in order; none when it holds no route table). */
export function parseRouteTable(prompt: string): RouteEntry[] {
  const routes: RouteEntry[] = [];
  for (const line of prompt.split('\n')) {
    const r = ROUTE_LINE.exec(line);
    if (!r) continue;
    routes.push({
      value: r[1]!,
      tools: r[2]!.split(ARROW),
      about: r[3]!,
      keywords: r[4]!
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    });
  }
  return routes;
}
