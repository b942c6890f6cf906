import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { FORM_MIN_FILL_MS, type GuardedForm } from '../../common/form-guard.ts';
import type { TestApp } from './test-app.ts';

/** A form token as the browser gets it when the form is shown, with the clock moved past the minimum fill time. */
export async function formToken(t: TestApp, form: GuardedForm): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/form-token' });
  if (res.statusCode !== 200) throw new Error(`form-token: ${res.statusCode} ${res.body}`);
  t.clock.advance(FORM_MIN_FILL_MS[form] + 1);
  return res.json().token as string;
}

export interface UploadFile {
  field: string;
  name: string;
  content: Buffer;
  type?: string;
}

/** A multipart/form-data body, encoded by the platform's own FormData (as a browser would). */
export async function multipartBody(fields: Record<string, string>, files: UploadFile[] = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.content)], { type: f.type ?? 'application/octet-stream' }), f.name);
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type')! },
  };
}

/** Real file bytes of each accepted kind, padded to an exact size when asked. */
export const sampleFiles = {
  pdf(size = 1024): Buffer {
    const head = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n');
    const body = Buffer.alloc(Math.max(size, head.length + 6), 0x20);
    head.copy(body);
    Buffer.from('%%EOF\n').copy(body, body.length - 6);
    return body;
  },
  png: () => sharp({ create: { width: 4, height: 4, channels: 3, background: '#0b4f8a' } }).png().toBuffer(),
  jpg: () => sharp({ create: { width: 4, height: 4, channels: 3, background: '#f59e0b' } }).jpeg().toBuffer(),
  /** The start of an OLE compound file, as Word 97 .doc and Excel .xls files are. */
  doc(size = 2048): Buffer {
    const b = Buffer.alloc(size);
    Buffer.from('D0CF11E0A1B11AE1', 'hex').copy(b);
    return b;
  },
  text: (s = 'just some plain text, not a document\n') => Buffer.from(s),
  /** A minimal Word document: an uncompressed zip with the parts that name it as one. */
  docx(): Buffer {
    return zip([
      [
        '[Content_Types].xml',
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ],
      ['_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>'],
      ['word/document.xml', '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>'],
    ]);
  },
};

/**
 * The fields a zip entry's local and central headers share, in the same order from `at`: CRC-32,
 * compressed and uncompressed size (equal: the entries are stored), and the name's length.
 */
function writeEntryFields(header: Buffer, at: number, crc: number, size: number, nameLength: number) {
  header.writeUInt32LE(crc, at);
  header.writeUInt32LE(size, at + 4);
  header.writeUInt32LE(size, at + 8);
  header.writeUInt16LE(nameLength, at + 12);
}

/** A zip archive of stored (uncompressed) entries. */
export function zip(entries: [name: string, content: string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const data = Buffer.from(text);
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    writeEntryFields(local, 14, crc, data.length, fileName.length);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    writeEntryFields(central, 16, crc, data.length, fileName.length);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
