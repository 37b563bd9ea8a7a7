import { bytesEqual, decodeEntities } from './xml-bytes.js';

/** One start tag's attributes as byte ranges into the current chunk, decoded on demand. */
export class XmlTag {
  buf: Buffer = Buffer.alloc(0);
  count = 0;
  private nameStart = new Int32Array(16);
  private nameEnd = new Int32Array(16);
  private valueStart = new Int32Array(16);
  private valueEnd = new Int32Array(16);
  /** 1 when the raw value holds a `&` (an entity or character reference to decode). */
  private valueRef = new Uint8Array(16);

  /** @internal */
  reset(buf: Buffer): void {
    this.buf = buf;
    this.count = 0;
  }

  /** @internal */
  push(ns: number, ne: number, vs: number, ve: number, ref: boolean): void {
    if (this.count === this.nameStart.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.nameStart = grow(this.nameStart);
      this.nameEnd = grow(this.nameEnd);
      this.valueStart = grow(this.valueStart);
      this.valueEnd = grow(this.valueEnd);
      const refs = new Uint8Array(this.valueRef.length * 2);
      refs.set(this.valueRef);
      this.valueRef = refs;
    }
    const i = this.count++;
    this.nameStart[i] = ns;
    this.nameEnd[i] = ne;
    this.valueStart[i] = vs;
    this.valueEnd[i] = ve;
    this.valueRef[i] = ref ? 1 : 0;
  }

  /** Index of the (last) attribute named `name` (ASCII bytes), or -1. */
  indexOf(name: Uint8Array): number {
    for (let i = this.count - 1; i >= 0; i--)
      if (bytesEqual(this.buf, this.nameStart[i]!, this.nameEnd[i]!, name)) return i;
    return -1;
  }

  /** Whether attribute `i`'s value, entities decoded, is `text` (whose UTF-8 bytes are `bytes`). */
  valueIs(i: number, bytes: Uint8Array, text: string): boolean {
    return this.valueRef[i] === 1
      ? this.value(i) === text
      : bytesEqual(this.buf, this.valueStart[i]!, this.valueEnd[i]!, bytes);
  }

  /** Where attribute `i`'s raw value starts in `buf`. */
  start(i: number): number {
    return this.valueStart[i]!;
  }

  /** Where attribute `i`'s raw value ends in `buf`. */
  end(i: number): number {
    return this.valueEnd[i]!;
  }

  /** Whether attribute `i`'s raw value holds an entity or character reference. */
  hasReference(i: number): boolean {
    return this.valueRef[i] === 1;
  }

  /** Attribute `i`'s value as a string, entities decoded. */
  value(i: number): string {
    return decodeEntities(this.buf.toString('utf8', this.valueStart[i]!, this.valueEnd[i]!));
  }

  /** The value of attribute `name`, or undefined. */
  get(name: string): string | undefined {
    const i = this.indexOf(Buffer.from(name, 'utf8'));
    return i < 0 ? undefined : this.value(i);
  }

  /** All attributes as an object (tests, messages). */
  toObject(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = 0; i < this.count; i++)
      out[decodeEntities(this.buf.toString('utf8', this.nameStart[i]!, this.nameEnd[i]!))] = this.value(i);
    return out;
  }
}
