// The gallery's testimonials: a new one every data-interval ms, looping; arrows and dots choose one.

import { createRotation, markDot } from './rotation.ts';

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
  const onClick = (e: MouseEvent) => {
    const target = e.target as Element;
    const dot = target.closest<HTMLElement>('[data-carousel-dot]');
    const arrow = target.closest<HTMLElement>('[data-carousel-arrow]');
    if (dot) rotation.show(Number(dot.dataset.carouselDot));
    else if (arrow) rotation.show(rotation.index + (arrow.dataset.carouselArrow === 'next' ? 1 : -1));
  };
  root.addEventListener('click', onClick);
  return () => {
    rotation.stop();
    root.removeEventListener('click', onClick);
  };
}
