/**
 * What the first bytes of an uploaded file say: whether it is text at all (not a PNG, a ZIP such as
 * .xlsx, a PDF... renamed .csv), and which delimiter and line break it uses (papaparse's guess, the same
 * one the console's preview makes).
 */
import Papa from 'papaparse';

/** How much of a file is looked at to decide. */
export const SNIFF_BYTES = 64 * 1024;

export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** File signatures of formats people rename to .csv or pick by mistake. */
const SIGNATURES: readonly (readonly number[])[] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0x50, 0x4b, 0x03, 0x04], // ZIP: .xlsx, .ods, .docx, .zip
  [0x50, 0x4b, 0x05, 0x06], // empty ZIP
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // OLE2: .xls, .doc
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x47, 0x49, 0x46, 0x38, 0x37, 0x61], // GIF87a
  [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], // GIF89a
  [0xff, 0xd8, 0xff], // JPEG
  [0x1f, 0x8b], // gzip
  [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], // RAR
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], // 7z
  [0x7f, 0x45, 0x4c, 0x46], // ELF
];

/**
 * Whether the head of a file shows it is not a text (CSV) file: a known binary signature, or NUL bytes
 * in more than 1 byte of 20 (other binary formats, UTF-16 text). A stray NUL in a cell of a text file
 * does not make it binary: that row fails with its reason and the rest is imported.
 */
export function looksBinary(head: Uint8Array): boolean {
  const signed = SIGNATURES.some((sig) => sig.length <= head.length && sig.every((byte, i) => head[i] === byte));
  if (signed) return true;
  let nuls = 0;
  for (const byte of head) if (byte === 0) nuls++;
  return nuls > 1 && nuls * 20 > head.length;
}

/** Whether a file of `totalBytes` whose first bytes are `head` holds nothing but a BOM and white space. */
export function looksEmpty(head: Uint8Array, totalBytes: number): boolean {
  if (totalBytes === 0) return true;
  if (totalBytes > head.length) return false;
  const start = startsWithBom(head) ? UTF8_BOM.length : 0;
  for (let i = start; i < head.length; i++) {
    const b = head[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return false;
  }
  return true;
}

export function startsWithBom(head: Uint8Array): boolean {
  return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
}

export interface CsvFormat {
  delimiter: string;
  /** A record ends at this byte: LF (also for CRLF files, whose CR is dropped) or a lone CR. */
  newline: '\n' | '\r';
}

export const DELIMITERS_TO_GUESS = [',', ';', '\t', '|'];

/** The delimiter and line break of a CSV file from its first bytes (a comma when papaparse cannot tell). */
export function detectFormat(head: Buffer): CsvFormat {
  let text = head.subarray(startsWithBom(head) ? UTF8_BOM.length : 0).toString('utf8');
  // A cut-off last line would skew the guess.
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  if (head.length >= SNIFF_BYTES && lastBreak > 0) text = text.slice(0, lastBreak);
  const result = Papa.parse<string[]>(text, {
    preview: 10,
    skipEmptyLines: true,
    delimitersToGuess: DELIMITERS_TO_GUESS,
  });
  const guessed = result.meta.delimiter;
  const delimiter = DELIMITERS_TO_GUESS.includes(guessed) ? guessed : ',';
  return { delimiter, newline: result.meta.linebreak === '\r' ? '\r' : '\n' };
}
