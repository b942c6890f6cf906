import '../zod-setup.ts';
import { z } from 'zod';

/**
 * A successful answer: `success: true` beside the route's own fields. Every success schema is made
 * by it, as every refusal is `apiErrorSchema` (common/errors.ts), so the envelope is written once.
 */
export const okResponse = <Shape extends z.ZodRawShape>(shape: Shape) => z.object({ success: z.literal(true), ...shape });
