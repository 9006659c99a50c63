/**
 * A file download (CSV exports, import failure reports) streamed from chunks, that either completes or
 * is seen to fail, never a truncated file that looks whole:
 * - the first chunk is read before the status and headers go out, so bad input or a failing first read
 *   is an ordinary error answer (`{message, errors?}` with its status), not a 200 followed by a reset;
 * - a failure after the first byte is logged, and the connection is destroyed without the end of the
 *   chunked body: the client sees an incomplete transfer (fetch rejects, curl reports "transfer closed
 *   with outstanding read data remaining"), never a clean end. The console's download shows it as failed.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export interface StreamedFile {
  /** `text/csv; charset=utf-8` */
  contentType: string;
  fileName: string;
}

export async function sendStreamedFile(
  reply: FastifyReply,
  chunks: AsyncIterable<string>,
  file: StreamedFile,
): Promise<FastifyReply> {
  const iterator = chunks[Symbol.asyncIterator]();
  // Throws before anything is sent: the error handler answers.
  const first = await iterator.next();
  const log = reply.log;
  let sent = 0;
  async function* rest(): AsyncGenerator<string> {
    try {
      if (!first.done) {
        sent += first.value.length;
        yield first.value;
      }
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        sent += next.value.length;
        yield next.value;
      }
    } catch (error) {
      log.error(
        { err: error, download: file.fileName, charsSent: sent },
        'download failed while streaming: an error answer if nothing was sent yet, else the connection is cut before the end',
      );
      // Fastify destroys the response when its stream fails after the headers.
      throw error;
    } finally {
      // The client went away (or the stream failed): let the source release what it holds.
      await iterator.return?.();
    }
  }
  return reply
    .type(file.contentType)
    .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
    .send(Readable.from(rest()));
}

/** The file's head (BOM, header row) joined to its first batch of rows: the first read covers real rows too. */
export async function* headedChunks(head: string, batches: AsyncIterable<string>): AsyncGenerator<string> {
  let pending: string | null = head;
  for await (const batch of batches) {
    if (pending === null) {
      yield batch;
    } else {
      yield pending + batch;
      pending = null;
    }
  }
  if (pending !== null) yield pending;
}
