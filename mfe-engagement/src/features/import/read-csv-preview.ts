import Papa from 'papaparse';

/** Only this much of the file is read in the browser: enough for the header and a few rows. */
export const PREVIEW_BYTES = 64 * 1024;
/** Rows parsed for the preview: the header (when there is one) and five data rows. */
export const PREVIEW_ROWS = 6;

/**
 * The first rows of a CSV file, as text cells. Only the first 64 KiB are read, whatever the file's
 * size: the whole file goes to the gateway as it is and is parsed there.
 *
 * No `worker: true`: papaparse starts its worker from a blob: URL, which the console's
 * Content-Security-Policy forbids (worker-src has no blob:). Parsing 64 KiB on the main thread is quick.
 */
export function readCsvPreview(file: Blob): Promise<string[][]> {
  // Wrapped in a File (same bytes, no copy) so papaparse recognises it in every realm, jsdom included.
  const head = new File([file.slice(0, PREVIEW_BYTES)], 'preview.csv', { type: 'text/csv' });
  return new Promise((resolve, reject) => {
    Papa.parse<string[]>(head, {
      preview: PREVIEW_ROWS,
      skipEmptyLines: 'greedy',
      complete: (results) => resolve(results.data),
      error: (error) => reject(error),
    });
  });
}

export interface PreviewTable {
  /** One per column: the header cell, or 'Column N' when there is no header (or it is blank). */
  headers: string[];
  /** Data rows (the header row excluded when there is one). */
  rows: string[][];
}

/** Columns and sample rows of the preview, with or without a header row. Pure. */
export function previewTable(raw: readonly (readonly string[])[], hasHeader: boolean): PreviewTable {
  const width = raw.reduce((max, row) => Math.max(max, row.length), 0);
  const first = hasHeader ? (raw[0] ?? []) : [];
  const headers = Array.from({ length: width }, (_, i) => first[i]?.trim() || `Column ${i + 1}`);
  const rows = (hasHeader ? raw.slice(1) : raw).map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
  return { headers, rows };
}
