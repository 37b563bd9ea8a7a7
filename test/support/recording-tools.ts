import type { ToolDescriptor } from '../../src/contracts/tools.js';
import type { ToolRegistry } from '../../src/contracts/tools.js';
import { createToolRegistry } from '../../src/tools/registry.js';

/**
 * A registry over `tools` whose every tool answers `{ ok: true, ...its arguments }` and records its
 * name in `called`, in call order: for tests that assert which tools a workflow ran.
 */
export function recordingTools(tools: readonly ToolDescriptor[]): { registry: ToolRegistry; called: string[] } {
  const called: string[] = [];
  const registry = createToolRegistry(
    tools.map((t) => ({
      ...t,
      execute: async (args: Record<string, unknown>) => (called.push(t.name), { ok: true, ...args }),
    })),
  );
  return { registry, called };
}
