// The timing and gesture numbers of the public pages' carousels (specification, section 9).
// Each lives here once; the components and the browser tests import them.

/** Home slider: one slide every 4.5 s. */
export const HOME_SLIDE_INTERVAL_MS = 4500;
/** Home slider: a horizontal swipe longer than this moves to the next or previous slide. */
export const HOME_SLIDE_SWIPE_THRESHOLD_PX = 10;

/** Equipment fleet carousel: advances every 4.5 s. */
export const EQUIPMENT_CAROUSEL_INTERVAL_MS = 4500;
/** Equipment fleet carousel: swipe distance on small screens. */
export const EQUIPMENT_SWIPE_THRESHOLD_PX = 50;
/** Equipment fleet carousel: cards per view (and per step) on large screens. */
export const EQUIPMENT_CARDS_PER_VIEW_LARGE = 3;
/** Where "large screens" start (Tailwind's lg breakpoint, which lays out the three cards). */
export const LARGE_SCREEN_QUERY = '(min-width: 1024px)';

/** Gallery testimonials: one every 5 s, looping. */
export const TESTIMONIAL_INTERVAL_MS = 5000;
