// Procedural SVG scenes for the public pages' illustrations. Every picture on the site is drawn here
// by code, so the site ships no third-party photography; build-site-images.ts renders these to
// AVIF/WebP. Shapes are simple and flat on purpose: they compress to a few kilobytes.

export interface Palette {
  skyTop: string;
  skyBottom: string;
  sun: string;
  far: string;
  mid: string;
  ground: string;
  steel: string;
  dark: string;
  accent: string;
  water: string;
}

export const PALETTES = {
  dawn: { skyTop: '#2c3e73', skyBottom: '#f4a261', sun: '#ffd27d', far: '#6d6a8f', mid: '#4a4e6e', ground: '#3b3f4f', steel: '#cfd6e4', dark: '#1d2233', accent: '#f59e0b', water: '#35557d' },
  day: { skyTop: '#3d8bd9', skyBottom: '#bfe3ff', sun: '#fff3b0', far: '#8fb6c9', mid: '#5f8f6b', ground: '#6f7b57', steel: '#e8edf3', dark: '#233142', accent: '#f59e0b', water: '#2f78b5' },
  dusk: { skyTop: '#1f2156', skyBottom: '#e76f51', sun: '#ffb45e', far: '#563d6e', mid: '#3a2d52', ground: '#2a2338', steel: '#d8c7e0', dark: '#17122a', accent: '#ffb703', water: '#3c3f7a' },
  night: { skyTop: '#060b1f', skyBottom: '#1d3461', sun: '#f1f5ff', far: '#23375f', mid: '#18284a', ground: '#101a30', steel: '#9fb3d9', dark: '#050814', accent: '#ff9f1c', water: '#14284f' },
  storm: { skyTop: '#2b3440', skyBottom: '#6c7a89', sun: '#dfe6ee', far: '#4c5866', mid: '#3a4450', ground: '#2a323c', steel: '#d5dde6', dark: '#151a20', accent: '#f59e0b', water: '#2d4a5e' },
  blueprint: { skyTop: '#0b3a75', skyBottom: '#0d4a91', sun: '#ffffff', far: '#1b5aa3', mid: '#2a6db8', ground: '#0b3a75', steel: '#e6f0ff', dark: '#072a55', accent: '#ffd166', water: '#1b5aa3' },
  studio: { skyTop: '#e9eef5', skyBottom: '#cfd9e6', sun: '#ffffff', far: '#b8c5d6', mid: '#9fb0c6', ground: '#aab6c6', steel: '#f3f6fa', dark: '#1f2a3a', accent: '#f59e0b', water: '#2f78b5' },
} satisfies Record<string, Palette>;
export type PaletteName = keyof typeof PALETTES;

/** Deterministic pseudo-random numbers, so every build draws the same pictures. */
export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 10_000) / 10_000;
  };
}

const r1 = (n: number) => Math.round(n * 10) / 10;

export function sky(W: number, H: number, p: Palette) {
  return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.skyTop}"/><stop offset="1" stop-color="${p.skyBottom}"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#sky)"/>`;
}

export function sun(cx: number, cy: number, r: number, color: string) {
  return `<circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r * 1.6)}" fill="${color}" opacity="0.25"/><circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r)}" fill="${color}"/>`;
}

export function hills(W: number, baseY: number, amp: number, color: string, rand: () => number) {
  const n = 6;
  let d = `M0 ${r1(baseY)}`;
  for (let i = 0; i <= n; i++) {
    const x = (W / n) * i;
    const y = baseY - amp * (0.4 + rand() * 0.6);
    d += ` Q${r1(x - W / n / 2)} ${r1(y)} ${r1(x)} ${r1(baseY - amp * 0.3 * rand())}`;
  }
  return `<path d="${d} L${W} ${r1(baseY + 2000)} L0 ${r1(baseY + 2000)}Z" fill="${color}"/>`;
}

export function rect(x: number, y: number, w: number, h: number, fill: string, extra = '') {
  return `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="${fill}" ${extra}/>`;
}

export function ground(W: number, H: number, y: number, color: string) {
  return rect(0, y, W, H - y, color);
}

export function water(W: number, H: number, y: number, p: Palette, rand: () => number) {
  let waves = '';
  for (let i = 0; i < 14; i++) {
    const wy = y + 8 + (H - y) * rand();
    const wx = W * rand();
    const ww = 20 + W * 0.08 * rand();
    waves += `<path d="M${r1(wx)} ${r1(wy)} q${r1(ww / 4)} -6 ${r1(ww / 2)} 0 t${r1(ww / 2)} 0" stroke="${p.steel}" stroke-opacity="0.35" stroke-width="3" fill="none"/>`;
  }
  return rect(0, y, W, H - y, p.water) + waves;
}

export function building(x: number, baseY: number, w: number, h: number, color: string, windows: string, rand: () => number) {
  let out = rect(x, baseY - h, w, h, color);
  const cols = Math.max(2, Math.floor(w / 26));
  const rows = Math.max(2, Math.floor(h / 34));
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) {
      if (rand() < 0.25) continue;
      out += rect(x + 8 + c * ((w - 16) / cols), baseY - h + 10 + r * ((h - 20) / rows), (w - 16) / cols - 8, (h - 20) / rows - 12, windows, 'opacity="0.8"');
    }
  }
  return out;
}

export function frame(x: number, baseY: number, w: number, h: number, color: string) {
  // An unfinished building: columns and floor beams.
  let out = '';
  const floors = Math.max(2, Math.round(h / 60));
  const bays = Math.max(2, Math.round(w / 60));
  for (let i = 0; i <= bays; i++) out += rect(x + (w / bays) * i - 3, baseY - h, 6, h, color);
  for (let j = 0; j <= floors; j++) out += rect(x, baseY - (h / floors) * j - 3, w, 6, color);
  return out;
}

export function towerCrane(x: number, baseY: number, h: number, color: string, dark: string) {
  const jib = h * 0.9;
  let out = rect(x - 6, baseY - h, 12, h, color);
  for (let y = baseY - h; y < baseY; y += 24) out += `<path d="M${r1(x - 6)} ${r1(y)} L${r1(x + 6)} ${r1(y + 24)}" stroke="${dark}" stroke-width="2"/>`;
  out += rect(x - jib * 0.25, baseY - h - 10, jib, 10, color);
  out += rect(x - jib * 0.25, baseY - h - 10, jib * 0.12, 22, dark);
  out += `<path d="M${r1(x)} ${r1(baseY - h - 40)} L${r1(x - jib * 0.25)} ${r1(baseY - h - 10)} M${r1(x)} ${r1(baseY - h - 40)} L${r1(x + jib * 0.75)} ${r1(baseY - h - 10)}" stroke="${color}" stroke-width="3"/>`;
  out += rect(x - 4, baseY - h - 40, 8, 30, color);
  const hx = x + jib * 0.55;
  out += `<line x1="${r1(hx)}" y1="${r1(baseY - h)}" x2="${r1(hx)}" y2="${r1(baseY - h * 0.45)}" stroke="${dark}" stroke-width="2"/>`;
  out += rect(hx - 18, baseY - h * 0.45, 36, 16, '#f59e0b');
  return out;
}

export function tank(x: number, baseY: number, w: number, h: number, color: string, shade: string) {
  return `${rect(x, baseY - h, w, h, color)}<ellipse cx="${r1(x + w / 2)}" cy="${r1(baseY - h)}" rx="${r1(w / 2)}" ry="${r1(w * 0.08)}" fill="${shade}"/>${rect(x, baseY - h * 0.55, w, 4, shade)}${rect(x + w * 0.8, baseY - h, 4, h, shade)}`;
}

export function stack(x: number, baseY: number, w: number, h: number, color: string, flame?: string) {
  let out = rect(x, baseY - h, w, h, color);
  out += rect(x - 2, baseY - h * 0.7, w + 4, 5, '#c0392b');
  out += rect(x - 2, baseY - h * 0.4, w + 4, 5, '#c0392b');
  if (flame) {
    const cx = x + w / 2;
    const top = baseY - h;
    out += `<path d="M${r1(cx - w)} ${r1(top)} Q${r1(cx - w * 0.8)} ${r1(top - w * 2.2)} ${r1(cx)} ${r1(top - w * 3.4)} Q${r1(cx + w * 0.9)} ${r1(top - w * 2)} ${r1(cx + w)} ${r1(top)}Z" fill="${flame}"/><path d="M${r1(cx - w * 0.45)} ${r1(top)} Q${r1(cx)} ${r1(top - w * 2.2)} ${r1(cx + w * 0.45)} ${r1(top)}Z" fill="#fff3b0"/>`;
  }
  return out;
}

export function column(x: number, baseY: number, w: number, h: number, color: string, shade: string) {
  // A distillation column with platforms.
  let out = `<rect x="${r1(x)}" y="${r1(baseY - h)}" width="${r1(w)}" height="${r1(h)}" rx="${r1(w / 2)}" fill="${color}"/>`;
  for (let y = baseY - h * 0.85; y < baseY; y += h / 5) out += rect(x - w * 0.35, y, w * 1.7, 4, shade);
  return out;
}

export function pipes(x0: number, x1: number, y: number, color: string, shade: string, count = 3) {
  let out = '';
  for (let i = 0; i < count; i++) out += rect(x0, y + i * 14, x1 - x0, 9, i % 2 ? shade : color, 'rx="4"');
  for (let x = x0 + 30; x < x1; x += 120) out += rect(x, y - 6, 8, count * 14 + 40, shade);
  return out;
}

export function platform(cx: number, waterY: number, w: number, p: Palette) {
  const deckY = waterY - w * 0.45;
  let out = '';
  for (const f of [0.1, 0.35, 0.65, 0.9]) out += rect(cx - w / 2 + w * f - 5, deckY, 10, w * 0.6, p.steel);
  out += `<path d="M${r1(cx - w * 0.4)} ${r1(deckY + w * 0.1)} L${r1(cx + w * 0.4)} ${r1(waterY)} M${r1(cx + w * 0.4)} ${r1(deckY + w * 0.1)} L${r1(cx - w * 0.4)} ${r1(waterY)}" stroke="${p.steel}" stroke-width="5"/>`;
  out += rect(cx - w / 2, deckY - 14, w, 16, p.accent);
  out += rect(cx - w * 0.45, deckY - w * 0.22, w * 0.4, w * 0.2, p.steel);
  out += rect(cx + w * 0.05, deckY - w * 0.12, w * 0.4, w * 0.1, '#c0392b');
  out += `<path d="M${r1(cx - w * 0.05)} ${r1(deckY - 14)} L${r1(cx + w * 0.05)} ${r1(deckY - w * 0.75)} L${r1(cx + w * 0.15)} ${r1(deckY - 14)}" stroke="${p.steel}" stroke-width="5" fill="none"/>`;
  out += rect(cx + w * 0.4, deckY - w * 0.5, 6, w * 0.5, p.steel);
  return out;
}

export function ship(cx: number, waterY: number, w: number, p: Palette, containers = true) {
  const h = w * 0.18;
  let out = `<path d="M${r1(cx - w / 2)} ${r1(waterY - h)} L${r1(cx + w / 2)} ${r1(waterY - h)} L${r1(cx + w * 0.42)} ${r1(waterY + h * 0.35)} L${r1(cx - w * 0.45)} ${r1(waterY + h * 0.35)}Z" fill="${p.dark}"/>`;
  out += rect(cx - w / 2, waterY - h, w, h * 0.25, '#c0392b');
  out += rect(cx + w * 0.25, waterY - h - w * 0.2, w * 0.16, w * 0.2, p.steel);
  out += rect(cx + w * 0.27, waterY - h - w * 0.17, w * 0.12, w * 0.04, p.dark);
  if (containers) {
    const colors = ['#e76f51', '#2a9d8f', '#e9c46a', '#457b9d', '#f4a261'];
    const cw = w * 0.1;
    for (let row = 0; row < 2; row++) {
      for (let i = 0; i < 6; i++) out += rect(cx - w * 0.42 + i * (cw + 3), waterY - h - (row + 1) * cw * 0.55, cw, cw * 0.5, colors[(i + row * 2) % colors.length]);
    }
  }
  return out;
}

export function boat(cx: number, waterY: number, w: number, hull: string, cabin: string) {
  const h = w * 0.16;
  return `<path d="M${r1(cx - w / 2)} ${r1(waterY - h)} L${r1(cx + w / 2)} ${r1(waterY - h * 1.3)} L${r1(cx + w * 0.38)} ${r1(waterY + h * 0.3)} L${r1(cx - w * 0.45)} ${r1(waterY + h * 0.3)}Z" fill="${hull}"/>${rect(cx - w * 0.25, waterY - h - w * 0.16, w * 0.4, w * 0.16, cabin, 'rx="6"')}${rect(cx - w * 0.2, waterY - h - w * 0.12, w * 0.3, w * 0.05, '#1d3557')}`;
}

export function barge(cx: number, waterY: number, w: number, color: string, load: string) {
  return `${rect(cx - w / 2, waterY - w * 0.08, w, w * 0.12, color)}${rect(cx - w * 0.35, waterY - w * 0.2, w * 0.3, w * 0.12, load)}${rect(cx + w * 0.02, waterY - w * 0.16, w * 0.3, w * 0.08, '#e9c46a')}`;
}

export function bridge(x0: number, x1: number, y: number, color: string, shade: string) {
  const span = x1 - x0;
  let out = rect(x0, y, span, 12, color);
  out += `<path d="M${r1(x0)} ${r1(y)} Q${r1(x0 + span / 2)} ${r1(y - span * 0.28)} ${r1(x1)} ${r1(y)}" stroke="${color}" stroke-width="8" fill="none"/>`;
  for (let i = 1; i < 10; i++) {
    const t = i / 10;
    const x = x0 + span * t;
    const archY = y - span * 0.28 * 4 * t * (1 - t) * 0.5;
    out += `<line x1="${r1(x)}" y1="${r1(archY)}" x2="${r1(x)}" y2="${r1(y)}" stroke="${shade}" stroke-width="3"/>`;
  }
  out += rect(x0 - 10, y + 12, 20, 200, shade) + rect(x1 - 10, y + 12, 20, 200, shade);
  return out;
}

export function gear(cx: number, cy: number, r: number, teeth: number, color: string, hole: string) {
  let d = '';
  for (let i = 0; i < teeth * 2; i++) {
    const a = (Math.PI * i) / teeth;
    const rr = i % 2 ? r * 0.82 : r;
    const a2 = a + Math.PI / teeth;
    d += `${i ? 'L' : 'M'}${r1(cx + rr * Math.cos(a))} ${r1(cy + rr * Math.sin(a))} L${r1(cx + rr * Math.cos(a2))} ${r1(cy + rr * Math.sin(a2))} `;
  }
  return `<path d="${d}Z" fill="${color}"/><circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r * 0.35)}" fill="${hole}"/>`;
}

export function worker(x: number, baseY: number, s: number, vest: string, skin: string) {
  return [
    rect(x - s * 0.18, baseY - s * 0.5, s * 0.14, s * 0.5, '#1d3557'),
    rect(x + s * 0.04, baseY - s * 0.5, s * 0.14, s * 0.5, '#1d3557'),
    rect(x - s * 0.22, baseY - s * 0.95, s * 0.44, s * 0.5, vest, `rx="${r1(s * 0.06)}"`),
    rect(x - s * 0.22, baseY - s * 0.75, s * 0.44, s * 0.05, '#e6f0ff'),
    `<circle cx="${r1(x)}" cy="${r1(baseY - s * 1.06)}" r="${r1(s * 0.12)}" fill="${skin}"/>`,
    `<path d="M${r1(x - s * 0.17)} ${r1(baseY - s * 1.1)} A${r1(s * 0.17)} ${r1(s * 0.16)} 0 0 1 ${r1(x + s * 0.17)} ${r1(baseY - s * 1.1)}Z" fill="#ffd60a"/>`,
    rect(x - s * 0.2, baseY - s * 1.12, s * 0.4, s * 0.03, '#ffd60a'),
  ].join('');
}

export function cone(x: number, baseY: number, s: number) {
  return `<path d="M${r1(x - s / 2)} ${r1(baseY)} L${r1(x)} ${r1(baseY - s * 1.2)} L${r1(x + s / 2)} ${r1(baseY)}Z" fill="#f77f00"/>${rect(x - s * 0.32, baseY - s * 0.55, s * 0.64, s * 0.14, '#ffffff')}${rect(x - s * 0.6, baseY - 4, s * 1.2, 6, '#f77f00')}`;
}

export function wheel(cx: number, cy: number, r: number) {
  return `<circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r)}" fill="#1b1b1f"/><circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r * 0.45)}" fill="#9aa5b1"/>`;
}

export function truck(x: number, baseY: number, s: number, color: string, load: 'tipper' | 'lowbed' | 'module' = 'tipper') {
  const r = s * 0.12;
  let out = '';
  if (load === 'lowbed' || load === 'module') {
    out += rect(x + s * 0.55, baseY - r * 2.2, s * 1.5, s * 0.1, '#2b2d42');
    if (load === 'module') out += rect(x + s * 0.7, baseY - r * 2.2 - s * 0.45, s * 1.1, s * 0.45, '#adb5bd') + pipes(x + s * 0.72, x + s * 1.78, baseY - r * 2.2 - s * 0.4, '#e9c46a', '#6c757d', 2);
    out += wheel(x + s * 1.6, baseY - r, r) + wheel(x + s * 1.85, baseY - r, r);
  } else {
    out += `<path d="M${r1(x + s * 0.45)} ${r1(baseY - r * 2)} L${r1(x + s * 1.3)} ${r1(baseY - r * 2)} L${r1(x + s * 1.4)} ${r1(baseY - s * 0.62)} L${r1(x + s * 0.4)} ${r1(baseY - s * 0.62)}Z" fill="${color}"/>`;
    out += wheel(x + s * 1.15, baseY - r, r);
  }
  out += rect(x, baseY - s * 0.62, s * 0.45, s * 0.62 - r, color, `rx="${r1(s * 0.05)}"`);
  out += rect(x + s * 0.06, baseY - s * 0.55, s * 0.3, s * 0.18, '#bde0fe');
  out += wheel(x + s * 0.22, baseY - r, r) + wheel(x + s * 0.75, baseY - r, r);
  return out;
}

export function excavator(x: number, baseY: number, s: number, color: string) {
  return [
    rect(x, baseY - s * 0.18, s * 0.9, s * 0.18, '#2b2d42', `rx="${r1(s * 0.09)}"`),
    rect(x + s * 0.05, baseY - s * 0.45, s * 0.75, s * 0.27, color),
    rect(x + s * 0.45, baseY - s * 0.72, s * 0.32, s * 0.3, color),
    rect(x + s * 0.5, baseY - s * 0.68, s * 0.22, s * 0.16, '#bde0fe'),
    `<path d="M${r1(x + s * 0.2)} ${r1(baseY - s * 0.42)} L${r1(x - s * 0.3)} ${r1(baseY - s * 0.95)} L${r1(x - s * 0.55)} ${r1(baseY - s * 0.3)}" stroke="${color}" stroke-width="${r1(s * 0.08)}" fill="none" stroke-linejoin="round"/>`,
    `<path d="M${r1(x - s * 0.7)} ${r1(baseY - s * 0.35)} L${r1(x - s * 0.45)} ${r1(baseY - s * 0.35)} L${r1(x - s * 0.5)} ${r1(baseY - s * 0.15)}Z" fill="#2b2d42"/>`,
  ].join('');
}

export function bulldozer(x: number, baseY: number, s: number, color: string) {
  return [
    rect(x, baseY - s * 0.2, s, s * 0.2, '#2b2d42', `rx="${r1(s * 0.1)}"`),
    rect(x + s * 0.1, baseY - s * 0.48, s * 0.7, s * 0.3, color),
    rect(x + s * 0.35, baseY - s * 0.78, s * 0.35, s * 0.32, color),
    rect(x + s * 0.4, baseY - s * 0.74, s * 0.25, s * 0.15, '#bde0fe'),
    rect(x - s * 0.2, baseY - s * 0.5, s * 0.12, s * 0.5, '#495057'),
    `<line x1="${r1(x - s * 0.1)} " y1="${r1(baseY - s * 0.3)}" x2="${r1(x + s * 0.15)}" y2="${r1(baseY - s * 0.3)}" stroke="#495057" stroke-width="${r1(s * 0.05)}"/>`,
  ].join('');
}

export function mobileCrane(x: number, baseY: number, s: number, color: string) {
  return truck(x, baseY, s, color, 'lowbed') + `<path d="M${r1(x + s * 1.2)} ${r1(baseY - s * 0.4)} L${r1(x + s * 0.1)} ${r1(baseY - s * 1.9)}" stroke="${color}" stroke-width="${r1(s * 0.09)}"/><line x1="${r1(x + s * 0.12)}" y1="${r1(baseY - s * 1.88)}" x2="${r1(x + s * 0.12)}" y2="${r1(baseY - s * 0.9)}" stroke="#2b2d42" stroke-width="3"/>${rect(x + s * 0.04, baseY - s * 0.9, s * 0.16, s * 0.1, '#2b2d42')}`;
}

export function forklift(x: number, baseY: number, s: number, color: string) {
  const r = s * 0.13;
  return [
    rect(x, baseY - s * 0.5, s * 0.7, s * 0.5 - r, color, `rx="${r1(s * 0.05)}"`),
    `<path d="M${r1(x + s * 0.1)} ${r1(baseY - s * 0.5)} L${r1(x + s * 0.15)} ${r1(baseY - s * 1.0)} L${r1(x + s * 0.6)} ${r1(baseY - s * 1.0)} L${r1(x + s * 0.62)} ${r1(baseY - s * 0.5)}" stroke="#2b2d42" stroke-width="5" fill="none"/>`,
    rect(x + s * 0.72, baseY - s * 1.1, s * 0.06, s * 1.1, '#495057'),
    rect(x + s * 0.78, baseY - s * 0.08, s * 0.4, s * 0.05, '#495057'),
    rect(x + s * 0.8, baseY - s * 0.32, s * 0.36, s * 0.24, '#d4a373'),
    wheel(x + s * 0.15, baseY - r, r),
    wheel(x + s * 0.55, baseY - r, r),
  ].join('');
}

export function machineBox(x: number, baseY: number, w: number, h: number, color: string, kind: 'generator' | 'compressor' | 'welder') {
  let out = rect(x, baseY - h, w, h, color, `rx="${r1(h * 0.06)}"`);
  for (let i = 0; i < 5; i++) out += rect(x + w * 0.08, baseY - h * 0.8 + i * h * 0.1, w * 0.3, h * 0.05, '#2b2d42', 'opacity="0.6"');
  out += rect(x + w * 0.55, baseY - h * 0.8, w * 0.35, h * 0.4, '#e9ecef', `rx="${r1(h * 0.04)}"`);
  out += rect(x + w * 0.6, baseY - h * 0.72, w * 0.1, h * 0.08, '#2a9d8f');
  out += rect(x + w * 0.74, baseY - h * 0.72, w * 0.1, h * 0.08, '#e76f51');
  if (kind === 'compressor') out += wheel(x + w * 0.2, baseY, h * 0.16) + wheel(x + w * 0.8, baseY, h * 0.16);
  if (kind === 'welder') out += `<path d="M${r1(x + w)} ${r1(baseY - h * 0.5)} q${r1(w * 0.3)} ${r1(h * 0.1)} ${r1(w * 0.25)} ${r1(h * 0.5)}" stroke="#e63946" stroke-width="5" fill="none"/>`;
  out += rect(x - w * 0.02, baseY - h - h * 0.06, w * 1.04, h * 0.08, '#2b2d42');
  return out;
}

export function sparks(cx: number, cy: number, n: number, rand: () => number) {
  let out = `<circle cx="${r1(cx)}" cy="${r1(cy)}" r="14" fill="#fff3b0"/><circle cx="${r1(cx)}" cy="${r1(cy)}" r="32" fill="#ffd166" opacity="0.35"/>`;
  for (let i = 0; i < n; i++) {
    const a = -Math.PI * rand();
    const len = 20 + 70 * rand();
    out += `<line x1="${r1(cx)}" y1="${r1(cy)}" x2="${r1(cx + Math.cos(a) * len)}" y2="${r1(cy + Math.sin(a) * len + len * 0.6)}" stroke="#ffb703" stroke-width="2"/>`;
  }
  return out;
}

export function blueprintGrid(W: number, H: number, p: Palette) {
  let out = '';
  for (let x = 0; x < W; x += 40) out += `<line x1="${x}" y1="0" x2="${x}" y2="${H}" stroke="${p.steel}" stroke-opacity="${x % 200 ? 0.08 : 0.18}"/>`;
  for (let y = 0; y < H; y += 40) out += `<line x1="0" y1="${y}" x2="${W}" y2="${y}" stroke="${p.steel}" stroke-opacity="${y % 200 ? 0.08 : 0.18}"/>`;
  return out;
}

export function drawing(cx: number, cy: number, s: number, p: Palette) {
  // A technical drawing: a section through a structure with dimension lines.
  const st = `stroke="${p.steel}" stroke-width="3" fill="none"`;
  return [
    `<rect x="${r1(cx - s)}" y="${r1(cy - s * 0.5)}" width="${r1(s * 2)}" height="${r1(s)}" ${st}/>`,
    `<path d="M${r1(cx - s)} ${r1(cy - s * 0.5)} L${r1(cx)} ${r1(cy - s * 1.05)} L${r1(cx + s)} ${r1(cy - s * 0.5)}" ${st}/>`,
    `<rect x="${r1(cx - s * 0.2)}" y="${r1(cy)}" width="${r1(s * 0.4)}" height="${r1(s * 0.5)}" ${st}/>`,
    `<path d="M${r1(cx - s)} ${r1(cy + s * 0.75)} L${r1(cx + s)} ${r1(cy + s * 0.75)} M${r1(cx - s)} ${r1(cy + s * 0.65)} l0 ${r1(s * 0.2)} M${r1(cx + s)} ${r1(cy + s * 0.65)} l0 ${r1(s * 0.2)}" stroke="${p.accent}" stroke-width="2"/>`,
    `<circle cx="${r1(cx + s * 1.35)}" cy="${r1(cy - s * 0.7)}" r="${r1(s * 0.22)}" ${st}/>`,
    `<path d="M${r1(cx + s * 1.35)} ${r1(cy - s * 0.98)} l0 ${r1(s * 0.56)} M${r1(cx + s * 1.07)} ${r1(cy - s * 0.7)} l${r1(s * 0.56)} 0" stroke="${p.accent}" stroke-width="2"/>`,
  ].join('');
}

export function road(W: number, H: number, horizonY: number, p: Palette) {
  const cx = W / 2;
  let out = `<path d="M${r1(cx - W * 0.04)} ${r1(horizonY)} L${r1(cx + W * 0.04)} ${r1(horizonY)} L${r1(cx + W * 0.6)} ${H} L${r1(cx - W * 0.6)} ${H}Z" fill="#3d405b"/>`;
  for (let i = 0; i < 7; i++) {
    const t0 = i / 7;
    const t1 = t0 + 0.06;
    const y0 = horizonY + (H - horizonY) * t0 * t0;
    const y1 = horizonY + (H - horizonY) * t1 * t1;
    out += `<path d="M${r1(cx - 2 - 10 * t0)} ${r1(y0)} L${r1(cx + 2 + 10 * t0)} ${r1(y0)} L${r1(cx + 2 + 10 * t1)} ${r1(y1)} L${r1(cx - 2 - 10 * t1)} ${r1(y1)}Z" fill="#ffd166"/>`;
  }
  out += `<path d="M${r1(cx - W * 0.04)} ${r1(horizonY)} L${r1(cx - W * 0.6)} ${H}" stroke="${p.steel}" stroke-width="4"/><path d="M${r1(cx + W * 0.04)} ${r1(horizonY)} L${r1(cx + W * 0.6)} ${H}" stroke="${p.steel}" stroke-width="4"/>`;
  return out;
}

export function valveTree(cx: number, baseY: number, s: number, color: string) {
  return [
    rect(cx - s * 0.08, baseY - s, s * 0.16, s, color),
    rect(cx - s * 0.3, baseY - s * 0.7, s * 0.6, s * 0.1, color),
    rect(cx - s * 0.45, baseY - s * 0.72, s * 0.12, s * 0.14, '#c0392b'),
    rect(cx + s * 0.33, baseY - s * 0.72, s * 0.12, s * 0.14, '#c0392b'),
    `<circle cx="${r1(cx)}" cy="${r1(baseY - s * 0.4)}" r="${r1(s * 0.13)}" fill="#c0392b"/>`,
    `<circle cx="${r1(cx)}" cy="${r1(baseY - s * 0.95)}" r="${r1(s * 0.11)}" fill="#c0392b"/>`,
    rect(cx - s * 0.35, baseY - s * 0.05, s * 0.7, s * 0.05, '#495057'),
  ].join('');
}

export function piles(x0: number, x1: number, baseY: number, h: number, color: string) {
  let out = '';
  for (let x = x0; x < x1; x += 44) out += rect(x, baseY - h * (0.6 + ((x / 44) % 3) * 0.15), 16, h, color);
  return out;
}

export function portrait(W: number, H: number, bg: string, shirt: string, skin: string, hair: string) {
  const cx = W / 2;
  return [
    rect(0, 0, W, H, bg),
    `<circle cx="${r1(cx)}" cy="${r1(H * 0.42)}" r="${r1(W * 0.3)}" fill="#ffffff" opacity="0.12"/>`,
    `<path d="M${r1(cx - W * 0.36)} ${H} Q${r1(cx - W * 0.34)} ${r1(H * 0.66)} ${r1(cx)} ${r1(H * 0.66)} Q${r1(cx + W * 0.34)} ${r1(H * 0.66)} ${r1(cx + W * 0.36)} ${H}Z" fill="${shirt}"/>`,
    `<path d="M${r1(cx - W * 0.07)} ${r1(H * 0.66)} L${r1(cx)} ${r1(H * 0.78)} L${r1(cx + W * 0.07)} ${r1(H * 0.66)}Z" fill="#ffffff"/>`,
    rect(cx - W * 0.06, H * 0.52, W * 0.12, H * 0.14, skin),
    `<ellipse cx="${r1(cx)}" cy="${r1(H * 0.42)}" rx="${r1(W * 0.15)}" ry="${r1(H * 0.18)}" fill="${skin}"/>`,
    `<path d="M${r1(cx - W * 0.16)} ${r1(H * 0.4)} Q${r1(cx - W * 0.16)} ${r1(H * 0.2)} ${r1(cx)} ${r1(H * 0.22)} Q${r1(cx + W * 0.16)} ${r1(H * 0.2)} ${r1(cx + W * 0.16)} ${r1(H * 0.4)} Q${r1(cx)} ${r1(H * 0.3)} ${r1(cx - W * 0.16)} ${r1(H * 0.4)}Z" fill="${hair}"/>`,
  ].join('');
}

export function certificateDoc(W: number, H: number, accent: string, rand: () => number) {
  const m = W * 0.08;
  let out = rect(0, 0, W, H, '#dfe7f1');
  out += rect(m, m * 0.7, W - 2 * m, H - 1.4 * m, '#fffdf6', 'rx="6"');
  out += rect(m + 12, m * 0.7 + 12, W - 2 * m - 24, H - 1.4 * m - 24, 'none', `stroke="${accent}" stroke-width="6"`);
  out += rect(W * 0.3, H * 0.2, W * 0.4, H * 0.05, accent);
  for (let i = 0; i < 5; i++) {
    const w = W * (0.35 + rand() * 0.25);
    out += rect((W - w) / 2, H * 0.32 + i * H * 0.065, w, H * 0.022, '#8d99ae');
  }
  const sx = W * 0.72;
  const sy = H * 0.72;
  out += `<path d="M${r1(sx - 22)} ${r1(sy)} l-14 ${r1(H * 0.14)} l22 -10 l10 16 z M${r1(sx + 22)} ${r1(sy)} l14 ${r1(H * 0.14)} l-22 -10 l-10 16 z" fill="${accent}"/>`;
  out += gear(sx, sy, W * 0.07, 16, '#d4a017', '#f6d365');
  out += rect(W * 0.16, H * 0.76, W * 0.25, 3, '#1d3557');
  return out;
}

export function svgDoc(W: number, H: number, body: string) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}</svg>`;
}
