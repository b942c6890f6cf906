import '../zod-setup.ts';
import { z } from 'zod';
import { okResponse } from './ok-response.ts';

// Which project managers run a project (decision 277). Only owners and admins (projects.assign)
// read or change the list; a project manager sees only the projects on which they are named.

/** More managers than this on one project is a mistake, not a team. */
const PROJECT_MANAGERS_MAX = 20;

const managerSchema = z.object({ _id: z.uuid(), name: z.string(), email: z.string() });
export type ProjectManager = z.infer<typeof managerSchema>;

export const setProjectManagersBodySchema = z.strictObject({
  managerIds: z
    .array(z.uuid('Choose project managers from the list'))
    .max(PROJECT_MANAGERS_MAX, `A project can have at most ${PROJECT_MANAGERS_MAX} project managers`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each project manager can be chosen once'),
});

/** The project's managers and everyone who could be one (active staff with the project manager role), by name. */
export const projectManagersResponseSchema = okResponse({ managers: z.array(managerSchema), candidates: z.array(managerSchema) });
export type ProjectManagersResponse = z.infer<typeof projectManagersResponseSchema>;

/** The refusal when an id is not an active project manager (nothing is stored). */
export const NOT_A_PROJECT_MANAGER = 'Only active staff with the project manager role can manage a project';
