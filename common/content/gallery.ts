import type { GalleryItem } from './schemas.ts';

/** 'Project Gallery': pictures from the showcase projects. */
export const gallery: GalleryItem[] = [
  { image: 'projects/tank-farm-expansion', name: 'Tank Farm Expansion', location: 'Onne, Rivers State' },
  { image: 'projects/offshore-platform-maintenance', name: 'Offshore Platform Maintenance', location: 'Offshore, Niger Delta' },
  { image: 'projects/steel-bridge', name: 'Steel Bridge Installation', location: 'Ahoada, Rivers State' },
  { image: 'projects/jetty-rehabilitation', name: 'Jetty Rehabilitation', location: 'Port Harcourt, Rivers State' },
  { image: 'projects/pipe-rack-fabrication', name: 'Pipe Rack Fabrication', location: 'Onne, Rivers State' },
  { image: 'projects/industrial-access-road', name: 'Industrial Access Road', location: 'Eleme, Rivers State' },
  { image: 'projects/flow-station-upgrade', name: 'Flow Station Upgrade', location: 'Bayelsa State' },
  { image: 'projects/warehouse-office-block', name: 'Warehouse and Office Block', location: 'Trans-Amadi, Port Harcourt' },
  { image: 'projects/equipment-haulage', name: 'Equipment Haulage Campaign', location: 'Onne to Ogoni, Rivers State' },
  { image: 'projects/loading-gantry', name: 'Loading Gantry Construction', location: 'Calabar, Cross River State' },
  { image: 'projects/power-generation-skid', name: 'Power Generation Skid', location: 'Imo State' },
  { image: 'projects/school-building', name: 'School Building Project', location: 'Okrika, Rivers State' },
];
