import { MessagesSquare } from 'lucide-react';

/**
 * ==> MESSAGING ENGINEER (issue 6): placeholder of the 'Project Communication' section. Both
 * dashboards render it for the selected project (admin: with the selected client as receiver;
 * client: receiver is project.clientId's staff side). Replace this file's body with the real
 * collapsible thread and composer; keep the export name and props, or change both dashboards.
 */
export function ProjectCommunicationSlot({
  project,
}: {
  project: { _id: string; name: string; clientId: { _id: string; name: string } };
  /** Who is looking: the composer's receiver differs (see the specification's quirk in section 7). */
  viewer: 'admin' | 'client';
}) {
  return (
    <section
      aria-label="Project Communication"
      data-project-id={project._id}
      className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 className="flex items-center gap-2 text-lg font-semibold">
        <MessagesSquare className="size-5" aria-hidden="true" />
        Project Communication
      </h3>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">Messages about this project will appear here.</p>
    </section>
  );
}
