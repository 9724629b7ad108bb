// Independent decoder for the smart-messaging tests: python-gammu from Debian's /usr/bin/python3.
// Each PDU is given to gammu.DecodePDU (with an empty SMSC octet prepended, which gammu needs),
// the parts are linked with gammu.LinkSMS and each linked group decoded with gammu.DecodeSMS.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SCRIPT = String.raw`
import sys, json, base64, datetime
import gammu
def conv(o):
    if isinstance(o, (bytes, bytearray)):
        return o.decode('latin-1')
    if isinstance(o, (datetime.datetime, datetime.date, datetime.time)):
        return o.isoformat()
    return str(o)
pdus = json.load(sys.stdin)
msgs = [gammu.DecodePDU(bytes.fromhex('00' + p), True) for p in pdus]
linked = gammu.LinkSMS([[m] for m in msgs])
decoded = []
for group in linked:
    try:
        decoded.append(gammu.DecodeSMS(group))
    except gammu.GSMError as e:
        decoded.append({'error': str(e)})
print(json.dumps({'messages': msgs, 'decoded': decoded}, default=conv))
`;

export const gammuAvailable =
  existsSync('/usr/bin/python3') &&
  (() => {
    try {
      execFileSync('/usr/bin/python3', ['-c', 'import gammu'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GammuJson = any;

export function gammuDecode(pdusHex: string[]): { messages: GammuJson[]; decoded: GammuJson[] } {
  const out = execFileSync('/usr/bin/python3', ['-c', SCRIPT], {
    input: JSON.stringify(pdusHex),
    encoding: 'utf8',
  });
  return JSON.parse(out) as { messages: GammuJson[]; decoded: GammuJson[] };
}

const TEXT_SCRIPT = String.raw`
import sys, json, datetime
import gammu
def conv(o):
    if isinstance(o, (bytes, bytearray)):
        return o.decode('latin-1')
    if isinstance(o, (datetime.datetime, datetime.date, datetime.time)):
        return o.isoformat()
    return str(o)
kind = sys.argv[1]
text = sys.stdin.read()
res = gammu.DecodeVCARD(text) if kind == 'vcard' else gammu.DecodeVCS(text)
print(json.dumps(res, default=conv))
`;

/** gammu.DecodeVCARD / gammu.DecodeVCS on a vCard or vCalendar text. */
export function gammuDecodeText(kind: 'vcard' | 'vcs', text: string): GammuJson {
  const out = execFileSync('/usr/bin/python3', ['-c', TEXT_SCRIPT, kind], { input: text, encoding: 'utf8' });
  return JSON.parse(out) as GammuJson;
}

/** XPM rows of a gammu bitmap as '#'/'.' strings (gammu writes '#' for black and ' ' for white). */
export function gammuBitmapRows(bitmap: GammuJson): string[] {
  const xpm = (bitmap.XPM as string[]).map((r) => String(r));
  const [w, h, colors] = xpm[0]!.split(/\s+/).map(Number) as [number, number, number];
  return xpm.slice(1 + colors, 1 + colors + h).map((r) => r.slice(0, w).replace(/ /g, '.'));
}

const ENCODE_BITMAP_SCRIPT = String.raw`
import sys, json
import gammu
req = json.load(sys.stdin)
rows = req['rows']
xpm = [('%d %d 2 1' % (len(rows[0]), len(rows))).encode(), b'# c Black', b'. c None'] + [r.encode() for r in rows]
bitmap = {'Type': req['type'], 'Width': len(rows[0]), 'Height': len(rows), 'XPM': xpm}
if 'networkCode' in req:
    bitmap['NetworkCode'] = req['networkCode']
sms = gammu.EncodeSMS({'Class': 1, 'Entries': [{'ID': req['id'], 'Bitmap': [bitmap]}]})
print(json.dumps([{'udh': s['UDH']['Text'].hex().upper(), 'data': s['Text'].hex().upper()} for s in sms]))
`;

/** gammu.EncodeSMS of a bitmap message: UDH and user data (hex) of every part. */
export function gammuEncodeBitmap(req: {
  id: 'NokiaOperatorLogo' | 'NokiaCallerLogo' | 'NokiaPictureImageLong';
  type: 'OperatorLogo' | 'CallerGroupLogo' | 'PictureImage';
  rows: string[];
  networkCode?: string;
}): Array<{ udh: string; data: string }> {
  const out = execFileSync('/usr/bin/python3', ['-c', ENCODE_BITMAP_SCRIPT], {
    input: JSON.stringify(req),
    encoding: 'utf8',
  });
  return JSON.parse(out) as Array<{ udh: string; data: string }>;
}
