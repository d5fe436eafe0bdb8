import { ProviderError } from '../../core/errors/index.js';
import { type ContentLimits, formatSize, overLimitError } from '../content-limits.js';
import { htmlToMarkdown } from '../html/html-to-markdown.js';
import { assertNestingDepth } from '../html/nesting-limit.js';
import { readZipEntries } from './zip-entries.js';

export interface ReadDocxOptions {
  providerId: string;
  url: string;
  limits: Pick<ContentLimits, 'maxInflatedBytes' | 'maxNestingDepth' | 'maxTableCells'>;
}

/** The parts mammoth parses; images and embedded files are never inflated (no image is converted). */
const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);

/**
 * A Word document (DOCX) as markdown: mammoth writes HTML, converted as a page's content is. What its
 * XML parts inflate to is read from the ZIP's central directory first and refused past
 * limits.maxInflatedBytes (a 1.2 MB DOCX once took the CLI to 4.7 GB); a file that declares less
 * than it holds is stopped by its job's memory cap. mammoth loads on the first DOCX.
 */
export async function readDocx(bytes: Uint8Array, options: ReadDocxOptions): Promise<string> {
  const { limits } = options;
  let declared: number;
  try {
    declared = readZipEntries(bytes)
      .filter((entry) => isXmlPart(entry.name))
      .reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  } catch (cause) {
    throw unreadable(options, cause);
  }
  if (declared > limits.maxInflatedBytes) {
    throw overLimitError(
      `${options.url} is a DOCX whose parts inflate to ${formatSize(declared)}, more than ${formatSize(limits.maxInflatedBytes)}`,
      { providerId: options.providerId, limit: 'maxInflatedBytes' },
    );
  }
  const mammoth = (await import('mammoth')).default;
  let html: string;
  try {
    const skipImage = mammoth.images.imgElement(async () => ({ src: '' }));
    ({ value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes) },
      { convertImage: skipImage },
    ));
  } catch (cause) {
    throw unreadable(options, cause);
  }
  assertNestingDepth(html, options);
  return htmlToMarkdown(html, { maxTableCells: limits.maxTableCells });
}

function unreadable(options: ReadDocxOptions, cause: unknown): ProviderError {
  return new ProviderError(`${options.url} is not a DOCX that can be read: ${(cause as Error).message}`, {
    providerId: options.providerId,
    code: 'page_unreadable',
    cause,
  });
}
