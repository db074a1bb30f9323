import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { parse } from 'csv-parse';
import streamArray from 'stream-json/streamers/stream-array.js';
import { errors } from '../core/errors.ts';

// Rows of an import file, read as a stream with back-pressure: memory stays constant whatever the
// file's size. Each row comes with its number (1 = the first data row, after a CSV header).

export const FORMATS = ['CSV', 'JSON', 'JSONL'] as const;
export type Format = (typeof FORMATS)[number];

export type FileRow = { row: number; value: unknown } | { row: number; error: string };

export function formatOf(fileKey: string, declared?: string): Format {
  if (declared) {
    const upper = declared.toUpperCase();
    if ((FORMATS as readonly string[]).includes(upper)) return upper as Format;
    throw errors.badRequest(`Invalid field 'formato': must be one of ${FORMATS.join(', ')}`);
  }
  const ext = fileKey.toLowerCase().split('.').pop();
  if (ext === 'csv') return 'CSV';
  if (ext === 'json') return 'JSON';
  if (ext === 'jsonl' || ext === 'ndjson') return 'JSONL';
  throw errors.badRequest(
    `Cannot tell the format of ${fileKey}: name it .csv, .json or .jsonl, or set 'formato'`,
  );
}

/** Counts the bytes that pass, for progress. */
export function byteCounter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

export async function* readRows(
  source: Readable,
  format: Format,
  options: { delimiter?: string } = {},
): AsyncGenerator<FileRow> {
  if (format === 'CSV') {
    const skipped: FileRow[] = [];
    let row = 0;
    const parser = source.pipe(
      parse({
        columns: (header: string[]) => header.map((h) => h.trim()),
        bom: true,
        delimiter: options.delimiter ?? ',',
        trim: true,
        skip_empty_lines: true,
        relax_column_count: true,
        skip_records_with_error: true,
        on_skip: (err: Error | undefined) => {
          row++;
          skipped.push({ row, error: `unreadable CSV record: ${err?.message ?? 'malformed'}` });
        },
      }),
    );
    for await (const record of parser) {
      while (skipped.length) yield skipped.shift()!;
      row++;
      // An empty cell is an absent value, not an empty string.
      const value: Record<string, string> = {};
      for (const [k, v] of Object.entries(record as Record<string, string>))
        if (v !== '' && v !== undefined) value[k] = v;
      yield { row, value };
    }
    while (skipped.length) yield skipped.shift()!;
    return;
  }
  let row = 0;
  if (format === 'JSONL') {
    // One JSON document per line; a bad line is that row's error, not the file's.
    for await (const line of createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line.trim() === '') continue;
      row++;
      try {
        yield { row, value: JSON.parse(line) };
      } catch (err) {
        yield { row, error: `invalid JSON: ${(err as Error).message}` };
      }
    }
    return;
  }
  try {
    for await (const item of source.pipe(streamArray.withParserAsStream()) as AsyncIterable<{
      value: unknown;
    }>) {
      row++;
      yield { row, value: item.value };
    }
  } catch (err) {
    throw errors.badRequest(`The file is not a valid JSON array after row ${row}: ${(err as Error).message}`);
  }
}
