import type { Project } from '../../../common/schemas/projects.ts';
import { TidyActions, type TidyTexts } from '../../components/portal/tidy-actions.tsx';
import { useArchiveProject, useDeleteProject } from './projects-api.ts';

// Archive, restore and delete of a project (issue 22, decisions 247-249), with the client's controls.

const PROJECT_TEXTS: TidyTexts = {
  kind: 'project',
  archived: (name) => `${name} archived: read-only, under 'Archived'`,
  restored: (name) => `${name} restored: back in the current projects`,
  deletes: 'The project, its timeline, reports and messages are removed for good.',
};

/** Archive or restore, and delete, for the selected project. */
export function ProjectTidyActions({ project, onArchived, onDeleted }: { project: Project; onArchived?: (archived: boolean) => void; onDeleted?: () => void }) {
  const calls = { archive: useArchiveProject(), remove: useDeleteProject(project.clientId._id) };
  return <TidyActions record={project} calls={calls} texts={PROJECT_TEXTS} onArchived={onArchived} onDeleted={onDeleted} />;
}
