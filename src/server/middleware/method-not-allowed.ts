import type { Hono, MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { HttpError } from '../http/http-error.js';
import { sendServerError } from '../http/server-error-response.js';
import type { ServerEnv } from '../server-env.js';

/**
 * Any other method on a known path is a 405 with `Allow`, in OpenAI's error form (a 404 would tell
 * the client the endpoint does not exist, which sends people looking for a typo). Hono's middleware
 * reads the allowed methods from the app's own registered routes, so the route table is written
 * once: where each sub-app registers its routes.
 */
export function createMethodNotAllowed(app: Hono<ServerEnv>): MiddlewareHandler<ServerEnv> {
  return methodNotAllowed<ServerEnv>({
    app,
    onMethodNotAllowed: (c, allowed) => {
      const named = allowed.filter((method) => method !== 'HEAD');
      const error = new HttpError(
        `${c.req.method} is not allowed on ${c.req.path} (use ${named.join(' or ')})`,
        {
          status: 405,
          type: 'invalid_request_error',
          code: 'method_not_allowed',
          headers: { Allow: allowed.join(', ') },
        },
      );
      return sendServerError(error, c);
    },
  });
}
