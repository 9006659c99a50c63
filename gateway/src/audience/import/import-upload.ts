/**
 * Receives an import file: the request body streamed straight to disk (never held in memory), with
 * the size limit enforced while it arrives and the first 64 KiB checked for being text. The file is
 * written as `<name>.part` and renamed once whole, so a cut-off upload never looks like a file.
 *
 * The request stream is never destroyed here (that would close the socket before the answer): on
 * a refusal the rest of the body is drained and the route answers with `Connection: close`.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { looksBinary, looksEmpty, SNIFF_BYTES } from './import-sniff';

export const UPLOAD_MESSAGES = {
  empty: 'The file is empty.',
  notCsv: 'This file is not a CSV file.',
  tooLarge: (limit: number) => `The file is too large: the limit is ${Math.round(limit / (1024 * 1024))} MB.`,
  interrupted: 'The upload was interrupted. Try again.',
} as const;

export class UploadRefused extends Error {
  constructor(
    readonly statusCode: 400 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefused';
  }
}

/** Writes `source` to `target` (at most `limit` bytes of text); resolves with the size. */
export function saveUpload(source: Readable, target: string, limit: number): Promise<number> {
  const part = `${target}.part`;
  return new Promise<number>((resolve, reject) => {
    const out = fs.createWriteStream(part, { flags: 'wx' });
    const head: Buffer[] = [];
    let headBytes = 0;
    let checked = false;
    let bytes = 0;
    let settled = false;

    const detach = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onAbort);
      source.off('close', onClose);
    };
    const refuse = (error: Error) => {
      if (settled) return;
      settled = true;
      detach();
      // Drain the rest of the body so the answer can be sent; the socket is closed after it.
      source.resume();
      // The file may still be opening: remove it once the stream has closed, or it reappears after rm.
      const removePart = () => fs.rm(part, { force: true }, () => reject(error));
      out.destroy();
      if (out.closed) removePart();
      else out.once('close', removePart);
    };
    const checkHead = (): boolean => {
      checked = true;
      if (!looksBinary(Buffer.concat(head).subarray(0, SNIFF_BYTES))) return true;
      refuse(new UploadRefused(400, UPLOAD_MESSAGES.notCsv));
      return false;
    };
    function onData(chunk: Buffer) {
      bytes += chunk.length;
      if (bytes > limit) return refuse(new UploadRefused(413, UPLOAD_MESSAGES.tooLarge(limit)));
      if (!checked) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= SNIFF_BYTES && !checkHead()) return;
      }
      if (!out.write(chunk)) {
        source.pause();
        out.once('drain', () => source.resume());
      }
    }
    function onEnd() {
      if (settled) return;
      if (!checked && !checkHead()) return;
      if (looksEmpty(Buffer.concat(head), bytes)) return refuse(new UploadRefused(400, UPLOAD_MESSAGES.empty));
      settled = true;
      detach();
      out.end(() => {
        fs.rename(part, target, (error) => (error ? reject(error) : resolve(bytes)));
      });
    }
    function onAbort() {
      refuse(new UploadRefused(400, UPLOAD_MESSAGES.interrupted));
    }
    function onClose() {
      // Closed before its end: the client went away mid-upload.
      if (!source.readableEnded) onAbort();
    }
    out.on('error', (error) => refuse(error));
    if (source.readableEnded) {
      // Nothing to read (an empty body the framework already consumed).
      onEnd();
      return;
    }
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onAbort);
    source.on('close', onClose);
  });
}
