import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { multipartBody } from './multipart.ts';
import { samplePng } from './sample-files.ts';
import type { TestApp } from './test-app.ts';

/**
 * A photo-like picture drawn by code: soft gradients (sky, ground), shapes with edges and fine grain,
 * so encoders meet what a camera gives them rather than one flat colour.
 */
export async function photoLike(width = 1600, height = 1067): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5) * 18;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sky = y < height * 0.55;
      const ridge = Math.sin(x / 90) * 40 + Math.sin(x / 23) * 8;
      const building = x % 260 < 150 && y > height * 0.35 + ridge && y < height * 0.7;
      const base = building ? [150 + (x % 40), 140, 120] : sky ? [90 + y / 8, 150 + y / 10, 230 - y / 12] : [70 + Math.sin(y / 7) * 12, 110 + x / 40, 50];
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) raw[i + c] = Math.max(0, Math.min(255, base[c]! + noise()));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).blur(0.6).jpeg({ quality: 90 }).toBuffer();
}

/** A PNG whose header claims a huge canvas (decoding it would need gigabytes): a "pixel bomb". */
export async function pixelBomb(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await samplePng(1, 1));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

/** An image of `format` drawn as a flat colour. */
export function flatImage(format: 'jpeg' | 'png' | 'webp' | 'avif', width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 100, b: 160 } } })
    .toFormat(format)
    .toBuffer();
}

/** POST /api/media with an alt text (left out when null) and a file. */
export function uploadMedia(
  t: TestApp,
  headers: Record<string, string>,
  file: { filename: string; contentType: string; data: Buffer } | null,
  altText: string | null = 'A crane lifting a steel beam',
) {
  const { payload, headers: h } = multipartBody(altText === null ? {} : { altText }, file);
  return t.app.inject({ method: 'POST', url: '/api/media', headers: { ...headers, ...h }, payload });
}
