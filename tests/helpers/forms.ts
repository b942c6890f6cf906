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
};
