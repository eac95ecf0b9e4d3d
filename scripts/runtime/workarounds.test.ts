/**
 * The Blobs workaround refuses a @netlify/blobs version it was not written for.
 */
import { describe, expect, it } from 'vitest';
import { assertPatchedBlobsVersion } from './blobs-server-conditional-writes.ts';

describe('blobs-server-conditional-writes', () => {
  it('loads with the pinned @netlify/blobs and refuses any other version, naming both', () => {
    expect(() => assertPatchedBlobsVersion('11.1.1')).not.toThrow();
    expect(() => assertPatchedBlobsVersion('11.2.0')).toThrow(/patches @netlify\/blobs 11\.1\.1, but 11\.2\.0 is installed/);
  });
});
