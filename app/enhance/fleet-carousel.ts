// Our Equipment's fleet carousel: one card per view on small screens, data-per-view on large ones
// (data-large-query); the timer, arrows and dots move one view at a time and wrap; swiping (longer
// than data-swipe px) works on small screens. Cards out of view are inert. The first visible card
// is the state, so switching widths keeps the place.

import { createRotation, markDot, onCarouselControls, onSwipe } from './rotation.ts';

export function enhanceFleetCarousel(root: HTMLElement): () => void {
  const cards = [...root.querySelectorAll<HTMLElement>('[data-card]')];
  const track = root.querySelector<HTMLElement>('[data-carousel-track]')!;
  const small = root.querySelector<HTMLElement>('[data-carousel-dots="small"]')!;
  const large = root.querySelector<HTMLElement>('[data-carousel-dots="large"]')!;
  const wide = window.matchMedia(root.dataset.largeQuery ?? '(min-width: 1024px)');
  const perView = () => (wide.matches ? Number(root.dataset.perView) : 1);
  let first = 0;

  const rotation = createRotation({
    root,
    count: () => Math.ceil(cards.length / perView()),
    intervalMs: Number(root.dataset.interval),
    live: track,
    render(view) {
      const per = perView();
      first = view * per;
      track.style.transform = `translateX(-${view * 100}%)`;
      cards.forEach((card, i) => {
        const visible = i >= first && i < first + per;
        card.inert = !visible;
        card.setAttribute('aria-hidden', String(!visible));
        card.dataset.visible = String(visible);
      });
      markDot(small, first);
      markDot(large, Math.floor(first / Number(root.dataset.perView)));
    },
  });
  const onWidth = () => rotation.show(Math.floor(first / perView()));
  const uncontrol = onCarouselControls(root, rotation);
  wide.addEventListener('change', onWidth);
  const unswipe = onSwipe(
    root.querySelector<HTMLElement>('[data-carousel-viewport]')!,
    Number(root.dataset.swipe),
    () => rotation.show(rotation.index + 1),
    () => rotation.show(rotation.index - 1),
    () => !wide.matches,
  );
  rotation.show(0);
  return () => {
    rotation.stop();
    unswipe();
    uncontrol();
    wide.removeEventListener('change', onWidth);
  };
}
