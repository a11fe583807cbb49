import { z } from 'zod';

// Schema pieces shared by the file tools. Every schema is sent with every call, so these say
// what they must in as few tokens as possible: no `minLength`/`maximum` noise in the JSON
// schema (the checks run as refinements, with the same clear messages).

/** A non-empty string; `name` is how the error names the field. */
export const nonEmpty = (name: string, hint = '') =>
  z.string().refine((value) => value.length > 0, `${name} must not be empty${hint}`);

/** A whole number ≥ 1 (a line number, a count). */
export const positiveWhole = (name: string) =>
  z.number().refine((value) => Number.isInteger(value) && value >= 1, `${name} must be a whole number from 1`);
