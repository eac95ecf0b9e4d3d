/**
 * A certificate authority made at test time with the openssl CLI (no committed keys): a CA and a
 * server certificate it signed for `localhost` and `127.0.0.1`. A process trusts the CA only when it
 * is started with `NODE_EXTRA_CA_CERTS=<caPath>` (Node reads that once, at start-up).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TestCertificates {
  /** The CA certificate (PEM file), for NODE_EXTRA_CA_CERTS. */
  caPath: string;
  /** The server's private key and certificate (PEM), for `https.createServer`. */
  key: string;
  cert: string;
}

const CA_CONFIG = `[req]
distinguished_name = dn
x509_extensions = ca
prompt = no
[dn]
CN = Test CA (made at test time)
[ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign
subjectKeyIdentifier = hash
`;
const SERVER_EXTENSIONS = `basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost,IP:127.0.0.1
`;

/** Writes a fresh CA and a loopback server certificate (P-256, valid one day) into `dir`. */
export function createTestCertificates(dir: string): TestCertificates {
  const file = (name: string): string => path.join(dir, name);
  writeFileSync(file('ca.cnf'), CA_CONFIG);
  writeFileSync(file('server.ext'), SERVER_EXTENSIONS);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-config', 'ca.cnf');
  openssl('req', '-new', ...newKey, '-keyout', 'server.key', '-out', 'server.csr', '-config', 'ca.cnf', '-subj', '/CN=localhost');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-set_serial',
    '1',
    '-days',
    '1',
    '-out',
    'server.pem',
    '-extfile',
    'server.ext',
  );
  return { caPath: file('ca.pem'), key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.pem'), 'utf8') };
}
