import type { ExportFormat } from './actions.ts';

// Rows of an export file, written as text chunks: a CSV with a header row, a JSON array, or one JSON
// object per line. A chunk holds one batch, so memory follows the batch, never the file.

export const EXTENSION: Record<ExportFormat, string> = { CSV: 'csv', JSON: 'json', JSONL: 'jsonl' };
export const CONTENT_TYPE: Record<ExportFormat, string> = {
  CSV: 'text/csv; charset=utf-8',
  JSON: 'application/json',
  JSONL: 'application/x-ndjson',
};

type Row = Record<string, unknown>;

/** A CSV cell: quoted when it holds the delimiter, a quote or a line break; a quote is doubled. */
function cell(value: unknown, delimiter: string): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim()
    ? `"${text.replaceAll('"', '""')}"`
    : text;
}

/** An object of the row's fields in file order, empty ones left out (as the API's outputs do). */
function object(row: Row, fields: string[]): Row {
  const out: Row = {};
  for (const field of fields) if (row[field] !== null && row[field] !== undefined) out[field] = row[field];
  return out;
}

export class RowWriter {
  private first = true;

  constructor(
    private readonly format: ExportFormat,
    private readonly fields: string[],
    private readonly delimiter = ',',
  ) {}

  header(): string {
    if (this.format === 'CSV')
      return `${this.fields.map((f) => cell(f, this.delimiter)).join(this.delimiter)}\n`;
    return this.format === 'JSON' ? '[' : '';
  }

  rows(rows: Row[]): string {
    let out = '';
    for (const row of rows) {
      if (this.format === 'CSV')
        out += `${this.fields.map((f) => cell(row[f], this.delimiter)).join(this.delimiter)}\n`;
      else if (this.format === 'JSONL') out += `${JSON.stringify(object(row, this.fields))}\n`;
      else {
        out += `${this.first ? '' : ','}\n${JSON.stringify(object(row, this.fields))}`;
        this.first = false;
      }
    }
    return out;
  }

  footer(): string {
    return this.format === 'JSON' ? '\n]\n' : '';
  }
}
