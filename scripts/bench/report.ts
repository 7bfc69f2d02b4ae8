/** The benchmark's table, for the console and as Markdown (docs/performance.md pastes the latter). */

export interface Row {
  row: string;
  /** Server CPU time per request, µs. */
  cpuMicros?: number;
  /** CPU per request over the best peer's. */
  ratio?: number;
  rps?: number;
  /** ms */
  p99?: number;
  rssMB?: number;
  errors?: number;
  note?: string;
}

const cpu = (micros: number | undefined) =>
  micros === undefined || Number.isNaN(micros)
    ? ''
    : micros < 10
      ? `${micros.toFixed(2)} µs`
      : `${Math.round(micros)} µs`;
const fixed = (value: number | undefined, digits: number, unit = '') =>
  value === undefined || Number.isNaN(value) ? '' : `${value.toFixed(digits)}${unit}`;
const thousands = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? '' : value >= 1000 ? `${(value / 1000).toFixed(1)}k` : value.toFixed(0);

const COLUMNS = ['row', 'CPU per request', '× best peer', 'requests/s', 'p99', 'RSS after', 'errors', 'notes'] as const;

function cells(row: Row): string[] {
  return [
    row.row,
    cpu(row.cpuMicros),
    fixed(row.ratio, 2, '×'),
    thousands(row.rps),
    fixed(row.p99, 1, ' ms'),
    fixed(row.rssMB, 0, ' MB'),
    row.errors === undefined ? '' : String(row.errors),
    row.note ?? '',
  ];
}

/** Rows as objects for `console.table`. */
export function consoleRows(rows: readonly Row[]): Record<string, string>[] {
  return rows.map((row) =>
    Object.fromEntries(COLUMNS.map((column, i) => [column, cells(row)[i]!.replace(/\*\*/g, '')])),
  );
}

/** Rows as a Markdown table (a `|` inside a cell is escaped). */
export function markdownTable(rows: readonly Row[]): string {
  const line = (values: readonly string[]) => `| ${values.map((value) => value.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(COLUMNS), line(COLUMNS.map(() => '---')), ...rows.map((row) => line(cells(row)))].join('\n');
}
