// Renders the site's illustrations (scripts/site-image-scenes.ts) to responsive AVIF and WebP files
// under public/images/, writes the partner logos and the social-card image, and regenerates
// common/content/image-manifest.ts (sizes the <img> tags declare, so nothing shifts while loading).
// Run: node --import tsx scripts/build-site-images.ts [--force]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import * as s from './site-image-scenes.ts';
import { showcaseProjects } from '../common/content/projects.ts';
import { equipment } from '../common/content/equipment.ts';
import { partners } from '../common/content/partners.ts';
import { team } from '../common/content/team.ts';
import { company } from '../common/content/company.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'public', 'images');
const FORCE = process.argv.includes('--force');

/** Output shapes: design size of the drawing and the widths rendered. */
const SHAPES = {
  hero: { w: 1600, h: 900, widths: [960, 1440, 1920] },
  heroPortrait: { w: 720, h: 1280, widths: [480, 800] },
  card: { w: 800, h: 600, widths: [480, 800] },
  square: { w: 640, h: 640, widths: [320, 640] },
} as const;
type ShapeName = keyof typeof SHAPES;

type Scene = (W: number, H: number, rand: () => number) => string;

const P = s.PALETTES;

// ---- scenes -----------------------------------------------------------------------------------

const landscape = (pal: s.Palette, rand: () => number, W: number, H: number, horizon = 0.72) =>
  s.sky(W, H, pal) + s.sun(W * (0.2 + rand() * 0.6), H * 0.22, Math.min(W, H) * 0.07, pal.sun) + s.hills(W, H * (horizon - 0.06), H * 0.12, pal.far, rand) + s.ground(W, H, H * horizon, pal.ground);

const seaScape = (pal: s.Palette, rand: () => number, W: number, H: number, horizon = 0.62) =>
  s.sky(W, H, pal) + s.sun(W * (0.15 + rand() * 0.7), H * 0.2, Math.min(W, H) * 0.06, pal.sun) + s.water(W, H, H * horizon, pal, rand);

const refinery = (pal: s.Palette): Scene => (W, H, rand) => {
  const g = H * 0.74;
  const u = Math.min(W, H) / 600;
  let out = landscape(pal, rand, W, H, 0.74);
  out += s.pipes(0, W, g - 60 * u, pal.steel, pal.mid, 3);
  out += s.column(W * 0.18, g, 46 * u, 300 * u, pal.steel, pal.mid) + s.column(W * 0.3, g, 36 * u, 220 * u, pal.steel, pal.mid);
  out += s.tank(W * 0.45, g, 170 * u, 110 * u, pal.steel, pal.mid) + s.tank(W * 0.68, g, 140 * u, 90 * u, pal.steel, pal.mid);
  out += s.stack(W * 0.88, g, 22 * u, 330 * u, pal.steel, pal.accent);
  return out;
};

const construction = (pal: s.Palette): Scene => (W, H, rand) => {
  const g = H * 0.78;
  const u = Math.min(W, H) / 600;
  let out = landscape(pal, rand, W, H, 0.78);
  out += s.building(W * 0.05, g, 150 * u, 200 * u, pal.mid, pal.sun, rand);
  out += s.frame(W * 0.38, g, 240 * u, 300 * u, pal.steel);
  out += s.towerCrane(W * 0.3, g, 420 * u, pal.accent, pal.dark);
  out += s.excavator(W * 0.72, g, 130 * u, pal.accent);
  return out;
};

const safety: Scene = (W, H, rand) => {
  const pal = P.dawn;
  const g = H * 0.8;
  const u = Math.min(W, H) / 600;
  let out = landscape(pal, rand, W, H, 0.8);
  out += s.frame(W * 0.55, g, 260 * u, 260 * u, pal.mid);
  out += s.rect(0, g - 70 * u, W, 10 * u, '#f59e0b') + s.rect(0, g - 40 * u, W, 10 * u, '#f59e0b');
  for (let x = W * 0.04; x < W; x += 120 * u) out += s.rect(x, g - 80 * u, 8 * u, 80 * u, '#495057');
  out += s.worker(W * 0.35, g + 30 * u, 230 * u, '#f77f00', '#8d5524') + s.worker(W * 0.5, g + 40 * u, 250 * u, '#2a9d8f', '#6f4518') + s.worker(W * 0.65, g + 30 * u, 220 * u, '#f77f00', '#a0522d');
  out += s.cone(W * 0.15, g + 40 * u, 70 * u) + s.cone(W * 0.85, g + 40 * u, 70 * u);
  return out;
};

const blueprint: Scene = (W, H) => {
  const pal = P.blueprint;
  const u = Math.min(W, H) / 600;
  return s.rect(0, 0, W, H, pal.skyBottom) + s.blueprintGrid(W, H, pal) + s.drawing(W * 0.45, H * 0.55, 170 * u, pal) + `<g opacity="0.9">${s.gear(W * 0.82, H * 0.25, 60 * u, 12, 'none', 'none').replace('fill="none"', `fill="none" stroke="${pal.steel}" stroke-width="3"`)}</g>`;
};

const quality: Scene = (W, H, rand) => {
  const pal = P.dusk;
  const u = Math.min(W, H) / 600;
  let out = landscape(pal, rand, W, H, 0.8);
  out += s.pipes(0, W, H * 0.45, pal.steel, '#8d99ae', 4);
  out += s.rect(W * 0.5 - 140 * u, H * 0.8 - 200 * u, 280 * u, 40 * u, '#6c757d') + s.rect(W * 0.5 - 20 * u, H * 0.8 - 170 * u, 40 * u, 170 * u, '#6c757d');
  out += s.worker(W * 0.35, H * 0.8 + 20 * u, 220 * u, '#2a9d8f', '#6f4518');
  out += s.sparks(W * 0.5 - 10 * u, H * 0.8 - 165 * u, 26, rand);
  return out;
};

const offshore = (pal: s.Palette): Scene => (W, H, rand) => {
  const wy = H * 0.66;
  const u = Math.min(W, H) / 600;
  return seaScape(pal, rand, W, H, 0.66) + s.platform(W * 0.55, wy, 340 * u, pal) + s.boat(W * 0.2, wy + 50 * u, 150 * u, '#f1faee', pal.accent);
};

const harbour = (pal: s.Palette, withShip = true): Scene => (W, H, rand) => {
  const wy = H * 0.64;
  const u = Math.min(W, H) / 600;
  let out = seaScape(pal, rand, W, H, 0.64);
  out += s.building(W * 0.02, wy, 90 * u, 130 * u, pal.far, pal.steel, rand) + s.towerCrane(W * 0.12, wy, 260 * u, pal.accent, pal.dark);
  if (withShip) out += s.ship(W * 0.58, wy + 40 * u, 420 * u, pal);
  out += s.barge(W * 0.22, wy + 110 * u, 220 * u, pal.dark, pal.steel);
  return out;
};

const fabrication: Scene = (W, H, rand) => {
  const pal = P.night;
  const g = H * 0.8;
  const u = Math.min(W, H) / 600;
  let out = s.rect(0, 0, W, H, pal.skyTop) + s.rect(0, g, W, H - g, pal.ground);
  for (let x = 0; x < W; x += 160 * u) out += s.rect(x, 0, 20 * u, g, pal.mid);
  out += s.rect(0, H * 0.12, W, 18 * u, pal.mid);
  out += s.rect(W * 0.2, g - 120 * u, W * 0.6, 26 * u, '#8d99ae') + s.rect(W * 0.3, g - 94 * u, 20 * u, 94 * u, '#6c757d') + s.rect(W * 0.7, g - 94 * u, 20 * u, 94 * u, '#6c757d');
  out += s.worker(W * 0.45, g + 20 * u, 220 * u, '#457b9d', '#8d5524');
  out += s.sparks(W * 0.53, g - 118 * u, 30, rand);
  return out;
};

const bridgeScene = (pal: s.Palette): Scene => (W, H, rand) => {
  const wy = H * 0.7;
  const u = Math.min(W, H) / 600;
  let out = s.sky(W, H, pal) + s.sun(W * 0.75, H * 0.2, 40 * u, pal.sun) + s.hills(W, H * 0.6, H * 0.1, pal.far, rand) + s.water(W, H, wy, pal, rand);
  out += s.bridge(W * 0.08, W * 0.92, wy - 70 * u, pal.steel, pal.mid);
  return out;
};

const gears: Scene = (W, H) => {
  const pal = P.night;
  const u = Math.min(W, H) / 600;
  return s.sky(W, H, pal) + s.gear(W * 0.38, H * 0.5, 170 * u, 14, pal.steel, pal.skyTop) + s.gear(W * 0.66, H * 0.32, 110 * u, 10, pal.accent, pal.skyTop) + s.gear(W * 0.7, H * 0.72, 80 * u, 9, '#8d99ae', pal.skyTop);
};

const roadScene: Scene = (W, H, rand) => landscape(P.day, rand, W, H, 0.5) + s.road(W, H, H * 0.5, P.day) + s.cone(W * 0.2, H * 0.9, 60) + s.cone(W * 0.8, H * 0.9, 60);

const tankFarm: Scene = (W, H, rand) => {
  const g = H * 0.78;
  let out = landscape(P.day, rand, W, H, 0.78);
  for (let i = 0; i < 4; i++) out += s.tank(W * (0.04 + i * 0.24), g, W * 0.2, H * (0.22 + (i % 2) * 0.08), P.day.steel, '#adb5bd');
  return out + s.pipes(0, W, g - 30, '#adb5bd', '#6c757d', 2);
};

const pipeline: Scene = (W, H, rand) => landscape(P.dawn, rand, W, H, 0.6) + s.pipes(-20, W + 20, H * 0.7, '#adb5bd', '#6c757d', 2) + s.excavator(W * 0.7, H * 0.72, 160, P.dawn.accent) + s.worker(W * 0.3, H * 0.92, 160, '#f77f00', '#6f4518');

const warehouse: Scene = (W, H, rand) => {
  const g = H * 0.8;
  let out = landscape(P.day, rand, W, H, 0.8);
  out += `<path d="M${W * 0.08} ${g} L${W * 0.08} ${g - H * 0.3} L${W * 0.38} ${g - H * 0.42} L${W * 0.68} ${g - H * 0.3} L${W * 0.68} ${g}Z" fill="#adb5bd"/>` + s.rect(W * 0.28, g - H * 0.18, W * 0.2, H * 0.18, '#6c757d');
  return out + s.building(W * 0.7, g, W * 0.24, H * 0.28, '#457b9d', '#bde0fe', rand) + s.truck(W * 0.1, g + 30, 110, '#e63946');
};

const riverbank: Scene = (W, H, rand) => {
  const wy = H * 0.62;
  return seaScape(P.day, rand, W, H, 0.62) + s.piles(0, W * 0.5, wy + 30, H * 0.25, '#6c757d') + s.rect(0, wy - 20, W * 0.5, 30, '#8d99ae') + s.excavator(W * 0.25, wy - 20, 140, P.day.accent) + s.barge(W * 0.75, wy + 70, 240, '#2b2d42', '#adb5bd');
};

const pumpStation: Scene = (W, H, rand) => {
  const g = H * 0.78;
  let out = landscape(P.dusk, rand, W, H, 0.78) + s.pipes(0, W, g - 130, '#adb5bd', '#6c757d', 2);
  for (let i = 0; i < 3; i++) out += s.machineBox(W * (0.08 + i * 0.3), g, W * 0.22, H * 0.2, '#2a9d8f', 'generator');
  return out;
};

const haulage: Scene = (W, H, rand) => landscape(P.day, rand, W, H, 0.62) + s.road(W, H, H * 0.62, P.day).replace(/fill="#ffd166"/g, 'fill="#f1faee"') + s.truck(W * 0.18, H * 0.88, 220, '#1d3557', 'module');

const drainage: Scene = (W, H, rand) => {
  const g = H * 0.62;
  let out = landscape(P.day, rand, W, H, 0.62);
  out += s.rect(W * 0.3, g, W * 0.4, H - g, '#8d99ae') + s.rect(W * 0.34, g, W * 0.32, H - g, P.day.water);
  for (let i = 0; i < 3; i++) out += `<rect x="${W * (0.32 + i * 0.12)}" y="${g + 40}" width="${W * 0.1}" height="${H * 0.14}" rx="8" fill="#495057"/>`;
  return out + s.worker(W * 0.18, H * 0.95, 150, '#f77f00', '#8d5524');
};

const gantry: Scene = (W, H, rand) => {
  const g = H * 0.82;
  let out = landscape(P.dawn, rand, W, H, 0.82) + s.rect(W * 0.05, g - H * 0.48, W * 0.9, H * 0.06, '#e9ecef');
  for (let i = 0; i < 5; i++) out += s.rect(W * (0.08 + i * 0.21), g - H * 0.42, 14, H * 0.42, '#adb5bd');
  return out + s.truck(W * 0.12, g, 140, '#2a9d8f', 'tipper').replace(/#2a9d8f/g, '#e63946') + s.tank(W * 0.55, g - 30, W * 0.28, H * 0.12, '#f1faee', '#adb5bd') + s.truck(W * 0.5, g, 140, '#e63946', 'lowbed');
};

const power: Scene = (W, H, rand) => {
  const g = H * 0.8;
  let out = landscape(P.dusk, rand, W, H, 0.8);
  for (let i = 0; i < 2; i++) out += s.machineBox(W * (0.1 + i * 0.42), g, W * 0.36, H * 0.3, '#e9c46a', 'generator');
  return out + s.stack(W * 0.9, g, 16, H * 0.5, '#adb5bd');
};

const school: Scene = (W, H, rand) => {
  const g = H * 0.8;
  let out = landscape(P.day, rand, W, H, 0.8) + s.building(W * 0.12, g, W * 0.76, H * 0.32, '#f4a261', '#f1faee', rand);
  out += `<path d="M${W * 0.1} ${g - H * 0.32} L${W * 0.5} ${g - H * 0.46} L${W * 0.9} ${g - H * 0.32}Z" fill="#9d0208"/>`;
  return out;
};

const wellhead: Scene = (W, H, rand) => landscape(P.dawn, rand, W, H, 0.78) + s.valveTree(W * 0.5, H * 0.8, H * 0.45, '#adb5bd') + s.pipes(W * 0.56, W, H * 0.7, '#adb5bd', '#6c757d', 1) + s.worker(W * 0.25, H * 0.92, 170, '#f77f00', '#6f4518');

const crewBoat: Scene = (W, H, rand) => seaScape(P.day, rand, W, H, 0.6) + s.water(W, H, H * 0.62, P.day, rand) + s.boat(W * 0.5, H * 0.75, W * 0.5, '#f1faee', '#e63946');

const sitePrep: Scene = (W, H, rand) => {
  const g = H * 0.8;
  return landscape(P.day, rand, W, H, 0.8) + s.rect(0, g - 40, W, 40, '#d4a373') + s.piles(W * 0.5, W * 0.98, g - 30, H * 0.2, '#6c757d') + s.excavator(W * 0.22, g - 30, 170, P.day.accent) + s.bulldozer(W * 0.05, g + 20, 110, P.day.accent);
};

const equipmentScene = (draw: (W: number, H: number) => string): Scene => (W, H) =>
  s.sky(W, H, P.studio) + `<ellipse cx="${W / 2}" cy="${H * 0.86}" rx="${W * 0.42}" ry="${H * 0.05}" fill="#8d99ae" opacity="0.45"/>` + draw(W, H);

const EQUIPMENT_SCENES: Record<string, Scene> = {
  'mobile-crane': equipmentScene((W, H) => s.mobileCrane(W * 0.25, H * 0.86, 220, '#f59e0b')),
  'crawler-excavator': equipmentScene((W, H) => s.excavator(W * 0.42, H * 0.86, 300, '#f59e0b')),
  bulldozer: equipmentScene((W, H) => s.bulldozer(W * 0.3, H * 0.86, 330, '#f59e0b')),
  'low-bed-trailer': equipmentScene((W, H) => s.truck(W * 0.14, H * 0.86, 250, '#1d3557', 'lowbed')),
  'tug-boat': equipmentScene((W, H) => s.water(W, H, H * 0.7, P.day, s.rng(7)) + s.boat(W * 0.5, H * 0.78, 460, '#1d3557', '#e63946')),
  'crew-boat': equipmentScene((W, H) => s.water(W, H, H * 0.7, P.day, s.rng(8)) + s.boat(W * 0.5, H * 0.78, 520, '#f1faee', '#457b9d')),
  'flat-top-barge': equipmentScene((W, H) => s.water(W, H, H * 0.7, P.day, s.rng(9)) + s.barge(W * 0.5, H * 0.74, 560, '#2b2d42', '#adb5bd')),
  'welding-machine': equipmentScene((W, H) => s.machineBox(W * 0.28, H * 0.86, W * 0.4, H * 0.4, '#e63946', 'welder')),
  'generator-set': equipmentScene((W, H) => s.machineBox(W * 0.15, H * 0.86, W * 0.7, H * 0.45, '#e9c46a', 'generator')),
  'air-compressor': equipmentScene((W, H) => s.machineBox(W * 0.22, H * 0.8, W * 0.56, H * 0.38, '#2a9d8f', 'compressor')),
  forklift: equipmentScene((W, H) => s.forklift(W * 0.3, H * 0.86, 300, '#f59e0b')),
  'tipper-truck': equipmentScene((W, H) => s.truck(W * 0.22, H * 0.86, 300, '#e63946', 'tipper')),
};

const PROJECT_SCENES: Record<string, Scene> = {
  'flow-station-upgrade': refinery(P.day),
  'tank-farm-expansion': tankFarm,
  'industrial-access-road': roadScene,
  'jetty-rehabilitation': harbour(P.day, false),
  'gas-pipeline-tie-in': pipeline,
  'warehouse-office-block': warehouse,
  'pipe-rack-fabrication': fabrication,
  'riverbank-protection': riverbank,
  'pump-station-overhaul': pumpStation,
  'offshore-platform-maintenance': offshore(P.day),
  'equipment-haulage': haulage,
  'drainage-culverts': drainage,
  'loading-gantry': gantry,
  'power-generation-skid': power,
  'school-building': school,
  'wellhead-maintenance': wellhead,
  'crew-boat-service': crewBoat,
  'steel-bridge': bridgeScene(P.dawn),
  'site-preparation-piling': sitePrep,
};

const SLIDE_SCENES: Record<string, Scene> = {
  safety,
  execution: construction(P.day),
  expertise: blueprint,
  quality,
  challenges: offshore(P.storm),
  energy: refinery(P.dusk),
};

const SERVICE_SCENES: Record<string, Scene> = {
  'oil-gas': refinery(P.dawn),
  'design-planning': blueprint,
  'mechanical-fabrication': fabrication,
  'civil-engineering': bridgeScene(P.day),
  'marine-logistics': harbour(P.dusk),
  'mechanical-engineering': gears,
};

const PORTRAIT_STYLES = [
  { bg: '#094a8a', shirt: '#1d3557', skin: '#8d5524', hair: '#1b1b1f' },
  { bg: '#2a9d8f', shirt: '#264653', skin: '#6f4518', hair: '#111111' },
  { bg: '#b45309', shirt: '#3d405b', skin: '#a0522d', hair: '#2b2118' },
  { bg: '#4f46e5', shirt: '#1e293b', skin: '#7b4a2a', hair: '#0f0f0f' },
  { bg: '#be123c', shirt: '#334155', skin: '#c68642', hair: '#3b2a1a' },
];

const CERT_ACCENTS: Record<string, string> = { 'health-safety': '#b91c1c', environmental: '#15803d', quality: '#1d4ed8' };

// ---- rendering --------------------------------------------------------------------------------

interface ManifestEntry {
  width: number;
  height: number;
  widths: number[];
  portrait?: { width: number; height: number; widths: number[] };
}
const manifest: Record<string, ManifestEntry> = {};

function seedOf(key: string) {
  let h = 2166136261;
  for (const ch of key) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

async function renderVariants(key: string, shape: ShapeName, scene: Scene, suffix = '') {
  const { w, h, widths } = SHAPES[shape];
  const body = scene(w, h, s.rng(seedOf(key)));
  const dir = path.join(OUT, path.dirname(key));
  mkdirSync(dir, { recursive: true });
  for (const width of widths) {
    const height = Math.round((h * width) / w);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${w} ${h}" preserveAspectRatio="xMidYMid slice">${body}</svg>`;
    const base = path.join(dir, `${path.basename(key)}${suffix}-${width}`);
    if (!FORCE && existsSync(`${base}.avif`) && existsSync(`${base}.webp`)) continue;
    const raster = sharp(Buffer.from(svg));
    await raster.clone().avif({ quality: 50, effort: 4 }).toFile(`${base}.avif`);
    await raster.clone().webp({ quality: 72, effort: 5 }).toFile(`${base}.webp`);
  }
  return { width: widths.at(-1)!, height: Math.round((h * widths.at(-1)!) / w), widths: [...widths] };
}

async function image(key: string, shape: ShapeName, scene: Scene, portraitScene?: Scene) {
  manifest[key] = await renderVariants(key, shape, scene);
  if (portraitScene) manifest[key].portrait = await renderVariants(key, 'heroPortrait', portraitScene, '-portrait');
}

/** Size of every partner logo (the <img> tags on Home declare it). */
export const PARTNER_LOGO = { width: 300, height: 60 } as const;

function partnerLogo(name: string, i: number) {
  const colors = ['#094a8a', '#0f766e', '#9a3412', '#1d4ed8', '#b45309', '#166534', '#334155', '#6d28d9'];
  const c = colors[i % colors.length];
  const marks = [
    `<circle cx="28" cy="30" r="18" fill="${c}"/><path d="M14 34q14-12 28 0" stroke="#fff" stroke-width="4" fill="none"/>`,
    `<path d="M10 44 28 12 46 44Z" fill="${c}"/>`,
    `<rect x="10" y="12" width="36" height="36" rx="8" fill="${c}"/><path d="M18 30h20M28 20v20" stroke="#fff" stroke-width="5"/>`,
    `<path d="M10 40c10-20 26-20 36 0" stroke="${c}" stroke-width="8" fill="none"/>`,
  ];
  const escaped = name.replace(/&/g, '&amp;');
  // Text in the logo is drawn by the browser; the alt text on the <img> carries the name.
  // Fonts differ between systems: textLength squeezes the name into the space left beside the mark.
  const textWidth = Math.min(PARTNER_LOGO.width - 64, Math.round(name.length * 10));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PARTNER_LOGO.width}" height="${PARTNER_LOGO.height}" viewBox="0 0 ${PARTNER_LOGO.width} ${PARTNER_LOGO.height}">${marks[i % marks.length]}<text x="56" y="37" textLength="${textWidth}" lengthAdjust="spacingAndGlyphs" font-family="system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif" font-size="17" font-weight="700" fill="${c}">${escaped}</text></svg>`;
}

async function ogImage() {
  const W = 1200;
  const H = 630;
  const body = construction(P.dusk)(W, H, s.rng(42));
  const name = company.name.replace(/&/g, '&amp;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}<rect width="${W}" height="${H}" fill="#061a33" opacity="0.55"/><text x="60" y="300" font-family="DejaVu Sans, Arial, sans-serif" font-size="56" font-weight="700" fill="#ffffff">${name}</text><text x="60" y="370" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" fill="#e2e8f0">Oil &amp; gas · civil · mechanical · marine · logistics</text></svg>`;
  await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true, quality: 80 }).toFile(path.join(ROOT, 'public', 'og-image.png'));
}

async function main() {
  for (const [theme, scene] of Object.entries(SLIDE_SCENES)) await image(`slides/${theme}`, 'hero', scene, scene);
  for (const [id, scene] of Object.entries(SERVICE_SCENES)) await image(`services/${id}`, 'card', scene);
  for (const project of showcaseProjects) {
    const name = project.image.split('/')[1];
    const scene = PROJECT_SCENES[name];
    if (!scene) throw new Error(`No scene for ${project.image}`);
    await image(project.image, 'card', scene);
  }
  for (const item of equipment) {
    const name = item.image.split('/')[1];
    const scene = EQUIPMENT_SCENES[name];
    if (!scene) throw new Error(`No scene for ${item.image}`);
    await image(item.image, 'card', scene);
  }
  for (const [i, member] of team.entries()) {
    const st = PORTRAIT_STYLES[i % PORTRAIT_STYLES.length];
    await image(member.image, 'square', (W, H) => s.portrait(W, H, st.bg, st.shirt, st.skin, st.hair));
  }
  for (const [name, accent] of Object.entries(CERT_ACCENTS)) await image(`certificates/${name}`, 'card', (W, H, rand) => s.certificateDoc(W, H, accent, rand));

  mkdirSync(path.join(OUT, 'partners'), { recursive: true });
  for (const [i, partner] of partners.entries()) writeFileSync(path.join(ROOT, 'public', partner.logo), partnerLogo(partner.name, i));
  await ogImage();

  const keys = Object.keys(manifest).sort();
  const lines = keys.map((k) => `  '${k}': ${JSON.stringify(manifest[k])},`);
  writeFileSync(
    path.join(ROOT, 'common', 'content', 'image-manifest.ts'),
    `// Generated by scripts/build-site-images.ts: do not edit by hand.\n// Each picture's largest size and the widths rendered under public/images/<key>-<width>.{avif,webp}.\nexport const IMAGE_MANIFEST = {\n${lines.join('\n')}\n} as const satisfies Record<string, ImageEntry>;\n\nexport interface ImageEntry {\n  width: number;\n  height: number;\n  widths: readonly number[];\n  /** A portrait rendering for narrow screens (<key>-portrait-<width>). */\n  portrait?: { width: number; height: number; widths: readonly number[] };\n}\n\nexport type ImageKey = keyof typeof IMAGE_MANIFEST;\n`,
  );
  console.log(`${keys.length} pictures, ${partners.length} partner logos, og-image.png`);
}

await main();
