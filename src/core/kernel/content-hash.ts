/**
 * A 64-bit non-cryptographic content hash, fed field by field: two 32-bit FNV-1a lanes with
 * different seeds and multipliers. The build stamps the files of the sharded search index and of
 * the sharded catalogue with it (a mix of two builds' files is refused), and the catalogue spreads
 * its slugs over files with it. Never for anything an attacker may choose against (not a MAC).
 * @module
 */
export class ContentHash {
  private h1 = 0x811c9dc5;
  private h2 = 0x01000193 ^ 0x9e3779b9;

  /** Feeds one field; a separator follows it, so the fields `ab`, `c` and `a`, `bc` hash apart. */
  field(text: string): this {
    let { h1, h2 } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    this.h1 = Math.imul(h1 ^ 0xffff, 0x01000193); // field separator (not a UTF-16 unit of real text)
    this.h2 = Math.imul(h2 ^ 0xffff, 0x5bd1e995);
    return this;
  }

  /** The hash as 16 hex digits. */
  hex(): string {
    return (this.h1 >>> 0).toString(16).padStart(8, '0') + (this.h2 >>> 0).toString(16).padStart(8, '0');
  }

  /** The first lane as an unsigned 32-bit integer: enough to pick one of a few hundred shards evenly. */
  uint32(): number {
    return this.h1 >>> 0;
  }
}
