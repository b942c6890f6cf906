import { z } from 'zod';

/** The signed-in user as the API shows it: never secrets. */
export const publicUserSchema = z.object({
  _id: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'client']),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const meResponseSchema = z.object({ success: z.literal(true), user: publicUserSchema });
