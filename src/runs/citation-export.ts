import { createRequire } from 'node:module';
import { InputError } from '../core/errors/index.js';
import { type CslItem, citationItems } from './citation-items.js';
import type { RunEvidence } from './run-evidence.js';

/** The citation formats a run's sources export to (`runs evidence --format`, GET .../evidence?format=). */
export const citationFormats = ['csl-json', 'bibtex', 'ris'] as const;
export type CitationFormat = (typeof citationFormats)[number];

export const citationContentTypes: Record<CitationFormat, string> = {
  'csl-json': 'application/vnd.citationstyles.csl+json; charset=utf-8',
  bibtex: 'application/x-bibtex; charset=utf-8',
  ris: 'application/x-research-info-systems; charset=utf-8',
};

const extensions: Record<CitationFormat, string> = { 'csl-json': 'json', bibtex: 'bib', ris: 'ris' };

export function isCitationFormat(value: unknown): value is CitationFormat {
  return citationFormats.includes(value as CitationFormat);
}

/** The format asked for, or an InputError listing the valid ones. */
export function citationFormat(value: unknown, name = 'format'): CitationFormat {
  if (isCitationFormat(value)) return value;
  throw new InputError(
    `${name} must be one of ${citationFormats.join(', ')} (got "${String(value).slice(0, 20)}")`,
    { param: 'format', code: 'invalid_value' },
  );
}

/** The file name a download of the run's citations gets. */
export function citationFileName(runId: string, format: CitationFormat): string {
  return `deepsearch-${runId.slice(0, 8)}-sources.${extensions[format]}`;
}

interface CiteConstructor {
  new (data: unknown): { format(format: string, options?: Record<string, unknown>): string };
}

let cite: CiteConstructor | undefined;

/**
 * citation-js (CommonJS) with its BibTeX and RIS plugins, loaded on the first export: a command
 * that does not export never pays for it.
 */
function loadCite(): CiteConstructor {
  if (cite) return cite;
  const require = createRequire(import.meta.url);
  const core = require('@citation-js/core') as {
    Cite: CiteConstructor;
    plugins: { config: { get(name: string): { format?: Record<string, unknown> } | undefined } };
  };
  require('@citation-js/plugin-bibtex');
  require('@citation-js/plugin-ris');
  // Keys are the items' ids (source-1...): labels made from author and title can collide.
  const bibtex = core.plugins.config.get('@bibtex');
  if (bibtex?.format) bibtex.format.useIdAsLabel = true;
  cite = core.Cite;
  return cite;
}

/**
 * The run's sources as a citation file. CSL-JSON is our own items; BibTeX is citation-js's
 * BibLaTeX flavour (`@online` with `urldate`, the accessed date Zotero and biber read, which plain
 * BibTeX's `@misc` has no field for); RIS is citation-js's (ELEC records).
 */
export function exportCitations(evidence: RunEvidence, format: CitationFormat): string {
  const items: CslItem[] = citationItems(evidence);
  if (format === 'csl-json') return `${JSON.stringify(items, null, 2)}\n`;
  if (items.length === 0) return '';
  const Cite = loadCite();
  const cited = new Cite(items);
  if (format === 'bibtex') return cited.format('biblatex', { format: 'text' });
  // ID is optional in RIS; with it, a record without a year is read (by citation-js itself) by the
  // old spec, where M1 is no access date: the date read would be lost on import.
  return `${cited.format('ris', { format: 'text' }).replace(/^ID {2}- .*\n/gm, '')}\n`;
}
