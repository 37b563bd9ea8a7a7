/**
 * The route table of a router's prompt (docs/DESIGN.md, "Mining": routes), written by the miner
 * (mining/to-workflow/routes.ts) and read back by the offline policy's router rule
 * (policies/offline/llm-rules.ts): one line per route, `- route_k: calls a → b. Past requests:`,
 * each followed by its past requests as `  • "<request>"` (JSON strings).
 */

/** One route of the table. */
export interface RouteEntry {
  /** The router's answer for this route (`route_k`). */
  value: string;
  /** The tools the route calls, in order. */
  tools: string[];
  /** Past requests that took this route. */
  requests: string[];
}

const ROUTE_LINE = /^- ([A-Za-z_][A-Za-z0-9_-]*): calls (.+?)\. Past requests:$/;
const EXAMPLE_LINE = /^ {2}• (".*")$/;
const ARROW = ' → ';

/** The table's lines for `routes`. */
export function routeTableLines(routes: readonly RouteEntry[]): string[] {
  const lines: string[] = [];
  for (const r of routes) {
    lines.push(`- ${r.value}: calls ${r.tools.join(ARROW)}. Past requests:`);
    for (const q of r.requests) lines.push(`  • ${JSON.stringify(q.replace(/\s+/g, ' ').trim())}`);
  }
  return lines;
}

/** The routes a prompt lists (in order; none when it holds no route table). */
export function parseRouteTable(prompt: string): RouteEntry[] {
  const routes: RouteEntry[] = [];
  let current: RouteEntry | undefined;
  for (const line of prompt.split('\n')) {
    const r = ROUTE_LINE.exec(line);
    if (r) {
      current = { value: r[1]!, tools: r[2]!.split(ARROW), requests: [] };
      routes.push(current);
      continue;
    }
    const e = EXAMPLE_LINE.exec(line);
    let request: unknown;
    try {
      request = e ? JSON.parse(e[1]!) : undefined;
    } catch {
      request = undefined;
    }
    if (current && typeof request === 'string') current.requests.push(request);
    else current = undefined;
  }
  return routes;
}
