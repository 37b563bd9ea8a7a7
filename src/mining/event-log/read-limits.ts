import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { FlowScoutError } from '../../errors/index.js';
import { gzipError } from '../../errors/to-flowscout-error.js';

/**
 * What a reader of event logs may spend on one file. Every limit is a number of bytes; a file that
 * goes past one is refused with INPUT_TOO_LARGE naming the file, the limit and the option that
 * raises it (`--max-unpacked`, `--max-comment`, `--max-entity`, `--max-token` on the commands that
 * read logs). The readers stream, so memory stays near what the mined log itself needs, and every
 * scan is linear: a comment or a tag that spans many chunks is not searched again from its start.
 */
export interface ReaderLimits {
  /** Most bytes a `.gz` input may unpack to (a gzip bomb stops here). Default 256 MiB. */
  maxUnpackedBytes?: number;
  /** Longest XML comment, CDATA section or processing instruction (skipped, never held). Default 64 MiB. */
  maxCommentBytes?: number;
  /** Longest DOCTYPE or entity declaration (`<!ENTITY …>`); entities are never expanded. Default 1 MiB. */
  maxEntityBytes?: number;
  /** Longest XML tag with its attributes, JSONL line or CSV row. Default 64 MiB. */
  maxTokenBytes?: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_READER_LIMITS: Readonly<Required<ReaderLimits>> = Object.freeze({
  maxUnpackedBytes: 256 * MiB,
  maxCommentBytes: 64 * MiB,
  maxEntityBytes: 1 * MiB,
  maxTokenBytes: 64 * MiB,
});

/** The command-line option that sets each limit. */
export const LIMIT_OPTIONS: Readonly<Record<keyof ReaderLimits, string>> = Object.freeze({
  maxUnpackedBytes: '--max-unpacked',
  maxCommentBytes: '--max-comment',
  maxEntityBytes: '--max-entity',
  maxTokenBytes: '--max-token',
});

/** `limits` with the defaults filled in. */
export function resolveLimits(limits: ReaderLimits | undefined): Required<ReaderLimits> {
  return {
    ...DEFAULT_READER_LIMITS,
    ...Object.fromEntries(Object.entries(limits ?? {}).filter(([, v]) => v !== undefined)),
  };
}

/** A byte count as people write it: `1.5 GB` → "1.5 GiB" (binary units, as the options read them). */
export function formatBytes(n: number): string {
  if (n >= 1024 * MiB) return `${+(n / (1024 * MiB)).toFixed(2)} GiB`;
  if (n >= MiB) return `${+(n / MiB).toFixed(2)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(2)} KiB`;
  return `${n} bytes`;
}

/**
 * Reads a size option: a number of bytes, or with a unit `k`/`kb`/`kib`, `m`…, `g`… (all binary:
 * `512m` is 512 MiB). Refuses anything else, naming the option.
 */
export function parseByteSize(value: string, option: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmg])i?b?|b)?\s*$/i.exec(value);
  const unit = m?.[2] ? ({ k: 1024, m: MiB, g: 1024 * MiB } as Record<string, number>)[m[2].toLowerCase()]! : 1;
  const n = m ? Number(m[1]) * unit : Number.NaN;
  if (!Number.isFinite(n) || n < 1) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${option} must be a size such as 512m, 2g or 1048576, got '${value}'`,
      hint: `Give ${option} a positive number of bytes, optionally with k, m or g (binary units).`,
    });
  }
  return Math.floor(n);
}

/** The named error for a file that goes past one of the limits. */
export function limitError(
  file: string,
  limit: keyof ReaderLimits,
  value: number,
  what: string,
  line?: number,
  needed?: number,
): FlowScoutError {
  const option = LIMIT_OPTIONS[limit];
  return new FlowScoutError({
    code: 'INPUT_TOO_LARGE',
    message: `${file}: ${what} is larger than the limit of ${formatBytes(value)} (${limit})${line !== undefined ? `, from line ${line}` : ''}`,
    hint: `If the file is what you meant to read, raise the limit with ${option} <size> (e.g. ${option} ${nextSize(Math.max(value * 4, needed ?? 0))}); otherwise check where the file came from.`,
    location: line !== undefined ? { file, line } : { file },
    details: { limit, bytes: value, option },
  });
}

function nextSize(next: number): string {
  return next >= 1024 * MiB
    ? `${Math.ceil(next / (1024 * MiB))}g`
    : next >= MiB
      ? `${Math.ceil(next / MiB)}m`
      : `${Math.ceil(next / 1024)}k`;
}

/** The ISIZE field of a gzip file's trailer (its last 4 bytes, little-endian; 0 when it has none) and the file's size. */
export function gzipTrailerSize(file: string): { stated: number; packed: number } {
  const fd = openSync(file, 'r');
  try {
    const packed = fstatSync(fd).size;
    if (packed < 18) return { stated: 0, packed };
    const tail = Buffer.alloc(4);
    readSync(fd, tail, 0, 4, packed - 4);
    return { stated: tail.readUInt32LE(0), packed };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of `file` in chunks, gunzipped on the fly when it ends in `.gz`, with the unpacked size
 * capped: a file whose gzip trailer states a size past `maxUnpackedBytes` is refused at once, and
 * past the cap while unpacking the streams are destroyed and INPUT_TOO_LARGE is thrown, so even a
 * bomb with a forged trailer costs about the limit in time and one chunk in memory. A file that is not gzip, or is
 * cut short, is a named PARSE_ERROR.
 */
export async function* readChunks(file: string, limits: Required<ReaderLimits>): AsyncGenerator<Buffer> {
  const gz = file.toLowerCase().endsWith('.gz');
  // A gzip file ends with its unpacked size (mod 4 GiB, of its last member): it never overstates the
  // size of a sound file, so one past the cap is refused before anything is unpacked, if deflate can
  // reach it from this many bytes (at most 1032:1; a cut-off file ends in arbitrary bytes). It can
  // understate (several members, over 4 GiB, forged), which the count while unpacking catches.
  if (gz) {
    const { stated, packed } = gzipTrailerSize(file);
    if (stated > limits.maxUnpackedBytes && stated <= packed * 1032) {
      const e = limitError(
        file,
        'maxUnpackedBytes',
        limits.maxUnpackedBytes,
        `the unpacked content (${formatBytes(stated)}, as its gzip trailer states)`,
        undefined,
        stated,
      );
      throw new FlowScoutError({
        code: e.code,
        message: e.message,
        hint: `${e.hint} A damaged file can state a wrong size: \`gzip -t <file>\` checks it.`,
        location: e.location!,
        details: { ...(e.details as object), stated },
      });
    }
  }
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  if (!gz) {
    try {
      for await (const chunk of raw) yield chunk as Buffer;
    } finally {
      raw.destroy();
    }
    return;
  }
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  raw.on('error', (e) => gunzip.destroy(e));
  raw.pipe(gunzip);
  let total = 0;
  try {
    for await (const chunk of gunzip) {
      total += (chunk as Buffer).length;
      if (total > limits.maxUnpackedBytes)
        throw limitError(file, 'maxUnpackedBytes', limits.maxUnpackedBytes, 'the unpacked content');
      yield chunk as Buffer;
    }
  } catch (e) {
    if (
      (e as NodeJS.ErrnoException).code === 'Z_DATA_ERROR' &&
      /incorrect header check/.test((e as Error).message ?? '')
    ) {
      throw new FlowScoutError({
        code: 'PARSE_ERROR',
        message: `${file} is not a valid gzip file`,
        hint: 'Pass the plain file, or a .gz made with gzip.',
        location: { file },
        cause: e,
      });
    }
    throw (e instanceof Error && gzipError(e, file)) || e;
  } finally {
    raw.unpipe(gunzip);
    raw.destroy();
    gunzip.destroy();
  }
}
