import type { EquipmentItem } from './schemas.ts';

/** 'Our Equipment': the fleet carousel (a multiple of three, so each large-screen page is full). */
export const equipment: EquipmentItem[] = [
  { image: 'equipment/mobile-crane', name: '50-Tonne Mobile Crane', category: 'Lifting' },
  { image: 'equipment/crawler-excavator', name: 'Crawler Excavator', category: 'Earthmoving' },
  { image: 'equipment/bulldozer', name: 'Bulldozer', category: 'Earthmoving' },
  { image: 'equipment/low-bed-trailer', name: 'Low-Bed Trailer', category: 'Haulage' },
  { image: 'equipment/tug-boat', name: 'Tug Boat', category: 'Marine' },
  { image: 'equipment/crew-boat', name: 'Crew Boat', category: 'Marine' },
  { image: 'equipment/flat-top-barge', name: 'Flat-Top Barge', category: 'Marine' },
  { image: 'equipment/welding-machine', name: 'Diesel Welding Machine', category: 'Fabrication' },
  { image: 'equipment/generator-set', name: '500 kVA Generator Set', category: 'Power' },
  { image: 'equipment/air-compressor', name: 'Air Compressor', category: 'Utilities' },
  { image: 'equipment/forklift', name: 'Forklift', category: 'Lifting' },
  { image: 'equipment/tipper-truck', name: 'Tipper Truck', category: 'Haulage' },
];
