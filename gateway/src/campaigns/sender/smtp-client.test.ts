// The campaign SMTP client (smtp-client.ts) and its pool (transport.ts) against a real SMTP server
// (smtp-server): pipelined and plain sessions, STARTTLS, AUTH PLAIN and LOGIN, a refused recipient
// followed by the next message on the same connection, dot-stuffing, and a message whose data never
// ended (dropped connection) that the server never takes, and data held back by a server that does
// not read (the sender commits a row only once its data has left the process).
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { SmtpClient } from './smtp-client';
import { smtpTransport } from './transport';

interface Server {
  port: number;
  received: { to: string; raw: string }[];
  /** Commands as the server read them, per connection. */
  connections: number;
  close(): Promise<void>;
}

const servers: Server[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function server(options: Partial<SMTPServerOptions> = {}): Promise<Server> {
  const s: Server = { port: 0, received: [], connections: 0, close: async () => {} };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      s.connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused')) {
        return callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        s.received.push({ to: session.envelope.rcptTo[0]?.address ?? '', raw: Buffer.concat(chunks).toString() });
        callback();
      });
    },
    ...options,
  });
  smtp.on('error', () => {});
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  s.port = (smtp.server.address() as AddressInfo).port;
  s.close = () => new Promise<void>((resolve) => smtp.close(() => resolve()));
  servers.push(s);
  return s;
}

const message = (to: string, body = 'Hello') =>
  Buffer.from(`From: news@console.test\r\nTo: ${to}\r\nSubject: Hi\r\n\r\n${body}\r\n`);

async function sendOne(client: SmtpClient, to: string, raw = message(to)) {
  const refused = await client.begin('news@console.test', to);
  if (refused) return refused;
  await client.writeData(raw);
  return client.endData(true);
}

const settings = (port: number, extra: object = {}) => ({
  host: '127.0.0.1',
  port,
  secure: false,
  auth: null,
  ignoreTLS: false,
  ...extra,
});

describe('SmtpClient', () => {
  for (const pipelining of [true, false]) {
    it(`sends messages one after another on one connection (${pipelining ? 'pipelined' : 'one command at a time'})`, async () => {
      const s = await server(pipelining ? {} : { hidePIPELINING: true });
      const client = await SmtpClient.connect(settings(s.port));
      for (let i = 0; i < 3; i++) assert.equal((await sendOne(client, `r${i}@example.org`)).code, 250);
      // A refused recipient: its answer, and the connection carries the next message.
      const refused = await sendOne(client, 'refused@example.org');
      assert.equal(refused.code, 550);
      assert.match(refused.text, /No such user/);
      assert.equal((await sendOne(client, 'r3@example.org')).code, 250);
      client.close();
      assert.deepEqual(
        s.received.map((m) => m.to),
        ['r0@example.org', 'r1@example.org', 'r2@example.org', 'r3@example.org'],
      );
      assert.equal(s.connections, 1);
    });
  }

  it('dot-stuffs lines that start with a dot; the server reads the message as written', async () => {
    const s = await server();
    const client = await SmtpClient.connect(settings(s.port));
    const body = '.first line\r\n..second\r\nmiddle .\r\n.';
    assert.equal((await sendOne(client, 'dots@example.org', message('dots@example.org', body))).code, 250);
    client.close();
    assert.ok(s.received[0]?.raw.endsWith(`\r\n\r\n${body}\r\n`), s.received[0]?.raw);
  });

  it('signs in with AUTH PLAIN or LOGIN, and reports a refused sign-in', async () => {
    for (const method of ['PLAIN', 'LOGIN']) {
      const s = await server({
        authOptional: false,
        authMethods: [method],
        allowInsecureAuth: true,
        onAuth(auth, _session, callback) {
          if (auth.username === 'user' && auth.password === 'pässword') return callback(null, { user: 'user' });
          callback(new Error('Invalid username or password'));
        },
      });
      const client = await SmtpClient.connect(settings(s.port, { auth: { user: 'user', pass: 'pässword' } }));
      assert.equal((await sendOne(client, 'a@example.org')).code, 250, method);
      client.close();
      await assert.rejects(
        SmtpClient.connect(settings(s.port, { auth: { user: 'user', pass: 'wrong' } })),
        (error: Error & { answer?: { code: number } }) => error.answer?.code === 535,
      );
    }
  });

  it('upgrades with STARTTLS when the server offers it, and not with ignoreTLS', async () => {
    let secured = 0;
    const s = await server({
      disabledCommands: [],
      onMailFrom(_address, session, callback) {
        if (session.secure) secured++;
        callback();
      },
    });
    // smtp-server's built-in certificate is self-signed (and expired): this test trusts it.
    const tls = { rejectUnauthorized: false };
    const client = await SmtpClient.connect(settings(s.port, { tls }));
    assert.equal((await sendOne(client, 'tls@example.org')).code, 250);
    client.close();
    assert.equal(secured, 1);
    const plain = await SmtpClient.connect(settings(s.port, { tls, ignoreTLS: true }));
    assert.equal((await sendOne(plain, 'plain@example.org')).code, 250);
    plain.close();
    assert.equal(secured, 1);
    // A certificate nobody vouches for is refused by default.
    await assert.rejects(SmtpClient.connect(settings(s.port)));
  });

  it('a message whose data never ended is discarded by the server; the pool sends the next one', async () => {
    const s = await server();
    const transport = smtpTransport(settings(s.port), 1);
    const first = await transport.prepare({ from: 'news@console.test', to: 'dropped@example.org', raw: message('x') });
    assert.ok('prepared' in first);
    first.prepared.abort();
    const second = await transport.prepare({ from: 'news@console.test', to: 'kept@example.org', raw: message('y') });
    assert.ok('prepared' in second);
    assert.equal((await second.prepared.finish()).code, 250);
    await transport.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(
      s.received.map((m) => m.to),
      ['kept@example.org'],
    );
  });

  it("a message's data is handed over before prepare resolves: a server that stops reading holds it back", async () => {
    // A scripted server: answers the pipelined commands, then stops reading once DATA is accepted.
    let resumeReading = () => {};
    let ended = false;
    const sockets = new Set<net.Socket>();
    const raw = net.createServer((socket) => {
      sockets.add(socket);
      let text = '';
      let inData = false;
      socket.write('220 slow.test ESMTP\r\n');
      socket.on('data', (chunk: Buffer) => {
        if (ended) return;
        // In the data only the last few bytes matter (the end marker may straddle two chunks): keeping
        // all 48 MB and searching it again at every chunk made this test take a minute.
        text = inData ? (text + chunk.toString('latin1')).slice(-16) : text + chunk.toString('latin1');
        if (inData) {
          if (!text.includes('\r\n.\r\n')) return;
          ended = true;
          socket.end('250 2.0.0 queued\r\n');
          return;
        }
        for (let at = text.indexOf('\r\n'); at >= 0 && !inData; at = text.indexOf('\r\n')) {
          const line = text.slice(0, at);
          text = text.slice(at + 2);
          if (/^EHLO/i.test(line)) socket.write('250-slow.test\r\n250 PIPELINING\r\n');
          else if (/^DATA/i.test(line)) {
            inData = true;
            socket.write('354 go ahead\r\n');
            socket.pause();
            resumeReading = () => socket.resume();
          } else socket.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const client = await SmtpClient.connect(settings((raw.address() as AddressInfo).port));
      assert.equal(await client.begin('news@console.test', 'big@example.org'), null);
      // More than the kernel's socket buffers hold (a few MB on loopback).
      const body = Buffer.alloc(48 * 1024 * 1024, 'a\r\n');
      let handedOver = false;
      const written = client.writeData(Buffer.concat([message('big@example.org'), body])).then(() => {
        handedOver = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(handedOver, false, 'the data cannot all have left while the server does not read');
      resumeReading();
      await written;
      assert.equal(ended, false, 'the end of the data is not written with the data');
      assert.equal((await client.endData(true)).code, 250);
      assert.equal(ended, true);
      client.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
  });

  it('a server that is not there: the answer has code 0', async () => {
    const s = await server();
    await s.close();
    servers.splice(servers.indexOf(s), 1);
    const transport = smtpTransport(settings(s.port), 1);
    const result = await transport.prepare({ from: 'news@console.test', to: 'a@example.org', raw: message('a') });
    assert.ok('refused' in result);
    assert.equal(result.refused.code, 0);
    await transport.close();
  });
});
