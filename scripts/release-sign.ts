// Signs a release for the update check (issue 17; docs/ADMIN.md, "Signed updates").
//
//   npm run release-sign -- --new-key <folder outside the repository>
//       makes an Ed25519 key pair: <folder>/messenger-update.key (private, PKCS#8 PEM, mode 0600)
//       and prints the public key to build in (main/services/update-signature.ts) or pin in the
//       deploy policy (updates.publicKeys).
//   npm run release-sign -- <installer> [--key <private key file>]
//       writes <installer>.sig, the signature the app fetches from "<DownloadURL>.sig". The key
//       file comes from --key or MESSENGER_UPDATE_KEY; a key inside this repository is refused.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newDigest, rawPublicKey, signedMessage } from '../main/services/update-signature.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function inside(path: string, folder: string): boolean {
  const r = relative(folder, resolve(path));
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

function fail(message: string): never {
  process.stderr.write(`release-sign: ${message}\n`);
  process.exit(2);
}

async function digestOf(file: string): Promise<Buffer> {
  const d = newDigest();
  for await (const chunk of createReadStream(file)) d.update(chunk as Buffer);
  return d.digest();
}

export async function main(argv: string[], env = process.env): Promise<void> {
  const newKey = argv.indexOf('--new-key');
  if (newKey >= 0) {
    const folder = argv[newKey + 1];
    if (!folder) fail('--new-key needs a folder');
    if (inside(folder, REPO)) fail(`the private key must be kept outside the repository (${REPO})`);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = join(folder, 'messenger-update.key');
    if (existsSync(file)) fail(`${file} exists already; not replaced`);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    process.stdout.write(`private key: ${file}\npublic key: ${rawPublicKey(publicKey)}\n`);
    return;
  }
  const k = argv.indexOf('--key');
  const keyFile = k >= 0 ? argv[k + 1] : env.MESSENGER_UPDATE_KEY;
  const files = argv.filter((a, i) => !a.startsWith('--') && !(k >= 0 && i === k + 1));
  if (files.length === 0) fail('usage: release-sign <installer>… [--key <file>] | --new-key <folder>');
  if (!keyFile) fail('no private key: give --key <file> or set MESSENGER_UPDATE_KEY');
  if (inside(keyFile, REPO)) fail(`the private key must be kept outside the repository (${REPO})`);
  const privateKey = createPrivateKey(readFileSync(keyFile));
  if (privateKey.asymmetricKeyType !== 'ed25519') fail(`${keyFile} is not an Ed25519 private key`);
  for (const file of files) {
    const sig = sign(null, signedMessage(await digestOf(file)), privateKey);
    writeFileSync(`${file}.sig`, `${sig.toString('base64')}\n`);
    process.stdout.write(`${file}.sig (public key ${rawPublicKey(createPublicKey(privateKey))})\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
