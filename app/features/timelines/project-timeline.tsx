import { CalendarRange } from 'lucide-react';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { TimelineChart } from './timeline-chart.tsx';
import { useProjectTimelines } from '../../lib/project-timelines.ts';

/** The client's view of a project's timeline: the first record, as a month-by-task chart. */
export function ProjectTimeline({ projectId }: { projectId: string }) {
  const timelines = useProjectTimelines(projectId);
  if (timelines.isPending) return <InlineLoading label="Loading timeline..." />;
  if (timelines.isError) return <ErrorState title="Failed to load project data" error={timelines.error} onRetry={() => timelines.refetch()} />;
  const first = timelines.data.timelines[0];
  if (!first) return <EmptyState icon={<CalendarRange className="size-8" aria-hidden="true" />} title="No timeline yet" description="The project's plan will appear here." />;
  return <TimelineChart timeline={first} />;
}

/** The timeline's load failure, for the dashboard's one 'Failed to load project data' toast. */
export function useTimelinesError(projectId: string | null | undefined) {
  return useProjectTimelines(projectId).error;
}
