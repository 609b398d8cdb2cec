import { type z } from 'zod';

/**
 * No control character anywhere (C0, DEL, C1). For text a caller names or points at things with:
 * PostgreSQL cannot store or compare text holding a NUL, and the others only garble logs and screens.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;

/** `text` refused (400, with this message) when it holds a control character. */
export const withoutControlCharacters = (text: z.ZodString): z.ZodString =>
  text.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters');

/** With the `u` flag a surrogate pair is one code point, so only an unpaired half matches. */
export const LONE_SURROGATE = /\p{Cs}/u;

/** Whether `text` is well-formed Unicode: no lone surrogate, which has no UTF-8 form. */
export const isWellFormedText = (text: string): boolean => !LONE_SURROGATE.test(text);
