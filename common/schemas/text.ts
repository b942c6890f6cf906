import { z } from 'zod';

// PostgreSQL text cannot hold the NUL character: refused here, such input is a 400 with a reason
// instead of a failed insert (500).
// eslint-disable-next-line no-control-regex
const NO_NUL = /^[^\u0000]*$/;

/** A string field that the database can store. */
export const storableText = () => z.string().regex(NO_NUL, 'Text must not contain NUL characters');
