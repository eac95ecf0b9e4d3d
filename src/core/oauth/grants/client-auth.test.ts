import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import { authenticateClient, touchClient } from './client-auth.ts';
import { clientKey, type ClientRecord } from './clients.ts';
import { UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { sha256Hex } from '../../kernel/crypto.ts';

const blobs = useBlobs();
const T0 = 1_800_000_000;

async function stored(id: string, status: 'unclaimed' | 'claimed'): Promise<ClientRecord> {
  const record: ClientRecord = {
    client_id: id,
    client_secret_sha256: await sha256Hex('s3cret'),
    client_name: id,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_post',
    scope: ['articles:read'],
    client_id_issued_at: T0,
    registration_type: 'anonymous',
    claim: { status, token_sha256: null, token_expires_at: T0 },
    expires_at: status === 'claimed' ? null : T0 + UNCLAIMED_CLIENT_TTL_SECONDS,
    last_used_at: T0,
  };
  await blobs.store('oauth').set(clientKey(id), record);
  return record;
}
const auth = (id: string, now: number) =>
  authenticateClient(
    new Request('https://site.example/oauth/token', { method: 'POST' }),
    new Map([
      ['client_id', id],
      ['client_secret', 's3cret'],
    ]),
    { clients: blobs.store('oauth'), nowSeconds: now },
  );

describe('registration expiry', () => {
  it('an unclaimed client stops working 30 days after its last use; use extends it', async () => {
    const record = await stored('agt_unclaimed', 'unclaimed');
    await expect(auth('agt_unclaimed', T0 + UNCLAIMED_CLIENT_TTL_SECONDS - 1)).resolves.toMatchObject({ client_id: 'agt_unclaimed' });
    await expect(auth('agt_unclaimed', T0 + UNCLAIMED_CLIENT_TTL_SECONDS)).rejects.toMatchObject({ code: 'invalid_client' });
    await touchClient(blobs.store('oauth'), record, T0 + 10 * 86400);
    await expect(auth('agt_unclaimed', T0 + UNCLAIMED_CLIENT_TTL_SECONDS + 86400)).resolves.toMatchObject({ client_id: 'agt_unclaimed' });
  });

  it('a claimed client does not expire', async () => {
    await stored('agt_claimed', 'claimed');
    await expect(auth('agt_claimed', T0 + 10 * UNCLAIMED_CLIENT_TTL_SECONDS)).resolves.toMatchObject({ client_id: 'agt_claimed' });
  });
});
