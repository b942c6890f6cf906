import type { Point, ShowcaseProject } from './schemas.ts';

/** 'Our Projects': the showcase. Clients are invented and described, never named after real companies. */
export const showcaseProjects: ShowcaseProject[] = [
  { title: 'Flow Station Upgrade', image: 'projects/flow-station-upgrade', description: 'Replacement of separators, manifolds and pipework at a swamp flow station, delivered during a planned shutdown.', location: 'Bayelsa State', date: '2023-11', client: 'Independent oil producer' },
  { title: 'Tank Farm Expansion', image: 'projects/tank-farm-expansion', description: 'Four new product storage tanks with bund walls, firefighting lines and loading bay.', location: 'Onne, Rivers State', area: '12,000 m²', date: '2023-06', client: 'Downstream products marketer' },
  { title: 'Industrial Access Road', image: 'projects/industrial-access-road', description: 'Asphalt access road with side drains and culverts serving an industrial layout.', location: 'Eleme, Rivers State', area: '4.2 km', date: '2023-02', client: 'State infrastructure agency' },
  { title: 'Jetty Rehabilitation', image: 'projects/jetty-rehabilitation', description: 'Pile repairs, new fenders and deck resurfacing at a busy supply jetty.', location: 'Port Harcourt, Rivers State', area: '1,800 m²', date: '2022-12', client: 'Marine terminal operator' },
  { title: 'Gas Pipeline Tie-in', image: 'projects/gas-pipeline-tie-in', description: 'Hot-tap tie-in and 6 km of buried gas pipeline with cathodic protection.', location: 'Delta State', date: '2022-09', client: 'Gas distribution company' },
  { title: 'Warehouse and Office Block', image: 'projects/warehouse-office-block', description: 'Steel-framed warehouse with a two-storey office block and parking.', location: 'Trans-Amadi, Port Harcourt', area: '6,500 m²', date: '2022-05', client: 'Logistics services firm' },
  { title: 'Pipe Rack Fabrication', image: 'projects/pipe-rack-fabrication', description: 'Fabrication and erection of 420 tonnes of pipe rack steelwork.', location: 'Onne, Rivers State', date: '2022-02', client: 'Process plant contractor' },
  { title: 'Riverbank Protection', image: 'projects/riverbank-protection', description: 'Sheet piling and rock revetment protecting a community waterfront.', location: 'Bonny, Rivers State', area: '900 m', date: '2021-11', client: 'Community development trust' },
  { title: 'Pump Station Overhaul', image: 'projects/pump-station-overhaul', description: 'Overhaul and realignment of crude transfer pumps with new control panels.', location: 'Warri, Delta State', date: '2021-08', client: 'Crude terminal operator' },
  { title: 'Offshore Platform Maintenance', image: 'projects/offshore-platform-maintenance', description: 'Fabric maintenance, walkway replacement and coating on a shallow-water platform.', location: 'Offshore, Niger Delta', date: '2021-04', client: 'Independent oil producer' },
  { title: 'Equipment Haulage Campaign', image: 'projects/equipment-haulage', description: 'Barge and low-bed haulage of heavy process modules from port to site.', location: 'Onne to Ogoni, Rivers State', date: '2020-12', client: 'Engineering contractor' },
  { title: 'Drainage and Culverts', image: 'projects/drainage-culverts', description: 'Concrete drains and box culverts easing flooding around an industrial estate.', location: 'Aba, Abia State', area: '3.1 km', date: '2020-07', client: 'Local government council' },
  { title: 'Loading Gantry Construction', image: 'projects/loading-gantry', description: 'Four-bay truck loading gantry with metering skids and canopy.', location: 'Calabar, Cross River State', area: '2,400 m²', date: '2020-03', client: 'Downstream products marketer' },
  { title: 'Power Generation Skid', image: 'projects/power-generation-skid', description: 'Installation and commissioning of gas generator sets for a remote facility.', location: 'Imo State', date: '2019-10', client: 'Gas processing operator' },
  { title: 'School Building Project', image: 'projects/school-building', description: 'Twelve-classroom block with laboratories, donated under a community programme.', location: 'Okrika, Rivers State', area: '1,450 m²', date: '2019-06', client: 'Community development trust' },
  { title: 'Wellhead Maintenance', image: 'projects/wellhead-maintenance', description: 'Valve servicing and wellhead area repairs across a land field.', location: 'Rivers State', date: '2019-01', client: 'Independent oil producer' },
  { title: 'Crew Boat Service Contract', image: 'projects/crew-boat-service', description: 'Three-year crew and supply boat service to swamp locations.', location: 'Niger Delta creeks', date: '2018-09', client: 'Oilfield services company' },
  { title: 'Steel Bridge Installation', image: 'projects/steel-bridge', description: 'Prefabricated steel footbridge and approach ramps over a creek.', location: 'Ahoada, Rivers State', area: '60 m span', date: '2018-03', client: 'State infrastructure agency' },
  { title: 'Site Preparation and Piling', image: 'projects/site-preparation-piling', description: 'Sand filling, compaction and bored piles for a new process area.', location: 'Eket, Akwa Ibom State', area: '18,000 m²', date: '2017-08', client: 'Process plant contractor' },
];

/** 'Our Projects': the three categories of work. */
export const projectCategories: Point[] = [
  { title: 'Infrastructure Development', description: 'Roads, bridges, drainage, buildings and site works for public and private clients.' },
  { title: 'Oil & Gas Facilities', description: 'Flow stations, pipelines, tank farms and loading facilities, built and maintained.' },
  { title: 'Marine & Logistics', description: 'Jetties, waterfronts, crew boats, barges and heavy haulage across the Delta.' },
];
