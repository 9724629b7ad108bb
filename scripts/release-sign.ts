// Signs a release for the update check (issues 17 and 23; docs/ADMIN.md, "Signed updates").
//
//   npm run release-sign -- --new-key <folder outside the repository>
//       makes an Ed25519 key pair: <folder>/messenger-update.key (private, PKCS#8 PEM, mode 0600)
//       and prints the public key to build in (BUILT_IN_UPDATE_KEYS in
//       main/services/update-signature.ts) or pin in the deploy policy (updates.publicKeys).
//   npm run release-sign -- <installer> --version <version> [--name <file name>] [--key <file>]
//       writes <installer>.sig, the signature the app fetches from "<DownloadURL>.sig". It signs
//       the statement "this file (SHA-512) is <version>, saved as <name>" (name: the installer's
//       own file name unless given), so the file cannot be offered as another version or name.
//       The key file comes from --key or MESSENGER_UPDATE_KEY; a key inside this repository is
//       refused.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newDigest, rawPublicKey, signedStatement } from '../main/services/update-signature.ts';

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
  const option = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const keyFile = option('--key') ?? env.MESSENGER_UPDATE_KEY;
  const version = option('--version');
  const name = option('--name');
  const values = new Set(
    ['--key', '--version', '--name'].map((f) => argv.indexOf(f) + 1).filter((i) => i > 0),
  );
  const files = argv.filter((a, i) => !a.startsWith('--') && !values.has(i));
  const usage =
    'usage: release-sign <installer>… --version <version> [--name <name>] [--key <file>] | --new-key <folder>';
  if (files.length === 0) fail(usage);
  if (!version) fail(`--version is required: the signature says which version the file is\n${usage}`);
  if (name !== undefined && files.length > 1) fail('--name names one installer: sign one file at a time');
  if (!keyFile) fail('no private key: give --key <file> or set MESSENGER_UPDATE_KEY');
  if (inside(keyFile, REPO)) fail(`the private key must be kept outside the repository (${REPO})`);
  const privateKey = createPrivateKey(readFileSync(keyFile));
  if (privateKey.asymmetricKeyType !== 'ed25519') fail(`${keyFile} is not an Ed25519 private key`);
  for (const file of files) {
    const statement = { sha512: await digestOf(file), version, name: name ?? basename(file) };
    const sig = sign(null, signedStatement(statement), privateKey);
    writeFileSync(`${file}.sig`, `${sig.toString('base64')}\n`);
    process.stdout.write(
      `${file}.sig: version ${statement.version}, name ${statement.name} (public key ${rawPublicKey(createPublicKey(privateKey))})\n`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
