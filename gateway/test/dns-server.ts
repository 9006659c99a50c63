// An authoritative DNS server for tests (dns2), on 127.0.0.1 over UDP and TCP on one port: the
// gateway's resolver is pointed at it with DNS_SERVERS=127.0.0.1:<port>. Names compare in lower case
// (DNS names are case-insensitive); an unknown name answers NXDOMAIN, a known name without records of
// the asked type an empty answer (the resolver's ENOTFOUND and ENODATA).
import type { AddressInfo } from 'node:net';
import dns2, { Packet } from 'dns2';

type RecordType = 'TXT' | 'CNAME';

export interface TestDns {
  /** `host:port` for DNS_SERVERS. */
  server: string;
  /** Replaces the records of `type` at `name` (none: removes them). */
  set(name: string, type: RecordType, values: string[]): void;
  clear(): void;
  close(): Promise<void>;
}

/** A TXT value as character-strings of at most 255 octets (RFC 1035 section 3.3.14). */
function chunks(value: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i += 255) out.push(value.slice(i, i + 255));
  return out.length ? out : [''];
}

/**
 * UDP and TCP servers on one port. The UDP server takes a free port; TCP's may be held at that moment
 * (the ephemeral range also gives outgoing connections their ports): then both try another port.
 */
async function listenOnOnePort(handle: dns2.DnsHandler) {
  for (let attempt = 1; ; attempt++) {
    const udp = dns2.createUDPServer(handle);
    await udp.listen(0, '127.0.0.1');
    const port = (udp.address() as AddressInfo).port;
    const tcp = dns2.createTCPServer(handle);
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', () => resolve());
      });
      return { udp, tcp, port };
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw error;
    }
  }
}

export async function startDns(): Promise<TestDns> {
  const zone = new Map<string, Map<RecordType, string[]>>();
  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1; // authoritative: the answer is final, not a referral
    const [question] = request.questions;
    const name = question?.name.toLowerCase().replace(/\.$/, '') ?? '';
    const records = zone.get(name);
    if (!question || !records) {
      response.header.rcode = 3; // NXDOMAIN
    } else if (question.type === Packet.TYPE.TXT) {
      for (const value of records.get('TXT') ?? []) {
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, data: chunks(value) }));
      }
    } else if (question.type === Packet.TYPE.CNAME) {
      for (const value of records.get('CNAME') ?? []) {
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, domain: value }));
      }
    }
    void send(response);
  };
  const { udp, tcp, port } = await listenOnOnePort(handle);
  return {
    server: `127.0.0.1:${port}`,
    set(name, type, values) {
      const key = name.toLowerCase();
      const records = zone.get(key) ?? new Map<RecordType, string[]>();
      if (values.length) records.set(type, values);
      else records.delete(type);
      if (records.size) zone.set(key, records);
      else zone.delete(key);
    },
    clear: () => zone.clear(),
    async close() {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
