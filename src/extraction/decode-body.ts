/**
 * The charset of a body: the Content-Type header's, else a byte-order mark, else (for HTML) a
 * <meta charset> or <meta http-equiv> in the first bytes, else UTF-8. Labels TextDecoder does
 * not know fall back to UTF-8 rather than failing the page.
 */
export function decodeBody(bytes: Uint8Array, contentType: string): string {
  const label =
    charsetOf(contentType) ?? bomCharset(bytes) ?? (isHtmlType(contentType) ? metaCharset(bytes) : undefined);
  return decoderFor(label).decode(bytes);
}

export function isHtmlType(contentType: string): boolean {
  return /^(text\/html|application\/xhtml\+xml)/i.test(contentType.trim());
}

function charsetOf(contentType: string): string | undefined {
  return /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
}

function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

// Browsers look at the first 1024 bytes; some CMSs put long comments first, so look a little further.
const sniffBytes = 4096;

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, sniffBytes));
  return (
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)?.[1]
  );
}

function decoderFor(label: string | undefined): TextDecoder {
  if (label) {
    try {
      return new TextDecoder(label.toLowerCase());
    } catch {
      // unknown label: fall through to UTF-8
    }
  }
  return new TextDecoder('utf-8');
}
