/** The read limit of one function instance (src/core/kernel/read-limit.ts): each function that calls this keeps its own buckets. */
import type { Context } from '@netlify/functions';
import { clientNetwork } from '../../../src/core/kernel/ip-ranges.ts';
import { type Admission, ReadLimiter, type RefusalFamily, readAdmission, readRules } from '../../../src/core/kernel/read-limit.ts';
import { build, clientIp, runtimeConfig } from './deps.ts';

/** Where a refused client reads how to get the verified allowance. */
export const READ_LIMITS_DOC = `${build.origin}/auth.md#read-limits`;

/** The admission of a public read endpoint, refusing in `family`'s words. */
export function readLimited(family: RefusalFamily): Admission {
  return readAdmission({
    limiter: new ReadLimiter(),
    rules: readRules(runtimeConfig().readLimitPerSecond),
    network: (context) => clientNetwork(clientIp(context as Pick<Context, 'ip'>)),
    refuseAs: family,
    moreAt: READ_LIMITS_DOC,
  });
}
