// Which module wires which data-module value. Each module exports one function that takes its
// element and returns what undoes it (React-rendered pages call the same functions from effects).

import { enhanceChatButton } from '../features/chat/chat-button-module.ts';
import { enhanceAccountLink } from './account-link.ts';
import { enhanceFleetCarousel } from './fleet-carousel.ts';
import { enhanceHeroSlider } from './hero-slider.ts';
import { enhanceTestimonialsCarousel } from './testimonials-carousel.ts';
import { enhanceHistoryBack } from './history-back.ts';
import { enhanceMobileMenu } from './mobile-menu.ts';
import { enhanceNewsletterForm } from './newsletter-form.ts';
import { enhanceThemeToggle } from './theme-toggle.ts';
import { enhanceToaster } from './toaster.ts';

type Enhancer = (el: HTMLElement) => () => void;

const MODULES: Record<string, Enhancer> = {
  'chat-button': enhanceChatButton,
  'account-link': enhanceAccountLink,
  'history-back': enhanceHistoryBack,
  'mobile-menu': enhanceMobileMenu,
  'newsletter-form': enhanceNewsletterForm,
  'theme-toggle': enhanceThemeToggle,
  toaster: enhanceToaster,
  'hero-slider': enhanceHeroSlider,
  'fleet-carousel': enhanceFleetCarousel,
  'testimonials-carousel': enhanceTestimonialsCarousel,
};

/** Enhances every known data-module element under root, once each. */
export function enhanceAll(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('[data-module]').forEach((el) => {
    const enhance = MODULES[el.dataset.module ?? ''];
    if (!enhance || el.dataset.enhanced === 'true') return;
    el.dataset.enhanced = 'true';
    enhance(el);
  });
}
