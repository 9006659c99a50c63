/**
 * CSV output (exports and import reports), RFC 4180 quoting plus spreadsheet-formula defusing:
 * a cell that starts with =, +, -, @, tab or carriage return gets a leading single quote, so
 * Excel, LibreOffice and Google Sheets show it as text instead of running it (OWASP "CSV injection").
 * A plain number (`-5`, `+3.25`, `-1e3`) is left as it is: a spreadsheet reads it as that number and
 * runs nothing, and the export can be imported back unchanged.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: defused, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF-terminated as RFC 4180 says. */
export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** A UTF-8 byte-order mark: Excel then reads the file as UTF-8 (names with accents stay intact). */
export const CSV_BOM = '\uFEFF';
