import '../zod-setup.ts';
import { z } from 'zod';
import { okResponse } from './ok-response.ts';

/** What visitors sent that staff have not looked at yet (the admin dashboard's counts). */
export const submissionCountsResponseSchema = okResponse({
  newApplications: z.number().int(),
  unreadMessages: z.number().int(),
  pendingSubscribers: z.number().int(),
  subscribers: z.number().int(),
});
export type SubmissionCountsResponse = z.infer<typeof submissionCountsResponseSchema>;
