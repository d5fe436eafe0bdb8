/**
 * What the first bytes a browser sends into a CONNECT tunnel say about the connection, read
 * before anything is dialled: a TLS ClientHello and the protocols it offers (ALPN), or anything
 * else (plain text: a ws: WebSocket, or http sent through a tunnel).
 */
export type TunnelOpening = { kind: 'incomplete' } | { kind: 'tls'; protocols: string[] } | { kind: 'other' };

/** A TLS record header (5 bytes) and a ClientHello: what a tunnel may hold before its first byte is sent on. */
const maxRecord = 5 + 16_384;
const handshakeRecord = 0x16;
const clientHello = 0x01;
const alpnExtension = 16;

/**
 * Reads the opening of a tunnel from the bytes received so far. Only the first TLS record is read:
 * a browser's ClientHello fits in one (a few KB; the record limit is 16 KB).
 */
export function readTunnelOpening(bytes: Uint8Array): TunnelOpening {
  if (bytes.length === 0) return { kind: 'incomplete' };
  if (bytes[0] !== handshakeRecord) return { kind: 'other' };
  if (bytes.length < 5) return { kind: 'incomplete' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const recordLength = view.getUint16(3);
  if (bytes[1] !== 0x03 || 5 + recordLength > maxRecord) return { kind: 'other' };
  if (bytes.length < 5 + recordLength) return { kind: 'incomplete' };
  const protocols = offeredProtocols(view, 5, 5 + recordLength);
  return protocols ? { kind: 'tls', protocols } : { kind: 'other' };
}

/** The ALPN protocol names of the ClientHello in [start, end); undefined when it is not one. */
function offeredProtocols(view: DataView, start: number, end: number): string[] | undefined {
  const reader = createReader(view, start, end);
  if (reader.u8() !== clientHello) return undefined;
  const helloEnd = reader.offset + 3 + reader.u24();
  // A ClientHello split over several records is not what a browser sends.
  if (helloEnd > end) return undefined;
  reader.skip(2 + 32); // legacy version, random
  reader.skip(reader.u8()); // session id
  reader.skip(reader.u16()); // cipher suites
  reader.skip(reader.u8()); // compression methods
  if (reader.offset === helloEnd) return [];
  const extensionsEnd = reader.offset + 2 + reader.u16();
  while (!reader.failed && reader.offset + 4 <= extensionsEnd) {
    const type = reader.u16();
    const length = reader.u16();
    if (type !== alpnExtension) {
      reader.skip(length);
      continue;
    }
    const protocols: string[] = [];
    const listEnd = reader.offset + 2 + reader.u16();
    while (!reader.failed && reader.offset < listEnd) protocols.push(reader.text(reader.u8()));
    return reader.failed ? undefined : protocols;
  }
  return reader.failed ? undefined : [];
}

/** Big-endian reads that mark the reader failed instead of reading past `end`. */
function createReader(view: DataView, start: number, end: number) {
  const state = { offset: start, failed: false };
  const take = (size: number): number => {
    const at = state.offset;
    if (at + size > end) {
      state.failed = true;
      state.offset = end;
      return -1;
    }
    state.offset += size;
    return at;
  };
  return {
    get offset() {
      return state.offset;
    },
    get failed() {
      return state.failed;
    },
    u8: () => {
      const at = take(1);
      return at < 0 ? 0 : view.getUint8(at);
    },
    u16: () => {
      const at = take(2);
      return at < 0 ? 0 : view.getUint16(at);
    },
    u24: () => {
      const at = take(3);
      return at < 0 ? 0 : (view.getUint8(at) << 16) | view.getUint16(at + 1);
    },
    skip: (size: number) => void take(size),
    text: (size: number) => {
      const at = take(size);
      return at < 0 ? '' : Buffer.from(view.buffer, view.byteOffset + at, size).toString('latin1');
    },
  };
}
