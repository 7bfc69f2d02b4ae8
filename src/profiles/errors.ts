import type { ApiError } from '../http/errors.js';
import type { Error as ProfilesError } from '../../generated/profiles/types.gen.js';

/** The profiles error body: `{"error": "<human message>", "code": "<machine code>"}`. */
export const profilesErrorBody = (error: ApiError): ProfilesError => ({
  error: error.message,
  code: error.code as ProfilesError['code'],
});
