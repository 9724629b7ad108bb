// Which SOAP namespaces a gateway speaks (issue 16): read from the gateway's own WSDL, first
// {url}/sendsms5?wsdl, then {url}/dtd/sendsms5.wsdl (where the provider publishes it); when neither
// can be read, the provider's published values. A setting or the deploy policy may pin a types
// namespace instead (GatewayClientOptions.soapTypesNamespace), and then nothing is read.
import {
  PROVIDER_WSDL_PATH,
  SENDSMS5_PROFILE,
  SOAP_PATHS,
  type SoapProfile,
} from '../../protocol/soap/namespaces.ts';
import { readWsdlProfile } from '../../protocol/soap/wsdl-read.ts';
import type { TransportResult } from './transport.ts';

/** Where the namespaces in use came from, for the Account view and the CLI. */
export type SoapNamespaceSource = 'wsdl' | 'provider' | 'pinned';

export interface SoapNamespaceInUse {
  profile: SoapProfile;
  source: SoapNamespaceSource;
  /** The WSDL read (source wsdl), or why none could be (source provider). */
  detail: string;
}

/** The WSDL addresses tried, in order, below the base URL. */
export const WSDL_PATHS = [`${SOAP_PATHS.sendsms5}?wsdl`, PROVIDER_WSDL_PATH] as const;

export async function learnSoapNamespace(
  get: (path: string, signal?: AbortSignal) => Promise<TransportResult>,
  signal?: AbortSignal,
): Promise<SoapNamespaceInUse> {
  const why: string[] = [];
  for (const path of WSDL_PATHS) {
    const res = await get(path, signal);
    if (res.kind !== 'response') {
      why.push(`${path}: ${res.reason}`);
      continue;
    }
    if (res.status !== 200) {
      why.push(`${path}: HTTP ${res.status}`);
      continue;
    }
    try {
      return { profile: readWsdlProfile(res.body), source: 'wsdl', detail: path };
    } catch (err) {
      why.push(`${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { profile: SENDSMS5_PROFILE, source: 'provider', detail: why.join('; ') };
}

/** A SOAP fault that says the body element is in the wrong namespace (then the WSDL is read again). */
export function isNamespaceFault(faultstring: string): boolean {
  return /namespace/i.test(faultstring);
}
