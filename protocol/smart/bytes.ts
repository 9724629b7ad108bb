// Small byte helpers shared by the smart-messaging codecs: hex text, bit-level writer/reader,
// and a precise error type. Pure Uint8Array code (protocol/ runs in the renderer too: no Buffer).

/** Thrown by every decoder in protocol/smart when bytes or text are malformed. */
export class SmartCodecError extends Error {
  /** Byte offset (or character position for text formats) where the problem was found. */
  readonly position: number;
  constructor(message: string, position = -1) {
    super(position >= 0 ? `${message} (at ${position})` : message);
    this.name = 'SmartCodecError';
    this.position = position;
  }
}

const HEX = '0123456789ABCDEF';

/** Upper-case hex without separators, as the gateway's hex fields use. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b >> 4]! + HEX[b & 15]!;
  return out;
}

/** Parses hex text (case-insensitive; spaces, newlines and ':' separators are ignored). */
export function hexToBytes(hex: string): Uint8Array {
  const clean = hex.replace(/[\s:]/g, '');
  if (clean.length % 2 !== 0) throw new SmartCodecError('hex text has an odd number of digits', clean.length);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = parseInt(clean[2 * i]!, 16);
    const lo = parseInt(clean[2 * i + 1]!, 16);
    if (Number.isNaN(hi) || Number.isNaN(lo)) {
      throw new SmartCodecError(`invalid hex digit "${clean.slice(2 * i, 2 * i + 2)}"`, 2 * i);
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}

export function concatBytes(...parts: ReadonlyArray<Uint8Array | ArrayLike<number>>): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Writes values MSB first into a growing bit stream (Nokia ringtones are bit-packed this way). */
export class BitWriter {
  private readonly bytes: number[] = [];
  private bitLength = 0;

  write(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      const bit = (value >> i) & 1;
      const byteIndex = this.bitLength >> 3;
      if (byteIndex === this.bytes.length) this.bytes.push(0);
      if (bit) this.bytes[byteIndex] = this.bytes[byteIndex]! | (0x80 >> (this.bitLength & 7));
      this.bitLength++;
    }
  }

  /** Pads with zero bits to the next octet boundary. */
  align(): void {
    while (this.bitLength & 7) this.write(0, 1);
  }

  get length(): number {
    return this.bitLength;
  }

  toBytes(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** Reads values MSB first from a byte array; throws SmartCodecError past the end. */
export class BitReader {
  private readonly bytes: Uint8Array;
  private bit = 0;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  read(bits: number): number {
    if (this.bit + bits > this.bytes.length * 8) {
      throw new SmartCodecError(`unexpected end of data reading ${bits} bits`, this.bit >> 3);
    }
    let value = 0;
    for (let i = 0; i < bits; i++) {
      const byte = this.bytes[this.bit >> 3]!;
      value = (value << 1) | ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }

  align(): void {
    this.bit = (this.bit + 7) & ~7;
  }

  get bitPosition(): number {
    return this.bit;
  }

  get remainingBits(): number {
    return this.bytes.length * 8 - this.bit;
  }
}
