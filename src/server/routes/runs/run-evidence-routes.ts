import type { Hono } from 'hono';
import { isInputError } from '../../../core/errors/index.js';
import {
  citationContentTypes,
  citationFileName,
  citationFormat,
  exportCitations,
} from '../../../runs/citation-export.js';
import { runEvidence, sourceView } from '../../../runs/run-evidence.js';
import type { RunBackend } from '../../../scale/run-backend.js';
import { HttpError } from '../../http/http-error.js';
import type { ServerEnv } from '../../server-env.js';
import type { OwnedRuns } from './owned-run.js';

/**
 * A run's evidence under `base` (/research and /runs), for its owner only (another's is a 404):
 * GET {id}/evidence (claims and sources as read; `?format=csl-json|bibtex|ris` as a citation
 * file) and GET {id}/sources/{n} (the text read for footnote n, as it was then, with where its
 * quote is).
 */
export function addRunEvidenceRoutes(
  app: Hono<ServerEnv>,
  base: string,
  options: { backend: RunBackend; runs: OwnedRuns },
): void {
  const { backend, runs } = options;
  app.get(`${base}/:id/evidence`, async (c) => {
    const asked = c.req.query('format');
    // A bad format is said before the run is looked up.
    const format = asked === undefined ? undefined : citationFormat(asked);
    const record = await runs.record(c);
    const evidence = runEvidence(record, await backend.store.sources(record.id));
    if (!format) return c.json(evidence);
    return new Response(exportCitations(evidence, format), {
      headers: {
        'content-type': citationContentTypes[format],
        'content-disposition': `attachment; filename="${citationFileName(record.id, format)}"`,
        'x-content-type-options': 'nosniff',
      },
    });
  });
  app.get(`${base}/:id/sources/:n`, async (c) => {
    const record = await runs.record(c);
    const view = await sourceOrNotFound(() =>
      backend.store.sources(record.id).then((snapshots) => sourceView(record, snapshots, c.req.param('n'))),
    );
    const { snapshot, reference } = view;
    return c.json({
      object: 'run.source',
      run_id: record.id,
      n: view.footnote,
      url: snapshot.url,
      title: snapshot.title,
      accessed_at: snapshot.fetchedAt,
      status: snapshot.status,
      hash: snapshot.hash,
      truncated: snapshot.truncated,
      site_name: snapshot.siteName ?? null,
      author: snapshot.author ?? null,
      published_at: snapshot.publishedAt ?? null,
      quote: reference.quote,
      quote_kind: reference.quoteKind,
      quote_start: view.quoteStart ?? null,
      quote_end: view.quoteEnd ?? null,
      text: snapshot.text,
    });
  });
}

/** A footnote the run does not have is a resource that does not exist: 404, not 400. */
async function sourceOrNotFound<T>(view: () => Promise<T>): Promise<T> {
  try {
    return await view();
  } catch (error) {
    if (isInputError(error) && (error as { code?: string }).code === 'source_not_found')
      throw new HttpError(error.message, { status: 404, type: 'not_found_error', code: 'source_not_found' });
    throw error;
  }
}
