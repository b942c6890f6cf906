import '../zod-setup.ts';
import { z } from 'zod';

/** What visitors sent that staff have not looked at yet (the admin dashboard's counts). */
export const submissionCountsResponseSchema = z.object({
  success: z.literal(true),
  newApplications: z.number().int(),
  unreadMessages: z.number().int(),
  pendingSubscribers: z.number().int(),
  subscribers: z.number().int(),
});
export type SubmissionCountsResponse = z.infer<typeof submissionCountsResponseSchema>;
