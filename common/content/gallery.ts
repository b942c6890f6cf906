import { showcaseProjects } from './projects.ts';
import type { GalleryItem } from './schemas.ts';

// The gallery's pictures, in its order. Each is a showcase project's, named and placed as there.
const PICTURES = [
  'tank-farm-expansion', 'offshore-platform-maintenance', 'steel-bridge', 'jetty-rehabilitation',
  'pipe-rack-fabrication', 'industrial-access-road', 'flow-station-upgrade', 'warehouse-office-block',
  'equipment-haulage', 'loading-gantry', 'power-generation-skid', 'school-building',
];

/** 'Project Gallery': pictures from the showcase projects. */
export const gallery: GalleryItem[] = PICTURES.map((slug) => {
  const project = showcaseProjects.find((p) => p.image === `projects/${slug}`);
  if (!project) throw new Error(`No showcase project has the picture projects/${slug}`);
  return { image: project.image, name: project.title, location: project.location };
});
