// Home's full-screen slider: one slide every 4.5 s (data-interval), paused by hover or keyboard focus
// inside, stopped by its pause button, still for reduced motion; a swipe longer than data-swipe px
// moves it. Hidden slides are inert. A slide's picture is copied out of its <template> just before
// it can show (the next one is fetched once the page has loaded), so the first view loads one picture.

import { createRotation, markDot, onSwipe } from './rotation.ts';

export function enhanceHeroSlider(root: HTMLElement): () => void {
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
  const dots = root.querySelector<HTMLElement>('[data-carousel-dots]')!;
  const count = slides.length;
  const warm = (i: number) => {
    const template = slides[i % count]?.querySelector<HTMLTemplateElement>('template[data-slide-image]');
    if (template) template.replaceWith(template.content.cloneNode(true));
  };
  const rotation = createRotation({
    root,
    count: () => count,
    intervalMs: Number(root.dataset.interval),
    live: root.querySelector<HTMLElement>('[data-carousel-live]'),
    render(index) {
      warm(index);
      warm(index + 1);
      slides.forEach((slide, i) => {
        const active = i === index;
        slide.inert = !active;
        slide.setAttribute('aria-hidden', String(!active));
        slide.classList.toggle('z-10', active);
        slide.classList.toggle('opacity-100', active);
        slide.classList.toggle('z-0', !active);
        slide.classList.toggle('opacity-0', !active);
      });
      markDot(dots, index);
    },
  });
  const onDot = (e: MouseEvent) => {
    const dot = (e.target as Element).closest<HTMLElement>('[data-carousel-dot]');
    if (dot) rotation.show(Number(dot.dataset.carouselDot));
  };
  dots.addEventListener('click', onDot);
  const unswipe = onSwipe(root, Number(root.dataset.swipe), () => rotation.show(rotation.index + 1), () => rotation.show(rotation.index - 1));
  const onLoad = () => warm(1);
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
  return () => {
    rotation.stop();
    unswipe();
    dots.removeEventListener('click', onDot);
    window.removeEventListener('load', onLoad);
  };
}
