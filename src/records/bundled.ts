import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlowScoutError } from '../errors/index.js';

/**
 * The TRAJECT-Bench data bundled in the package (`data/traject-bench/`, see its README and LICENSE),
 * so users can import real records without the shared dataset folder.
 */

/** The domains whose records and tool definitions ship with FlowScout. */
export const BUNDLED_DOMAINS = ['Finance', 'Travel', 'Weather'] as const;
export type BundledDomain = (typeof BUNDLED_DOMAINS)[number];

/** Paths of one bundled domain's files. */
export interface BundledTrajectPaths {
  domain: BundledDomain;
  /** `data/traject-bench/<Domain>/traj_query.json` */
  trajQuery: string;
  /** `data/traject-bench/tools/<Domain>_tool.json` */
  tools: string;
}

let cachedRoot: string | undefined;

/**
 * The package root: the nearest folder above this module holding FlowScout's `package.json`.
 * Walking up works from `src/records/` (tsx) and from a built `dist/` alike.
 */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isFlowScoutManifest(manifest)) return (cachedRoot = dir);
    const parent = dirname(dir);
    if (parent === dir) {
      throw new FlowScoutError({
        code: 'INTERNAL',
        message: 'could not find the FlowScout package root (no package.json named "flowscout" above this module)',
        hint: 'Reinstall FlowScout; the bundled data folder ships with the package.',
      });
    }
    dir = parent;
  }
}

function isFlowScoutManifest(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'flowscout';
  } catch {
    return false;
  }
}

/**
 * Resolves a domain name (any case, e.g. `travel`) to the bundled TRAJECT-Bench files of that domain.
 * Throws INVALID_INPUT listing the bundled domains for an unknown name.
 */
export function bundledTrajectPaths(domain: string): BundledTrajectPaths {
  const match = BUNDLED_DOMAINS.find((d) => d.toLowerCase() === domain.trim().toLowerCase());
  if (!match) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `no bundled TRAJECT-Bench domain '${domain}'`,
      hint: `Use one of: ${BUNDLED_DOMAINS.join(', ')}; or pass a traj_query.json file and --tools.`,
    });
  }
  const base = join(packageRoot(), 'data', 'traject-bench');
  const paths = {
    domain: match,
    trajQuery: join(base, match, 'traj_query.json'),
    tools: join(base, 'tools', `${match}_tool.json`),
  };
  for (const file of [paths.trajQuery, paths.tools]) {
    if (!existsSync(file)) {
      throw new FlowScoutError({
        code: 'FILE_NOT_FOUND',
        message: `bundled data file missing: ${file}`,
        hint: 'The package is incomplete; reinstall FlowScout (the data/ folder ships with it).',
        location: { file },
      });
    }
  }
  return paths;
}
