import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  field?: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/**
 * A multipart/form-data body as a browser writes it: text fields first, then the file. `truncateBy`
 * cuts that many bytes off the end, like a connection that dropped mid-upload.
 */
export function multipartBody(
  fields: Record<string, string>,
  file: MultipartFile | null,
  options: { truncateBy?: number } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  let payload = Buffer.concat(parts);
  if (options.truncateBy) payload = payload.subarray(0, payload.length - options.truncateBy);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
