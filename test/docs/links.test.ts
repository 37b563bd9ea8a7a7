import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchor } from '../../src/cli/cli-reference.js';

/**
 * Every relative link of README.md and docs/**\/*.md resolves: the file (or folder) it names exists,
 * and an anchor (`file.md#section`, `#section`) names a heading of that file. Links to web addresses
 * are not checked (no network in tests).
 */

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/** The text outside fenced code blocks. */
function unfenced(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text outside code blocks and inline code, where a `[x](y)` is a link. */
function prose(text: string): string {
  return unfenced(text).replace(/`[^`\n]*`/g, '');
}

/** The anchors of a Markdown file's headings, as GitHub makes them (a repeated heading gets -1, -2, …). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of unfenced(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = headingAnchor(m[1]!.replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every broken relative link of one Markdown file, as "file: target (why)". */
function brokenLinks(file: string, text: string): string[] {
  const problems: string[] = [];
  const shown = relative(ROOT, file);
  for (const m of prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    if (path !== '' && !existsSync(dest)) {
      problems.push(`${shown}: ${target} (no such file: ${relative(ROOT, dest)})`);
      continue;
    }
    if (anchor !== undefined && anchor !== '') {
      if (path !== '' && (statSync(dest).isDirectory() || !dest.endsWith('.md'))) {
        problems.push(`${shown}: ${target} (an anchor into a file that is not Markdown)`);
        continue;
      }
      const anchors = anchorsOf(dest === file ? text : readFileSync(dest, 'utf8'));
      if (!anchors.has(anchor)) problems.push(`${shown}: ${target} (no heading '${anchor}' in ${relative(ROOT, dest)})`);
    }
  }
  return problems;
}

/** Files under `dir` whose names match `pattern`, fixtures and dependencies left out. */
function citingFiles(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'node_modules' || e.name === 'fixtures'
        ? []
        : citingFiles(join(dir, e.name), pattern)
      : pattern.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/**
 * The section names a text cites as `docs/DESIGN.md, "Section"` or `docs/DESIGN.md ("Section")`, a
 * citation wrapped over comment lines (` * `, `// `) read as one line.
 */
function designCitations(text: string): string[] {
  const joined = text.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
  return [...joined.matchAll(/DESIGN\.md,?\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!.trim());
}

describe('links in the docs', () => {
  it('every relative link of README.md and docs/**/*.md names a file that exists and a heading it has', () => {
    const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
    expect(files.length).toBeGreaterThan(10);
    const broken = files.flatMap((f) => brokenLinks(f, readFileSync(f, 'utf8')));
    expect(broken).toEqual([]);
  });

  it('finds a missing file, a missing heading and a link into a folder that does not exist', () => {
    const file = join(ROOT, 'docs', 'guides', 'example.md');
    const text = [
      '# A guide',
      '## Set-up: two `commands`',
      'See [the index](README.md), [set-up](#set-up-two-commands) and [the CLI](../reference/cli.md#flowscout-search).',
      'Broken: [gone](missing.md), [no heading](README.md#nowhere), [here](#absent), [folder](../nothing/).',
      'Not links: `[x](y.md)` and a web page [site](https://example.com/a.md).',
      '```',
      '[in code](also-missing.md)',
      '```',
    ].join('\n');
    expect(brokenLinks(file, text)).toEqual([
      'docs/guides/example.md: missing.md (no such file: docs/guides/missing.md)',
      "docs/guides/example.md: README.md#nowhere (no heading 'nowhere' in docs/guides/README.md)",
      "docs/guides/example.md: #absent (no heading 'absent' in docs/guides/example.md)",
      'docs/guides/example.md: ../nothing/ (no such file: docs/nothing)',
    ]);
  });

  it('every section of docs/DESIGN.md that the code, the tests and the docs cite is a heading of it', () => {
    const design = readFileSync(join(ROOT, 'docs', 'DESIGN.md'), 'utf8');
    const headings = new Set([...unfenced(design).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!));
    const files = [
      ...['src', 'test', 'benchmarks', 'scripts', join('ui', 'src')].flatMap((d) =>
        existsSync(join(ROOT, d)) ? citingFiles(join(ROOT, d), /\.(tsx?|mjs)$/) : [],
      ),
      join(ROOT, 'README.md'),
      ...markdownFiles(join(ROOT, 'docs')),
    ];
    // DESIGN.md names the form (`"Section"`) and this file tests the reader: neither cites a section.
    const citing = files.filter((f) => f !== join(ROOT, 'docs', 'DESIGN.md') && f !== import.meta.filename);
    const cited = citing.flatMap((f) => designCitations(readFileSync(f, 'utf8')).map((c) => ({ f, c })));
    expect(cited.length).toBeGreaterThan(100);
    const missing = cited.filter(({ c }) => !headings.has(c)).map(({ f, c }) => `${relative(ROOT, f)}: "${c}"`);
    expect(missing).toEqual([]);
  });

  it('reads a citation of a DESIGN.md section, also one wrapped over comment lines', () => {
    const text = [
      '/** Runs a node (docs/DESIGN.md, "Execution": an edge is live …); see docs/DESIGN.md ("Policies"). */',
      ' * checks Valid(G, T) (docs/DESIGN.md, "The',
      ' * workflow IR"), and (docs/DESIGN.md,',
      ' * "Matching PM4Py" §5).',
      '// [docs/DESIGN.md](../DESIGN.md) describes the design.',
    ].join('\n');
    expect(designCitations(text)).toEqual(['Execution', 'Policies', 'The workflow IR', 'Matching PM4Py']);
  });

  it('every docs/… or README path the sources cite exists', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
      );
    const missing: string[] = [];
    for (const f of [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'ui', 'src'))])
      for (const m of readFileSync(f, 'utf8').matchAll(/\bdocs\/[\w./-]*\w/g))
        if (!existsSync(join(ROOT, m[0]))) missing.push(`${relative(ROOT, f)}: ${m[0]}`);
    expect(missing).toEqual([]);
  });
});
