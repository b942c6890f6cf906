import type { Point, ProcessStep } from './schemas.ts';

/** How We Work: the five steps of the specification, in order. */
export const processSteps: ProcessStep[] = [
  {
    step: 1,
    title: 'Intent Declaration',
    description: 'You tell us what you need. We meet, visit the site where useful, and agree the scope and the outcome you expect.',
  },
  {
    step: 2,
    title: 'Review of Tender',
    description: 'Our engineers review the tender documents and prepare detailed technical and commercial proposals.',
  },
  {
    step: 3,
    title: 'Feedback',
    description: 'We walk you through the proposal, answer questions and adjust it until scope, schedule and price are agreed.',
  },
  {
    step: 4,
    title: 'Contract Execution',
    description: 'We mobilise people and equipment and deliver the work, reporting progress against the agreed milestones.',
  },
  {
    step: 5,
    title: 'Making Payments (in milestones)',
    description: 'Payments follow completed milestones, so you pay for progress you can see and verify.',
  },
];

/** How We Work: 'Why Our Process Works'. */
export const processBenefits: Point[] = [
  { title: 'Clear Objectives', description: 'Scope, outcomes and acceptance criteria are agreed in writing before any work starts.' },
  {
    title: 'Transparent Pricing',
    description: 'Detailed technical and commercial proposals with no hidden costs.',
  },
  { title: 'Efficient Execution', description: 'Our own equipment and experienced crews keep the work moving to schedule.' },
  {
    title: 'Milestone Payments',
    description: 'Flexible payment terms aligned to milestones, so cash follows verified progress.',
  },
];
