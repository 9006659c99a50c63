/**
 * Splits an uploaded CSV file into records, streaming it from disk in 1 MiB chunks.
 *
 * Papaparse parses the fields (see import-source.ts); this reader sits in front of it because a
 * streaming papaparse keeps an unfinished row in memory whole (a 50 MB line would be held, and
 * re-concatenated chunk after chunk) and does not say where in the file a row starts and ends. Here:
 *
 * - a record ends at a line break outside quotes (RFC 4180: `"` opens a quoted value only at the start
 *   of a field, `""` inside it is a quote); its 1-based starting line and the byte offset after it are
 *   known exactly, which is what an import checkpoint stores;
 * - a record longer than MAX_IMPORT_ROW_CHARS is reported as too long, and its bytes beyond the
 *   first few thousand are skipped without being kept;
 * - broken quoting (a quote that is not closed, or a quoted value followed by more text) makes the
 *   record's first line one failed record, and reading goes on at the next line, so one stray quote
 *   does not swallow the rest of the file.
 *
 * The records of a file are the same on every read: a resumed import re-reads from the start.
 */
import type { FileHandle } from 'node:fs/promises';
import { MAX_IMPORT_ROW_CHARS } from '../../contracts';
import type { CsvFormat } from './import-sniff';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

const CHUNK_BYTES = 1 << 20;
/** More bytes than this are surely more than MAX_IMPORT_ROW_CHARS characters (UTF-8: at most 3 bytes per UTF-16 unit). */
const MAX_RECORD_BYTES = MAX_IMPORT_ROW_CHARS * 3;
/** What the report keeps of a failed record. */
export const RAW_CHARS = 1000;
const RAW_BYTES = RAW_CHARS * 4;

// Scanner states.
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** Just after a quote inside a quoted value: a second quote, the end of the field, or broken quoting. */
const QUOTE_IN_QUOTED = 3;
/** Spaces between a closing quote and the delimiter (papaparse allows them). */
const AFTER_QUOTE = 4;
/** Broken quoting seen on the record's first line: only the end of that line is looked for. */
const BROKEN = 5;

export type RecordProblem = 'too_long' | 'broken_quote';

export interface CsvRecord {
  /** 1-based line of the file the record starts on. */
  line: number;
  /** Byte offset of the file just after the record and its line break. */
  end: number;
  /** The record without its line break; for a record with a problem, at most RAW_CHARS of its first characters. */
  text: string;
  problem: RecordProblem | null;
}

/** Result of scanning: the index of the line break that ends the record, or one of these. */
const NEED_MORE = -1;
const BROKEN_FOUND = -2;

/** The quote-aware state machine over one record's bytes, resumable across chunks. */
class RecordScan {
  state = FIELD_START;
  /** File offset of the first line break inside the record (in a quoted value), or -1. */
  firstBreak = -1;
  /** Line breaks inside the record so far (not counting the one that ends it). */
  breaks = 0;
  /** Index in `scanned` of the next line break at or after the scan position, when known (-1: look it up). */
  private nextBreak = -1;
  private scanned: Buffer | null = null;

  constructor(
    private readonly delimiter: number,
    private readonly newline: number,
  ) {}

  /** Scans buf[from..]; `base` is the file offset of buf[0]. Returns the ending line break's index, NEED_MORE or BROKEN_FOUND. */
  advance(buf: Buffer, from: number, base: number): { at: number; result: number } {
    const { delimiter, newline } = this;
    const n = buf.length;
    if (buf !== this.scanned) {
      this.scanned = buf;
      this.nextBreak = -1;
    }
    let i = from;
    while (i < n) {
      switch (this.state) {
        case FIELD_START:
          if (buf[i] === QUOTE) {
            this.state = QUOTED;
            i++;
          } else {
            this.state = UNQUOTED;
          }
          break;
        case UNQUOTED:
          for (; i < n; i++) {
            const b = buf[i];
            if (b === newline) return { at: i, result: i };
            if (b === delimiter) {
              this.state = FIELD_START;
              i++;
              break;
            }
          }
          break;
        case QUOTED: {
          const q = buf.indexOf(QUOTE, i);
          const stop = q === -1 ? n : q;
          for (;;) {
            if (this.nextBreak < i) {
              const k = buf.indexOf(newline, i);
              this.nextBreak = k === -1 ? n : k;
            }
            if (this.nextBreak >= stop) break;
            if (this.firstBreak < 0) this.firstBreak = base + this.nextBreak;
            this.breaks++;
            i = this.nextBreak + 1;
          }
          i = stop;
          if (q !== -1) {
            this.state = QUOTE_IN_QUOTED;
            i++;
          }
          break;
        }
        case QUOTE_IN_QUOTED:
        case AFTER_QUOTE: {
          const b = buf[i];
          if (b === QUOTE && this.state === QUOTE_IN_QUOTED) {
            this.state = QUOTED;
            i++;
          } else if (b === delimiter) {
            this.state = FIELD_START;
            i++;
          } else if (b === newline) {
            return { at: i, result: i };
          } else if (b === SPACE || b === TAB) {
            this.state = AFTER_QUOTE;
            i++;
          } else if (b === CR && newline === LF) {
            // CRLF after a closing quote: the CR is dropped with the line break.
            this.state = UNQUOTED;
            i++;
          } else {
            return { at: i, result: BROKEN_FOUND };
          }
          break;
        }
        default: {
          // BROKEN: the end of the first line, quotes or not.
          const k = buf.indexOf(newline, i);
          if (k !== -1) return { at: k, result: k };
          i = n;
        }
      }
    }
    return { at: n, result: NEED_MORE };
  }

  /** Whether the file ending here leaves a quoted value open. */
  get openAtEnd(): boolean {
    return this.state === QUOTED;
  }
}

export class CsvRecordReader {
  private buf: Buffer = Buffer.alloc(0);
  /** File offset of buf[0]. */
  private base = 0;
  /** Index in buf where the next record starts. */
  private pos = 0;
  /** Next file offset to read. */
  private readAt = 0;
  private eof = false;
  /** Index in buf of the next quote at or after pos (buf.length when there is none), or -1 when not known. */
  private nextQuote = -1;
  private line = 1;
  private readonly delimiter: number;
  private readonly newline: number;

  constructor(
    private readonly file: FileHandle,
    format: CsvFormat,
  ) {
    this.delimiter = format.delimiter.charCodeAt(0);
    this.newline = format.newline.charCodeAt(0);
  }

  /**
   * The next records in file order: at most `maxRecords`, fewer once about `maxChars` characters are
   * read or a record ends at or after `until` (a file offset); [] at the end.
   */
  async read(maxRecords: number, maxChars: number, until = Infinity): Promise<CsvRecord[]> {
    const out: CsvRecord[] = [];
    let chars = 0;
    while (out.length < maxRecords && chars < maxChars) {
      let record = this.nextInBuffer();
      if (record === null) {
        if (this.eof && this.pos >= this.buf.length) break;
        if (this.buf.length - this.pos > MAX_RECORD_BYTES) {
          record = await this.longRecord();
        } else if (!this.eof) {
          await this.fill();
          continue;
        } else {
          throw new Error('CSV reader: the end of the file holds no whole record');
        }
      }
      out.push(record);
      chars += record.text.length;
      if (record.end >= until) break;
    }
    return out;
  }

  /** Reads the next chunk, keeping buf[pos..]. */
  private async fill(): Promise<void> {
    if (this.eof) return;
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await this.file.read(chunk, 0, CHUNK_BYTES, this.readAt);
    const atStart = this.readAt === 0;
    if (bytesRead === 0) {
      this.eof = true;
      return;
    }
    this.readAt += bytesRead;
    const kept = this.buf.subarray(this.pos);
    this.base += this.pos;
    this.buf = kept.length > 0 ? Buffer.concat([kept, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    this.pos = 0;
    this.nextQuote = -1;
    if (atStart && this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf) this.pos = 3;
  }

  /** Moves reading to a file offset (after a broken record's first line): the buffer is dropped. */
  private seek(offset: number): void {
    this.buf = Buffer.alloc(0);
    this.base = offset;
    this.pos = 0;
    this.readAt = offset;
    this.eof = false;
    this.nextQuote = -1;
  }

  private decode(start: number, end: number): string {
    let stop = end;
    if (this.newline === LF && stop > start && this.buf[stop - 1] === CR) stop--;
    return this.buf.toString('utf8', start, stop);
  }

  /** A record whose text is in the buffer, with its problem when it is too long in characters. */
  private complete(start: number, contentEnd: number, next: number, breaks: number): CsvRecord {
    const text = this.decode(start, contentEnd);
    const record: CsvRecord = { line: this.line, end: this.base + next, text, problem: null };
    if (text.length > MAX_IMPORT_ROW_CHARS) {
      record.text = text.slice(0, RAW_CHARS);
      record.problem = 'too_long';
    }
    this.line += breaks + 1;
    this.pos = next;
    return record;
  }

  /** A broken record: its first line only; reading goes on after that line. */
  private brokenFirstLine(start: number, lineEnd: number, next: number): CsvRecord {
    const tooLong = lineEnd - start > MAX_RECORD_BYTES;
    const text = this.decode(start, Math.min(lineEnd, start + RAW_BYTES)).slice(0, RAW_CHARS);
    const record: CsvRecord = {
      line: this.line,
      end: this.base + next,
      text,
      problem: tooLong || text.length > MAX_IMPORT_ROW_CHARS ? 'too_long' : 'broken_quote',
    };
    this.line += 1;
    this.pos = next;
    return record;
  }

  /** The next record if it lies wholly in the buffer (and is not over MAX_RECORD_BYTES), else null. */
  private nextInBuffer(): CsvRecord | null {
    const { buf, pos: start } = this;
    const n = buf.length;
    if (start >= n) return null;
    const lineEnd = buf.indexOf(this.newline, start);
    if (this.nextQuote < start) {
      const q = buf.indexOf(QUOTE, start);
      this.nextQuote = q === -1 ? n : q;
    }
    const contentEnd = lineEnd === -1 ? n : lineEnd;
    // Fast path: no quote before the line break.
    if (this.nextQuote >= contentEnd) {
      if (lineEnd === -1 && !this.eof) return null;
      if (contentEnd - start > MAX_RECORD_BYTES) return null;
      return this.complete(start, contentEnd, lineEnd === -1 ? n : lineEnd + 1, 0);
    }
    const scan = new RecordScan(this.delimiter, this.newline);
    const { at, result } = scan.advance(buf, start, this.base);
    if (at - start > MAX_RECORD_BYTES) return null;
    if (result >= 0) return this.complete(start, result, result + 1, scan.breaks);
    if (result === BROKEN_FOUND) {
      if (scan.firstBreak >= 0) {
        const k = scan.firstBreak - this.base;
        return this.brokenFirstLine(start, k, k + 1);
      }
      const k = buf.indexOf(this.newline, at);
      if (k !== -1) return this.brokenFirstLine(start, k, k + 1);
      if (!this.eof) return null;
      return this.brokenFirstLine(start, n, n);
    }
    // NEED_MORE
    if (!this.eof) return null;
    if (scan.openAtEnd) {
      if (scan.firstBreak >= 0) {
        const k = scan.firstBreak - this.base;
        return this.brokenFirstLine(start, k, k + 1);
      }
      return this.brokenFirstLine(start, n, n);
    }
    return this.complete(start, n, n, scan.breaks);
  }

  /**
   * A record of more than MAX_RECORD_BYTES: too long whatever it holds. Its first bytes are kept for the
   * report, the rest is scanned chunk by chunk (to find where it ends) and dropped.
   */
  private async longRecord(): Promise<CsvRecord> {
    const start = this.base + this.pos;
    const line = this.line;
    const text = this.decode(this.pos, Math.min(this.buf.length, this.pos + RAW_BYTES)).slice(0, RAW_CHARS);
    const scan = new RecordScan(this.delimiter, this.newline);
    let from = this.pos;
    for (;;) {
      const { at, result } = scan.advance(this.buf, from, this.base);
      if (result >= 0) {
        this.pos = result + 1;
        this.line += scan.breaks + 1;
        return { line, end: this.base + result + 1, text, problem: 'too_long' };
      }
      const broken = result === BROKEN_FOUND || (result === NEED_MORE && this.eof && scan.openAtEnd);
      if (broken && scan.firstBreak >= 0) {
        // Broken quoting after the first line: only the first line fails, reading goes on after it.
        const firstLineBytes = scan.firstBreak - start;
        this.seek(scan.firstBreak + 1);
        this.line = line + 1;
        const cut = text.indexOf(String.fromCharCode(this.newline));
        return {
          line,
          end: scan.firstBreak + 1,
          text: cut === -1 ? text : text.slice(0, cut).replace(/\r$/, ''),
          problem: firstLineBytes > MAX_RECORD_BYTES ? 'too_long' : 'broken_quote',
        };
      }
      if (result === BROKEN_FOUND) {
        // On the (long) first line: skip to its end.
        scan.state = BROKEN;
        from = at;
        continue;
      }
      if (this.eof) {
        this.pos = this.buf.length;
        this.line += scan.breaks + 1;
        return { line, end: this.base + this.buf.length, text, problem: 'too_long' };
      }
      // Drop what was scanned, read on.
      this.pos = this.buf.length;
      await this.fill();
      from = 0;
    }
  }
}
