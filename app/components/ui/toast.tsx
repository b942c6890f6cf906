import { enhanceToaster } from '../../enhance/toaster.ts';
import { useEnhance } from '../../lib/use-enhance.ts';

export { scopedToasts, toast } from './toast-store.ts';

/**
 * The Notifications region of every page. Its cards are drawn by the one toast renderer
 * (app/enhance/toaster.ts, decision 232): the content pages' script wires this markup by its
 * data-module, and on hydrated pages this component mounts the same function in an effect. React
 * renders no children into the list, so it never touches the cards the renderer adds.
 */
export function Toaster() {
  const list = useEnhance<HTMLOListElement>(enhanceToaster);
  return (
    <section aria-label="Notifications" className="pointer-events-none fixed top-16 right-0 z-[100] w-full max-w-sm p-4">
      <ol ref={list} data-module="toaster" className="flex flex-col gap-2" />
    </section>
  );
}
