import { Hono } from 'hono';
import { modelNotFound, resolveModel, serverModels } from '../../run-request/server-models.js';
import type { ServerEnv } from '../../server-env.js';

const modelObject = (id: string) => ({ id, object: 'model' as const, created: 0, owned_by: 'deepsearch' });

/** GET /v1/models and GET /v1/models/{id} (mounted at /v1/models), as OpenAI lists and retrieves models. */
export function createModelsRoute(): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.get('/', (c) => c.json({ object: 'list', data: serverModels.map(modelObject) }));
  app.get('/:id{.+}', (c) => {
    const requested = c.req.param('id');
    const model = resolveModel(requested);
    if (!model) throw modelNotFound(requested);
    return c.json(modelObject(model));
  });
  return app;
}
