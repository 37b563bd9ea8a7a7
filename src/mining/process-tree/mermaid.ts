import { toolLabel } from '../../graph/tool-label.js';
import type { ProcessTree } from './schema.js';

/**
 * Draws a process tree as a Mermaid flowchart (top-down): operators are circles (`→` sequence,
 * `×` exclusive choice, `+` parallel, `↺` loop, whose first child is the do part), activities are
 * boxes, tau is a small `τ` node. Loop edges are labelled `do` / `redo`. Node ids are generated, and
 * labels are quoted with `"` written as `#quot;`, so any tool name draws.
 */
export function processTreeToMermaid(tree: ProcessTree, direction: 'TD' | 'LR' = 'TD'): string {
  const lines = [`flowchart ${direction}`];
  let next = 0;
  const stack: { node: ProcessTree; id: string; parent?: string; edge?: string }[] = [{ node: tree, id: `t${next++}` }];
  while (stack.length > 0) {
    const { node, id, parent, edge } = stack.pop()!;
    if ('op' in node) lines.push(`  ${id}((${quote(SYMBOL[node.op])}))`);
    else if ('label' in node) lines.push(`  ${id}[${quote(toolLabel(node.label))}]`);
    else lines.push(`  ${id}([τ])`);
    if (parent) lines.push(edge ? `  ${parent} -->|${edge}| ${id}` : `  ${parent} --> ${id}`);
    if ('op' in node) {
      const kids = node.children.map((c, i) => ({
        node: c,
        id: `t${next++}`,
        parent: id,
        ...(node.op === 'loop' ? { edge: i === 0 ? 'do' : 'redo' } : {}),
      }));
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return `${lines.join('\n')}\n`;
}

const SYMBOL = { seq: '→', xor: '×', and: '+', loop: '↺' } as const;

function quote(text: string): string {
  return `"${text.replace(/"/g, '#quot;').replace(/\n/g, ' ')}"`;
}
