import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { freePort } from './free-port.ts';

/** One mail as it arrived at the fake SMTP server, decoded. */
export interface ReceivedMail {
  /** Envelope sender and recipients (what the SMTP client said, not the headers). */
  envelopeFrom: string;
  envelopeTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every header, lower-case names, decoded; the last value when repeated. */
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  /** The SMTP_URL the application should use. */
  url: string;
  /** Everything received so far, oldest first. */
  messages: ReceivedMail[];
  /** Resolves with the first mail (already received or arriving later) that matches. */
  waitForMail(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Refuses the next n mails with a temporary SMTP error (to exercise retries). */
  failNext(n: number): void;
  /** SMTP connections accepted so far (a pooled client opens few), and how many are open now. */
  connectionsOpened(): number;
  openConnections(): number;
  clear(): void;
  close(): Promise<void>;
}

export interface StartSmtpServerOptions {
  /** A fixed port (browser tests configure the server with it); a free one otherwise. */
  port?: number;
  /** Also writes every mail as JSON into this folder, so other processes can read it (readMailDir). */
  mailDir?: string;
}

/**
 * A local SMTP server for tests: accepts anything without TLS or authentication, keeps what arrives.
 * The application reaches it through SMTP_URL like any real server, so no code of ours is bypassed.
 */
export async function startSmtpServer(options: StartSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const port = options.port ?? (await freePort());
  const messages: ReceivedMail[] = [];
  const waiters = new Set<{ predicate: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }>();
  let failures = 0;
  let sequence = 0;
  let opened = 0;
  if (options.mailDir) mkdirSync(options.mailDir, { recursive: true });

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 60 * 1024 * 1024,
    onConnect(_session, callback) {
      opened++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failures > 0) {
          failures--;
          const err = Object.assign(new Error('Try again later (test failure)'), { responseCode: 451 });
          callback(err);
          return;
        }
        const mail = parseMail(Buffer.concat(chunks), {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        messages.push(mail);
        if (options.mailDir) {
          const name = `${Date.now()}-${String(++sequence).padStart(5, '0')}-${process.pid}.json`;
          writeFileSync(path.join(options.mailDir, name), JSON.stringify(toJson(mail)));
        }
        for (const w of [...waiters]) {
          if (w.predicate(mail)) {
            waiters.delete(w);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail(predicate = () => true, timeoutMs = 10_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (m: ReceivedMail) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`No matching mail within ${timeoutMs} ms (received ${messages.length}: ${messages.map((m) => m.subject).join(' | ')})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    failNext(n) {
      failures = n;
    },
    connectionsOpened: () => opened,
    // The server's own set of live connections (smtp-server keeps it; not in its type definitions).
    openConnections: () => (server as unknown as { connections: Set<unknown> }).connections.size,
    clear() {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type MailJson = Omit<ReceivedMail, 'attachments'> & { attachments: { filename: string; contentType: string; base64: string }[] };

function toJson(mail: ReceivedMail): MailJson {
  return { ...mail, attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, base64: a.content.toString('base64') })) };
}

/** Reads the mails a server started with `mailDir` wrote (for code in another process). */
export function readMailDir(dir: string): ReceivedMail[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return names.map((n) => {
    const json = JSON.parse(readFileSync(path.join(dir, n), 'utf8')) as MailJson;
    return { ...json, attachments: json.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.base64, 'base64') })) };
  });
}

/** Polls a mail folder until a matching mail appears. */
export async function waitForMailInDir(dir: string, predicate: (mail: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readMailDir(dir).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No matching mail in ${dir} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------------------------------------------------------------------------------------------
// A small MIME reader: enough for what nodemailer writes (multipart, base64, quoted-printable,
// encoded words in headers). Tests read mails the way a mail client would, not our own templates.

interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

function splitHeadersAndBody(raw: Buffer): Part {
  const text = raw.toString('latin1');
  let end = text.indexOf('\r\n\r\n');
  let sep = 4;
  if (end < 0) {
    end = text.indexOf('\n\n');
    sep = 2;
  }
  const headerText = end < 0 ? text : text.slice(0, end);
  const body = end < 0 ? Buffer.alloc(0) : raw.subarray(end + sep);
  const headers: Record<string, string> = {};
  const unfolded = headerText.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Header bytes are UTF-8 when not encoded-word; re-read them as such.
    headers[name] = decodeWords(Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8'));
  }
  return { headers, body };
}

function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, enc: string, data: string) => {
      const bytes =
        enc.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
      return bytes.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
    });
}

function headerParams(value: string): { value: string; params: Record<string, string> } {
  const [first, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
  }
  return { value: first.trim().toLowerCase(), params };
}

function decodeBody(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.toString('latin1').replace(/\s+/g, ''), 'base64');
    case 'quoted-printable': {
      const s = body.toString('latin1').replace(/=\r?\n/g, '');
      return Buffer.from(s.replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
    }
    default:
      return body;
  }
}

function collect(part: Part, out: { text: string[]; html: string[]; attachments: ReceivedMail['attachments'] }) {
  const type = headerParams(part.headers['content-type'] ?? 'text/plain');
  if (type.value.startsWith('multipart/') && type.params.boundary) {
    const delimiter = `--${type.params.boundary}`;
    const text = part.body.toString('latin1');
    const pieces = text.split(delimiter).slice(1);
    for (const piece of pieces) {
      if (piece.startsWith('--')) break;
      const content = piece.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
      collect(splitHeadersAndBody(Buffer.from(content, 'latin1')), out);
    }
    return;
  }
  const content = decodeBody(part.body, part.headers['content-transfer-encoding']);
  const disposition = headerParams(part.headers['content-disposition'] ?? 'inline');
  const charset = type.params.charset ?? 'utf-8';
  const asText = () => content.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
  if (disposition.value !== 'attachment' && type.value === 'text/plain') out.text.push(asText());
  else if (disposition.value !== 'attachment' && type.value === 'text/html') out.html.push(asText());
  else out.attachments.push({ filename: disposition.params.filename ?? type.params.name ?? '', contentType: type.value, content });
}

/** Decodes one raw RFC 5322 message. */
function parseMail(raw: Buffer, envelope: { from: string; to: string[] } = { from: '', to: [] }): ReceivedMail {
  const root = splitHeadersAndBody(raw);
  const out = { text: [] as string[], html: [] as string[], attachments: [] as ReceivedMail['attachments'] };
  collect(root, out);
  return {
    envelopeFrom: envelope.from,
    envelopeTo: envelope.to,
    from: root.headers.from ?? '',
    to: root.headers.to ?? '',
    subject: root.headers.subject ?? '',
    text: out.text.join('\n'),
    html: out.html.join('\n'),
    headers: root.headers,
    attachments: out.attachments,
    raw: raw.toString('utf8'),
  };
}
