import type { Slide } from './schemas.ts';

/** Home: the six slides of the full-screen slider, in the specification's order. */
export const slides: Slide[] = [
  { theme: 'safety', title: 'Safety Is Our First Deliverable', subtitle: 'Every crew, every shift, every site goes home safe.', image: 'slides/safety' },
  { theme: 'execution', title: 'Execution You Can Count On', subtitle: 'Projects delivered on schedule, to specification and on budget.', image: 'slides/execution' },
  { theme: 'expertise', title: 'Engineering Expertise Since 2011', subtitle: 'Oil and gas, civil, mechanical and marine know-how under one roof.', image: 'slides/expertise' },
  { theme: 'quality', title: 'Quality in Every Weld and Pour', subtitle: 'ISO certified systems and inspection at every stage.', image: 'slides/quality' },
  { theme: 'challenges', title: 'We Take On Hard Challenges', subtitle: 'Swamp, offshore and remote sites reached with our own fleet.', image: 'slides/challenges' },
  { theme: 'energy', title: 'Powering Nigeria’s Energy Future', subtitle: 'Building and maintaining the facilities that keep energy flowing.', image: 'slides/energy' },
];
