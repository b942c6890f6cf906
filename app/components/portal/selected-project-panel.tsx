import type { ReactNode, Ref } from 'react';
import type { Project } from '../../../common/schemas/projects.ts';
import { InlineLoading } from './empty-state.tsx';

// The selected project's column, as both dashboards (staff and client) lay it out.

export const panelClass = 'rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900';

/** Below this width the dashboards' panels stack, so choosing something scrolls to what it opened. */
const STACKED_MAX_PX = 1023;

/** On a phone (stacked panels), brings what a choice opened into view and puts the focus on it. */
export function revealOnPhone(target: HTMLElement | null) {
  if (target && window.matchMedia(`(max-width: ${STACKED_MAX_PX}px)`).matches) {
    requestAnimationFrame(() => {
      target.scrollIntoView({ behavior: 'smooth', block: 'start' });
      target.focus({ preventScroll: true });
    });
  }
}

/**
 * The 'Selected project' section: its panels once the project is loaded, a loading line while the
 * chosen one loads, otherwise what to do (`empty`). The hidden heading is where a phone scrolls to.
 */
export function SelectedProjectPanel({
  headingRef,
  project,
  loading,
  empty,
  className = '',
  children,
}: {
  headingRef: Ref<HTMLHeadingElement>;
  project: Project | null;
  /** The chosen project is still loading. */
  loading: boolean;
  empty: ReactNode;
  className?: string;
  children: (project: Project) => ReactNode;
}) {
  return (
    <section aria-labelledby="project-detail-heading" className={`grid min-w-0 grid-cols-1 content-start gap-4 ${className}`}>
      <h2 id="project-detail-heading" ref={headingRef} tabIndex={-1} className="sr-only">
        Selected project
      </h2>
      {project ? children(project) : loading ? <InlineLoading label="Loading project..." /> : <div className={panelClass}>{empty}</div>}
    </section>
  );
}
