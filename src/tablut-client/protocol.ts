/**
 * The Tablut Challenge wire format: every message is a 4-byte big-endian length followed by that
 * many bytes of UTF-8 JSON (Java's DataOutputStream.writeInt + write, as the server does it).
 */

/** Far above any state (about 1 KB); a longer frame means the peer is not a Challenge server. */
export const MAX_FRAME_BYTES = 1 << 20;

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/** Reassembles frames from arbitrary TCP chunks (split or coalesced) and parses their JSON. */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  /** Adds a chunk; returns the messages it completes, in order. Throws on a malformed frame. */
  push(chunk: Buffer): unknown[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: unknown[] = [];
    for (;;) {
      if (this.pending.length < 4) break;
      const length = this.pending.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES) throw new Error(`frame of ${length} bytes exceeds ${MAX_FRAME_BYTES}`);
      if (this.pending.length < 4 + length) break;
      const text = this.pending.subarray(4, 4 + length).toString('utf8');
      this.pending = this.pending.subarray(4 + length);
      messages.push(JSON.parse(text));
    }
    return messages;
  }

  /** Bytes received but not yet part of a complete frame. */
  get buffered(): number {
    return this.pending.length;
  }
}
