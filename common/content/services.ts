import type { Service } from './schemas.ts';

/** The six services, in the order of the specification; ids are the anchors of /services. */
export const services: Service[] = [
  {
    id: 'oil-gas',
    title: 'Oil & Gas Services',
    description: 'Upstream and downstream support: facility construction, maintenance, pipeline work and shutdown crews.',
    details: [
      'We build, maintain and upgrade oil and gas facilities onshore and in the swamp, from flow stations and manifolds to tank farms and loading bays.',
      'Our crews plan and execute turnarounds and shutdowns against tight windows, with permit-to-work and gas-testing discipline on every shift.',
    ],
    features: [
      'Pipeline construction, tie-ins and repairs',
      'Flow station and manifold maintenance',
      'Storage tank construction and inspection support',
      'Turnaround and shutdown manpower',
    ],
    icon: 'flame',
    color: 'amber',
    image: 'services/oil-gas',
  },
  {
    id: 'design-planning',
    title: 'Design & Planning',
    description: 'Front-end studies, detailed engineering drawings and project plans that crews can build from.',
    details: [
      'Our engineers turn a client brief into feasibility studies, front-end engineering design and detailed drawings, checked against the codes that apply.',
      'Every plan comes with a schedule, a bill of quantities and a risk register, so cost and time are visible before work starts.',
    ],
    features: ['Feasibility studies and FEED', 'Detailed civil, structural and piping drawings', 'Bills of quantities and cost estimates', 'Schedules with clear milestones'],
    icon: 'drafting-compass',
    color: 'sky',
    image: 'services/design-planning',
  },
  {
    id: 'mechanical-fabrication',
    title: 'Mechanical Fabrication',
    description: 'Structural steel, piping spools, skids and pressure parts fabricated in our yard or on site.',
    details: [
      'Our fabrication yard cuts, rolls, welds and coats structural steel, piping spools and equipment skids to approved drawings.',
      'Qualified welders work to written procedures, and every weld is traceable through inspection and test records.',
    ],
    features: ['Structural steel and platforms', 'Piping spools and supports', 'Skids, tanks and vessels', 'Blasting and protective coating'],
    icon: 'wrench',
    color: 'rose',
    image: 'services/mechanical-fabrication',
  },
  {
    id: 'civil-engineering',
    title: 'Civil Engineering',
    description: 'Roads, drainage, foundations, buildings and site works, from survey to handover.',
    details: [
      'We deliver earthworks, roads, drainage, foundations and reinforced concrete structures for industrial and public clients.',
      'Our site teams run material testing and survey control in-house, so quality is measured as the work goes in, not after.',
    ],
    features: ['Earthworks and site preparation', 'Roads, culverts and drainage', 'Foundations and concrete structures', 'Industrial and office buildings'],
    icon: 'building',
    color: 'emerald',
    image: 'services/civil-engineering',
  },
  {
    id: 'marine-logistics',
    title: 'Marine & Logistics',
    description: 'Boats, barges and haulage that move people, equipment and materials to hard-to-reach sites.',
    details: [
      'We move crews, equipment and materials across creeks, rivers and coastal waters with our own and chartered vessels.',
      'On land, low-bed trailers and trucks carry heavy loads to site with route surveys and escort where needed.',
    ],
    features: ['Crew and supply boats', 'Barge and tug operations', 'Heavy haulage and low-bed transport', 'Jetty and quayside support'],
    icon: 'ship',
    color: 'indigo',
    image: 'services/marine-logistics',
  },
  {
    id: 'mechanical-engineering',
    title: 'Mechanical Engineering',
    description: 'Installation, commissioning and maintenance of pumps, compressors, generators and rotating equipment.',
    details: [
      'Our mechanical engineers install, align and commission rotating and static equipment, and keep it running with planned maintenance.',
      'We diagnose failures, source parts and overhaul equipment, with condition monitoring to catch problems before they stop production.',
    ],
    features: ['Equipment installation and alignment', 'Pre-commissioning and commissioning', 'Planned and breakdown maintenance', 'HVAC and utility systems'],
    icon: 'cog',
    color: 'teal',
    image: 'services/mechanical-engineering',
  },
];
