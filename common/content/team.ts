import type { TeamMember } from './schemas.ts';

/** 'Meet Our Team': invented people; links that are absent are not shown. */
export const team: TeamMember[] = [
  {
    name: 'Adaeze Okonkwo-Bell',
    position: 'Chief Executive Officer',
    image: 'team/chief-executive',
    bio: 'Leads the company and its client relationships, with over two decades in oil and gas construction and project delivery.',
    linkedin: 'https://www.linkedin.com/in/example-chief-executive',
    twitter: 'https://twitter.com/example_ceo',
  },
  {
    name: 'Tamuno Briggs-Ade',
    position: 'Executive Director',
    image: 'team/executive-director',
    bio: 'Oversees operations, safety and the equipment fleet, and chairs the monthly project reviews.',
    linkedin: 'https://www.linkedin.com/in/example-executive-director',
  },
  {
    name: 'Ifeoma Nwachukwu-Dale',
    position: 'Projects Manager',
    image: 'team/projects-manager',
    bio: 'Plans and runs our projects from mobilisation to handover, keeping clients informed at every milestone.',
    whatsapp: 'https://wa.me/2348000000104',
  },
  {
    name: 'Kelechi Amadi-Rowe',
    position: 'Software Engineer',
    image: 'team/software-engineer',
    bio: 'Builds the tools our clients use to follow their projects, from timelines to progress reports.',
    website: 'https://dev.koradelta.example',
    linkedin: 'https://www.linkedin.com/in/example-software-engineer',
  },
  {
    name: 'Jordan Ekpo-Hayes',
    position: 'US Business Development Lead',
    image: 'team/us-business-development',
    bio: 'Works from our Houston office with partners and suppliers in the United States.',
  },
];
