import { OPERATOR_SYMBOL, type ProcessTree } from './schema.js';

/**
 * Prints a tree exactly as PM4Py's `str(tree)` does (docs/DESIGN.md, "Matching PM4Py" §5), so a mined tree can be compared
 * with PM4Py's by string equality: `OP( c1, c2 )`, a leaf inside an operator quoted `'label'` with
 * no escaping, `tau` for the silent step, and a root leaf unquoted.
 */
export function formatProcessTree(tree: ProcessTree): string {
  if ('op' in tree) return formatInner(tree);
  return 'label' in tree ? tree.label : 'tau';
}

function formatInner(t: ProcessTree): string {
  if ('label' in t) return `'${t.label}'`;
  if ('tau' in t) return 'tau';
  return `${OPERATOR_SYMBOL[t.op]}( ${t.children.map(formatInner).join(', ')} )`;
}
