import type { Testimonial } from './schemas.ts';

/** Sample testimonials (static content, as the specification says); the people are invented. */
export const testimonials: Testimonial[] = [
  {
    quote: 'They finished the shutdown work two days early with zero lost-time incidents. Their permit discipline was the best we have seen from a local contractor.',
    name: 'Engr. Bola Fashanu-Reed',
    position: 'Maintenance Superintendent, independent oil producer',
  },
  {
    quote: 'Weekly progress reports, clear milestones and no surprises on the invoice. We have since given them two more projects.',
    name: 'Mrs. Ngozi Ibekwe-Lane',
    position: 'Projects Director, logistics services firm',
  },
  {
    quote: 'Their boats and barges kept our site supplied through the whole rainy season. Reliable people with reliable equipment.',
    name: 'Capt. Ebi Tonye-Hart',
    position: 'Marine Coordinator, oilfield services company',
  },
  {
    quote: 'The road they built for our community has held up through three wet seasons. They listened to us from the first meeting.',
    name: 'Chief Dagogo Ibiba-Cole',
    position: 'Chairman, community development trust',
  },
];
