/**
 * One SMTP client connection for campaign sends (RFC 5321), with what the sender's exactly-once rule
 * needs and nodemailer's SMTPConnection does not give: the message's data written and held open
 * until the sender's commit, then its end (`<CRLF>.<CRLF>`) written on its own (transport.ts).
 *
 * - Greeting, EHLO (HELO when EHLO is refused), STARTTLS when the server offers it (unless
 *   `ignoreTLS`; implicit TLS for smtps://), AUTH PLAIN or LOGIN when credentials are set.
 * - Commands pipelined when the server offers PIPELINING (RFC 2920): MAIL FROM, RCPT TO and DATA go
 *   out in one write and their answers are read in order, so a message costs three writes (the
 *   commands, the data, its end) instead of five and one wait for answers instead of three.
 * - A refused envelope (MAIL or RCPT) is followed by RSET, and the connection carries the next
 *   message.
 * - Addresses: the domain in ASCII (IDNA); SMTPUTF8 (RFC 6531) asked for when a local part is not
 *   ASCII and the server offers it.
 * - The data is dot-stuffed only when a line of it starts with '.' (mime.ts never writes one).
 * - Timeouts: connecting and the greeting 30 s, then 60 s without traffic; a timeout, a closed
 *   socket or an error fails every answer awaited with code 0 (no answer).
 */
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import { domainToASCII } from 'node:url';

/** An SMTP answer: its code (250, 451, 550, ...) or 0 when the connection failed without one. */
export interface SmtpAnswer {
  code: number;
  text: string;
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS (smtps://). */
  secure: boolean;
  auth: { user: string; pass: string } | null;
  /** Never upgrade with STARTTLS, even when offered. */
  ignoreTLS: boolean;
  /** TLS options beyond the host name (tests: a self-signed certificate). */
  tls?: tls.ConnectionOptions;
}

const CONNECT_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 60_000;
const ASCII = /^[\x20-\x7e]*$/;

/** smtp://user:pass@host:port (smtps:// for implicit TLS; ?ignoreTLS=true: no STARTTLS). */
export function smtpSettings(smtpUrl: string): SmtpSettings {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : null,
    ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
  };
}

/** The name this client gives in EHLO: the host's name when it is a domain, else a loopback literal. */
function clientName(): string {
  const name = os.hostname();
  return name.includes('.') && ASCII.test(name) ? name : '[127.0.0.1]';
}

/** An envelope address: its domain in ASCII; CR, LF and angle brackets never reach the command line. */
function envelopeAddress(address: string): string {
  const clean = address.replace(/[\r\n<>]/g, '');
  const at = clean.lastIndexOf('@');
  if (at < 0) return clean;
  const domain = clean.slice(at + 1);
  return `${clean.slice(0, at)}@${ASCII.test(domain) ? domain : domainToASCII(domain) || domain}`;
}

/** The data as SMTP sends it: a line that starts with '.' gets another (RFC 5321 section 4.5.2). */
function dotStuffed(raw: Buffer): Buffer {
  if (raw[0] !== 0x2e && raw.indexOf('\n.') < 0) return raw;
  return Buffer.from(raw.toString('latin1').replace(/(^|\n)\./g, '$1..'), 'latin1');
}

export class SmtpClient {
  private socket: net.Socket;
  private buffer = '';
  /** The answer being read (multi-line: its lines so far). */
  private lines: string[] = [];
  /** Those waiting for the next answers, in the order of the commands sent. */
  private waiting: ((answer: SmtpAnswer) => void)[] = [];
  private failed: SmtpAnswer | null = null;
  private extensions = new Set<string>();
  private authMethods = new Set<string>();

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  /** Connects, reads the greeting, says EHLO, upgrades to TLS and signs in as the settings say. */
  static async connect(settings: SmtpSettings): Promise<SmtpClient> {
    const socket = settings.secure
      ? tls.connect({ host: settings.host, port: settings.port, servername: settings.host, ...settings.tls })
      : net.connect({ host: settings.host, port: settings.port });
    const client = new SmtpClient(socket);
    socket.setTimeout(CONNECT_TIMEOUT_MS);
    const greeting = await client.read();
    if (greeting.code !== 220) throw client.refusal('greeting', greeting);
    await client.hello();
    if (!settings.secure && !settings.ignoreTLS && client.extensions.has('STARTTLS')) {
      const answer = await client.command('STARTTLS');
      if (answer.code !== 220) throw client.refusal('STARTTLS', answer);
      await client.upgrade(settings);
      await client.hello();
    }
    if (settings.auth) await client.login(settings.auth);
    client.socket.setTimeout(IDLE_TIMEOUT_MS); // the TLS socket after STARTTLS
    // Small writes (the end of the data after the commit) go out at once: with Nagle's algorithm they
    // wait for the ACK of the body, up to the peer's delayed-ACK time (40 ms on Linux).
    client.socket.setNoDelay(true);
    return client;
  }

  private attach(socket: net.Socket): void {
    socket.on('data', (chunk: Buffer) => this.received(chunk.toString('latin1')));
    socket.on('timeout', () => this.lost({ code: 0, text: 'The SMTP connection timed out.' }));
    socket.on('error', (error) => this.lost({ code: 0, text: error.message }));
    socket.on('close', () => this.lost({ code: 0, text: 'The SMTP connection closed.' }));
  }

  /** The connection is over: every answer awaited is `answer`; the socket is destroyed (or ended: QUIT). */
  private lost(answer: SmtpAnswer, end?: string): void {
    if (this.failed) return;
    this.failed = answer;
    if (end === undefined) this.socket.destroy();
    else this.socket.end(end, 'latin1');
    for (const resolve of this.waiting.splice(0)) resolve(answer);
  }

  private received(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      this.lines.push(line);
      // The last line of an answer: its code and a space (or the code alone); "250-" continues.
      if (line.length >= 3 && line[3] !== '-') {
        const text = this.lines.join('\n');
        this.lines = [];
        const resolve = this.waiting.shift();
        if (!resolve) return this.lost({ code: 0, text: `The SMTP server answered unasked: ${text}` });
        resolve({ code: Number(line.slice(0, 3)) || 0, text });
      }
    }
  }

  /** The next answer. */
  private read(): Promise<SmtpAnswer> {
    if (this.failed) return Promise.resolve(this.failed);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Writes command lines at once; their answers, in order. */
  private send(lines: string[]): Promise<SmtpAnswer[]> {
    const answers = lines.map(() => this.read());
    if (!this.failed) this.socket.write(lines.map((l) => `${l}\r\n`).join(''), 'latin1');
    return Promise.all(answers);
  }

  private async command(line: string): Promise<SmtpAnswer> {
    const [answer] = await this.send([line]);
    return answer as SmtpAnswer;
  }

  private refusal(step: string, answer: SmtpAnswer): Error & { answer: SmtpAnswer } {
    this.close();
    return Object.assign(new Error(`SMTP ${step}: ${answer.text}`), { answer });
  }

  private async hello(): Promise<void> {
    let answer = await this.command(`EHLO ${clientName()}`);
    if (answer.code >= 500 && answer.code < 600) answer = await this.command(`HELO ${clientName()}`);
    if (answer.code !== 250) throw this.refusal('EHLO', answer);
    this.extensions = new Set(
      answer.text
        .split('\n')
        .slice(1)
        .map((line) => line.slice(4).trim().split(/\s+/)[0]?.toUpperCase() ?? ''),
    );
    this.authMethods = new Set(
      (answer.text.split('\n').find((line) => /^\d{3}[- ]AUTH[ =]/i.test(line)) ?? '')
        .slice(9)
        .toUpperCase()
        .split(/\s+/),
    );
  }

  private upgrade(settings: SmtpSettings): Promise<void> {
    return new Promise((resolve, reject) => {
      const plain = this.socket;
      plain.removeAllListeners('data');
      plain.removeAllListeners('close');
      plain.removeAllListeners('timeout');
      plain.removeAllListeners('error');
      plain.on('error', () => {}); // the TLS socket reports the failure (and `lost` follows)
      plain.setTimeout(0);
      const secure = tls.connect({ socket: plain, servername: settings.host, ...settings.tls }, () => resolve());
      secure.once('error', reject);
      secure.setTimeout(CONNECT_TIMEOUT_MS);
      this.socket = secure;
      this.attach(secure);
    });
  }

  private async login(auth: { user: string; pass: string }): Promise<void> {
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
    let answer: SmtpAnswer;
    if (this.authMethods.has('PLAIN') || !this.authMethods.has('LOGIN')) {
      answer = await this.command(`AUTH PLAIN ${b64(`\u0000${auth.user}\u0000${auth.pass}`)}`);
    } else {
      answer = await this.command('AUTH LOGIN');
      if (answer.code === 334) answer = await this.command(b64(auth.user));
      if (answer.code === 334) answer = await this.command(b64(auth.pass));
    }
    if (answer.code !== 235) throw this.refusal('AUTH', answer);
  }

  /**
   * MAIL FROM, RCPT TO and DATA (pipelined when offered). Null when the server waits for the data
   * (354); else the answer that refused the envelope, after which the transaction is reset.
   */
  async begin(from: string, to: string): Promise<SmtpAnswer | null> {
    const utf8 = !ASCII.test(from + to) && this.extensions.has('SMTPUTF8') ? ' SMTPUTF8' : '';
    const commands = [`MAIL FROM:<${envelopeAddress(from)}>${utf8}`, `RCPT TO:<${envelopeAddress(to)}>`, 'DATA'];
    let answers: SmtpAnswer[];
    if (this.extensions.has('PIPELINING')) answers = await this.send(commands);
    else {
      answers = [];
      for (const command of commands) {
        const answer = await this.command(command);
        answers.push(answer);
        if (answer.code >= 400 || answer.code === 0) break;
      }
    }
    const [mail, rcpt, data] = answers as [SmtpAnswer, SmtpAnswer?, SmtpAnswer?];
    const positive = (a?: SmtpAnswer) => a !== undefined && a.code >= 200 && a.code < 300;
    if (positive(mail) && positive(rcpt) && data?.code === 354) return null;
    // Refused: the first failing answer says why (a pipelined DATA after a refused RCPT only says
    // "no valid recipients").
    const refused = answers.find((a) => a.code >= 400 || a.code === 0) ?? data ?? mail;
    // A server that accepted DATA without a valid recipient gets an empty message it cannot deliver.
    if (data?.code === 354) await this.command('.');
    if (!this.failed) {
      const reset = await this.command('RSET');
      if (reset.code !== 250) this.close();
    }
    return refused;
  }

  /**
   * Writes the message's data (after `begin` answered null), without its end; resolves once the data
   * has left this process for the kernel (or the connection failed: `endData` then answers so). The
   * sender commits a row 'sent' only after this, so the end written after that commit is five bytes
   * the kernel takes within the write call itself: a process killed after the commit holds nothing of
   * the message back in its own write queue (a slow server leaves data queued there).
   */
  writeData(raw: Buffer): Promise<void> {
    if (this.failed) return Promise.resolve();
    return new Promise((resolve) => this.socket.write(dotStuffed(raw), () => resolve()));
  }

  /** Ends the data and reads the server's answer to the message. */
  endData(endsWithLineBreak: boolean): Promise<SmtpAnswer> {
    const answer = this.read();
    if (!this.failed) this.socket.write(endsWithLineBreak ? '.\r\n' : '\r\n.\r\n', 'latin1');
    return answer;
  }

  get alive(): boolean {
    return this.failed === null;
  }

  /** QUIT, then the socket closes (nothing is awaited). */
  close(): void {
    this.lost({ code: 0, text: 'The SMTP connection was closed by the sender.' }, 'QUIT\r\n');
  }

  /** Drops the connection at once: a message whose data did not end is discarded by the server. */
  destroy(): void {
    this.lost({ code: 0, text: 'The SMTP connection was dropped by the sender.' });
  }
}
