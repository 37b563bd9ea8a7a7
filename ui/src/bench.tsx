import { useJson, type BenchResponse } from './api.ts';
import { href } from './route.ts';
import { ErrorBox } from './text.tsx';

type Block =
  | { kind: 'h'; level: number; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'code'; text: string }
  | { kind: 'p'; text: string }
  | { kind: 'img'; alt: string; src: string };

/** Splits a Markdown report into headings, tables, code and paragraphs, all kept as plain text. */
export function markdownBlocks(md: string): Block[] {
  const lines = md.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!);
      out.push({ kind: 'code', text: body.join('\n') });
    } else if (/^#{1,6} /.test(line)) {
      out.push({ kind: 'h', level: line.match(/^#+/)![0].length, text: line.replace(/^#+ /, '') });
    } else if (line.trim().startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.trim().startsWith('|'); i++) {
        const cells = lines[i]!.trim()
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((c) => c.trim());
        if (!cells.every((c) => /^:?-+:?$/.test(c))) rows.push(cells);
      }
      i--;
      out.push({ kind: 'table', rows });
    } else if (/^!\[[^\]]*\]\([^)]+\)\s*$/.test(line.trim())) {
      const m = line.trim().match(/^!\[([^\]]*)\]\(([^)]+)\)/)!;
      out.push({ kind: 'img', alt: m[1]!, src: m[2]! });
    } else if (/^\s*[-*] /.test(line)) {
      const items: string[] = [];
      for (; i < lines.length && lines[i]!.trim(); i++) {
        const l = lines[i]!;
        if (/^\s*[-*] /.test(l)) items.push(l.replace(/^\s*[-*] /, ''));
        else if (items.length) items[items.length - 1] += ` ${l.trim()}`;
      }
      i--;
      out.push({ kind: 'list', items });
    } else if (line.trim()) {
      const para = [line];
      while (i + 1 < lines.length && lines[i + 1]!.trim() && !/^(#|\||```|!\[|[-*] )/.test(lines[i + 1]!.trim()))
        para.push(lines[++i]!);
      out.push({ kind: 'p', text: para.join(' ') });
    }
  }
  return out;
}

/** Markdown emphasis and code marks dropped; the text stays text. */
const plain = (t: string) => t.replace(/\*\*|`/g, '').replace(/(^|\s)_([^_]+)_(?=\s|$|[.,;:])/g, '$1$2');

export function BenchPage({ index }: { index: string }) {
  const q = useJson<BenchResponse>(`/api/bench/${encodeURIComponent(index)}`);
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <p>Loading…</p>;
  const d = q.data;
  const fig = (name: string) => `/api/bench/${encodeURIComponent(index)}/figure/${encodeURIComponent(name)}`;
  const shown = new Set<string>();
  return (
    <section className="bench">
      <p className="crumbs">
        <a href={href.runs()}>Runs</a> / benchmark report
      </p>
      <p className="muted">{d.dir}</p>
      {d.report ? (
        markdownBlocks(d.report).map((b, i) => {
          if (b.kind === 'h')
            return b.level <= 1 ? (
              <h1 key={i}>{b.text}</h1>
            ) : b.level === 2 ? (
              <h2 key={i}>{b.text}</h2>
            ) : (
              <h3 key={i}>{b.text}</h3>
            );
          if (b.kind === 'code')
            return (
              <pre key={i} className="pre">
                {b.text}
              </pre>
            );
          if (b.kind === 'p') return <p key={i}>{plain(b.text)}</p>;
          if (b.kind === 'list')
            return (
              <ul key={i}>
                {b.items.map((t, j) => (
                  <li key={j}>{plain(t)}</li>
                ))}
              </ul>
            );
          if (b.kind === 'img') {
            const name = b.src.split('/').pop() ?? '';
            if (!d.figures.includes(name))
              return (
                <p key={i} className="muted">
                  [figure {b.alt}: {b.src}]
                </p>
              );
            shown.add(name);
            return <img key={i} className="figure" src={fig(name)} alt={b.alt} />;
          }
          const [head, ...body] = b.rows;
          return (
            <table key={i} className="grid" data-testid="bench-table">
              <thead>
                <tr>
                  {head?.map((c, j) => (
                    <th key={j}>{plain(c)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {body.map((r, j) => (
                  <tr key={j}>
                    {r.map((c, k) => (
                      <td key={k}>{plain(c)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          );
        })
      ) : (
        <p>This folder has no report.md.</p>
      )}
      {d.figures
        .filter((f) => !shown.has(f))
        .map((f) => (
          <figure key={f}>
            <img className="figure" src={fig(f)} alt={f} />
            <figcaption>{f}</figcaption>
          </figure>
        ))}
    </section>
  );
}
