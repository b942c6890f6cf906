import sharp from 'sharp';

/** A real PNG image of the given size (solid colour). */
export function samplePng(width = 32, height = 24, colour = { r: 11, g: 79, b: 138 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

/** A real JPEG photo-like image. */
export function sampleJpeg(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } }).jpeg().toBuffer();
}

/** A small valid one-page PDF with a line of text. */
export function samplePdf(text = 'Site inspection report'): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The start of an MP4 file (an ftyp box with the isom brand) followed by `size` bytes in all. */
export function sampleMp4(size = 4096): Buffer {
  const head = Buffer.from('00000018' + '66747970' + '69736f6d' + '00000200' + '69736f6d' + '69736f32', 'hex');
  const out = Buffer.alloc(Math.max(size, head.length));
  head.copy(out);
  for (let i = head.length; i < out.length; i++) out[i] = i % 251;
  return out;
}
