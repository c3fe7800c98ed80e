/**
 * CSV exports of what the usage page shows, built in the browser from the same data (RFC 4180:
 * comma-separated, CRLF line ends, fields quoted when they hold a comma, quote or line break).
 */

export type CsvValue = string | number | boolean | null | undefined;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

/**
 * One field. Text a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) is
 * prefixed with an apostrophe; numbers are written as they are, so money stays a decimal string.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  let text = value;
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T>(columns: CsvColumn<T>[], rows: readonly T[]): string {
  const lines = [columns.map((c) => csvField(c.header)).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvField(c.value(row))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** "usage-providers-2026-11-26_2026-12-02.csv". */
export function csvFileName(what: string, range: { from: string; to: string }, scope?: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "-");
  return `usage${scope ? `-${safe(scope)}` : ""}-${safe(what)}-${range.from}_${range.to}.csv`;
}
