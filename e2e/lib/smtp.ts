import net from 'node:net';

/**
 * Sends one message over SMTP as a bounce does (null envelope sender), one command at a time: the
 * code of the answer that ended it (the data's, or the refusal of RCPT TO).
 */
export async function sendSmtp(port: number, to: string, message: string): Promise<{ code: number; text: string }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let buffer = '';
  const waiting: ((line: string) => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    // An answer ends with a line `NNN text` (continuation lines are `NNN-text`).
    for (let end = buffer.search(/^\d{3} [^\n]*\n/m); end >= 0; end = buffer.search(/^\d{3} [^\n]*\n/m)) {
      const stop = buffer.indexOf('\n', end) + 1;
      const answer = buffer.slice(0, stop);
      buffer = buffer.slice(stop);
      waiting.shift()?.(answer);
    }
  });
  const answer = () =>
    new Promise<{ code: number; text: string }>((resolve, reject) => {
      socket.once('error', reject);
      waiting.push((text) => resolve({ code: Number(text.trim().split('\n').pop()?.slice(0, 3)), text: text.trim() }));
    });
  const command = (line: string) => {
    const next = answer();
    socket.write(`${line}\r\n`);
    return next;
  };
  try {
    await answer();
    await command('EHLO e2e.test');
    await command('MAIL FROM:<>');
    const rcpt = await command(`RCPT TO:<${to}>`);
    if (rcpt.code >= 400) return rcpt;
    await command('DATA');
    const body = message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    return await command(`${body}\r\n.`);
  } finally {
    socket.end('QUIT\r\n');
  }
}
