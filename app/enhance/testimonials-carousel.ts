// The gallery's testimonials: a new one every data-interval ms, looping; arrows and dots choose one.

import { createRotation, markDot, onCarouselControls } from './rotation.ts';

export function enhanceTestimonialsCarousel(root: HTMLElement): () => void {
  const items = [...root.querySelectorAll<HTMLElement>('[data-testimonial]')];
  const dots = root.querySelector<HTMLElement>('[data-carousel-dots]')!;
  const rotation = createRotation({
    root,
    count: () => items.length,
    intervalMs: Number(root.dataset.interval),
    live: root.querySelector<HTMLElement>('[data-carousel-live]'),
    render(index) {
      items.forEach((item, i) => {
        const active = i === index;
        item.inert = !active;
        item.setAttribute('aria-hidden', String(!active));
        item.classList.toggle('opacity-100', active);
        item.classList.toggle('opacity-0', !active);
      });
      markDot(dots, index);
    },
  });
  const uncontrol = onCarouselControls(root, rotation);
  return () => {
    rotation.stop();
    uncontrol();
  };
}
