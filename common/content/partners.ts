import type { Partner } from './schemas.ts';

/** 'Our Trusted Partners': invented names with generated logos (public/images/partners/). */
export const partners: Partner[] = [
  { name: 'Riverline Energy', logo: '/images/partners/riverline-energy.svg' },
  { name: 'Harbourgate Marine', logo: '/images/partners/harbourgate-marine.svg' },
  { name: 'Ironleaf Steelworks', logo: '/images/partners/ironleaf-steelworks.svg' },
  { name: 'Bluecreek Logistics', logo: '/images/partners/bluecreek-logistics.svg' },
  { name: 'Sunpeak Power', logo: '/images/partners/sunpeak-power.svg' },
  { name: 'Delta Span Civil', logo: '/images/partners/delta-span-civil.svg' },
  { name: 'Northwind Valves', logo: '/images/partners/northwind-valves.svg' },
  { name: 'Coastal Survey Group', logo: '/images/partners/coastal-survey-group.svg' },
];
