/**
 * The trafilatura-eval pages (../shared/eval/extraction/trafilatura-eval/): cases.jsonl and each
 * page's gzipped HTML in its own encoding, decoded the way the reader decodes a body without a
 * Content-Type charset (byte-order mark, else <meta>, else UTF-8).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeBody } from '../src/extraction/decode-body.js';
import type { PassageCase } from './passage-score.js';

export interface TrafilaturaCase extends PassageCase {
  id: string;
  url: string;
}

export function readTrafilaturaCases(directory: string): TrafilaturaCase[] {
  return readFileSync(join(directory, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as TrafilaturaCase);
}

export function readTrafilaturaHtml(directory: string, id: string): string {
  return decodeBody(gunzipSync(readFileSync(join(directory, 'html', `${id}.html.gz`))), 'text/html');
}
