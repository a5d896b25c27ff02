import { EXIT_OK, info, out, requireStr, type CommandSpec } from '../cli.ts';
import { generateKeyDir, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE } from '../keys.ts';

export const keygen: CommandSpec = {
  name: 'keygen',
  summary: 'create an Ed25519 key directory for signing your submissions',
  usage: 'keygen --key-dir DIR',
  options: [{ name: 'key-dir', type: 'string', value: 'DIR', required: true, description: 'the directory to create the keys in (created if absent)' }],
  notes: [
    `Writes DIR/${PRIVATE_KEY_FILE} (file mode 0600; never printed, never sent) and DIR/${PUBLIC_KEY_FILE}, and prints the public key (base64 of its 32 raw bytes). An existing key is never overwritten.`,
    'The signature proves key possession only: it creates no authority and no verification level.',
  ],
  examples: ['keygen --key-dir ~/.record-chain'],
  async run(values) {
    const result = generateKeyDir(requireStr(values, 'key-dir'));
    info(`wrote ${result.privateKeyPath} (mode 0600: keep it private)`);
    info(`wrote ${result.publicKeyPath}`);
    out(`public_key ${result.publicKeyBase64}\n`);
    return EXIT_OK;
  },
};
