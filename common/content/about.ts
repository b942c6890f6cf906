import type { About } from './schemas.ts';
import { company } from './company.ts';

/** About: Our Story, Vision, Mission and Values. */
export const about: About = {
  story: [
    `${company.name} was founded in ${company.foundedYear} in Port Harcourt by engineers who had spent their careers on oil and gas sites across the Niger Delta and wanted an indigenous company that could deliver to the same standard.`,
    'We started with a small maintenance crew and a single barge. Today we design, build, maintain and supply projects onshore, in the swamp and offshore, with our own equipment yard in Onne and an office in the United States for partners and suppliers.',
    'We are 100% Nigerian owned, and we measure our success by the safety of our people, the satisfaction of our clients and the skills we leave behind in the communities where we work.',
  ],
  vision: 'To be the indigenous engineering and logistics partner of first choice in West Africa, known for safe, dependable delivery.',
  mission:
    'To deliver engineering, construction and logistics projects safely, on time and to specification, with our own equipment, skilled local people and transparent dealings with every client.',
  values: [
    { title: 'Safety', description: 'No job is so urgent that it cannot be done safely.' },
    { title: 'Integrity', description: 'We say what we will do, do what we say, and price it honestly.' },
    { title: 'Excellence', description: 'We plan carefully, inspect everything and learn from every project.' },
    { title: 'Community', description: 'We hire, train and buy locally wherever we work.' },
  ],
};
