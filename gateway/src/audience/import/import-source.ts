/**
 * The rows of an import file, batch by batch: records from import-reader.ts, fields by papaparse,
 * values and reasons by import-rows.ts, and duplicates inside the file by the e-mails and wallets
 * already claimed by earlier rows (import-seen.ts).
 *
 * Everything here depends on the file only (and the column plan), never on the database, so a
 * resumed job re-reads the rows before its checkpoint and ends up with the same claimed values.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { yieldToRequests as turn } from '../../db/storage';
import Papa from 'papaparse';
import type { ColumnPlan } from './import-mapping';
import { CsvRecordReader, RAW_CHARS, type CsvRecord } from './import-reader';
import { isBlankRow, readRow, ROW_MESSAGES, type ImportValues } from './import-rows';
import { SeenValues } from './import-seen';
import { detectFormat, SNIFF_BYTES, type CsvFormat } from './import-sniff';

/** A row that passed the field rules; whether it creates, updates or skips a contact is up to the database. */
export interface CandidateRow {
  line: number;
  values: ImportValues;
  /** The record as read, for the report if the database step fails it. */
  raw: string;
}

export interface FailedRow {
  line: number;
  reason: string;
  raw: string;
}

export interface ImportBatch {
  candidates: CandidateRow[];
  failures: FailedRow[];
  /** Data rows from the start of the file through this batch. */
  rowsDone: number;
  /** Byte offset just after the batch's last record. */
  byteOffset: number;
}

export interface SourceOptions {
  hasHeader: boolean;
  plan: ColumnPlan;
  /** Columns of the mapping: without a header, rows with more values than this fail. */
  mappedColumns: number;
}

/** Rows checked between two turns of the event loop (so the previous batch's database work is not held up). */
const ROWS_PER_TURN = 500;

/** At most this much text per batch, whatever the row count (rows can be up to 64 K characters). */
const MAX_BATCH_CHARS = 16 * 1024 * 1024;

const NUL_MESSAGE = 'This row has NUL characters: it is not text.';

/** The report keeps a readable part of the row. */
export function rawForReport(text: string): string {
  return text.slice(0, RAW_CHARS).replace(/\0/g, '');
}

function isCells(row: unknown): row is string[] {
  return Array.isArray(row) && row.every((c) => typeof c === 'string');
}

/** Parses records that the reader found well-formed; null for a record papaparse reads differently. */
function parseRecords(texts: readonly string[], format: CsvFormat): (string[] | null)[] {
  if (texts.length === 0) return [];
  const parse = (input: string): { data: unknown[]; errorRows: Set<number> } => {
    const parser = new Papa.Parser({ delimiter: format.delimiter, newline: format.newline, quoteChar: '"' });
    const result: unknown = parser.parse(input, 0, false);
    const data = typeof result === 'object' && result !== null && 'data' in result ? result.data : null;
    const errors = typeof result === 'object' && result !== null && 'errors' in result ? result.errors : null;
    const errorRows = new Set<number>();
    if (Array.isArray(errors)) {
      for (const e of errors) {
        if (typeof e === 'object' && e !== null && 'row' in e && typeof e.row === 'number') errorRows.add(e.row);
      }
    }
    return { data: Array.isArray(data) ? data : [], errorRows };
  };
  const together = parse(texts.join(format.newline));
  if (together.data.length === texts.length) {
    return together.data.map((row, i) => (isCells(row) && !together.errorRows.has(i) ? row : null));
  }
  // The reader and papaparse disagree on where records end: read each record alone.
  return texts.map((text) => {
    const alone = parse(text);
    const row = alone.data[0];
    return alone.data.length === 1 && alone.errorRows.size === 0 && isCells(row) ? row : null;
  });
}

export class ImportSource {
  /** E-mails claimed by rows so far, with their rows. */
  readonly emails = new SeenValues();
  /** Wallets (lower-cased) claimed by rows so far, with their rows. */
  readonly wallets = new SeenValues();
  private rows = 0;
  private offset = 0;
  private headerPending: boolean;
  private columns: number | null;

  private constructor(
    private readonly file: FileHandle,
    private readonly reader: CsvRecordReader,
    private readonly format: CsvFormat,
    private readonly options: SourceOptions,
  ) {
    this.headerPending = options.hasHeader;
    this.columns = options.hasHeader ? null : options.mappedColumns;
  }

  static async open(filePath: string, options: SourceOptions): Promise<ImportSource> {
    const file = await open(filePath, 'r');
    try {
      const head = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await file.read(head, 0, SNIFF_BYTES, 0);
      const format = detectFormat(head.subarray(0, bytesRead));
      return new ImportSource(file, new CsvRecordReader(file, format), format, options);
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  get rowsDone(): number {
    return this.rows;
  }

  get byteOffset(): number {
    return this.offset;
  }

  /**
   * Re-reads the file up to a checkpoint (rows are not imported again; the values they claimed are).
   * False when the file does not match the checkpoint (it changed since).
   */
  async replayTo(checkpoint: { rowsDone: number; byteOffset: number }, batchRows: number): Promise<boolean> {
    while (this.offset < checkpoint.byteOffset) {
      const records = await this.reader.read(batchRows, MAX_BATCH_CHARS, checkpoint.byteOffset);
      if (records.length === 0) return false;
      await this.process(records);
    }
    return this.offset === checkpoint.byteOffset && this.rows === checkpoint.rowsDone;
  }

  /** The next batch of at most `batchRows` records; null at the end of the file. */
  async next(batchRows: number): Promise<ImportBatch | null> {
    const records = await this.reader.read(batchRows, MAX_BATCH_CHARS);
    if (records.length === 0) return null;
    const { candidates, failures } = await this.process(records);
    return { candidates, failures, rowsDone: this.rows, byteOffset: this.offset };
  }

  async close(): Promise<void> {
    await this.file.close();
  }

  /** The row's values, or why it fails. */
  private rowProblem(verdict: string | number, cells: string[] | null): ImportValues | string {
    if (typeof verdict === 'string') return verdict;
    if (!cells) return ROW_MESSAGES.unreadable;
    if (this.columns !== null && cells.length > this.columns)
      return ROW_MESSAGES.tooManyValues(cells.length, this.columns);
    const result = readRow(cells, this.options.plan);
    return result.ok ? result.values : result.reason;
  }

  private async process(records: readonly CsvRecord[]): Promise<{ candidates: CandidateRow[]; failures: FailedRow[] }> {
    const candidates: CandidateRow[] = [];
    const failures: FailedRow[] = [];
    const texts: string[] = [];
    const verdicts: (string | number | null)[] = records.map((r) => {
      if (r.problem === null && r.text.trim() === '') return null;
      if (r.problem === 'too_long') return ROW_MESSAGES.tooLong;
      if (r.problem === 'broken_quote') return ROW_MESSAGES.brokenQuote;
      if (r.text.includes('\uFFFD')) return ROW_MESSAGES.encoding;
      if (r.text.includes('\0')) return NUL_MESSAGE;
      texts.push(r.text);
      return texts.length - 1;
    });
    const parsed = parseRecords(texts, this.format);

    for (const [i, record] of records.entries()) {
      if (i > 0 && i % ROWS_PER_TURN === 0) await turn();
      const verdict = verdicts[i] ?? null;
      this.offset = record.end;
      if (verdict === null) continue;
      const cells = typeof verdict === 'number' ? (parsed[verdict] ?? null) : null;
      if (this.headerPending) {
        this.headerPending = false;
        this.columns = cells ? cells.length : this.options.mappedColumns;
        continue;
      }
      if (cells && isBlankRow(cells)) continue;
      this.rows++;
      const values = this.rowProblem(verdict, cells);
      if (typeof values === 'string') {
        failures.push({ line: record.line, reason: values, raw: rawForReport(record.text) });
        continue;
      }
      const walletKey = values.wallet?.toLowerCase() ?? null;
      const earlier = Math.min(
        (values.email && this.emails.rowOf(values.email)) || Infinity,
        (walletKey && this.wallets.rowOf(walletKey)) || Infinity,
      );
      if (earlier !== Infinity) {
        failures.push({ line: record.line, reason: ROW_MESSAGES.duplicate(earlier), raw: rawForReport(record.text) });
        continue;
      }
      if (values.email) this.emails.claim(values.email, record.line);
      if (walletKey) this.wallets.claim(walletKey, record.line);
      candidates.push({ line: record.line, values, raw: record.text });
    }
    return { candidates, failures };
  }
}
