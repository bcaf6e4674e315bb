/**
 * The gateway's TOKEN authorizer (lib/auth/authorizer.ts): not an endpoint, and not in the routes table.
 * The stack runs it before every method (infra/authorizer.ts); the local server does without it, and the
 * functions' own check (lib/middleware/auth.ts) stays in force either way.
 */
import { authorize } from '../lib/auth/authorizer.js';

export const handler = authorize;
